/*
 * selftest.h - in-kernel test cases that print KTAP and decide the verdict.
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
#ifndef TESTS_SELFTEST_H
#define TESTS_SELFTEST_H

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

#ifdef CONFIG_SELFTEST_FAULT_early_poweroff
/* FAULT=early-poweroff: power off with PASS before the plan line. */
void selftest_fault_early(void) __noreturn;
#endif

#ifdef CONFIG_BENCH
/* BENCH=1 images: measure instead of test (bench.c). Return: all ran. */
bool bench_run_all(void);
#endif

struct boot_cpus;

/* What boot_main() learned before the cases run, for the STAGE_BOOT cases. */
struct selftest_boot_facts {
	bool bss_was_clear;		/* BSS all zero on entry to boot_main */
	unsigned int proto;		/* enum boot_protocol */
	phys_addr_t info;		/* boot-info pointer as handed over */
	unsigned long boot_cpu;
	const struct boot_cpus *cpus;	/* what smp_init() was given */
};
extern struct selftest_boot_facts selftest_boot_facts;

#endif /* TESTS_SELFTEST_H */
