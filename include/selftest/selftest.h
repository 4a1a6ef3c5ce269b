/*
 * selftest.h - in-kernel test cases that print KTAP and decide the verdict.
 *
 * The harness is lib/selftest/, linked into test images only; the cases
 * live under tests/selftest/ (tests/selftest/arch/<arch>/ for one
 * target's). The boot flow reaches them through boot/selftests.h.
 *
 * A case registers itself with SELFTEST() or SELFTEST_PER_ORDER(); the
 * registry is the linker section ".selftests" (bounded by __selftests_start
 * and __selftests_end in every linker script). Cases run in ascending
 * @stage, then in link order. A per-order case runs once for every order
 * 0..MAX_PAGE_ORDER and prints one KTAP result each ("name_order_N"), so a
 * failure names the case and the order.
 *
 * A case returns true for a pass. It explains a failure with selftest_fail()
 * (or the SELFTEST_EXPECT macro), which prints "# name: file:line: why"
 * and makes the result "not ok" whatever the case returns afterwards.
 * A case that cannot run on this machine (no firmware to ask, no block of
 * that order in this much memory) returns selftest_skip("why"): KTAP's
 * "ok N name # SKIP why", which the runner counts as neither pass nor fail.
 */
#ifndef SELFTEST_SELFTEST_H
#define SELFTEST_SELFTEST_H

#include <boot/selftests.h>
#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/page_order.h>

enum selftest_stage {
	STAGE_BOOT = 0,		/* console, BSS, boot info: no allocator needed */
	STAGE_MEMBLOCK = 10,	/* the memory map and reservations */
	STAGE_BUDDY = 20,	/* the buddy allocator, order by order */
	STAGE_SLAB = 25,	/* kmalloc and kmem_cache */
	STAGE_INTEGRITY = 30,	/* whole-memory exhaustion and checksums */
	STAGE_LAST = 100,
};

struct selftest {
	const char *name;
	unsigned int stage;
	unsigned int instances;		/* 1, or NR_PAGE_ORDERS (per order) */
	bool (*run)(unsigned int instance);
};

#define __SELFTEST(fn, stg, count)					\
	static bool fn(unsigned int instance);				\
	static const struct selftest __selftest_##fn			\
		__used __section(".selftests") __aligned(8) = {		\
		.name = #fn, .stage = (stg), .instances = (count),	\
		.run = fn,						\
	};								\
	static bool fn(unsigned int instance __unused)

/* SELFTEST(fn, stage) { body }: the body sees unsigned int instance. */
#define SELFTEST(fn, stage)		__SELFTEST(fn, stage, 1)
/* SELFTEST_PER_ORDER(fn, stage) { body }: runs with instance = each order. */
#define SELFTEST_PER_ORDER(fn, stage)	__SELFTEST(fn, stage, NR_PAGE_ORDERS)

/* selftest_fail - print a diagnostic for the running case; returns false. */
bool selftest_fail(const char *file, int line, const char *fmt, ...)
	__printf(3, 4);

/*
 * selftest_skip - the running case could not test anything here; @fmt
 * says why. Return: true, so "return selftest_skip(...)" ends the case. A
 * case that also failed is reported as failed, not skipped.
 */
bool selftest_skip(const char *fmt, ...) __printf(1, 2);

#define SELFTEST_EXPECT(cond, fmt, ...)					\
	do {								\
		if (!(cond))						\
			return selftest_fail(__FILE__, __LINE__, fmt,	\
					     ##__VA_ARGS__);		\
	} while (0)

/*
 * selftest_run_all - run every registered case, print KTAP.
 * Return: true when every planned result was printed and passed.
 */
bool selftest_run_all(void);

/* What boot_main() learned before the cases run, for the STAGE_BOOT cases:
 * a copy boot_observe() keeps (lib/selftest/boot_state.c). */
extern struct boot_facts selftest_boot_facts;

#endif /* SELFTEST_SELFTEST_H */
