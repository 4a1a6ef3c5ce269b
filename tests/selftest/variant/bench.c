/*
 * bench.c - the guest side of `make bench-qemu`, the BENCH=1 variant of
 * boot_selftests(): the cost of one alloc+free at each order, and of the
 * boot up to the allocator being ready, in arch_counter() ticks.
 *
 * Under QEMU with -icount shift=0,sleep=off every tick is one guest
 * instruction (riscv64 instret, aarch64 PMCCNTR, x86_64 TSC: all derived
 * from the instruction count), so the numbers repeat exactly run to run.
 * The guest prints, besides KTAP (so the runner can judge the image too):
 *
 *   bench: ready <counter at "allocator ready">
 *   bench: entry-to-ready <ticks from boot_main() entry to ready>
 *   bench: order <n> alloc+free <ticks per pair, one decimal>
 *   bench: order <n> alloc+free from the top order <ticks per pair>
 *   bench: kmalloc <bytes> kmalloc+kfree <ticks per pair>, 8 .. 4096 bytes
 *
 * "ready" counts from reset where the counter does (riscv64: OpenSBI
 * included; x86_64: SeaBIOS included, and the TSC is virtual time, which
 * also advances while firmware waits); aarch64's PMCCNTR starts at its
 * first read in boot_main(), so there both numbers are nearly equal.
 *
 * Each order is measured in the steady state: alloc_pages() then
 * __free_pages() of the same order, BENCH_ROUNDS times, from the boot-time
 * free lists (so the split and merge depth is whatever this memory gives),
 * minus the cost of reading the counter; then again with every free block
 * below the top order held, so that each pair splits a top-order block
 * down to the order and merges it back up: the longest path. The boot
 * numbers leave out the time boot_observe() spends on its checksums
 * before the hand-off.
 */
#include <arch/test_services.h>
#include <boot/selftests.h>
#include <lib/atomic.h>
#include <lib/ktap.h>
#include <lib/printk.h>
#include <mm/mm.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include "../buddy_check.h"

#define BENCH_ROUNDS	64

static uint64_t counter_overhead(void)
{
	uint64_t t0 = arch_counter();

	return arch_counter() - t0;
}

/* Ticks for BENCH_ROUNDS alloc+free pairs of @order, or 0 if refused. */
static uint64_t measure(unsigned int order, uint64_t overhead)
{
	struct page *page = alloc_pages(GFP_KERNEL, order);
	uint64_t t0, t1;

	if (!page)
		return 0;
	__free_pages(page, order);		/* warm the same path */
	t0 = arch_counter();
	for (unsigned int i = 0; i < BENCH_ROUNDS; i++) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return 0;
		__free_pages(page, order);
	}
	t1 = arch_counter();
	return t1 - t0 > overhead ? t1 - t0 - overhead : 1;
}

/*
 * Hold every free block below the top order, so that an allocation of
 * order o splits a top-order block MAX_PAGE_ORDER - o times and its free
 * merges as often: the longest path. Zone by zone, and only while the
 * zone lists a block of the order: an allocation prefers the home zone,
 * which splits a top-order block of its own once its blocks of that order
 * are gone, so a loop on the node's count (which another zone's blocks
 * keep up) would hold the home zone's whole top order (at 4G, where a
 * node has two zones, that made every later allocation miss its home).
 */
static void hold_below_top(struct block_chain held[NR_PAGE_ORDERS])
{
	const struct pglist_data *pgdat = NODE_DATA(numa_node_id());
	struct page *page;

	if (!pgdat)
		return;
	/*
	 * Straight from the buddy lists: a per-CPU refill would split
	 * top-order blocks into more blocks to hold, until none is left.
	 */
	zone_pcp_disable();
	/* Every order below the top, from the one just below it down. */
	for (unsigned int o = MAX_PAGE_ORDER; o-- > 0;) {
		for (struct zone *const *z = pgdat->node_zonelist.zones; *z;
		     z++) {
			/* GFP_KERNEL takes the home zone (the first) first. */
			gfp_t gfp = (*z)->zone_idx == ZONE_DMA32 ?
				    GFP_KERNEL | __GFP_DMA32 : GFP_KERNEL;

			while (READ_ONCE((*z)->free_area[o].nr_free) &&
			       (page = alloc_pages(gfp, o)))
				chain_push(&held[o], page_address(page));
		}
	}
	zone_pcp_enable();
}

static void print_ticks(const char *what, unsigned int order, uint64_t ticks)
{
	uint64_t tenths = ticks * 10 / BENCH_ROUNDS;

	printk("bench: order %u %s %llu.%llu\n", order, what,
	       (unsigned long long)(tenths / 10),
	       (unsigned long long)(tenths % 10));
}

#define KMALLOC_SIZES	10	/* 8 .. 4096 bytes */

/* kmalloc+kfree pairs of each size, warm (the slab already made). */
static void bench_kmalloc(struct ktap *k, uint64_t overhead)
{
	char name[32];

	for (unsigned int i = 0; i < KMALLOC_SIZES; i++) {
		size_t size = 8UL << i;
		void *p = kmalloc(size, GFP_KERNEL);
		uint64_t t0, t1, tenths;

		kfree(p);
		t0 = arch_counter();
		for (unsigned int r = 0; r < BENCH_ROUNDS; r++) {
			p = kmalloc(size, GFP_KERNEL);
			if (!p)
				break;
			kfree(p);
		}
		t1 = arch_counter();
		ksnprintf(name, sizeof(name), "bench_kmalloc_%zu", size);
		if (!p) {
			ktap_result(k, false, name);
			continue;
		}
		tenths = (t1 - t0 > overhead ? t1 - t0 - overhead : 1) * 10 /
			 BENCH_ROUNDS;
		printk("bench: kmalloc %zu kmalloc+kfree %llu.%llu\n", size,
		       (unsigned long long)(tenths / 10),
		       (unsigned long long)(tenths % 10));
		ktap_result(k, true, name);
	}
}

bool boot_selftests(const struct boot_facts *facts)
{
	const struct selftest_boot_state *s = &selftest_boot_state;
	/* Without the checksums the selftests take before the hand-off. */
	uint64_t ready = s->counter_allocator_ready - s->record_ticks;
	uint64_t overhead = counter_overhead();
	char name[32];
	struct ktap k;

	ktap_header(&k, NR_PAGE_ORDERS + 1 + KMALLOC_SIZES);
	printk("bench: ready %llu\n", (unsigned long long)ready);
	printk("bench: entry-to-ready %llu\n",
	       (unsigned long long)(ready - s->counter_entry));
	ktap_result(&k, ready > s->counter_entry, "bench_ready");
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		uint64_t ticks = measure(order, overhead), split = 0;
		struct block_chain held[NR_PAGE_ORDERS] = { { 0 } };

		if (nr_free_blocks(MAX_PAGE_ORDER)) {
			hold_below_top(held);
			split = measure(order, overhead);
			for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
				chain_free(&held[o], o);
		}
		if (ticks)
			print_ticks("alloc+free", order, ticks);
		if (split)
			print_ticks("alloc+free from the top order", order,
				    split);
		ksnprintf(name, sizeof(name), "bench_order_%u", order);
		if (ticks && split)
			ktap_result(&k, true, name);
		else
			ktap_skip(&k, name, "no block of this order free");
	}
	bench_kmalloc(&k, overhead);
	return ktap_passed(&k);
}
