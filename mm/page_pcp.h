/*
 * page_pcp.h - per-CPU pagesets: each CPU's lists of free blocks of the
 * small orders, served without the zone lock, without atomics and without
 * touching the blocks' memory. Only mm/ includes this.
 *
 * Linux's struct per_cpu_pages, with Linux's meanings for @high and
 * @batch: an allocation that finds its list empty takes @batch pages'
 * worth of blocks from the buddy lists (at the higher orders, a depot
 * batch where that is more: pcp_handoff_blocks()), and a free
 * to a list that holds @high pages first gives as many back, each under
 * one zone-lock acquisition. A list is an array of struct page pointers used
 * as a stack (the hottest block on top), so taking or giving a block
 * writes the array and its block's state byte, never the block.
 *
 * Who touches what. A set is its CPU's alone: its fast paths use plain
 * loads and stores. Another CPU acts on it only through a per-CPU request
 * (include/smp/smp.h), which runs either on the owner, at a poll point
 * (the home set's inline fast paths find its gate closed by the sender,
 * the other fast paths check smp_request_pending(), before touching the
 * set), or on the sender while the owner is away: never both at once. So
 * draining (drain_all_pages()), retuning (setup_per_cpu_pageset(),
 * zone_pcp_disable()) and checking (page_alloc_check(), which stops the
 * other CPUs) are requests. Two exceptions: a list's count is read
 * without any of that, as a snapshot, by nr_free_pages(),
 * nr_free_blocks() and to skip empty sets (the owner writes it with a
 * single store, readers READ_ONCE); and its gate (@limit) is closed by
 * any CPU and opened by the owner only (<mm/page_alloc_fast.h>,
 * pcp_home_enter_slow()).
 *
 * Per-CPU areas start zeroed, and a zeroed set is valid: empty lists,
 * closed gates, and @batch 0 meaning "not set up yet", which send the
 * first allocation and the first free to the slow path that sets it up. A set
 * is cache-line aligned, and per-CPU areas are whole cache lines, so no
 * two CPUs' sets share a line.
 */
#ifndef MM_PAGE_PCP_H
#define MM_PAGE_PCP_H

#include <smp/percpu.h>
#include <smp/smp.h>
#include "page_state.h"

/* NR_PCP_ORDERS, PCP_LIST_SLOTS, struct per_cpu_pages: <mm/page_alloc_fast.h>. */

/*
 * Each CPU has one set per zone (Linux's zone->per_cpu_pageset): a zone's
 * per_cpu_pageset points at its element here, so this_cpu_ptr() of it is
 * this CPU's set for that zone, except for the CPU's home zone, whose set
 * is the home set (pcp_home.set, <mm/page_alloc_fast.h>) while the zone's
 * element stays empty. A set only ever holds blocks of its zone.
 */
DECLARE_PER_CPU(struct per_cpu_pages, pcp_pages[MAX_ZONE_IDS]);

static inline struct per_cpu_pages *zone_pcp(struct zone *zone, unsigned int cpu)
{
	struct pcp_home *home = per_cpu_ptr(&pcp_home, cpu);

	if (zone == READ_ONCE(home->zone))
		return &home->set;
	return per_cpu_ptr(zone->per_cpu_pageset, cpu);
}

/* This CPU's set of @zone. */
static inline struct per_cpu_pages *this_zone_pcp(struct zone *zone)
{
	return zone_pcp(zone, smp_processor_id());
}

/* The most @high can be (pages): what the highest cached order's list holds. */
#define PCP_HIGH_MAX	(PCP_LIST_SLOTS << (NR_PCP_ORDERS - 1))

/*
 * The number of blocks the list of @order may hold: @high pages' worth,
 * and no more than its array's PCP_LIST_SLOTS.
 */
static inline unsigned int pcp_list_max(const struct per_cpu_pages *pcp,
					unsigned int order)
{
	unsigned int n = (unsigned int)pcp->high >> order;

	return n < PCP_LIST_SLOTS ? n : PCP_LIST_SLOTS;
}

/*
 * The blocks of @order a refill or a drain of @pcp's list (a set of
 * @zone) moves: @batch pages' worth (Linux's batch), or, where that is
 * more, a depot batch of @zone (pcp_depot_batch_blocks(): up to
 * PCP_BATCH_MIN_BLOCKS where the zone is large enough), at most @batch
 * blocks. A hand-off costs the zone lock and the cache lines it moves
 * whatever its size, and 64 pages are 8 blocks of order 3: so a drain
 * fills a depot batch and a refill takes one, at every order. A refill
 * is still held to the list's room (pcp_refill()), and a list to
 * pcp_list_max() blocks.
 */
static inline unsigned int pcp_handoff_blocks(const struct zone *zone,
					      const struct per_cpu_pages *pcp,
					      unsigned int order)
{
	unsigned int batch = (unsigned int)pcp->batch;
	unsigned int depot = MIN(batch, pcp_depot_batch_blocks(zone, order));

	return MAX(MAX(batch >> order, depot), 1U);
}

/*
 * Forget CPU @cpu's home set (its node changed), from any CPU: marks it
 * stale and closes its gates; the CPU gives it up at its next allocation
 * that leaves the fast path (pcp_home_enter()). A CPU not come up yet
 * has no home (cpu_has_percpu_area()): nothing to do.
 */
void pcp_home_forget(unsigned int cpu);

/*
 * On this CPU, at the entry of alloc_pages_slow() and free_pages_slow()
 * for @order: give up a stale home (its blocks back to their zone), and
 * for a cached order, open the home set's gates if a sender closed them
 * and answer pending requests. Inline, it costs a load or three when
 * there is nothing to do.
 */
void pcp_home_enter_slow(void);

static inline __attribute__((always_inline)) void
pcp_home_enter(unsigned int order)
{
	struct pcp_home *home = this_cpu_ptr(&pcp_home);

	if (unlikely(__atomic_load_n(&home->stale, __ATOMIC_RELAXED)))
		pcp_home_enter_slow();
	else if (order < NR_PCP_ORDERS &&
		 ((home->zone && pcp_fast_limit(&home->set.lists[order]) !=
		   pcp_list_max(&home->set, order)) || smp_request_pending()))
		pcp_home_enter_slow();
}

/*
 * On this CPU, which has no home: make @zone its home, with the run of
 * the map [@run, @run + @run_pages) all of that zone.
 */
void pcp_home_adopt(struct zone *zone, uintptr_t run, unsigned long run_pages);

/*
 * The zone's fast paths (page_alloc.c's rmqueue() and free_block(), for
 * any zone; the home set's own are inline, <mm/page_alloc_fast.h>): take
 * the top block of this CPU's list of @order, or push @page (allocated,
 * checked) on it. NULL or false when the list is empty or full, or a
 * request is pending: then the slow paths below, which answer requests,
 * refill or drain, and try again. These read the request word and
 * @high, not the gate: they also serve sets that have no gate.
 */
static inline __attribute__((always_inline)) struct page *
pcp_take(struct per_cpu_pages *pcp, unsigned int order)
{
	unsigned long n = pcp->lists[order].nr;
	struct page *page;

	if (unlikely(!n || smp_request_pending()))
		return NULL;
	page = pcp->lists[order].slot[--n];
	WRITE_ONCE(pcp->lists[order].nr, n);
	set_pg_state(page, PG_ALLOC | order);
	return page;
}

static inline __attribute__((always_inline)) bool
pcp_give(struct per_cpu_pages *pcp, struct page *page, unsigned int order)
{
	unsigned long n = pcp->lists[order].nr;

	if (unlikely(n >= pcp_list_max(pcp, order) || smp_request_pending()))
		return false;
	pcp->lists[order].slot[n] = page;
	WRITE_ONCE(pcp->lists[order].nr, n + 1);
	set_pg_state(page, PG_PCP | order);
	return true;
}

/*
 * The slow paths, on this CPU's set of @zone: pcp_alloc() returns a block
 * of @order taken from the list, refilled from the zone's buddy lists if
 * need be (NULL when they have none); pcp_free() puts @page on the list,
 * draining it first if full, or gives it to the buddy lists when this CPU
 * caches nothing.
 */
struct page *pcp_alloc(struct zone *zone, unsigned int order);
void pcp_free(struct zone *zone, struct page *page, unsigned int order);

/*
 * Cached pages of @zone (NULL: every zone), and cached blocks of @order,
 * on every online CPU: a snapshot, exact when the CPUs are still.
 */
unsigned long pcp_count_pages(const struct zone *zone);
unsigned long pcp_count_blocks(unsigned int order);

#ifdef CONFIG_HOST
void pcp_reset_for_test(void);
#endif

#endif /* MM_PAGE_PCP_H */
