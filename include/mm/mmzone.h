/*
 * mmzone.h - where memory is: NUMA nodes (pg_data_t, NODE_DATA(nid)) and
 * their zones, with Linux's names and meanings.
 *
 * Every node that the boot information names has a pg_data_t. Each node's
 * memory is split into ZONE_DMA32 (physical addresses below 4 GiB) and
 * ZONE_NORMAL (the rest); each zone has its own buddy lists, counts, lock
 * and per-CPU pagesets, and a block never spans two zones, nor merges
 * across their boundary. A node's zonelist orders every populated zone of
 * the machine for an allocation that starts at that node: the node's own
 * zones first (ZONE_NORMAL before ZONE_DMA32), then the other nodes' by
 * node_distance(), nearest first (equal distances: lower node id first).
 * See docs/allocator.md.
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/numa.h>
#include <mm/page_order.h>
#include <smp/smp.h>
#include <smp/spinlock.h>

enum zone_type {
	ZONE_DMA32,	/* physical addresses below 4 GiB */
	ZONE_NORMAL,	/* at and above 4 GiB */
	MAX_NR_ZONES
};

/* The first pfn of ZONE_NORMAL: 4 GiB, whatever the page size. */
#define DMA32_END_PFN	((unsigned long)(0x100000000ULL >> PAGE_SHIFT))

/* One number per (node, zone): the index into zone tables. */
#define MAX_ZONE_IDS	(MAX_NUMNODES * MAX_NR_ZONES)

/*
 * A free block's first bytes hold its list node, which names the block's
 * struct page (so taking a block needs no lookup). @check is the node's
 * and the page's addresses XOR a constant, so stray writes into free
 * memory show up.
 */
struct page;
struct free_block {
	struct free_block *next;
	struct free_block *prev;
	struct page *page;
	uintptr_t check;
};

struct free_area {
	struct free_block list;		/* sentinel of a circular list */
	unsigned long nr_free;		/* free blocks: listed and deferred */
};

/*
 * Free top-order blocks the hand-off did not link (see page_init.c): a run
 * of @nr blocks from @pfn, each with a PG_FREE | MAX_PAGE_ORDER head byte
 * and no list node. Counted in free_area[MAX_PAGE_ORDER].nr_free.
 */
struct deferred_run {
	unsigned long pfn;
	unsigned long nr;
};

struct per_cpu_pages;
struct pglist_data;

/*
 * Blocks a per-CPU list can hold, whatever its order: each CPU has a set
 * for every possible zone (mm/page_pcp.h), so this stays small.
 */
#define PCP_LIST_SLOTS	64

/*
 * The depot: whole batches of cached blocks on their way between CPUs
 * (mm/page_pcp.c). A CPU whose list is full leaves its top batch here
 * instead of merging it into the buddy lists, and a CPU whose list is
 * empty takes a batch of its order from here before it splits a block:
 * a block freed on one CPU reaches an allocation on another without a
 * merge and a split. Its blocks stay cached (PG_PCP), counted, checked
 * and drained (drain_all_pages()) with the lists' blocks.
 */
#define PCP_DEPOT_BATCHES	4
/*
 * Blocks of @order a depot batch holds (pcp_depot_batch_blocks(), below):
 * 64 pages' worth, or up to PCP_BATCH_MIN_BLOCKS blocks where the zone
 * has 128 times the pages for it: a hand-off costs the zone lock and the
 * cache lines it moves whatever its size, and 64 pages are only 8 blocks
 * of order 3. So the depot's four batches cache at most 256 pages (1 MiB
 * with 4 KiB pages) or, where that is more, 1/32 of the zone.
 */
#define PCP_BATCH_MIN_BLOCKS	32U
#define PCP_DEPOT_SHARE_SHIFT	7

/*
 * The depot's bookkeeping, in the zone lock's cache line: a CPU that takes
 * the lock to put or take a batch finds here which batch to use without
 * another line. Batch k (0 the oldest, nr - 1 the newest) holds blocks[k]
 * blocks (1..pcp_depot_batch_blocks(zone, order[k])) of order[k], in row
 * row[k] of zone->pcp_depot_slot[] (a new batch takes a row no batch in
 * use has); taking a batch out moves these bytes, never the rows. Of
 * each order only the newest batch may have room (pcp_depot_put() fills
 * it first).
 */
struct pcp_depot {
	uint8_t nr;				/* batches in use */
	uint8_t order[PCP_DEPOT_BATCHES];
	uint8_t blocks[PCP_DEPOT_BATCHES];
	uint8_t row[PCP_DEPOT_BATCHES];		/* distinct while in use */
};
_Static_assert(PCP_LIST_SLOTS <= 255, "a batch's count is a byte");

struct zone {
	/* Written by the hand-off, read-only afterwards. */
	struct pglist_data *zone_pgdat;
	/* Per-CPU pointer (this_cpu_ptr()) to this zone's pageset. */
	struct per_cpu_pages *per_cpu_pageset;
	const char *name;
	int node;
	unsigned int zone_idx;		/* enum zone_type */
	unsigned int id;		/* node * MAX_NR_ZONES + zone_idx */
	unsigned long zone_start_pfn;	/* lowest pfn of memory in it */
	unsigned long spanned_pages;	/* up to its highest pfn, holes too */
	unsigned long present_pages;	/* memory pages in it */
	unsigned long managed_pages;	/* pages in free or allocated blocks */
	unsigned long handoff_blocks;	/* blocks memblock_free_all() made */

	/*
	 * The zone lock. Under it: free_area[] (lists and nr_free, which
	 * nr_free_pages() reads without it: WRITE_ONCE), the deferred runs
	 * (deferred[], nr_runs, nr_deferred; the table itself is set up by
	 * the hand-off), the depot, the FREE and TAIL bytes of free blocks
	 * in the zone, contiguous allocations' head bytes while they are
	 * made or freed, and @lock_count.
	 */
	spinlock_t lock __aligned(64);
	/* The depot's counts are also read without the lock: WRITE_ONCE. */
	struct pcp_depot pcp_depot;
	unsigned long lock_count;	/* acquisitions, for the benchmark */
	struct deferred_run *deferred;	/* [nr_runs], ascending */
	unsigned long nr_runs;		/* runs in use */
	unsigned long nr_deferred;	/* blocks in all runs */
	unsigned long max_runs;		/* room for runs */
	struct free_area free_area[NR_PAGE_ORDERS];
	/*
	 * The depot's blocks: row pcp_depot.row[k] holds batch k's. A row
	 * per line-aligned run, so that a batch of few blocks is one line.
	 */
	struct page *pcp_depot_slot[PCP_DEPOT_BATCHES][PCP_LIST_SLOTS]
		__aligned(64);
};
_Static_assert(__builtin_offsetof(struct zone, pcp_depot) +
	       sizeof(struct pcp_depot) <=
	       __builtin_offsetof(struct zone, lock) + 64,
	       "the depot's bookkeeping shares the zone lock's line");

/* The blocks of @order one of @zone's depot batches holds at most. */
static inline unsigned int pcp_depot_batch_blocks(const struct zone *zone,
						  unsigned int order)
{
	unsigned long share = (zone->managed_pages >> PCP_DEPOT_SHARE_SHIFT) >>
			      order;
	unsigned int blocks = (unsigned int)PCP_LIST_SLOTS >> order;

	if (share > PCP_BATCH_MIN_BLOCKS)
		share = PCP_BATCH_MIN_BLOCKS;
	return share > blocks ? (unsigned int)share : blocks;
}

/* Batch @k of @zone's depot: its blocks. */
static inline struct page **pcp_depot_batch(struct zone *zone, unsigned int k)
{
	return zone->pcp_depot_slot[zone->pcp_depot.row[k]];
}

/* The zones an allocation may use, in order, ending with NULL. */
struct zonelist {
	struct zone *zones[MAX_ZONE_IDS + 1];
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelist;	/* fallback order from this node */
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
	unsigned long node_present_pages;
} pg_data_t;

/*
 * The node's pg_data_t, or NULL for a node the hand-off did not set up
 * (out of range, not online, or before memblock_free_all()). Each is
 * allocated on its own node when that node has room.
 */
extern struct pglist_data *node_data[MAX_NUMNODES];

static inline struct pglist_data *NODE_DATA(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES ? node_data[nid] : NULL;
}

static inline bool populated_zone(const struct zone *zone)
{
	return zone->managed_pages != 0;
}

/* zone_names - "DMA32", "Normal", as /proc/buddyinfo prints them. */
extern const char *const zone_names[MAX_NR_ZONES];

/* Pages free in a zone, in a node: buddy lists and per-CPU caches. */
unsigned long zone_free_pages(const struct zone *zone);
unsigned long node_free_pages(int nid);
/* Pages in free or allocated blocks of node @nid (0 for no such node). */
unsigned long node_managed_pages(int nid);

/*
 * node_page_map - node @nid's part of the per-page map (the struct pages
 * of the map chunks whose first memory is the node's), allocated in the
 * node's own memory when it had room: its first struct page, and in
 * *@nr_pages how many it holds. NULL when the node has no part.
 */
const struct page *node_page_map(int nid, unsigned long *nr_pages);

/* page_zone - the zone of a page of the allocator. */
struct page;
struct zone *page_zone(const struct page *page);
static inline int page_to_nid(const struct page *page)
{
	return page_zone(page)->node;
}

/*
 * build_all_zonelists - order every node's zonelist again from
 * node_distance(). memblock_free_all() does it; a reader that sets
 * distances after the hand-off calls it, on the boot CPU before secondary
 * CPUs start (zonelists are read without a lock).
 */
void build_all_zonelists(void);

/* The node of the calling CPU. */
static inline int numa_node_id(void)
{
	return cpu_to_node(smp_processor_id());
}

#endif /* MM_MMZONE_H */
