/*
 * efi_stub.c - the aarch64 part of the UEFI entry: the image runs where
 * the firmware loaded it (it relocates itself), so there is nothing to
 * place; before the MMU goes off, everything the kernel will read with
 * the MMU off is cleaned from the caches to the point of coherency: the
 * image (written by the firmware's loader and by the self-relocation),
 * the EFI boot information, and the device tree.
 */
#include <arch/memory.h>
#include <boot/fdt.h>
#include "../../boot/efi/stub.h"

void aarch64_efi_enter_kernel(uint64_t info) __attribute__((noreturn));

const uint64_t efi_arch_info_max = ~0ULL;

efi_status_t efi_arch_prepare(struct efi_system_table *st,
			      const struct efi_boot_info *tables)
{
	efi_puts("buddyboot: running at ");
	efi_put_hex((uint64_t)(uintptr_t)_start);
	efi_puts("\n");
	return EFI_SUCCESS;
}

/* Clean and invalidate [@start, @start + @len) by data cache line. */
static void dcache_clean_inval(uintptr_t start, size_t len)
{
	unsigned long ctr;
	uintptr_t line, p;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	line = 4UL << ((ctr >> 16) & 0xf);	/* DminLine: log2 words */
	for (p = start & ~(line - 1); p < start + len; p += line)
		__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb sy" : : : "memory");
}

void efi_arch_enter(uint64_t info)
{
	const struct efi_boot_info *bi = (const void *)(uintptr_t)info;

	dcache_clean_inval((uintptr_t)_start, _end - _start);
	dcache_clean_inval(info, bi->header_size + bi->map_size);
	if (bi->fdt)
		dcache_clean_inval(bi->fdt, fdt_header_totalsize(
					   (const void *)(uintptr_t)bi->fdt));
	aarch64_efi_enter_kernel(info);
}
