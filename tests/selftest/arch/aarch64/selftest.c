/*
 * selftest.c - aarch64 boot-stub cases: what the rest of the port relies
 * on, checked on every boot.
 */
#include <arch/fixup.h>
#include <arch/memory.h>
#include <lib/ktap.h>
#include <mm/memblock.h>
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

/*
 * The attributes PAR_EL1 reports, spelled out from the Arm ARM rather
 * than taken from sysreg.h's MAIR_ATTR_*: a wrong encoding there would
 * otherwise agree with itself here.
 */
#define PAR_ATTR_NORMAL_WB_RAWA	0xffUL	/* Normal, inner and outer WB, RA, WA */
#define PAR_ATTR_DEVICE_nGnRnE	0x00UL

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
	SELFTEST_EXPECT(PAR_ATTR(par) == PAR_ATTR_NORMAL_WB_RAWA,
			"RAM is not Normal write-back (MAIR attr %#lx)",
			PAR_ATTR(par));
	SELFTEST_EXPECT(console && !console->port_io,
			"no memory-mapped console to translate");
	par = translate(uart);
	/* PAR holds the page: the mini-UART sits at 0x3f215040. */
	SELFTEST_EXPECT(!(par & PAR_FAULT) &&
				PAR_PA(par) == ALIGN_DOWN(uart, 4096),
			"the UART at %#lx translates to PAR %#lx", uart, par);
	SELFTEST_EXPECT(PAR_ATTR(par) == PAR_ATTR_DEVICE_nGnRnE,
			"the UART is not Device-nGnRnE (MAIR attr %#lx)",
			PAR_ATTR(par));
	return true;
}

/* @pa maps to itself with attribute @attr (PAR_ATTR_*). */
static bool maps_as(phys_addr_t pa, unsigned long attr, const char *what)
{
	unsigned long par = translate((uintptr_t)pa);

	SELFTEST_EXPECT(!(par & PAR_FAULT) && PAR_PA(par) == pa &&
				PAR_ATTR(par) == attr,
			"%s %#llx: PAR %#lx, expected attribute %#lx",
			what, (unsigned long long)pa, par, attr);
	return true;
}

/*
 * The Device/Normal split follows the memory map (mmu.c): the first and
 * last page of every RAM range are Normal, the page right after it and
 * the one right before it, when they are not RAM, are Device. On QEMU's
 * virt that is the flash below 0x40000000 and the gap above RAM; on the
 * Raspberry Pi 3 the peripherals above 0x3c000000 in RAM's own 1 GiB.
 */
SELFTEST(aarch64_mmu_follows_memory, STAGE_BOOT)
{
	phys_addr_t start, end, limit = aarch64_mmu_limit;
	unsigned int ranges = 0, devices = 0;
	uint64_t i;

	for_each_mem_range(i, &start, &end) {
		start = ALIGN_UP(start, PAGE_SIZE);
		end = ALIGN_DOWN(end, PAGE_SIZE);
		if (start >= end || end > limit)
			continue;
		ranges++;
		if (!maps_as(start, PAR_ATTR_NORMAL_WB_RAWA, "the first RAM page") ||
		    !maps_as(end - PAGE_SIZE, PAR_ATTR_NORMAL_WB_RAWA,
			     "the last RAM page"))
			return false;
		if (end < limit && !memblock_is_memory(end)) {
			devices++;
			if (!maps_as(end, PAR_ATTR_DEVICE_nGnRnE, "the page after RAM"))
				return false;
		}
		if (start && !memblock_is_memory(start - 1)) {
			devices++;
			if (!maps_as(start - PAGE_SIZE, PAR_ATTR_DEVICE_nGnRnE,
				     "the page before RAM"))
				return false;
		}
	}
	ktap_diag("%u RAM ranges Normal at both ends, %u neighbours Device, "
		  "%u split tables", ranges, devices, aarch64_mmu_split_tables);
	SELFTEST_EXPECT(ranges, "no RAM range to check");
	return true;
}
