/*
 * cpu.c - riscv64 CPU services: the boot hand-off to boot_main(), counters,
 * the SBI, poweroff, and what the arch reserves.
 */
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <boot/efi.h>
#include <lib/errno.h>
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

int arch_firmware_version(uint32_t *version)
{
	struct sbiret ret = sbi_call(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION,
				     0, 0, 0);

	/* An SBI v0.1 firmware has no base extension and answers an error. */
	if (ret.error)
		return -ENOENT;
	*version = (uint32_t)ret.value;
	return 0;
}

/*
 * instret is readable in S-mode only if M-mode set mcounteren.IR (OpenSBI
 * does); otherwise csrr traps as an illegal instruction, which the fixup
 * turns into "not readable".
 */
static bool instret_readable(void)
{
	unsigned long ok = 0, value;

	__asm__ volatile("1:	csrr	%1, instret\n"
			 "	li	%0, 1\n"
			 "2:\n" FIXUP("1b", "2b")
			 : "+r"(ok), "=r"(value));
	return ok;
}

/*
 * arch_counter - retired instructions (rdinstret) when S-mode may read
 * them, else the timer (rdtime). Under QEMU with -icount shift=0 both are
 * derived from the instruction count, so repeatable run to run.
 */
uint64_t arch_counter(void)
{
	static int use_instret = -1;

	if (use_instret < 0)
		use_instret = instret_readable();
	return use_instret ? csr_read(instret) : csr_read(time);
}

void arch_poweroff(enum poweroff_status status)
{
	if (status == POWEROFF_PASS)
		riscv_poweroff(QEMU_EXIT_PASS, SBI_SRST_REASON_NONE);
	riscv_poweroff(QEMU_EXIT_FAIL, SBI_SRST_REASON_SYSFAIL);
}

/*
 * Nothing beyond what boot/ reserves for every arch: the image, the boot
 * stack, the DTB and the DTB's reservations, which on riscv64 include
 * OpenSBI's own memory (/reserved-memory/mmode_resv*).
 */
void arch_reserve_memory(void)
{
}
