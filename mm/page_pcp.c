/*
 * page_pcp.c - per-CPU pagesets: the tunables, refill and drain in
 * batches, the requests that drain or retune every CPU, and counting what
 * the lists hold.
 *
 * The fast paths (a block taken from or given to this CPU's list) are in
 * page_pcp.h and page_alloc.c; the structure, and who may touch it when,
 * in page_pcp.h. Everything here that touches a set runs on its owner, or
 * for it through a per-CPU request (include/smp/smp.h); everything that
 * touches the buddy lists holds the zone lock.
 */
#include <lib/printk.h>
#include <lib/string.h>
#include <smp/smp.h>
#include "page_pcp.h"

/* Each CPU's, touched as page_pcp.h says. Zeroed areas are empty sets. */
DEFINE_PER_CPU(struct per_cpu_pages, pcp_pages[MAX_ZONE_IDS]);

DEFINE_PER_CPU(struct pcp_home, pcp_home);

/* Every populated zone, by zone id. */
#define for_each_pcp_zone(zone, id)					\
	for ((id) = 0; (id) < MAX_ZONE_IDS; (id)++)			\
		if (((zone) = page_allocator.zone_table[(id)]) != NULL)

int percpu_pagelist_high_fraction;

/*
 * Without a fraction set, each CPU's list holds at most managed / 128 /
 * CPUs pages (and at least 4 batches). Linux's default (the zone's low
 * watermark over the CPUs) is 1/72 of memory at 128 MiB and 1/204 at
 * 1 GiB; 1/128 sits between and needs no watermarks.
 */
#define PCP_DEFAULT_HIGH_FRACTION	128

/*
 * The struct pages of one cache line: 64 bytes, 64 pages. A refill of a
 * whole line gives a CPU pages whose state bytes no other CPU writes while
 * it holds them, so two CPUs' fast paths do not share a line of the map.
 */
#define PCP_LINE_PAGES		(64 / sizeof(struct page))

/*
 * The values a set takes when it is set up, written by the tunables'
 * functions under tunables_lock and read by any CPU (READ_ONCE).
 */
static DEFINE_SPINLOCK(tunables_lock);
static int pcp_batch_value = 1, pcp_high_value;
static bool pcp_disabled;		/* under tunables_lock */
static bool cpu_dead_registered;	/* under tunables_lock */

/*
 * The last "pcp:" line printed (under tunables_lock), so that a retune
 * that changes nothing (the CPUs' start on a machine of one CPU) does
 * not print it again.
 */
static char pcp_printed[160];

static unsigned int rounddown_pow_of_two(unsigned long n)
{
	return n ? 1U << (63 - __builtin_clzl(n)) : 0;
}

/*
 * Linux's zone_batchsize(): about a quarter of a thousandth of memory, at
 * most 1 MiB / 4 of pages; then, where each CPU has room for it (its
 * default share of memory, below, holds one), at least a cache line of
 * the map (64 pages), which
 * lowers lock traffic and keeps CPUs off each other's lines. A power of
 * two, so that a refill takes one aligned block (Linux subtracts one to
 * spread the list nodes it writes into pages over cache colours; these
 * lists write nothing into pages).
 */
static int zone_batchsize(unsigned long managed, unsigned int cpus)
{
	unsigned long batch = MIN(managed >> 10, (1UL << 20) >> PAGE_SHIFT) / 4;

	batch = rounddown_pow_of_two(batch + batch / 2);
	if (batch < PCP_LINE_PAGES &&
	    managed / cpus / PCP_DEFAULT_HIGH_FRACTION >= PCP_LINE_PAGES)
		batch = PCP_LINE_PAGES;
	return batch ? (int)batch : 1;
}

/*
 * Linux's zone_highsize(): a share of memory per CPU, at least 4 batches,
 * at most what the list of the highest cached order can hold (its
 * PCP_LIST_SLOTS blocks). @high is in pages, as in Linux; each list is
 * also held to PCP_LIST_SLOTS blocks (pcp_list_max()). So on a machine
 * with room for it the lists of the higher orders hold more than 64
 * pages: a CPU that allocates or frees a burst of order-3 blocks meets
 * the zone lock once per batch, not once per 8 blocks. Each list is held
 * to @high pages, where Linux holds all orders' lists together to it
 * (docs/allocator.md, section 6, says what a CPU may cache).
 */
static int zone_highsize(unsigned long managed, int batch, unsigned int cpus)
{
	int fraction = READ_ONCE(percpu_pagelist_high_fraction);
	unsigned long high;

	if (fraction < 8)		/* Linux's minimum; 0 is the default */
		fraction = PCP_DEFAULT_HIGH_FRACTION;
	high = managed / (unsigned long)fraction / cpus;
	high = MAX(high, 4UL * (unsigned long)batch);
	return (int)MIN(high, (unsigned long)PCP_HIGH_MAX);
}

/*
 * Close @pcp's gates: its inline fast paths fail until its CPU opens them
 * again (pcp_home_enter()). Any CPU, any time: relaxed stores.
 */
static void pcp_close(struct per_cpu_pages *pcp)
{
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		__atomic_store_n(&pcp->lists[o].limit, 0UL, __ATOMIC_RELAXED);
}

/*
 * On @pcp's owner (or for it): take the current tunables. The gates are
 * closed (only its CPU's pcp_home_enter() opens them, before it checks
 * for requests): the next fast path goes by the new @high.
 */
static void pcp_set_tunables(struct per_cpu_pages *pcp)
{
	WRITE_ONCE(pcp->batch, READ_ONCE(pcp_batch_value));
	WRITE_ONCE(pcp->high, READ_ONCE(pcp_high_value));
	pcp_close(pcp);
}

/* Under @zone's lock: give the blocks of @pcp's list of @order above
 * @keep back to the buddy lists, the top (hottest) first. */
static void __pcp_drain(struct zone *zone, struct per_cpu_pages *pcp,
			unsigned int order, unsigned int keep)
{
	unsigned long n = pcp->lists[order].nr;

	while (n > keep)
		__free_one_page(zone, pcp->lists[order].slot[--n], order);
	WRITE_ONCE(pcp->lists[order].nr, n);
}

/* Every cached order's batch holds a block at least: put() always moves. */
_Static_assert((PCP_LIST_SLOTS >> (NR_PCP_ORDERS - 1)) >= 1,
	       "a depot batch of the highest cached order holds no block");
/* A batch fits its row of the slot table, and its count a byte. */
_Static_assert(PCP_BATCH_MIN_BLOCKS <= PCP_LIST_SLOTS,
	       "a depot batch larger than a row");

/*
 * Under @zone's lock: the newest depot batch of @order, or -1. Only it
 * may have room: pcp_depot_put() fills it before it starts another, and
 * pcp_depot_take() takes from it alone.
 */
static int pcp_depot_newest(const struct pcp_depot *d, unsigned int order)
{
	for (unsigned int k = d->nr; k-- > 0;)
		if (d->order[k] == order)
			return (int)k;
	return -1;
}

/* Under @zone's lock: a row of the slot table no batch in use has. */
static unsigned int pcp_depot_free_row(const struct pcp_depot *d)
{
	unsigned int used = 0;

	for (unsigned int k = 0; k < d->nr; k++)
		used |= 1U << d->row[k];
	return (unsigned int)__builtin_ctz(~used);
}

/*
 * Under @zone's lock: move the blocks of @pcp's list of @order above
 * @keep to the depot, the hottest last: into the newest batch of that
 * order while it has room (a batch holds pcp_depot_batch_blocks()),
 * then into new batches while the depot has room. So a list
 * whose batch is a block or two still hands whole batches on. What does
 * not fit stays listed, for __pcp_drain().
 */
static void pcp_depot_put(struct zone *zone, struct per_cpu_pages *pcp,
			  unsigned int order, unsigned int keep)
{
	struct pcp_depot *d = &zone->pcp_depot;
	unsigned long n = pcp->lists[order].nr;
	unsigned int room = pcp_depot_batch_blocks(zone, order);
	int k = pcp_depot_newest(d, order);

	while (n > keep) {
		unsigned int move, have;

		if (k < 0 || d->blocks[k] == room) {
			if (d->nr == PCP_DEPOT_BATCHES)
				break;
			k = d->nr;
			d->row[k] = (uint8_t)pcp_depot_free_row(d);
			WRITE_ONCE(d->order[k], (uint8_t)order);
			WRITE_ONCE(d->blocks[k], 0);
			WRITE_ONCE(d->nr, (uint8_t)(d->nr + 1));
		}
		have = d->blocks[k];
		move = (unsigned int)MIN(n - keep, (unsigned long)(room - have));
		n -= move;
		memcpy(&pcp_depot_batch(zone, (unsigned int)k)[have],
		       &pcp->lists[order].slot[n],
		       move * sizeof(struct page *));
		WRITE_ONCE(d->blocks[k], (uint8_t)(have + move));
	}
	WRITE_ONCE(pcp->lists[order].nr, n);
}

/*
 * Under @zone's lock: take out the depot's empty batch @k, the newer ones
 * moving down one place, so that the batches stay oldest first. Only the
 * bookkeeping moves: each batch keeps its row, and @k's row is free again
 * (pcp_depot_free_row() looks at the rows of the batches in use only).
 */
static void pcp_depot_remove(struct pcp_depot *d, unsigned int k)
{
	for (; k + 1 < d->nr; k++) {
		WRITE_ONCE(d->order[k], d->order[k + 1]);
		WRITE_ONCE(d->blocks[k], d->blocks[k + 1]);
		d->row[k] = d->row[k + 1];
	}
	WRITE_ONCE(d->blocks[k], 0);
	WRITE_ONCE(d->nr, (uint8_t)(d->nr - 1));
}

/*
 * Under @zone's lock: fill @pcp's empty list of @order with up to @want
 * blocks (one of them about to be handed out) from the top of the newest
 * depot batch of that order, the hottest. Return: whether there was one.
 */
static bool pcp_depot_take(struct zone *zone, struct per_cpu_pages *pcp,
			   unsigned int order, unsigned int want)
{
	struct pcp_depot *d = &zone->pcp_depot;
	int k = pcp_depot_newest(d, order);
	unsigned int take, have;

	if (k < 0)
		return false;
	have = d->blocks[k];
	take = MIN(have, want);
	memcpy(pcp->lists[order].slot,
	       &pcp_depot_batch(zone, (unsigned int)k)[have - take],
	       take * sizeof(struct page *));
	WRITE_ONCE(pcp->lists[order].nr, (unsigned long)take);
	WRITE_ONCE(d->blocks[k], (uint8_t)(have - take));
	if (have == take)
		pcp_depot_remove(d, (unsigned int)k);
	return true;
}

/* Under @zone's lock: every depot batch back to the buddy lists. */
static void __pcp_depot_drain(struct zone *zone)
{
	struct pcp_depot *d = &zone->pcp_depot;

	while (d->nr) {
		unsigned int k = d->nr - 1u;
		struct page **slot = pcp_depot_batch(zone, k);

		for (unsigned int i = d->blocks[k]; i-- > 0;)
			__free_one_page(zone, slot[i], d->order[k]);
		WRITE_ONCE(d->blocks[k], 0);
		WRITE_ONCE(d->nr, (uint8_t)k);
	}
}

/* Every zone's depot back to the buddy lists. */
static void pcp_depots_drain(void)
{
	struct zone *zone;
	unsigned int id;

	for_each_pcp_zone(zone, id) {
		if (!READ_ONCE(zone->pcp_depot.nr))
			continue;
		zone_lock(zone);
		__pcp_depot_drain(zone);
		zone_unlock(zone);
	}
}

/*
 * Pages (@order < 0) or blocks of @order in @zone's depot: a snapshot,
 * exact while no CPU moves a batch.
 */
static unsigned long pcp_depot_count(const struct zone *zone, int order)
{
	const struct pcp_depot *d = &zone->pcp_depot;
	unsigned int nr = MIN((unsigned int)READ_ONCE(d->nr),
			      (unsigned int)PCP_DEPOT_BATCHES);
	unsigned long n = 0;

	for (unsigned int k = 0; k < nr; k++) {
		unsigned int o = READ_ONCE(d->order[k]);
		unsigned long blocks = READ_ONCE(d->blocks[k]);

		if (order < 0)
			n += blocks << o;
		else if (o == (unsigned int)order)
			n += blocks;
	}
	return n;
}

static unsigned long pcp_pages_of(const struct per_cpu_pages *pcp)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		pages += (unsigned long)READ_ONCE(pcp->lists[o].nr) << o;
	return pages;
}

/* Cached pages of CPU @cpu, in every zone: a snapshot. */
static unsigned long pcp_cpu_pages(unsigned int cpu)
{
	unsigned long pages = 0;
	struct zone *zone;
	unsigned int id;

	for_each_pcp_zone(zone, id)
		pages += pcp_pages_of(zone_pcp(zone, cpu));
	return pages;
}

/* On @set's CPU (or for it): empty @set into @zone's buddy lists. */
static void pcp_drain_set(struct zone *zone, struct per_cpu_pages *set)
{
	if (!pcp_pages_of(set))
		return;
	zone_lock(zone);
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		__pcp_drain(zone, set, o, 0);
	zone_unlock(zone);
}

/* Request function (or the owner itself): empty CPU @cpu's lists. */
static void pcp_drain_cpu(unsigned int cpu, void *arg)
{
	struct zone *zone;
	unsigned int id;

	(void)arg;
	for_each_pcp_zone(zone, id)
		pcp_drain_set(zone, zone_pcp(zone, cpu));
}

/* Request function: CPU @cpu takes the new tunables, draining above them. */
static void pcp_retune_cpu(unsigned int cpu, void *arg)
{
	struct zone *zone;
	unsigned int id;

	(void)arg;
	for_each_pcp_zone(zone, id) {
		struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

		if (!pcp->batch)
			continue;	/* not set up: it will take them */
		pcp_set_tunables(pcp);
		zone_lock(zone);
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
			__pcp_drain(zone, pcp, o, pcp_list_max(pcp, o));
		zone_unlock(zone);
	}
}

/* The top block of the list of @order, which is not empty. */
static struct page *pcp_pop(struct per_cpu_pages *pcp, unsigned int order)
{
	unsigned long n = pcp->lists[order].nr - 1;
	struct page *page = pcp->lists[order].slot[n];

	WRITE_ONCE(pcp->lists[order].nr, n);
	set_pg_state(page, PG_ALLOC | order);
	return page;
}

/* Under @zone's lock: whether a block of an order in [@lo, @hi) is free. */
static bool free_below(const struct zone *zone, unsigned int lo,
		       unsigned int hi)
{
	for (unsigned int o = lo; o < hi; o++)
		if (zone->free_area[o].nr_free)
			return true;
	return false;
}

/*
 * Refill the empty list of @order with a hand-off's worth of blocks
 * (pcp_handoff_blocks(), as the list has room), under one zone-lock
 * acquisition, and take one block of it: from the depot's newest batch of
 * that order when it has one, else from the buddy lists. There smaller
 * free blocks go first, as in Linux (splitting a large block while small
 * ones lie free fragments memory): blocks of @order one by one while
 * there are free blocks smaller than the refill. Otherwise the refill is
 * one aligned block split here, whose struct pages (whole cache lines of
 * the map, 64 pages each) are this CPU's alone.
 */
static struct page *pcp_refill(struct zone *zone, struct per_cpu_pages *pcp,
			       unsigned int order)
{
	unsigned int want = pcp_handoff_blocks(zone, pcp, order);
	unsigned int big, n = 0, got = 0;
	struct page *first, *page;

	/* Room: the list is empty; the taken block is not listed. */
	want = rounddown_pow_of_two(MIN(want, pcp_list_max(pcp, order) + 1));
	big = order + (unsigned int)__builtin_ctz(want);
	if (big > MAX_PAGE_ORDER)
		big = MAX_PAGE_ORDER;
	zone_lock(zone);
	/* A batch another CPU left: no split, and its merge never happened. */
	if (zone->pcp_depot.nr && pcp_depot_take(zone, pcp, order, want)) {
		zone_unlock(zone);
		return pcp_pop(pcp, order);
	}
	first = big > order && !free_below(zone, order, big) ?
		__rmqueue(zone, big) : NULL;
	if (first) {
		/* Allocated before the zone lock goes: no merge may see it free. */
		set_pg_state(first, PG_ALLOC | order);
		/* Highest first: the stack hands them out in address order. */
		for (unsigned int i = 1U << (big - order); --i;) {
			page = first + ((unsigned long)i << order);
			set_pg_state(page, PG_PCP | order);
			pcp->lists[order].slot[n++] = page;
		}
	} else {
		first = __rmqueue(zone, order);
		if (first) {
			set_pg_state(first, PG_ALLOC | order);
			for (got = 1; got < want; got++) {
				page = __rmqueue(zone, order);
				if (!page)
					break;
				set_pg_state(page, PG_PCP | order);
				pcp->lists[order].slot[n++] = page;
			}
		}
	}
	zone_unlock(zone);
	WRITE_ONCE(pcp->lists[order].nr, n);
	return first;
}

struct page *pcp_alloc(struct zone *zone, unsigned int order)
{
	struct per_cpu_pages *pcp = this_zone_pcp(zone);

	if (smp_request_pending())
		smp_request_poll();
	if (unlikely(!pcp->batch))
		pcp_set_tunables(pcp);
	if (pcp->lists[order].nr)
		return pcp_pop(pcp, order);
	return pcp_refill(zone, pcp, order);
}

void pcp_free(struct zone *zone, struct page *page, unsigned int order)
{
	struct per_cpu_pages *pcp = this_zone_pcp(zone);
	unsigned long n;
	unsigned int keep;

	if (smp_request_pending())
		smp_request_poll();
	if (unlikely(!pcp->batch))
		pcp_set_tunables(pcp);
	n = pcp->lists[order].nr;
	if (n >= pcp_list_max(pcp, order)) {
		zone_lock(zone);
		if (!pcp_list_max(pcp, order)) {
			/* Nothing cached at this order (zone_pcp_disable()). */
			__free_one_page(zone, page, order);
			zone_unlock(zone);
			return;
		}
		/*
		 * At least one block, a hand-off's worth when the list has
		 * it: to the depot, for the next CPU that runs dry, and what
		 * the depot has no room for to the buddy lists.
		 */
		keep = n - MIN(n, (unsigned long)pcp_handoff_blocks(zone, pcp,
								     order));
		pcp_depot_put(zone, pcp, order, keep);
		__pcp_drain(zone, pcp, order, keep);
		zone_unlock(zone);
		n = pcp->lists[order].nr;
	}
	pcp->lists[order].slot[n] = page;
	WRITE_ONCE(pcp->lists[order].nr, n + 1);
	set_pg_state(page, PG_PCP | order);
}

/* smp_on_request_posted()'s function: close CPU @cpu's home set. */
static void pcp_request_posted(unsigned int cpu)
{
	pcp_close(&per_cpu_ptr(&pcp_home, cpu)->set);
}

void pcp_home_forget(unsigned int cpu)
{
	struct pcp_home *home;

	/* Not come up yet: no home, and per_cpu_ptr() is another CPU's. */
	if (!cpu_has_percpu_area(cpu))
		return;
	home = per_cpu_ptr(&pcp_home, cpu);
	/*
	 * Acquire and release, against pcp_home_enter_slow()'s look at
	 * @stale after it opens: if that look comes first in @stale's
	 * order, our closing comes after its opening.
	 */
	__atomic_fetch_or(&home->stale, 1U, __ATOMIC_ACQ_REL);
	pcp_close(&home->set);
}

/*
 * On this CPU, once it took @stale (so that a forget from then on is seen
 * next time): give up its home, the blocks back to their zone.
 */
static void pcp_home_drop(struct pcp_home *home)
{
	struct zone *zone = home->zone;

	pcp_close(&home->set);
	if (!zone)
		return;
	pcp_drain_set(zone, &home->set);
	home->run_pages = 0;
	/* The zone's own element is its set again: it is empty. */
	WRITE_ONCE(home->zone, NULL);
}

/* Whether a gate of @pcp is closed: a limit below pcp_list_max(). */
static bool pcp_gate_closed(const struct per_cpu_pages *pcp)
{
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		if (pcp_fast_limit(&pcp->lists[o]) != pcp_list_max(pcp, o))
			return true;
	return false;
}

void pcp_home_enter_slow(void)
{
	struct pcp_home *home = this_cpu_ptr(&pcp_home);
	struct per_cpu_pages *set = &home->set;

	/* Acquire: the new node that the forget's caller wrote before. */
	if (__atomic_load_n(&home->stale, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&home->stale, 0U, __ATOMIC_ACQ_REL))
		pcp_home_drop(home);
	if (home->zone && pcp_gate_closed(set)) {
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
			__atomic_store_n(&set->lists[o].limit,
					 (unsigned long)pcp_list_max(set, o),
					 __ATOMIC_RELAXED);
		/*
		 * The opening before the looks at @stale and at the request
		 * word, each a read-modify-write (acquire and release; a
		 * fence would do, but ThreadSanitizer knows none). A forget
		 * whose read-modify-write comes after ours in @stale's order
		 * closes after our opening; one that comes before is seen
		 * here. The same for a sender: smp_request_poll_opened().
		 */
		if (__atomic_fetch_or(&home->stale, 0U, __ATOMIC_ACQ_REL))
			pcp_close(set);		/* dropped at the next entry */
		smp_request_poll_opened();
		return;
	}
	if (smp_request_pending())
		smp_request_poll();
}

void pcp_home_adopt(struct zone *zone, uintptr_t run, unsigned long run_pages)
{
	struct pcp_home *home = this_cpu_ptr(&pcp_home);

	smp_on_request_posted(pcp_request_posted);
	/* The zone's own element stops being this CPU's set: empty it. */
	pcp_drain_set(zone, this_cpu_ptr(zone->per_cpu_pageset));
	home->run = run;
	home->run_pages = run_pages;
	pcp_set_tunables(&home->set);
	WRITE_ONCE(home->zone, zone);
	pcp_home_enter_slow();		/* opens the gates */
}

/* The CPUs whose lists may hold something: a snapshot of @nr. */
static void pcp_cpus_with_pages(cpumask_t *cpus)
{
	unsigned int cpu;

	cpumask_clear(cpus);
	for_each_online_cpu(cpu)
		if (pcp_cpu_pages(cpu))
			cpumask_set_cpu(cpu, cpus);
}

void drain_all_pages(void)
{
	cpumask_t cpus, missed;
	unsigned int cpu;

	/*
	 * A set whose blocks this CPU cannot see yet is one its owner is
	 * filling right now, to hand one out: it is not lost, it is in use.
	 */
	pcp_cpus_with_pages(&cpus);
	cpumask_clear(&missed);
	pcp_depots_drain();
	if (!smp_request_cpus(&cpus, pcp_drain_cpu, NULL, &missed))
		return;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpumask_test_cpu(cpu, &missed))
			pr_warn("drain_all_pages: cpu %u keeps its %lu cached "
				"pages\n", cpu, pcp_cpu_pages(cpu));
}

void drain_local_pages(void)
{
	pcp_drain_cpu(smp_processor_id(), NULL);
}

/* The host: a thread that was a CPU exits, on that thread; its blocks
 * must not be lost. */
static void pcp_cpu_dead(unsigned int cpu)
{
	pcp_drain_cpu(cpu, NULL);
}

unsigned long pcp_count_pages(const struct zone *only)
{
	unsigned long pages = 0;
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu)
		for_each_pcp_zone(zone, id)
			if (!only || zone == only)
				pages += pcp_pages_of(zone_pcp(zone, cpu));
	for_each_pcp_zone(zone, id)
		if (!only || zone == only)
			pages += pcp_depot_count(zone, -1);
	return pages;
}

unsigned long pcp_count_blocks(unsigned int order)
{
	unsigned long n = 0;
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu)
		for_each_pcp_zone(zone, id)
			n += READ_ONCE(zone_pcp(zone, cpu)->lists[order].nr);
	for_each_pcp_zone(zone, id)
		n += pcp_depot_count(zone, (int)order);
	return n;
}

void show_pcp_lists(void)
{
	unsigned int cpu, id;
	struct zone *zone;

	for_each_online_cpu(cpu) {
		for_each_pcp_zone(zone, id) {
			struct per_cpu_pages *pcp = zone_pcp(zone, cpu);

			if (!READ_ONCE(pcp->batch))
				continue;
			printk("CPU %u: Node %d, zone %8s: hi: %d, btch: %d "
			       "usd: %lu; blocks by order:", cpu, zone->node,
			       zone->name, READ_ONCE(pcp->high),
			       READ_ONCE(pcp->batch), pcp_pages_of(pcp));
			for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
				printk(" %lu", READ_ONCE(pcp->lists[o].nr));
			printk("\n");
		}
	}
	for_each_pcp_zone(zone, id) {
		if (!READ_ONCE(zone->pcp_depot.nr))
			continue;
		printk("Depot: Node %d, zone %8s: batches: %u, pages: %lu; "
		       "blocks by order:", zone->node, zone->name,
		       READ_ONCE(zone->pcp_depot.nr), pcp_depot_count(zone, -1));
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
			printk(" %lu", pcp_depot_count(zone, (int)o));
		printk("\n");
	}
}

/* Under tunables_lock: derive the values, and have every CPU take them. */
static void apply_tunables(bool print)
{
	unsigned long managed = nr_managed_pages();
	unsigned int cpus = MAX(num_online_cpus(), 1U), cpu;
	int batch = zone_batchsize(managed, cpus);
	int high = zone_highsize(managed, batch, cpus);
	cpumask_t all;
	char line[sizeof(pcp_printed)];

	if (print) {
		ksnprintf(line, sizeof(line), "pcp: batch %d, high %d pages "
			  "per list, %d blocks at most (orders 0..%d, %u "
			  "CPU%s, %lu pages, percpu_pagelist_high_fraction "
			  "%d)%s", batch, high, PCP_LIST_SLOTS,
			  NR_PCP_ORDERS - 1, cpus, cpus > 1 ? "s" : "", managed,
			  READ_ONCE(percpu_pagelist_high_fraction),
			  pcp_disabled ? "; disabled" : "");
		if (strcmp(line, pcp_printed) != 0) {
			pr_info("%s\n", line);
			memcpy(pcp_printed, line, sizeof(line));
		}
	}
	if (pcp_disabled) {
		batch = 1;
		high = 0;
	}
	WRITE_ONCE(pcp_batch_value, batch);
	WRITE_ONCE(pcp_high_value, high);
	/*
	 * Every online CPU, set up or not: one setting up now may have read
	 * the old values; the request runs after that, or it reads ours.
	 */
	cpumask_clear(&all);
	for_each_online_cpu(cpu)
		cpumask_set_cpu(cpu, &all);
	if (smp_request_cpus(&all, pcp_retune_cpu, NULL, NULL))
		pr_warn("pcp: some CPUs keep their old batch and high\n");
	/* Batches of the old size, or nothing cached at all: to the buddy. */
	pcp_depots_drain();
}

/* tunables_lock is held across requests: waiters answer theirs. */
static void tunables_lock_take(void)
{
	spin_lock_polling(&tunables_lock);
}

void setup_per_cpu_pageset(void)
{
	tunables_lock_take();
	if (!cpu_dead_registered) {
		smp_register_cpu_dead(pcp_cpu_dead);
		cpu_dead_registered = true;
	}
	apply_tunables(true);
	spin_unlock(&tunables_lock);
}

void zone_pcp_disable(void)
{
	tunables_lock_take();
	pcp_disabled = true;
	apply_tunables(false);
	spin_unlock(&tunables_lock);
}

void zone_pcp_enable(void)
{
	tunables_lock_take();
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
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_has_percpu_area(cpu))
			continue;
		memset(per_cpu_ptr(&pcp_pages[0], cpu), 0, sizeof(pcp_pages));
		memset(per_cpu_ptr(&pcp_home, cpu), 0, sizeof(pcp_home));
	}
	spin_lock(&tunables_lock);
	pcp_disabled = false;
	WRITE_ONCE(pcp_batch_value, 1);
	WRITE_ONCE(pcp_high_value, 0);
	spin_unlock(&tunables_lock);
}
#endif
