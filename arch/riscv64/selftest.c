/*
 * selftest.c - riscv64 boot-stub cases: what the rest of the port relies
 * on, checked on every boot.
 */
#include <arch/cpu.h>
#include <lib/ktap.h>
#include "../../tests/selftest/selftest.h"
#include "fixup.h"

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

SELFTEST(riscv64_sbi_answers, STAGE_BOOT)
{
	uint32_t version = 0;
	int ret = arch_firmware_version(&version);

	SELFTEST_EXPECT(ret == 0, "SBI get_spec_version failed: %d", ret);
	ktap_diag("SBI specification version %u.%u", version >> 24 & 0x7f,
		  version & 0xffffff);
	/* The base extension, SRST and HSM all came with SBI 0.2 or later. */
	SELFTEST_EXPECT(version >= 2, "SBI version %#x is older than 0.2",
			version);
	return true;
}

SELFTEST(riscv64_counter_advances, STAGE_BOOT)
{
	uint64_t before = arch_counter(), after;

	for (volatile int i = 0; i < 100; i++)
		;
	after = arch_counter();
	SELFTEST_EXPECT(after > before, "counter went from %llu to %llu",
			(unsigned long long)before, (unsigned long long)after);
	return true;
}
