/*
 * numa.c - nodes, zones and contiguous ranges on the real allocator with
 * the machine's real memory (one node, or what -numa gave).
 *
 *   numa_node_every_order    (STAGE_BUDDY + 1) each node with memory gives
 *                            every order from its own memory with
 *                            __GFP_THISNODE (an order it has no block of
 *                            is refused), each block placed correctly,
 *                            written and read back; its part of the
 *                            per-page map lies in its own memory
 *   numa_thisnode_exhaust    (+1) each node, __GFP_THISNODE, every order
 *                            from the top down until refused: exactly the
 *                            node's free pages, all its own; then a plain
 *                            allocation for it falls back to the nearest
 *                            node with free memory by node_distance()
 *                            (ties: the lower id), or fails on a one-node
 *                            machine
 *   numa_dma32_exhaust       (+1) GFP_DMA32 until refused: exactly the
 *                            ZONE_DMA32 free pages, every block below
 *                            4 GiB; a plain allocation still succeeds
 *                            from ZONE_NORMAL (skipped without memory
 *                            above 4 GiB)
 *   numa_contig_1g           (after the integrity stage, when memory has
 *                            been exhausted, fragmented and freed again)
 *                            alloc_contig_pages() of 1 GiB: on a machine
 *                            of 3 GiB or more it must succeed, aligned,
 *                            every word written and read back, counted,
 *                            refused by __free_pages(), given back by
 *                            free_contig_range(); a second free of it is
 *                            refused and changes nothing
 *
 * Each ends with buddy_restored(): counts, page_alloc_check() and the top
 * order as before.
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <mm/mmzone.h>
#include <selftest/selftest.h>
#include "buddy_check.h"

#define SZ_1G_PAGES	((unsigned long)((1ULL << 30) >> PAGE_SHIFT))

/* Whether node @nid has any memory the allocator manages. */
static bool node_has_memory(int nid)
{
	return node_managed_pages(nid) != 0;
}

/* @page of @order is in node @nid and, with @dma32, below 4 GiB. */
static bool placed_in(struct page *page, unsigned int order, int nid,
		      bool dma32)
{
	unsigned long pfn = page_to_pfn(page);

	if (!block_placement_ok(page, order))
		return false;
	if (nid != NUMA_NO_NODE && page_to_nid(page) != nid)
		return selftest_fail(__FILE__, __LINE__, "block at pfn %#lx "
				     "order %u is in node %d, not %d", pfn,
				     order, page_to_nid(page), nid);
	if (dma32 && pfn + (1UL << order) > DMA32_END_PFN)
		return selftest_fail(__FILE__, __LINE__, "GFP_DMA32 block at "
				     "pfn %#lx order %u reaches above 4 GiB",
				     pfn, order);
	return true;
}

/* The node of the memory holding the struct page @p (of the map). */
static int map_node(const struct page *p)
{
	struct page *page = p ? virt_to_page(p) : NULL;
	struct zone *zone = page ? page_zone(page) : NULL;

	return zone ? zone->node : NUMA_NO_NODE;
}

SELFTEST(numa_node_every_order, STAGE_BUDDY + 1)
{
	struct buddy_counts before;
	int nid, nodes = 0;

	buddy_counts_take(&before);
	for_each_online_node(nid) {
		const struct page *map;
		unsigned long map_pages;

		if (!node_has_memory(nid))
			continue;
		nodes++;
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			struct page *p = alloc_pages_node(nid, __GFP_THISNODE |
							  __GFP_NOWARN, o);
			size_t bytes = PAGE_SIZE << o;
			long bad;

			if (!p)
				continue;	/* the node has no such block */
			if (!placed_in(p, o, nid, false))
				return false;
			pattern_fill(page_address(p), bytes, page_to_pfn(p));
			bad = pattern_mismatch(page_address(p), bytes,
					       page_to_pfn(p));
			__free_pages(p, o);
			SELFTEST_EXPECT(bad < 0, "node %d order %u: word %ld "
					"reads wrong", nid, o, bad);
		}
		map = node_page_map(nid, &map_pages);
		SELFTEST_EXPECT(!map || (map_node(map) == nid &&
					 map_node(map + map_pages - 1) == nid),
				"node %d: its page map is on node %d", nid,
				map_node(map));
		/* The smallest order is always there while it has memory. */
		printk("# numa: node %d: %lu pages managed, every order it has "
		       "came from it; ", nid, node_managed_pages(nid));
		if (map)
			printk("its page map (%lu bytes) at %#llx is its own\n",
			       map_pages * sizeof(struct page),
			       (unsigned long long)virt_to_phys(map));
		else
			printk("no part of the page map of its own: its memory "
			       "lies in chunks that begin with another node's\n");
	}
	SELFTEST_EXPECT(nodes >= 1, "no node has memory");
	return buddy_restored(&before, "after every node's orders");
}

/*
 * Take blocks of @gfp from node @nid, the top order first, until refused,
 * each checked. Return: the pages taken (into @chains), or ~0UL on a
 * failure (reported).
 */
static unsigned long exhaust(int nid, gfp_t gfp, struct block_chain *chains,
			     int want_nid, bool dma32)
{
	unsigned long pages = 0;

	for (unsigned int o = MAX_PAGE_ORDER + 1; o-- > 0;) {
		struct page *p;

		while ((p = alloc_pages_node(nid, gfp | __GFP_NOWARN, o))) {
			if (!placed_in(p, o, want_nid, dma32))
				return ~0UL;
			chain_push(&chains[o], page_address(p));
			pages += 1UL << o;
		}
	}
	return pages;
}

/* The node a fallback from @nid must reach: nearest with free pages. */
static int nearest_with_memory(int nid)
{
	int n, best = NUMA_NO_NODE;

	for_each_online_node(n) {
		if (n == nid || !node_free_pages(n))
			continue;
		if (best == NUMA_NO_NODE ||
		    node_distance(nid, n) < node_distance(nid, best))
			best = n;
	}
	return best;
}

static void give_back(struct block_chain *chains)
{
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		chain_free(&chains[o], o);
}

SELFTEST(numa_thisnode_exhaust, STAGE_BUDDY + 2)
{
	struct buddy_counts before;
	int nid;

	buddy_counts_take(&before);
	for_each_online_node(nid) {
		struct block_chain chains[NR_PAGE_ORDERS] = { { 0 } };
		unsigned long want, got;
		struct page *other;
		int nearest;

		if (!node_has_memory(nid))
			continue;
		drain_all_pages();
		want = node_free_pages(nid);
		got = exhaust(nid, __GFP_THISNODE, chains, nid, false);
		if (got == ~0UL) {
			give_back(chains);
			return false;
		}
		nearest = nearest_with_memory(nid);
		other = alloc_pages_node(nid, __GFP_NOWARN, 0);
		if (other)
			chain_push(&chains[0], page_address(other));
		printk("# numa: node %d: __GFP_THISNODE took %lu pages of its "
		       "%lu free; then node %d (nearest with memory: %d)\n",
		       nid, got, want, other ? page_to_nid(other) : -1,
		       nearest);
		give_back(chains);
		SELFTEST_EXPECT(got == want, "node %d: __GFP_THISNODE took %lu "
				"pages, the node had %lu free", nid, got, want);
		SELFTEST_EXPECT(!other || page_to_nid(other) != nid,
				"node %d still gave a page after exhaustion", nid);
		SELFTEST_EXPECT((other ? page_to_nid(other) : NUMA_NO_NODE) ==
				nearest, "node %d: the fallback went to node %d, "
				"the nearest with memory is %d", nid,
				other ? page_to_nid(other) : NUMA_NO_NODE,
				nearest);
	}
	return buddy_restored(&before, "after __GFP_THISNODE exhaustion");
}

SELFTEST(numa_dma32_exhaust, STAGE_BUDDY + 3)
{
	struct block_chain chains[NR_PAGE_ORDERS] = { { 0 } };
	unsigned long want = 0, got, normal = 0;
	struct buddy_counts before;
	struct page *p;
	int nid;

	drain_all_pages();
	for_each_online_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		if (!pgdat)
			continue;
		want += zone_free_pages(&pgdat->node_zones[ZONE_DMA32]);
		normal += zone_free_pages(&pgdat->node_zones[ZONE_NORMAL]);
	}
	if (!normal)
		return selftest_skip("no free memory above 4 GiB: every "
				     "allocation is a DMA32 one");
	buddy_counts_take(&before);
	got = exhaust(NUMA_NO_NODE, GFP_DMA32, chains, NUMA_NO_NODE, true);
	if (got == ~0UL) {
		give_back(chains);
		return false;
	}
	p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	printk("# numa: GFP_DMA32 took %lu pages, ZONE_DMA32 had %lu free; "
	       "%lu free above 4 GiB\n", got, want, normal);
	if (p)
		chain_push(&chains[0], page_address(p));
	give_back(chains);
	SELFTEST_EXPECT(got == want, "GFP_DMA32 took %lu pages, ZONE_DMA32 "
			"had %lu free", got, want);
	SELFTEST_EXPECT(p && page_zone(p)->zone_idx == ZONE_NORMAL,
			"no ZONE_NORMAL page after DMA32 exhaustion");
	return buddy_restored(&before, "after GFP_DMA32 exhaustion");
}

SELFTEST(numa_contig_1g, STAGE_INTEGRITY + 5)
{
	const unsigned long nr = SZ_1G_PAGES;
	struct buddy_counts before, during;
	struct page *p;
	unsigned long pfn;
	long bad;
	int err;

	buddy_counts_take(&before);
	p = alloc_contig_pages(nr, GFP_KERNEL | __GFP_NOWARN, NUMA_NO_NODE,
			       NULL);
	if (!p) {
		SELFTEST_EXPECT(nr_managed_pages() < 3 * nr, "no 1 GiB run "
				"with %lu pages managed, %lu free",
				nr_managed_pages(), before.nr_free);
		return selftest_skip("no free, aligned 1 GiB run in %lu free "
				     "pages", before.nr_free);
	}
	pfn = page_to_pfn(p);
	printk("# numa: 1 GiB contiguous at pfn %#lx (node %d, zone %s)\n",
	       pfn, page_to_nid(p), page_zone(p)->name);
	SELFTEST_EXPECT(!(pfn & (nr - 1)), "1 GiB run at pfn %#lx is not "
			"1 GiB aligned", pfn);
	SELFTEST_EXPECT(nr_free_pages() == before.nr_free - nr,
			"%lu pages free, %lu before", nr_free_pages(),
			before.nr_free);
	SELFTEST_EXPECT(page_alloc_check() == 0, "page_alloc_check");
	for (unsigned long i = 0; i < nr; i += MAX_BLOCK_PAGES)
		if (!block_placement_ok(pfn_to_page(pfn + i), MAX_PAGE_ORDER)) {
			free_contig_range(pfn, nr);
			return false;
		}
	pattern_fill(page_address(p), nr * PAGE_SIZE, pfn);
	bad = pattern_mismatch(page_address(p), nr * PAGE_SIZE, pfn);
	err = free_pages_checked(p, MAX_PAGE_ORDER);
	buddy_counts_take(&during);
	free_contig_range(pfn, nr);
	SELFTEST_EXPECT(bad < 0, "1 GiB run: word %ld reads wrong", bad);
	SELFTEST_EXPECT(err == FREE_REFUSED_WRONG_ORDER, "__free_pages of a "
			"contiguous block: %d", err);
	SELFTEST_EXPECT(during.nr_free == before.nr_free - nr,
			"the refused free changed the counts");
	if (!buddy_restored(&before, "after the 1 GiB run"))
		return false;
	SELFTEST_EXPECT(free_contig_range_checked(pfn, nr) ==
			FREE_REFUSED_DOUBLE_FREE, "a second free_contig_range");
	return buddy_restored(&before, "after a refused second free");
}
