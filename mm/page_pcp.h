/*
 * page_pcp.h - per-CPU pagesets: each CPU's lists of free blocks of the
 * small orders, served without the zone lock. Only mm/ includes this.
 *
 * Linux's struct per_cpu_pages, with Linux's meanings: @count pages sit in
 * the lists; a free that takes @count above @high gives @batch pages back
 * to the buddy lists, and an allocation that finds its list empty takes
 * @batch pages' worth of blocks (at least one) from them, each under one
 * zone-lock acquisition.
 *
 * Who touches what. Each field is under @lock. The owner CPU takes @lock
 * with spin_trylock() on every allocation and free: that fails only while
 * another CPU holds it, and then the owner goes to the buddy lists under
 * the zone lock instead of waiting. Other CPUs take @lock with spin_lock()
 * to empty the lists (drain_all_pages(), a CPU's death on the host), to
 * count or check them (nr_free_blocks(), page_alloc_check()) or to change
 * @high and @batch (setup_per_cpu_pageset(), zone_pcp_disable()). The lock
 * order is: a CPU's list lock, then the zone lock of the set's zone; no CPU
 * holds two list locks except page_alloc_check(), which takes them in
 * ascending CPU order, and each CPU's in ascending zone id order.
 * @count is also read without the lock (nr_free_pages(), and to skip
 * empty lists): written with WRITE_ONCE, read with READ_ONCE.
 *
 * Per-CPU areas start zeroed, and a zeroed set is valid: an unlocked lock,
 * empty lists, @batch 0 meaning "not set up yet", which sends the first
 * allocation and the first free to the slow path that sets it up.
 */
#ifndef MM_PAGE_PCP_H
#define MM_PAGE_PCP_H

#include <smp/percpu.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include "page_state.h"

/* Orders 0..PAGE_ALLOC_COSTLY_ORDER are cached (or fewer, on a small top). */
#define NR_PCP_ORDERS	(MIN(PAGE_ALLOC_COSTLY_ORDER, MAX_PAGE_ORDER) + 1)

/*
 * A cached block's first bytes: the next block of its list, and its own
 * struct page, so that taking it needs no lookup. page_alloc_check()
 * verifies @page against the block's address.
 */
struct pcp_block {
	struct pcp_block *next;
	struct page *page;
};

struct per_cpu_pages {
	spinlock_t lock;
	int count;			/* pages in all lists */
	int high;			/* drain when count goes above */
	int batch;			/* pages per refill or drain; 0: not set up */
	struct pcp_block *lists[NR_PCP_ORDERS];	/* LIFO, hottest first */
};

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

/*
 * Slow paths, called with @pcp (this CPU's) locked; they return with it
 * still locked. pcp_refill() fills the empty list of @order and takes one
 * block from it (NULL when the buddy lists have none); pcp_free_high()
 * gives @batch pages back after a free took @count above @high (and sets
 * up a set that has not been).
 */
struct page *pcp_refill(struct zone *zone, struct per_cpu_pages *pcp,
			unsigned int order);
void pcp_free_high(struct zone *zone, struct per_cpu_pages *pcp,
		   unsigned int order);

/*
 * Cached pages on every online CPU, of @zone (NULL: every zone), read
 * without the locks.
 */
unsigned long pcp_count_pages(const struct zone *zone);
/* Cached blocks of @order on every online CPU, counted under their locks. */
unsigned long pcp_count_blocks(unsigned int order);
/*
 * Take every online CPU's list locks (each CPU's sets in zone id order,
 * CPUs ascending), noting which CPUs in @locked; release those.
 */
#define PCP_CPU_WORDS	((NR_CPUS + 63) / 64)
void pcp_lock_all(unsigned long *locked);
void pcp_unlock_all(const unsigned long *locked);

#ifdef CONFIG_HOST
void pcp_reset_for_test(void);
#endif

#endif /* MM_PAGE_PCP_H */
