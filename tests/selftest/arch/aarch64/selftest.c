/*
 * selftest.c - aarch64 boot-stub cases: what the rest of the port relies
 * on, checked on every boot.
 */
#include <arch/fixup.h>
#include <arch/memory.h>
#include <lib/ktap.h>
#include <platform/console.h>
#include <selftest/selftest.h>
#include "sysreg.h"
#include "translate.h"

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

#define TCR_TG0(tcr)		((tcr) >> 14 & 3)

/* What arch_mmu_init() promises, read back through the MMU itself. */
SELFTEST(aarch64_mmu_identity_map, STAGE_BOOT)
{
	static const unsigned int tg0[] = { [12] = 0, [14] = 2, [16] = 1 };
	const struct console_port *console = console_current();
	uintptr_t ram = (uintptr_t)_start;
	uintptr_t uart = console ? console->phys : 0;
	unsigned long par;

	SELFTEST_EXPECT(read_sysreg(sctlr_el1) & SCTLR_M,
			"the MMU is off: arch_mmu_init() was not called");
	SELFTEST_EXPECT(TCR_TG0(read_sysreg(tcr_el1)) == tg0[PAGE_SHIFT],
			"TCR_EL1.TG0 is not the %lu-byte granule", PAGE_SIZE);
	par = translate(ram);
	SELFTEST_EXPECT(!(par & PAR_FAULT) && PAR_PA(par) == ALIGN_DOWN(ram, 4096),
			"the image at %#lx translates to PAR %#lx", ram, par);
	SELFTEST_EXPECT(PAR_ATTR(par) == 0xff,
			"RAM is not Normal write-back (MAIR attr %#lx)",
			PAR_ATTR(par));
	SELFTEST_EXPECT(console && !console->port_io,
			"no memory-mapped console to translate");
	par = translate(uart);
	SELFTEST_EXPECT(!(par & PAR_FAULT) && PAR_PA(par) == uart,
			"the UART at %#lx translates to PAR %#lx", uart, par);
	SELFTEST_EXPECT(PAR_ATTR(par) == 0x00,
			"the UART is not Device-nGnRnE (MAIR attr %#lx)",
			PAR_ATTR(par));
	return true;
}
