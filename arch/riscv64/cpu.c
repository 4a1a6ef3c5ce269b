/*
 * cpu.c - riscv64 CPU services: the boot hand-off to boot_main() and
 * poweroff.
 */
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <boot/efi.h>
#include <lib/errno.h>
#include <platform/platform.h>
#include "csr.h"
#include "sbi.h"
#include <arch/fixup.h>

void riscv_boot(unsigned long hartid, phys_addr_t dtb) __noreturn;
void riscv_poweroff(unsigned long code, unsigned long reason) __noreturn;

/*
 * riscv_boot - called by entry.S on the boot stack once BSS is clear. The
 * EFI entry (efi_stub.c) hands over the EFI boot information instead of
 * a DTB.
 */
void riscv_boot(unsigned long hartid, phys_addr_t dtb)
{
	if (dtb && *(const volatile uint32_t *)phys_to_virt(dtb) ==
	    EFI_BOOT_INFO_MAGIC)
		boot_main(BOOT_PROTO_EFI, dtb, hartid);
	boot_main(dtb ? BOOT_PROTO_FDT : BOOT_PROTO_NONE, dtb, hartid);
}

void arch_poweroff(enum poweroff_status status)
{
	/* Without the finisher only semihosting, if QEMU offers it, can
	 * carry the verdict to QEMU's exit status; on a board the console
	 * must. */
	if (!platform_test_finisher)
		platform_poweroff_notice(status == POWEROFF_PASS);
	if (status == POWEROFF_PASS)
		riscv_poweroff(QEMU_EXIT_PASS, SBI_SRST_REASON_NONE);
	riscv_poweroff(QEMU_EXIT_FAIL, SBI_SRST_REASON_SYSFAIL);
}
