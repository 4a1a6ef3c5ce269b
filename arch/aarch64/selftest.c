/*
 * selftest.c - aarch64 boot-stub cases: what the rest of the port relies
 * on, checked on every boot.
 */
#include <arch/fixup.h>
#include <lib/ktap.h>
#include "../../tests/selftest/selftest.h"
#include "sysreg.h"

SELFTEST(aarch64_runs_at_el1, STAGE_BOOT)
{
	unsigned long el = read_sysreg(CurrentEL) >> 2 & 3;

	ktap_diag("entered at EL%u, running at EL%lu", aarch64_entry_el, el);
	SELFTEST_EXPECT(el == 1, "running at EL%lu", el);
	return true;
}

/* A trap covered by a fixup resumes there with every register intact. */
SELFTEST(aarch64_fixup_resumes, STAGE_BOOT)
{
	unsigned long marker = 0x5a5a, reached = 0;

	/* udf is permanently undefined: it always traps. */
	__asm__ volatile("1:	udf	#0\n"
			 "	mov	%1, #1\n"
			 "2:\n" FIXUP("1b", "2b")
			 : "+r"(marker), "+r"(reached));
	SELFTEST_EXPECT(!reached, "udf did not trap");
	SELFTEST_EXPECT(marker == 0x5a5a, "a register changed across the fixup");
	return true;
}
