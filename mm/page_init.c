/*
 * page_init.c - the hand-off: memblock_free_all() gives every free range
 * to the buddy allocator.
 *
 * Its cost is the metadata it writes and a few steps per free range, not
 * one step per top-order block: RAM itself is not touched. Each struct
 * page byte is written once, in ascending order: RESERVED outside the free
 * ranges (reservations, the metadata itself, holes in a present section,
 * no-map memory, partial pages), TAIL inside them. Each free range is then
 * cut into the largest naturally aligned blocks (bounded by MAX_PAGE_ORDER,
 * by the alignment of the next pfn and by what is left). The few blocks
 * below the top order at either end go onto their free lists; the run of
 * top-order blocks in between only gets head bytes and is recorded as one
 * deferred run (page_state.h), which alloc_pages() carves a block at a time
 * when the top-order list is empty. A top-order block never merges further,
 * so a deferred block needs no list node until it is allocated and freed.
 * Greedy cutting leaves no two free buddies unmerged, because two
 * same-order neighbours could only both appear if the first could have been
 * twice as large.
 *
 * Nodes and zones: every range goes to its own node's zone, ZONE_DMA32
 * below 4 GiB and ZONE_NORMAL above, and ranges of different zones are cut
 * apart even where they touch, so no block spans two zones. A node is set
 * up (its pg_data_t, and its part of the per-page map (sparse.c), each
 * allocated on its own memory when it has room, else on the nearest node
 * that has, said on the console) for every online node and every node
 * memblock's memory names. Memory in no
 * node (NUMA_NO_NODE, or a node id out of range) goes to the lowest such
 * node, the default node, said on the console when other memory has a
 * node; a node without memory is said too, and allocates from its
 * zonelist like any other. See docs/allocator.md.
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <mm/numa.h>
#include "page_pcp.h"
#include "page_state.h"
#include "sparse.h"

/*
 * Set the struct page bytes of [@from, @to) that the map covers to @v.
 * Calls come in ascending order; *@k is the section the last one ended in.
 */
static void set_map(unsigned long *k, unsigned long from, unsigned long to,
		    uint8_t v)
{
	const struct page_allocator *pa = &page_allocator;

	for (; *k < pa->nr_sections; ++*k) {
		const struct mem_section *ms = &pa->sections[*k];
		unsigned long b = (ms->section << PFN_SECTION_SHIFT) + ms->lo;
		unsigned long e = b + (ms->hi - ms->lo);
		unsigned long s = MAX(from, b), t = MIN(to, e);

		if (s < t)
			memset(&pa->parts[ms->part].map[ms->start + (s - b)],
			       v, t - s);
		if (e > to)
			return;
	}
}

/* The whole top-order blocks of [@start, @end). Return: how many. */
static unsigned long top_blocks_in(unsigned long start, unsigned long end)
{
	unsigned long first = ALIGN_UP(start, MAX_BLOCK_PAGES);

	return first < end ? (end - first) >> MAX_PAGE_ORDER : 0;
}

/*
 * Record @n free top-order blocks from @pfn as a deferred run of @zone.
 * Return: false when there is no room (the caller links them instead).
 */
static bool defer_run(struct zone *zone, unsigned long pfn, unsigned long n)
{
	struct page *page = NULL;
	unsigned long end = 0;

	if (zone->nr_runs == zone->max_runs)
		return false;
	zone->deferred[zone->nr_runs++] = (struct deferred_run){ pfn, n };
	zone->nr_deferred += n;
	zone->free_area[MAX_PAGE_ORDER].nr_free += n;
	/* The map is contiguous within a piece: look up once per piece. */
	for (unsigned long i = 0; i < n; i++, pfn += MAX_BLOCK_PAGES) {
		if (!page || pfn >= end)
			page = pfn_to_page_piece(pfn, &end);
		else
			page += MAX_BLOCK_PAGES;
		page->state = PG_FREE | MAX_PAGE_ORDER;
	}
	return true;
}

/* Give [@start, @end) of @zone, whose bytes are TAIL, to the allocator. */
static unsigned long free_pfn_range(struct zone *zone, unsigned long start,
				    unsigned long end)
{
	unsigned long pfn, blocks = 0;
	unsigned int order;

	for (pfn = start; pfn < end; pfn += 1UL << order) {
		struct page *page;

		order = pfn_align_order(pfn);
		while ((1UL << order) > end - pfn)
			order--;
		/* Aligned to the top order: top-order blocks to the end. */
		if (order == MAX_PAGE_ORDER &&
		    defer_run(zone, pfn, (end - pfn) >> MAX_PAGE_ORDER)) {
			blocks += (end - pfn) >> MAX_PAGE_ORDER;
			pfn += ALIGN_DOWN(end - pfn, MAX_BLOCK_PAGES) -
			       MAX_BLOCK_PAGES;
			continue;
		}
		page = __pfn_to_page(pfn);
		page->state = PG_FREE | order;
		free_area_add(zone, order, page);
		blocks++;
	}
	return blocks;
}

int memory_nid(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES && node_data[nid]
		       ? nid : page_allocator.default_nid;
}

static struct zone *pfn_zone_of(int nid, unsigned long pfn)
{
	return &node_data[nid]->node_zones[pfn < DMA32_END_PFN ? ZONE_DMA32
							       : ZONE_NORMAL];
}

/*
 * A walk over memblock's memory cut by zone, ascending: [*@spfn, *@epfn)
 * whole pages of one zone, *@zone. With @free, only the free ranges (not
 * reserved, not no-map), each joined with the free ranges of the same
 * node that touch it; without, every memory region (no-map ones too, as
 * Linux's zone spans), joined the same way. Start with an iterator zeroed.
 * Return: false at the end.
 */
struct zone_walk {
	uint64_t i;			/* memblock iterator; END when done */
	bool free;
	bool have;			/* @start..@end, @nid pending */
	phys_addr_t start, end;
	int nid;
	unsigned long cut;		/* the part of the pending range given */
};

static bool walk_next_range(struct zone_walk *w, phys_addr_t *start,
			    phys_addr_t *end, int *nid)
{
	if (w->i == MEMBLOCK_ITER_END)
		return false;
	if (w->free) {
		__next_mem_range(&w->i, NUMA_NO_NODE, MEMBLOCK_NONE,
				 &memblock.memory, &memblock.reserved, start,
				 end, nid);
		return w->i != MEMBLOCK_ITER_END;
	}
	if (w->i >= memblock.memory.cnt) {
		w->i = MEMBLOCK_ITER_END;
		return false;
	}
	*start = memblock.memory.regions[w->i].base;
	*end = *start + memblock.memory.regions[w->i].size;
	*nid = memblock.memory.regions[w->i].nid;
	w->i++;
	return true;
}

static bool zone_walk_next(struct zone_walk *w, unsigned long *spfn,
			   unsigned long *epfn, struct zone **zone)
{
	phys_addr_t s, e;
	int nid;

	for (;;) {
		if (!w->have) {
			if (!walk_next_range(w, &w->start, &w->end, &w->nid))
				return false;
			w->nid = memory_nid(w->nid);
			w->have = true;
			w->cut = 0;
			/* Join what touches it, in the same node. */
			for (;;) {
				struct zone_walk peek = *w;

				if (!walk_next_range(&peek, &s, &e, &nid) ||
				    s != w->end || memory_nid(nid) != w->nid)
					break;
				w->end = e;
				w->i = peek.i;
			}
		}
		*spfn = pfn_up(w->start);
		*epfn = PHYS_PFN(w->end);
		/* The part below 4 GiB, then the part above. */
		if (!w->cut && *spfn < DMA32_END_PFN && *epfn > DMA32_END_PFN) {
			*epfn = DMA32_END_PFN;
			w->cut = 1;
		} else {
			if (w->cut)
				*spfn = DMA32_END_PFN;
			w->have = false;
		}
		if (*spfn < *epfn) {
			*zone = pfn_zone_of(w->nid, *spfn);
			return true;
		}
	}
}

/* Free ranges holding a whole top-order block: each makes one run. */
static unsigned long count_runs(void)
{
	struct zone_walk w = { .free = true };
	unsigned long spfn, epfn, n = 0;
	struct zone *zone;

	while (zone_walk_next(&w, &spfn, &epfn, &zone))
		if (top_blocks_in(spfn, epfn)) {
			zone->max_runs++;
			n++;
		}
	return n;
}

/*
 * Every memory range by zone: count the segments (touching ranges of one
 * zone make one), and with @fill record them and each zone's and node's
 * span and present pages.
 */
static unsigned long walk_segments(bool fill)
{
	struct page_allocator *pa = &page_allocator;
	struct zone_walk w = { .free = false };
	unsigned long spfn, epfn, n = 0;
	struct zone *zone, *last = NULL;
	unsigned long last_end = 0;

	while (zone_walk_next(&w, &spfn, &epfn, &zone)) {
		if (fill) {
			unsigned long zend = zone->zone_start_pfn +
					     zone->spanned_pages;

			if (!zone->present_pages)
				zone->zone_start_pfn = spfn;
			zone->spanned_pages = MAX(zend, epfn) - zone->zone_start_pfn;
			zone->present_pages += epfn - spfn;
		}
		if (zone == last && spfn == last_end) {
			if (fill)
				pa->segments[n - 1].end = epfn;
		} else {
			if (fill)
				pa->segments[n] = (struct zone_segment){
					spfn, epfn, zone->id };
			n++;
		}
		last = zone;
		last_end = epfn;
	}
	return n;
}

/* Each chunk of the map: the zone all its memory is in, or CHUNK_MIXED. */
static void set_chunk_zones(void)
{
	struct page_allocator *pa = &page_allocator;

	for (unsigned long k = 0; k < pa->nr_segments; k++) {
		const struct zone_segment *seg = &pa->segments[k];

		for (unsigned long pfn = seg->start; pfn < seg->end;
		     pfn = ALIGN_DOWN(pfn, MAP_CHUNK_PAGES) + MAP_CHUNK_PAGES) {
			struct page *page = __pfn_to_page(pfn);
			const struct map_part *part;
			uint8_t *c;

			if (!page)
				continue;
			part = page_part(page);
			c = &part->chunk_zone[(unsigned long)(page - part->map) >>
					      MAP_CHUNK_SHIFT];
			if (*c == CHUNK_NO_ZONE)
				*c = (uint8_t)seg->zone_id;
			else if (*c != seg->zone_id)
				*c = CHUNK_MIXED;
		}
	}
}

/* The one node's pg_data_t of a machine with one node: no allocation. */
static struct pglist_data boot_pgdat;

static void pgdat_init(struct pglist_data *pgdat, int nid)
{
	memset(pgdat, 0, sizeof(*pgdat));
	pgdat->node_id = nid;
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		zone->zone_pgdat = pgdat;
		zone->node = nid;
		zone->zone_idx = z;
		zone->id = (unsigned int)nid * MAX_NR_ZONES + z;
		zone->name = zone_names[z];
		zone->per_cpu_pageset = &pcp_pages[zone->id];
		spin_lock_init(&zone->lock);
		zone_init_lists(zone);
	}
	node_data[nid] = pgdat;
}

/*
 * Which nodes exist: every online node and every node memblock's memory
 * names. Say what is odd, choose the default node and set up each node's
 * pg_data_t. Return: 0, or -ENOMEM (reported).
 */
static int setup_nodes(void)
{
	struct page_allocator *pa = &page_allocator;
	nodemask_t nodes = node_online_map, with_memory;
	bool some_node = false, no_node = false, bad_node = false;
	int nid, n = 0;

	nodes_clear(&with_memory);
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		int rnid = memblock.memory.regions[i].nid;

		if (rnid == NUMA_NO_NODE) {
			no_node = true;
		} else if (rnid < 0 || rnid >= MAX_NUMNODES) {
			bad_node = true;
		} else {
			some_node = true;
			node_set(rnid, &nodes);
			node_set(rnid, &with_memory);
		}
	}
	pa->default_nid = next_node(-1, &nodes);
	if (pa->default_nid >= MAX_NUMNODES) {
		pa->default_nid = 0;
		node_set(0, &nodes);
	}
	if (!some_node)
		node_set(pa->default_nid, &with_memory);
	if (bad_node)
		pr_warn("memblock_free_all: memory in a node out of range (at "
			"most %d nodes): placed in node %d\n", MAX_NUMNODES,
			pa->default_nid);
	if (no_node && some_node) {
		pr_warn("memblock_free_all: memory in no node: placed in node "
			"%d\n", pa->default_nid);
		node_set(pa->default_nid, &with_memory);
	}
	for_each_node_mask(nid, nodes) {
		/* A node memory names is online (the reader may not say so). */
		node_set_online(nid);
		n++;
	}
	for_each_node_mask(nid, nodes) {
		struct pglist_data *pgdat = &boot_pgdat;

		if (n > 1) {
			phys_addr_t phys = alloc_on_node(sizeof(*pgdat), 64, nid,
							 "node data");

			if (!phys) {
				pr_err("memblock_free_all: no room for node %d's "
				       "data\n", nid);
				return -ENOMEM;
			}
			pgdat = phys_to_virt(phys);
		}
		pgdat_init(pgdat, nid);
		if (!node_isset(nid, &with_memory))
			pr_info("memblock_free_all: node %d has no memory: it "
				"allocates from the nearest nodes\n", nid);
	}
	return 0;
}

/*
 * Each node's zonelist: its own populated zones, ZONE_NORMAL first, then
 * every other node's, nearest first (ties: lower node id), as Linux's
 * node-ordered zonelists. The hand-off builds them; see <mm/mmzone.h> for
 * building them again.
 */
void build_all_zonelists(void)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = node_data[nid];
		bool used[MAX_NUMNODES] = { false };
		unsigned int n = 0;

		if (!pgdat)
			continue;
		for (;;) {
			int best = -1;

			for (int k = 0; k < MAX_NUMNODES; k++)
				if (node_data[k] && !used[k] &&
				    (best < 0 || node_distance(nid, k) <
						 node_distance(nid, best) ||
				     (k == nid && node_distance(nid, k) ==
						  node_distance(nid, best))))
					best = k;
			if (best < 0)
				break;
			used[best] = true;
			for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
				struct zone *zone = &node_data[best]->node_zones[z];

				if (populated_zone(zone))
					pgdat->node_zonelist.zones[n++] = zone;
			}
		}
		pgdat->node_zonelist.zones[n] = NULL;
	}
}

/* Slice the run table among the zones, set their spans and the tables. */
static void setup_zones(void)
{
	struct page_allocator *pa = &page_allocator;
	struct deferred_run *runs = pa->run_table;

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = node_data[nid];

		if (!pgdat)
			continue;
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			zone->deferred = runs;
			runs += zone->max_runs;
		}
	}
	pa->nr_segments = walk_segments(true);
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = node_data[nid];
		unsigned long end = 0;

		if (!pgdat)
			continue;
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			if (!zone->present_pages)
				continue;
			if (!pgdat->node_present_pages)
				pgdat->node_start_pfn = zone->zone_start_pfn;
			pgdat->node_present_pages += zone->present_pages;
			end = zone->zone_start_pfn + zone->spanned_pages;
		}
		pgdat->node_spanned_pages = end - pgdat->node_start_pfn;
	}
	set_chunk_zones();
}

/* Present sections: a section of two nodes has a piece in each part. */
static unsigned long nr_present_sections(void)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long n = 0;

	for (unsigned long k = 0; k < pa->nr_sections; k++)
		n += !k || pa->sections[k].section != pa->sections[k - 1].section;
	return n;
}

unsigned long memblock_free_all(void)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long pages = 0, blocks = 0, k = 0, done = 0;
	unsigned long spfn, epfn;
	struct zone_walk w = { .free = true };
	struct zone *zone;

	if (memblock.handed_off) {
		pr_err("memblock_free_all: already called; nothing to do\n");
		return 0;
	}
	/* The page-0 policy: see memblock_free_all() in <mm/memblock.h>. */
	if (!phys_to_virt(0) && memblock_is_memory(0) &&
	    !memblock_is_region_reserved(0, PAGE_SIZE)) {
		if (memblock_reserve(0, PAGE_SIZE))
			return 0;
		pr_info("memblock_free_all: page 0 kept out: physical 0 is "
			"NULL here\n");
	}
	/*
	 * The nodes' data first: their memblock allocations only trim free
	 * ranges, as the metadata's below does, so neither adds a run.
	 */
	if (setup_nodes() ||
	    sparse_init(count_runs(), walk_segments(false))) {
		/* No zone: every entry point finds nothing, as documented. */
		memset(node_data, 0, sizeof(node_data));
		return 0;
	}
	memblock.handed_off = true;
	setup_zones();

	while (zone_walk_next(&w, &spfn, &epfn, &zone)) {
		unsigned long n;

		set_map(&k, done, spfn, PG_RESERVED);
		set_map(&k, spfn, epfn, PG_TAIL);
		done = epfn;
		n = free_pfn_range(zone, spfn, epfn);
		zone->handoff_blocks += n;
		zone->managed_pages += epfn - spfn;
		blocks += n;
		pages += epfn - spfn;
	}
	set_map(&k, done, ~0UL, PG_RESERVED);
	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
		struct pglist_data *pgdat = node_data[id / MAX_NR_ZONES];

		zone = pgdat ? &pgdat->node_zones[id % MAX_NR_ZONES] : NULL;
		pa->zone_table[id] = zone && populated_zone(zone) ? zone : NULL;
	}
	build_all_zonelists();
	pa->nr_managed = pages;
	pa->handoff_blocks = blocks;
	pr_info("memblock_free_all: %lu pages (%lu KiB) in %lu blocks to the "
		"buddy allocator (%lu top-order blocks deferred); metadata %zu "
		"bytes for %lu sections, in %lu pages\n", pages,
		pages << (PAGE_SHIFT - 10), blocks, nr_deferred_blocks(),
		pa->metadata_bytes, nr_present_sections(), pa->metadata_pages);
	/* Where memory is, when it is in more than one zone. */
	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
		zone = pa->zone_table[id];
		if (zone && zone->managed_pages != pages)
			pr_info("memblock_free_all: node %d zone %s: pfn %#lx+%#lx, "
				"%lu pages\n", zone->node, zone->name,
				zone->zone_start_pfn, zone->spanned_pages,
				zone->managed_pages);
	}
	setup_per_cpu_pageset();
	return pages;
}

unsigned long nr_deferred_blocks(void)
{
	unsigned long n = 0;

	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++)
		if (page_allocator.zone_table[id])
			n += page_allocator.zone_table[id]->nr_deferred;
	return n;
}
