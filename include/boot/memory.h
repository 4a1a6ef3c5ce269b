/*
 * memory.h - the generic boot memory flow, the same on every target.
 */
#ifndef BOOT_MEMORY_H
#define BOOT_MEMORY_H

#include <arch/entry.h>
#include <lib/compiler.h>
#include <lib/types.h>

/* An EFI map may have a thousand descriptors (boot/efi_memmap.c merges
 * neighbouring RAM, not the rest). */
#define BOOT_MAX_RANGES		1024

/*
 * boot_memory_init - find the machine's memory and reserve what is not
 * ours, before any allocation:
 *   1. read the boot info (@proto at physical @info) into ranges;
 *   2. memblock_add() the usable RAM;
 *   3. reserve, each with its reason: the loader's and firmware's ranges
 *      (DT reserved-memory, no-map, /memreserve/, initrd, modules), the
 *      boot info itself, the kernel image [_start, _end) BSS included, the
 *      boot stack, then arch_reserve_memory() (x86_64: the low 1 MiB);
 *      page 0 is memblock_free_all()'s policy (<mm/memblock.h>);
 *   4. print the memory map and every reservation.
 * Boot info that cannot be used (malformed, no usable memory, more
 * regions than memblock holds before the MMU is up) is refused through
 * boot_refuse() with the reader's or memblock's words.
 */
void boot_memory_init(enum boot_protocol proto, phys_addr_t info);

/*
 * boot_refuse - stop a boot that cannot go on because of what the machine
 * gave (not a bug, so not a panic): print "cannot boot: <reason>" and power
 * off with the FAIL status.
 */
void boot_refuse(const char *fmt, ...) __printf(1, 2) __noreturn;

/*
 * boot_info_fdt - the device tree the boot information leads to: @info
 * itself for BOOT_PROTO_FDT, the EFI configuration table's (recorded by
 * the EFI entry) for BOOT_PROTO_EFI, else 0.
 */
phys_addr_t boot_info_fdt(enum boot_protocol proto, phys_addr_t info);

/*
 * boot_info_efi_rsdp - the ACPI RSDP the EFI configuration table gave
 * (BOOT_PROTO_EFI), whether or not the arch reads ACPI, else 0.
 */
phys_addr_t boot_info_efi_rsdp(enum boot_protocol proto, phys_addr_t info);

#endif /* BOOT_MEMORY_H */
