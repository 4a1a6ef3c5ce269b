/*
 * acpi.c - the PC's side of the ACPI reader: which physical memory may be
 * read as tables, and the BIOS areas where the RSDP sits when no loader
 * names it.
 *
 * Readable means identity-mapped now: entry.S maps [0, 4 GiB), where PC
 * firmware keeps its tables, and arch_mmu_init() all RAM; a table above
 * 4 GiB outside RAM is refused by the reader with its address rather
 * than mapped here (no such firmware has been seen).
 *
 * The scan is Linux's (drivers/acpi/acpica/tbxfroot.c,
 * acpi_find_root_pointer): the first KiB of the EBDA, whose segment is
 * the 16-bit word at 0x40e of the BIOS data area, then the BIOS ROM area
 * 0xe0000-0xfffff, at 16-byte boundaries.
 */
#include <arch/acpi.h>
#include <asm/memory.h>
#include <boot/acpi.h>
#include "pgtable.h"

#define BDA_EBDA_SEGMENT	0x40e
#define EBDA_SCAN_SIZE		1024
#define EBDA_LOWEST		0x80000	/* below is no EBDA: Linux's bound */
#define LOW_MEMORY_END		0xa0000
#define BIOS_AREA_START		0xe0000
#define BIOS_AREA_END		0x100000
#define PAGE_4K			4096ULL

const void *arch_acpi_map(phys_addr_t pa, size_t len)
{
	if (pa + len < pa)
		return NULL;
	for (uint64_t page = pa & ~(PAGE_4K - 1); page < pa + len;
	     page += PAGE_4K)
		if (!x86_identity_mapped(page))
			return NULL;
	return phys_to_virt(pa);
}

/*
 * A 16-bit word of the BIOS data area. The address is hidden from the
 * compiler, which otherwise takes a constant this low for a null pointer.
 */
static uint16_t bda_read16(uintptr_t offset)
{
	__asm__("" : "+r"(offset));
	return *(const volatile uint16_t *)phys_to_virt(offset);
}

phys_addr_t arch_acpi_rsdp_scan(void)
{
	uint64_t ebda = (uint64_t)bda_read16(BDA_EBDA_SEGMENT) << 4;
	uint64_t rsdp = 0;

	if (ebda >= EBDA_LOWEST && ebda + EBDA_SCAN_SIZE <= LOW_MEMORY_END)
		rsdp = acpi_rsdp_scan(phys_to_virt(ebda), EBDA_SCAN_SIZE, ebda);
	if (!rsdp)
		rsdp = acpi_rsdp_scan(phys_to_virt(BIOS_AREA_START),
				      BIOS_AREA_END - BIOS_AREA_START,
				      BIOS_AREA_START);
	return rsdp;
}
