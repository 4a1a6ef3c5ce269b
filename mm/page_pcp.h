/*
 * page_pcp.h - per-CPU pagesets: each CPU's lists of free blocks of the
 * small orders, served without the zone lock, without atomics and without
 * touching the blocks' memory. Only mm/ includes this.
 *
 * Linux's struct per_cpu_pages, with Linux's meanings for @high and
 * @batch: an allocation that finds its list empty takes @batch pages'
 * worth of blocks from the buddy lists, and a free to a list that holds
 * @high pages first gives @batch pages' worth back, each under one
 * zone-lock acquisition. A list is an array of struct page pointers used
 * as a stack (the hottest block on top), so taking or giving a block
 * writes the array and its block's state byte, never the block.
 *
 * Who touches what. A set is its CPU's alone: its fast paths use plain
 * loads and stores. Another CPU acts on it only through a per-CPU request
 * (include/smp/smp.h), which runs either on the owner, at a poll point
 * (the fast paths check smp_request_pending() before touching the set),
 * or on the sender while the owner is away: never both at once. So
 * draining (drain_all_pages()), retuning (setup_per_cpu_pageset(),
 * zone_pcp_disable()) and checking (page_alloc_check(), which stops the
 * other CPUs) are requests. The one exception: @nr is read without any of
 * that, as a snapshot, by nr_free_pages(), nr_free_blocks() and to skip
 * empty sets: the owner writes it with WRITE_ONCE, readers READ_ONCE.
 *
 * Per-CPU areas start zeroed, and a zeroed set is valid: empty lists, and
 * @limit 0 and @batch 0 meaning "not set up yet", which send the first
 * allocation and the first free to the slow path that sets it up. A set
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
 * this CPU's set for that zone. A set only ever holds blocks of its zone.
 */
DECLARE_PER_CPU(struct per_cpu_pages, pcp_pages[MAX_ZONE_IDS]);

static inline struct per_cpu_pages *zone_pcp(struct zone *zone, unsigned int cpu)
{
	return per_cpu_ptr(zone->per_cpu_pageset, cpu);
}

/* struct pcp_home, this CPU's home set: <mm/page_alloc_fast.h>. */

/* Forget CPU @cpu's home set (its node changed); the next slow path
 * finds it again. */
static inline void pcp_home_forget(unsigned int cpu)
{
	WRITE_ONCE(per_cpu_ptr(&pcp_home, cpu)->pcp, NULL);
}

/*
 * The zone's fast paths (page_alloc.c's rmqueue() and free_block(), for
 * any zone; the home set's own are inline, <mm/page_alloc_fast.h>): take
 * the top block of this CPU's list of @order, or push @page (allocated,
 * checked) on it. NULL or false when the
 * list is empty or full, or a request is pending: then the slow paths
 * below, which answer requests, refill or drain, and try again.
 */
static inline __attribute__((always_inline)) struct page *
pcp_take(struct per_cpu_pages *pcp, unsigned int order)
{
	unsigned int n = pcp->nr[order];
	struct page *page;

	if (unlikely(!n || smp_request_pending()))
		return NULL;
	page = pcp->lists[order][--n];
	WRITE_ONCE(pcp->nr[order], n);
	set_pg_state(page, PG_ALLOC | order);
	return page;
}

static inline __attribute__((always_inline)) bool
pcp_give(struct per_cpu_pages *pcp, struct page *page, unsigned int order)
{
	unsigned int n = pcp->nr[order];

	if (unlikely(n >= pcp->limit[order] || smp_request_pending()))
		return false;
	pcp->lists[order][n] = page;
	WRITE_ONCE(pcp->nr[order], n + 1);
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
