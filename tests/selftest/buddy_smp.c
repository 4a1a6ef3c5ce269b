/*
 * buddy_smp.c - the page allocator on every CPU at once (on_each_cpu()),
 * each CPU with its own per-CPU lists:
 *
 *   buddy_smp_every_order   every CPU allocates blocks of every order into
 *                           a shared ownership bitmap (a page owned twice
 *                           fails at once) and writes a pattern into each;
 *                           then every CPU frees half of its own blocks and
 *                           half of the next CPU's; the free counts come
 *                           back and page_alloc_check() finds nothing
 *   buddy_smp_exhaust       every CPU takes blocks of one order until
 *                           refused, all at once: together they get
 *                           exactly what the free counts predicted (cached
 *                           blocks included), at every order;
 *                           the boot CPU first holds larger blocks until
 *                           about exhaust_budget() pages are left
 *
 * On one CPU they run the same way, with one CPU.
 */
#include <lib/atomic.h>
#include <lib/ktap.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include <mm/mm.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include "buddy_check.h"

#define BLOCKS_PER_ORDER	4
#define MAX_HELD		(BLOCKS_PER_ORDER * NR_PAGE_ORDERS)

struct held {
	struct page *page;
	unsigned int order;
};

/*
 * Shared by the CPUs of one on_each_cpu() call: the bitmap with atomics,
 * @failed and @why by the first CPU to fail (compare-and-swap on @failed),
 * each CPU's slot of @mine and @got by that CPU only (the boot CPU reads
 * them after on_each_cpu() returned).
 */
static unsigned long *owned;		/* a bit per pfn from owned_base */
static unsigned long owned_base, owned_pfns;
static atomic_t failed;
static char why[160];
static struct held mine[NR_CPUS][MAX_HELD];
static unsigned int nr_mine[NR_CPUS];
static unsigned long got[NR_CPUS];

static void fail(const char *fmt, unsigned long a, unsigned long b)
{
	if (!atomic_cmpxchg(&failed, 0, 1))
		ksnprintf(why, sizeof(why), fmt, a, b);
}

/* Set (or clear) the bits of a block; false if one already was (was not). */
static bool own(struct page *page, unsigned int order, bool set)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << order;

	if (pfn < owned_base || pfn + n > owned_base + owned_pfns) {
		fail("pfn %#lx order %lu outside memory", pfn, order);
		return false;
	}
	for (unsigned long i = pfn - owned_base; n;) {
		unsigned long bit = i % 64, len = MIN(n, 64 - bit);
		unsigned long mask = len == 64 ? ~0UL : ((1UL << len) - 1) << bit;
		unsigned long old = set ?
			__atomic_fetch_or(&owned[i / 64], mask, __ATOMIC_ACQ_REL) :
			__atomic_fetch_and(&owned[i / 64], ~mask, __ATOMIC_ACQ_REL);

		if (set ? (old & mask) : (old & mask) != mask) {
			fail(set ? "pfn %#lx (order %lu): handed to two owners" :
			     "pfn %#lx (order %lu): freed but not owned",
			     owned_base + i, order);
			return false;
		}
		i += len;
		n -= len;
	}
	return true;
}

/* The pattern: the pfn and the CPU, in the first and the last word. */
static void stamp(struct page *page, unsigned int order, unsigned long cpu)
{
	unsigned long *w = page_address(page);
	unsigned long words = (PAGE_SIZE << order) / sizeof(long);

	w[0] = page_to_pfn(page) ^ (cpu << 48);
	w[words - 1] = ~w[0];
}

static bool stamped(struct page *page, unsigned int order, unsigned long cpu)
{
	unsigned long *w = page_address(page);
	unsigned long words = (PAGE_SIZE << order) / sizeof(long);

	if (w[0] == (page_to_pfn(page) ^ (cpu << 48)) && w[words - 1] == ~w[0])
		return true;
	fail("block at pfn %#lx order %lu: its pattern was overwritten",
	     page_to_pfn(page), order);
	return false;
}

/*
 * An ownership bitmap over all of memory, from the allocator itself: a
 * contiguous run, which any MAX_PAGE_ORDER allows (8 KiB is order 1).
 */
static unsigned long owned_map_pages(void)
{
	return ALIGN_UP(ALIGN_UP(owned_pfns, 64) / 8, PAGE_SIZE) >> PAGE_SHIFT;
}

static struct page *owned_map(void)
{
	struct page *page;

	owned_base = PHYS_PFN(memblock_start_of_DRAM());
	owned_pfns = PHYS_PFN(memblock_end_of_DRAM()) - owned_base;
	page = alloc_contig_pages(owned_map_pages(), __GFP_ZERO, NUMA_NO_NODE,
				  NULL);
	owned = page ? page_address(page) : NULL;
	atomic_set(&failed, 0);
	return page;
}

static void owned_map_free(struct page *map)
{
	free_contig_range(page_to_pfn(map), owned_map_pages());
}

static void every_order_take(void *arg)
{
	unsigned int cpu = smp_processor_id();

	(void)arg;
	nr_mine[cpu] = 0;
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		for (unsigned int k = 0; k < BLOCKS_PER_ORDER; k++) {
			struct page *p = alloc_pages(__GFP_NOWARN, o);

			if (!p)
				break;
			if (!own(p, o, true))
				return;
			stamp(p, o, cpu);
			mine[cpu][nr_mine[cpu]++] = (struct held){ p, o };
		}
	}
}

/* Free one half of @from's blocks (@odd ones or even ones). */
static void free_half(unsigned int from, bool odd)
{
	for (unsigned int i = odd; i < nr_mine[from]; i += 2) {
		struct held *h = &mine[from][i];

		if (!stamped(h->page, h->order, from) ||
		    !own(h->page, h->order, false))
			return;
		__free_pages(h->page, h->order);
	}
}

static void every_order_free(void *arg)
{
	unsigned int cpu = smp_processor_id(), next;

	(void)arg;
	next = cpumask_next_online(cpu + 1);
	if (next >= NR_CPUS)
		next = cpumask_next_online(0);
	free_half(cpu, false);
	/* The next CPU's odd blocks, which it allocated: a remote free. */
	free_half(next, true);
}

SELFTEST(buddy_smp_every_order, STAGE_BUDDY)
{
	struct buddy_counts before;
	unsigned int cpu;
	unsigned long n = 0;
	struct page *map = owned_map();

	SELFTEST_EXPECT(map, "no memory for the ownership bitmap");
	buddy_counts_take(&before);
	on_each_cpu(every_order_take, NULL, true);
	for_each_online_cpu(cpu)
		n += nr_mine[cpu];
	ktap_diag("%u CPUs took %lu blocks of orders 0..%d", num_online_cpus(),
		  n, MAX_PAGE_ORDER);
	on_each_cpu(every_order_free, NULL, true);
	SELFTEST_EXPECT(!atomic_read(&failed), "%s", why);
	for (unsigned long i = 0; i < ALIGN_UP(owned_pfns, 64) / 64; i++)
		SELFTEST_EXPECT(!owned[i], "pages still owned at pfn %#lx",
				owned_base + i * 64);
	/* Every order when a top-order block was free; on a tiny machine, some. */
	SELFTEST_EXPECT(n >= (before.blocks[MAX_PAGE_ORDER] ? NR_PAGE_ORDERS : 1),
			"only %lu blocks, with %lu pages free", n,
			before.nr_free);
	if (!buddy_restored(&before, "after every CPU took every order"))
		return false;
	owned_map_free(map);
	return true;
}

/* Blocks are chained through their second word: the first holds a stamp. */
static void exhaust_take(void *arg)
{
	unsigned int order = *(const unsigned int *)arg;
	unsigned int cpu = smp_processor_id();
	void *chain = NULL;
	struct page *p;

	got[cpu] = 0;
	while ((p = alloc_pages(__GFP_NOWARN, order))) {
		void **w = page_address(p);

		if (!own(p, order, true))
			break;
		w[1] = chain;
		chain = w;
		got[cpu]++;
	}
	/* Everyone has stopped taking only when all return: free ours. */
	mine[cpu][0].page = chain ? virt_to_page(chain) : NULL;
}

static void exhaust_free(void *arg)
{
	unsigned int order = *(const unsigned int *)arg;
	unsigned int cpu = smp_processor_id();
	void **w = mine[cpu][0].page ? page_address(mine[cpu][0].page) : NULL;

	while (w) {
		void **next = w[1];
		struct page *p = virt_to_page(w);

		if (!own(p, order, false))
			return;
		__free_pages(p, order);
		w = next;
	}
}

/*
 * Pages left free for the CPUs to exhaust together at @order: the boot
 * CPU holds the rest first, in blocks larger than @order, largest first.
 * What is measured is the race for the last pages (refills, drains, the
 * retry), and its cost must stay small when 8 emulated CPUs share 2 host
 * cores and every zone-lock hand-off may wait for one: 2 GiB of 64 KiB
 * pages is 32768 order-0 blocks, minutes under TCG, where these are
 * seconds. Nothing of @order or below is held, and the budget leaves room
 * for EXHAUST_TOP_BLOCKS blocks of @order.
 */
#define EXHAUST_PAGES		2048UL
#define EXHAUST_TOP_BLOCKS	2UL

static unsigned long exhaust_budget(unsigned int order)
{
	return MAX(EXHAUST_PAGES, EXHAUST_TOP_BLOCKS << order);
}

static bool exhaust_order(unsigned int order)
{
	struct buddy_counts all, before;
	struct block_chain held[NR_PAGE_ORDERS] = { 0 };
	unsigned long want, sum = 0, held_pages;
	unsigned int cpu;

	buddy_counts_take(&all);
	held_pages = hold_all_but(held, exhaust_budget(order), order + 1);
	buddy_counts_take(&before);
	want = buddy_counts_predict(&before, order);
	on_each_cpu(exhaust_take, &order, true);
	for_each_online_cpu(cpu)
		sum += got[cpu];
	ktap_diag("order %u: %u CPUs took %lu blocks together, %lu predicted "
		  "(%lu pages held back)", order, num_online_cpus(), sum, want,
		  held_pages);
	on_each_cpu(exhaust_free, &order, true);
	release_held(held);
	SELFTEST_EXPECT(!atomic_read(&failed), "order %u: %s", order, why);
	SELFTEST_EXPECT(sum == want, "order %u: %lu blocks, the free counts "
			"predicted %lu", order, sum, want);
	return buddy_restored(&all, "after exhausting memory together");
}

SELFTEST(buddy_smp_exhaust, STAGE_BUDDY)
{
	struct page *map = owned_map();
	bool ok = true;

	SELFTEST_EXPECT(map, "no memory for the ownership bitmap");
	for (unsigned int o = 0; ok && o <= MAX_PAGE_ORDER; o++)
		ok = exhaust_order(o);
	owned_map_free(map);
	return ok;
}
