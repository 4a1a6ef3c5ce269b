/*
 * stub.h - what the EFI entry (boot/efi/efi_main.c, generic) and each
 * target's part of it (arch/<arch>/efi_stub.c) provide each other.
 *
 * The EFI entry runs as a UEFI application, with boot services, before
 * the kernel proper: it is built apart from the files in boot/ and
 * linked into the EFI image only.
 */
#ifndef BOOT_EFI_STUB_H
#define BOOT_EFI_STUB_H

#include <boot/efi.h>
#include <boot/efi_api.h>

/* Printing through ConOut: only while boot services run. */
void efi_puts(const char *s);
void efi_put_hex(uint64_t v);
/* efi_fail - say why on ConOut; Return: @status, to hand to the firmware. */
efi_status_t efi_fail(efi_status_t status, const char *why);

/*
 * efi_arch_prepare - with boot services: put the kernel where it runs
 * (x86_64: allocate its link address and copy it there), learn what the
 * entry needs (riscv64: the boot hart, from @tables->fdt).
 * @tables: acpi_rsdp and fdt from the configuration table.
 * Return: EFI_SUCCESS, or an error already printed.
 */
efi_status_t efi_arch_prepare(struct efi_system_table *st,
			      const struct efi_boot_info *tables);

/*
 * efi_arch_enter - boot services have ended: enter the kernel with the
 * EFI boot information at @info. Never returns.
 */
void efi_arch_enter(uint64_t info) __attribute__((noreturn));

/* The highest address the boot information may occupy (x86_64: the
 * kernel's 32-bit entry takes it in ebx). */
extern const uint64_t efi_arch_info_max;

#endif /* BOOT_EFI_STUB_H */
