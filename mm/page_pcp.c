/*
 * page_pcp.c - per-CPU pagesets: the tunables, refill and drain in
 * batches, draining every CPU, and counting what the lists hold.
 *
 * The fast paths (a block taken from or given to this CPU's list) are in
 * page_alloc.c; the structure, and which lock or CPU owns each field, in
 * page_pcp.h. Everything here that touches a list holds its lock, and
 * everything that touches the buddy lists holds the zone lock, taken after
 * the list lock.
 */
#include <lib/printk.h>
#include <lib/string.h>
#include <smp/smp.h>
#include "page_pcp.h"

/*
 * Owned by each CPU under pcp_pages.lock (page_pcp.h). Zeroed per-CPU
 * areas are valid empty sets.
 */
DEFINE_PER_CPU(struct per_cpu_pages, pcp_pages[MAX_ZONE_IDS]);

/* Every populated zone, by zone id. */
#define for_each_pcp_zone(zone, id)					\
	for ((id) = 0; (id) < MAX_ZONE_IDS; (id)++)			\
		if (((zone) = page_allocator.zone_table[(id)]) != NULL)

int percpu_pagelist_high_fraction;

/*
 * Without a fraction set, each CPU caches at most managed / 128 / CPUs
 * pages (and at least 4 batches). Linux's default (the zone's low
 * watermark over the CPUs) is 1/72 of memory at 128 MiB and 1/204 at
 * 1 GiB; 1/128 sits between and needs no watermarks.
 */
#define PCP_DEFAULT_HIGH_FRACTION	128

/*
 * The values a set takes when it is set up, written by the tunables'
 * functions under tunables_lock and read by any CPU (READ_ONCE).
 */
static DEFINE_SPINLOCK(tunables_lock);
static int pcp_batch_value = 1, pcp_high_value;
static bool pcp_disabled;		/* under tunables_lock */
static bool cpu_dead_registered;	/* under tunables_lock */

/*
 * Linux's zone_batchsize(): about a quarter of a thousandth of memory, at
 * most 1 MiB / 4 of pages, rounded to a power of two minus one (so that
 * the blocks of a batch do not all fall on the same cache colour).
 */
static int zone_batchsize(unsigned long managed)
{
	unsigned long batch = MIN(managed >> 10, (1UL << 20) >> PAGE_SHIFT) / 4;

	batch += batch / 2;
	batch = batch ? (1UL << (63 - __builtin_clzl(batch))) - 1 : 0;
	return batch ? (int)batch : 1;
}

/* Linux's zone_highsize(): a share of memory per CPU, at least 4 batches. */
static int zone_highsize(unsigned long managed, int batch, unsigned int cpus)
{
	int fraction = READ_ONCE(percpu_pagelist_high_fraction);
	unsigned long high;

	if (fraction < 8)		/* Linux's minimum; 0 is the default */
		fraction = PCP_DEFAULT_HIGH_FRACTION;
	high = managed / (unsigned long)fraction / (cpus ? cpus : 1);
	high = MAX(high, 4UL * (unsigned long)batch);
	return (int)MIN(high, 1UL << 30);
}

/* Under @pcp's lock: take the current tunables. */
static void pcp_set_tunables(struct per_cpu_pages *pcp)
{
	WRITE_ONCE(pcp->batch, READ_ONCE(pcp_batch_value));
	pcp->high = READ_ONCE(pcp_high_value);
}

/*
 * Whether @pcp's owner has used it (its first allocation or free set
 * @batch): a set never used holds nothing to show or to retune.
 */
static bool pcp_in_use(const struct per_cpu_pages *pcp)
{
	return READ_ONCE(pcp->batch) || READ_ONCE(pcp->count);
}

/* Under @pcp's lock and @zone's lock: give @pcp's blocks back until at
 * most @target pages are left, starting with the list of @order. */
static void __drain_pcp(struct zone *zone, struct per_cpu_pages *pcp,
			int target, unsigned int order)
{
	int count = pcp->count;

	for (unsigned int i = 0; i < NR_PCP_ORDERS && count > target; i++) {
		unsigned int o = (order + i) % NR_PCP_ORDERS;

		while (count > target && pcp->lists[o]) {
			struct pcp_block *block = pcp->lists[o];

			pcp->lists[o] = block->next;
			count -= 1 << o;
			__free_one_page(zone, block->page, o);
		}
	}
	WRITE_ONCE(pcp->count, count);
}

/* Under @pcp's lock: empty it. */
static void drain_pcp(struct zone *zone, struct per_cpu_pages *pcp)
{
	if (!pcp->count)
		return;
	zone_lock(zone);
	__drain_pcp(zone, pcp, 0, 0);
	zone_unlock(zone);
}

struct page *pcp_refill(struct zone *zone, struct per_cpu_pages *pcp,
			unsigned int order)
{
	struct page *first, *page;
	int n, got = 0;

	if (unlikely(!pcp->batch))
		pcp_set_tunables(pcp);
	n = MAX(pcp->batch >> order, 1);
	zone_lock(zone);
	first = __rmqueue(zone, order);
	if (first) {
		/* Allocated before the zone lock goes: no merge may see it free. */
		set_pg_state(first, PG_ALLOC | order);
		for (got = 1; got < n; got++) {
			struct pcp_block *block;

			page = __rmqueue(zone, order);
			if (!page)
				break;
			set_pg_state(page, PG_PCP | order);
			block = __page_address(page);
			block->page = page;
			block->next = pcp->lists[order];
			pcp->lists[order] = block;
		}
	}
	zone_unlock(zone);
	if (got > 1)
		WRITE_ONCE(pcp->count, pcp->count + ((got - 1) << order));
	return first;
}

void pcp_free_high(struct zone *zone, struct per_cpu_pages *pcp,
		   unsigned int order)
{
	if (unlikely(!pcp->batch)) {
		pcp_set_tunables(pcp);
		if (pcp->count <= pcp->high)
			return;
	}
	/* At least a batch, and down to high (all of it when high is 0). */
	zone_lock(zone);
	__drain_pcp(zone, pcp, MIN(pcp->count - pcp->batch, pcp->high), order);
	zone_unlock(zone);
}

static void drain_cpu_pages(unsigned int cpu)
{
	struct zone *zone;
	unsigned int id;

	for_each_pcp_zone(zone, id) {
		struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

		/*
		 * Unlocked, to skip empty sets: a set whose count this CPU
		 * cannot see yet is one whose owner is filling it right now,
		 * and whose blocks it is about to hand out.
		 */
		if (!READ_ONCE(pcp->count))
			continue;
		spin_lock(&pcp->lock);
		drain_pcp(zone, pcp);
		spin_unlock(&pcp->lock);
	}
}

void drain_all_pages(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		drain_cpu_pages(cpu);
}

void drain_local_pages(void)
{
	drain_cpu_pages(smp_processor_id());
}

/* The host: a thread that was a CPU exits; its blocks must not be lost. */
static void pcp_cpu_dead(unsigned int cpu)
{
	drain_cpu_pages(cpu);
}

unsigned long pcp_count_pages(const struct zone *only)
{
	unsigned long pages = 0;
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu)
		for_each_pcp_zone(zone, id)
			if (!only || zone == only)
				pages += (unsigned long)
					READ_ONCE(zone_pcp(zone, cpu)->count);
	return pages;
}

/* Under @pcp's lock: the blocks on its list of @order. */
static unsigned long pcp_list_length(const struct per_cpu_pages *pcp,
				     unsigned int order)
{
	unsigned long n = 0;

	for (const struct pcp_block *b = pcp->lists[order]; b; b = b->next)
		n++;
	return n;
}

unsigned long pcp_count_blocks(unsigned int order)
{
	unsigned long n = 0;
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu) {
		for_each_pcp_zone(zone, id) {
			struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

			if (!READ_ONCE(pcp->count))
				continue;
			spin_lock(&pcp->lock);
			n += pcp_list_length(pcp, order);
			spin_unlock(&pcp->lock);
		}
	}
	return n;
}

void pcp_lock_all(unsigned long *locked)
{
	unsigned int cpu, id;
	struct zone *zone;

	memset(locked, 0, PCP_CPU_WORDS * sizeof(*locked));
	/*
	 * Every online CPU's, used or not: a CPU whose set is unused now may
	 * free a block into it (its first free takes no zone lock) while the
	 * caller walks.
	 */
	for_each_online_cpu(cpu) {
		for_each_pcp_zone(zone, id)
			spin_lock(&zone_pcp(zone, cpu)->lock);
		locked[cpu / 64] |= 1UL << (cpu % 64);
	}
}

void pcp_unlock_all(const unsigned long *locked)
{
	unsigned int id;
	struct zone *zone;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (locked[cpu / 64] & (1UL << (cpu % 64)))
			for_each_pcp_zone(zone, id)
				spin_unlock(&zone_pcp(zone, cpu)->lock);
}

void show_pcp_lists(void)
{
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu) {
		for_each_pcp_zone(zone, id) {
			struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

			if (!pcp_in_use(pcp))
				continue;
			spin_lock(&pcp->lock);
			if (pcp->batch) {
				printk("CPU %u: Node %d, zone %8s: hi: %d, btch: "
				       "%d usd: %d; blocks by order:", cpu,
				       zone->node, zone->name, pcp->high,
				       pcp->batch, pcp->count);
				for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
					printk(" %lu", pcp_list_length(pcp, o));
				printk("\n");
			}
			spin_unlock(&pcp->lock);
		}
	}
}

/* Under tunables_lock: derive the values, and apply them to each set. */
static void apply_tunables(bool print)
{
	unsigned long managed = nr_managed_pages();
	unsigned int cpus = num_online_cpus(), cpu, id;
	struct zone *zone;
	int batch = zone_batchsize(managed);
	int high = zone_highsize(managed, batch, cpus);

	if (print)
		pr_info("pcp: batch %d, high %d pages per CPU (orders 0..%d, "
			"%u CPU%s, %lu pages, percpu_pagelist_high_fraction "
			"%d)%s\n", batch, high, NR_PCP_ORDERS - 1, cpus ? cpus : 1,
			cpus > 1 ? "s" : "", managed,
			READ_ONCE(percpu_pagelist_high_fraction),
			pcp_disabled ? "; disabled" : "");
	if (pcp_disabled) {
		batch = 1;
		high = 0;
	}
	WRITE_ONCE(pcp_batch_value, batch);
	WRITE_ONCE(pcp_high_value, high);
	for_each_online_cpu(cpu) {
		for_each_pcp_zone(zone, id) {
			struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

			if (!pcp_in_use(pcp))
				continue;
			spin_lock(&pcp->lock);
			if (pcp->batch) {
				pcp_set_tunables(pcp);
				if (pcp->count > pcp->high) {
					zone_lock(zone);
					__drain_pcp(zone, pcp, pcp->high, 0);
					zone_unlock(zone);
				}
			}
			spin_unlock(&pcp->lock);
		}
	}
}

void setup_per_cpu_pageset(void)
{
	spin_lock(&tunables_lock);
	if (!cpu_dead_registered) {
		smp_register_cpu_dead(pcp_cpu_dead);
		cpu_dead_registered = true;
	}
	apply_tunables(true);
	spin_unlock(&tunables_lock);
}

void zone_pcp_disable(void)
{
	spin_lock(&tunables_lock);
	pcp_disabled = true;
	apply_tunables(false);
	spin_unlock(&tunables_lock);
}

void zone_pcp_enable(void)
{
	spin_lock(&tunables_lock);
	pcp_disabled = false;
	apply_tunables(false);
	spin_unlock(&tunables_lock);
}

int pcp_batch(void)
{
	return READ_ONCE(pcp_batch_value);
}

int pcp_high(void)
{
	return READ_ONCE(pcp_high_value);
}

#ifdef CONFIG_HOST
void pcp_reset_for_test(void)
{
	/* Numbers never used share CPU 0's area: zeroing it again is harmless. */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
			struct per_cpu_pages *pcp = per_cpu_ptr(&pcp_pages[id], cpu);

			memset(pcp, 0, sizeof(*pcp));
			spin_lock_init(&pcp->lock);
		}
	}
	spin_lock(&tunables_lock);
	pcp_disabled = false;
	WRITE_ONCE(pcp_batch_value, 1);
	WRITE_ONCE(pcp_high_value, 0);
	spin_unlock(&tunables_lock);
}
#endif
