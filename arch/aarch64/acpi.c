/*
 * acpi.c - aarch64's side of the ACPI reader: which physical memory may
 * be read as tables. Under UEFI with ACPI (AAVMF when QEMU offers tables,
 * Arm servers) the firmware hands over the RSDP in place of a device
 * tree, and the MADT and FADT say which CPUs there are and how to start
 * them (boot/acpi_madt.c, boot/acpi_fadt.c).
 *
 * Readable means mapped Normal now, as the MMU itself answers for each
 * page (AT S1E1R): the identity map makes RAM Normal, and the EFI map's
 * ACPI reclaim memory is RAM, reserved until read. Anything else, MMIO
 * and no-map regions included, is Device memory, where the reader's byte
 * and word loads could fault on alignment or reach a device: the reader
 * refuses such a table with its address instead. Nothing is scanned for:
 * an Arm RSDP comes only from the EFI configuration table.
 */
#include <arch/acpi.h>
#include <arch/geometry.h>
#include <arch/memory.h>
#include "sysreg.h"
#include "translate.h"

const void *arch_acpi_map(phys_addr_t pa, size_t len)
{
	const phys_addr_t page = (phys_addr_t)1 << PAGE_SHIFT;

	if (pa + len < pa || !(read_sysreg(sctlr_el1) & SCTLR_M))
		return NULL;
	for (phys_addr_t at = pa & ~(page - 1); at < pa + len; at += page) {
		unsigned long par = translate((uintptr_t)at);

		if ((par & PAR_FAULT) || PAR_ATTR(par) != MAIR_ATTR_NORMAL_WB)
			return NULL;
	}
	return phys_to_virt(pa);
}
