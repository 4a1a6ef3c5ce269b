/*
 * acpi.h - what an architecture with ACPI firmware tables (x86_64, aarch64) tells
 * boot/'s ACPI reader: which physical memory it may read, and where the
 * platform's firmware leaves the RSDP when the loader names none.
 *
 * boot/acpi_phys.c has weak defaults (nothing readable, nothing found),
 * so that a target without ACPI needs nothing.
 */
#ifndef ARCH_ACPI_H
#define ARCH_ACPI_H

#include <lib/types.h>

/*
 * arch_acpi_map - a pointer through which [@pa, @pa + @len) is read, or
 * NULL when any byte of it is not mapped (the reader then refuses the
 * table with its address, instead of faulting).
 */
const void *arch_acpi_map(phys_addr_t pa, size_t len);

/*
 * arch_acpi_rsdp_scan - the RSDP found where the firmware puts it without
 * being asked (a PC BIOS: the EBDA's first KiB, then 0xe0000-0xfffff), or
 * 0. Only called when the boot information names none.
 */
phys_addr_t arch_acpi_rsdp_scan(void);

#endif /* ARCH_ACPI_H */
