/*
 * selftest.c - riscv64 boot-stub cases: what the rest of the port relies
 * on, checked on every boot.
 */
#include <arch/fixup.h>
#include <selftest/selftest.h>

/* A trap covered by a fixup resumes there with every register intact. */
SELFTEST(riscv64_fixup_resumes, STAGE_BOOT)
{
	unsigned long marker = 0x5a5a, reached = 0;

	/* mstatus is an M-mode CSR: reading it in S-mode always traps. */
	__asm__ volatile("1:	csrr	%0, mstatus\n"
			 "	li	%1, 1\n"
			 "2:\n" FIXUP("1b", "2b")
			 : "+r"(marker), "+r"(reached));
	SELFTEST_EXPECT(!reached, "csrr mstatus did not trap in S-mode");
	SELFTEST_EXPECT(marker == 0x5a5a, "a register changed across the fixup");
	return true;
}
