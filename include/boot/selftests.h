/*
 * selftests.h - where the boot flow lets the image's tests look on and,
 * at the end, decide the verdict.
 *
 * boot_main() includes nothing of the test harness. It calls
 * boot_observe() at the points below, with what it has learned so far,
 * and ends with boot_selftests(). Which code answers is a build variant
 * (mk/kernel.mk), never an #ifdef in boot_main():
 *
 *   default          the test image: run every registered case, print KTAP
 *                    (tests/selftest/variant/selftests.c)
 *   FAULT=<kind>     the test image plus a case that misbehaves on purpose
 *                    (tests/selftest/fault/); FAULT=early-poweroff replaces
 *                    the verdict (tests/selftest/variant/early_poweroff.c)
 *   BENCH=1          measure instead of test (tests/selftest/variant/bench.c)
 *
 * boot_observe() is the same in every variant (lib/selftest/boot_state.c):
 * checksums before the hand-off, counter readings for the bench.
 */
#ifndef BOOT_SELFTESTS_H
#define BOOT_SELFTESTS_H

#include <arch/entry.h>
#include <lib/types.h>

struct boot_cpus;

/* What boot_main() knows; each field is set before the first point that
 * needs it and never changes afterwards. */
struct boot_facts {
	bool bss_was_clear;		/* BSS all zero on entry to boot_main */
	enum boot_protocol proto;
	phys_addr_t info;		/* boot-info pointer as handed over */
	unsigned long boot_cpu;
	const struct boot_cpus *cpus;	/* what smp_init() was given */
};

/* The points of the boot flow, in the order boot_main() reaches them. */
enum boot_point {
	BOOT_ENTERED,		/* first thing in boot_main(), before the console */
	BOOT_BEFORE_HANDOFF,	/* memory map and reservations known, no page
				 * handed out yet */
	BOOT_ALLOCATOR_READY,	/* memblock_free_all() done */
	BOOT_SMP_STARTING,	/* CPU list read, smp_init() next */
	BOOT_SMP_ONLINE,	/* smp_init() and the per-CPU pagesets done */
};

/* boot_observe - the boot flow reached @point; look, change nothing. */
void boot_observe(enum boot_point point, const struct boot_facts *facts);

/*
 * boot_selftests - the last step of the boot, with every CPU online.
 * Return: the verdict arch_poweroff() reports (true: pass).
 */
bool boot_selftests(const struct boot_facts *facts);

#endif /* BOOT_SELFTESTS_H */
