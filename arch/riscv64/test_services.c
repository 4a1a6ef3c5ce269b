/*
 * test_services.c - what riscv64 provides only for the tests and the
 * bench (<arch/test_services.h>): the instruction counter and the SBI
 * version.
 */
#include <arch/fixup.h>
#include <arch/test_services.h>
#include <lib/errno.h>
#include "csr.h"
#include "sbi.h"

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
