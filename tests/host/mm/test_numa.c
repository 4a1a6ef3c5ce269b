/*
 * test_numa.c - nodes, zones and contiguous ranges on the host: each node
 * allocates from its own memory, falls back by distance, __GFP_THISNODE
 * stops at the node, GFP_DMA32 stays below 4 GiB, nodes with no memory
 * and memory in no node are placed as documented, alloc_contig_pages()
 * finds 1 GiB on a heap fragmented and freed again, and bad frees of
 * contiguous ranges are refused and change nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <smp/smp.h>
#include "machine.h"

#define SZ_64M	(64 * SZ_1M)

/* Whether @page lies in [@base, @base + @size). */
static bool page_in(const struct page *page, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t phys = page_to_phys(page);

	return phys >= base && phys + PAGE_SIZE <= base + size;
}

/* A list of allocated blocks, to give back at the end. */
struct held {
	struct page **page;
	unsigned int *order;
	unsigned long n, room;
};

static void hold(struct held *h, struct page *page, unsigned int order)
{
	if (h->n == h->room) {
		h->room = h->room ? 2 * h->room : 1024;
		h->page = realloc(h->page, h->room * sizeof(*h->page));
		h->order = realloc(h->order, h->room * sizeof(*h->order));
	}
	h->page[h->n] = page;
	h->order[h->n++] = order;
}

static void release(struct held *h)
{
	while (h->n) {
		h->n--;
		__free_pages(h->page[h->n], h->order[h->n]);
	}
	free(h->page);
	free(h->order);
	memset(h, 0, sizeof(*h));
}

/*
 * Two nodes of unequal size whose boundary is not aligned to the top
 * order (nor to a map chunk): node 0 [1 GiB, +40 MiB + 20 KiB), node 1
 * the rest up to 1 GiB + 128 MiB.
 */
#define N0_BASE	SZ_1G
#define N0_SIZE	(40 * SZ_1M + 5 * SZ_4K)
#define N1_BASE	(N0_BASE + N0_SIZE)
#define N1_SIZE	(128 * SZ_1M - N0_SIZE)

static bool two_nodes(void)
{
	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(1) == 0, "node 1 online");
	EXPECT(numa_set_distance(0, 1, 20) == 0 &&
	       numa_set_distance(1, 0, 20) == 0, "distances");
	EXPECT(memblock_add_node(N0_BASE, N0_SIZE, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(N1_BASE, N1_SIZE, 1, MEMBLOCK_NONE) == 0, "n1");
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(NODE_DATA(0) && NODE_DATA(1) && !NODE_DATA(2), "two nodes");
	EXPECT(node_managed_pages(0) && node_managed_pages(1), "both have memory");
	return true;
}

/* Each node gives every order from its own memory. */
static bool each_node_every_order_from_its_memory(void)
{
	struct held h = { 0 };
	unsigned long before;

	if (!two_nodes())
		return false;
	before = nr_free_pages();
	for (int nid = 0; nid < 2; nid++) {
		phys_addr_t base = nid ? N1_BASE : N0_BASE;
		phys_addr_t size = nid ? N1_SIZE : N0_SIZE;

		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			struct page *p = alloc_pages_node(nid, __GFP_THISNODE |
							  __GFP_NOWARN, o);

			/* Node 0's 40 MiB hold no top-order block at order 15. */
			if (!p && (1UL << o) * PAGE_SIZE > size / 2)
				continue;
			EXPECT(p, "node %d order %u", nid, o);
			EXPECT(page_in(p, base, size) && page_to_nid(p) == nid,
			       "node %d order %u: pfn %#lx is not its memory",
			       nid, o, page_to_pfn(p));
			hold(&h, p, o);
		}
	}
	EXPECT_SOUND();
	release(&h);
	EXPECT(nr_free_pages() == before, "all back");
	EXPECT_SOUND();
	return true;
}

/*
 * __GFP_THISNODE exhaustion takes exactly the node's free pages, all of
 * them its own; then a plain allocation for the node falls back.
 */
static bool thisnode_exhaustion_stops_at_the_node(void)
{
	struct held h = { 0 };
	struct snapshot base;
	unsigned long want, got = 0;
	struct page *p;

	if (!two_nodes())
		return false;
	snapshot_take(&base);
	want = node_free_pages(0);
	while ((p = alloc_pages_node(0, __GFP_THISNODE | __GFP_NOWARN, 0))) {
		EXPECT(page_in(p, N0_BASE, N0_SIZE), "pfn %#lx outside node 0",
		       page_to_pfn(p));
		hold(&h, p, 0);
		EXPECT(++got <= want, "more than node 0 had");
	}
	EXPECT(got == want, "%lu of node 0's %lu pages", got, want);
	EXPECT(node_free_pages(0) == 0 && node_free_pages(1) > 0, "counts");
	p = alloc_pages_node(0, GFP_KERNEL, 0);
	EXPECT(p && page_in(p, N1_BASE, N1_SIZE), "fell back to node 1");
	hold(&h, p, 0);
	EXPECT_SOUND();
	release(&h);
	EXPECT(snapshot_same(&base), "as before");
	snapshot_drop(&base);
	return true;
}

/* Three nodes: 0 is nearer to 2 (15) than to 1 (30). */
static bool fallback_follows_distance(void)
{
	struct held h = { 0 };
	struct page *p;
	unsigned long pages[3];

	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(1) == 0 && node_set_online(2) == 0, "online");
	EXPECT(numa_set_distance(0, 1, 30) == 0 && numa_set_distance(0, 2, 15) == 0,
	       "distances");
	for (int nid = 0; nid < 3; nid++)
		EXPECT(memblock_add_node(SZ_1G + nid * SZ_64M, SZ_64M, nid,
					 MEMBLOCK_NONE) == 0, "node %d", nid);
	EXPECT(memblock_free_all() > 0, "hand-off");
	for (int nid = 0; nid < 3; nid++)
		pages[nid] = node_free_pages(nid);
	/* Node 0 first, then 2, then 1: each until it is empty. */
	for (int step = 0; step < 3; step++) {
		int want = (int[]){ 0, 2, 1 }[step];

		for (unsigned long i = 0; i < pages[want]; i++) {
			p = alloc_pages_node(0, GFP_KERNEL, 0);
			EXPECT(p && page_to_nid(p) == want,
			       "step %d page %lu: from node %d, want %d", step, i,
			       p ? page_to_nid(p) : -1, want);
			hold(&h, p, 0);
		}
	}
	EXPECT(!alloc_pages_node(0, __GFP_NOWARN, 0), "all taken");
	EXPECT_SOUND();
	release(&h);
	EXPECT_SOUND();
	return true;
}

/* The calling CPU's node is where alloc_pages() starts. */
static bool alloc_pages_starts_at_this_cpus_node(void)
{
	struct page *p;

	if (!two_nodes())
		return false;
	p = alloc_pages(0, 0);
	EXPECT(p && page_to_nid(p) == 0, "CPU in node 0");
	__free_pages(p, 0);
	EXPECT(set_cpu_numa_node(smp_processor_id(), 1) == 0, "CPU to node 1");
	p = alloc_pages(0, 0);
	EXPECT(p && page_to_nid(p) == 1, "CPU in node 1: got node %d",
	       p ? page_to_nid(p) : -1);
	__free_pages(p, 0);
	p = alloc_pages_node(NUMA_NO_NODE, 0, 3);
	EXPECT(p && page_to_nid(p) == 1, "NUMA_NO_NODE: this CPU's node");
	__free_pages(p, 3);
	EXPECT_SOUND();
	return true;
}

/*
 * One node from 4 GiB - 64 MiB to 4 GiB + 64 MiB, one region: two zones.
 * GFP_DMA32 exhaustion gives only pages below 4 GiB, exactly the zone's;
 * plain allocations prefer ZONE_NORMAL.
 */
static bool dma32_exhaustion_stays_below_4g(void)
{
	const phys_addr_t lo = 4 * SZ_1G - SZ_64M;
	struct held h = { 0 };
	struct snapshot base;
	struct zone *dma32, *normal;
	unsigned long want, got = 0;
	struct page *p;

	machine_map(5 * SZ_1G);
	EXPECT(memblock_add(lo, 2 * SZ_64M) == 0, "bank across 4 GiB");
	EXPECT(memblock_free_all() > 0, "hand-off");
	dma32 = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	normal = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	EXPECT(populated_zone(dma32) && populated_zone(normal), "two zones");
	EXPECT(dma32->zone_start_pfn + dma32->spanned_pages == DMA32_END_PFN &&
	       normal->zone_start_pfn == DMA32_END_PFN, "split at 4 GiB");
	snapshot_take(&base);
	p = alloc_pages(GFP_KERNEL, 0);
	EXPECT(p && page_to_phys(p) >= 4 * SZ_1G, "normal prefers ZONE_NORMAL");
	__free_pages(p, 0);
	want = zone_free_pages(dma32);
	while ((p = alloc_pages(GFP_DMA32 | __GFP_NOWARN, 0))) {
		EXPECT(page_to_phys(p) < 4 * SZ_1G && page_zone(p) == dma32,
		       "pfn %#lx above 4 GiB", page_to_pfn(p));
		hold(&h, p, 0);
		EXPECT(++got <= want, "more than ZONE_DMA32 had");
	}
	EXPECT(got == want && zone_free_pages(normal) > 0, "%lu of %lu", got,
	       want);
	/* Plain allocations still find ZONE_NORMAL. */
	p = alloc_pages(GFP_KERNEL, 2);
	EXPECT(p && page_zone(p) == normal, "normal after DMA32 is gone");
	hold(&h, p, 2);
	EXPECT_SOUND();
	release(&h);
	EXPECT(snapshot_same(&base), "as before");
	snapshot_drop(&base);
	/* A free across the zone line merges nothing across it. */
	EXPECT_SOUND();
	return true;
}

/*
 * Node 1 is online without memory; one region has no node; node 5 is not
 * online. Each is said, and placed as documented.
 */
static bool odd_nodes_are_said_and_placed(void)
{
	struct page *p;

	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(1) == 0 && node_set_online(2) == 0, "online");
	EXPECT(memblock_add_node(SZ_1G, SZ_64M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add(SZ_1G + 2 * SZ_64M, SZ_64M) == 0, "no node");
	EXPECT(memblock_add_node(SZ_1G + 4 * SZ_64M, SZ_64M, 2, MEMBLOCK_NONE) == 0,
	       "n2");
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(console_says("memory in no node: placed in node 0"), "no node said");
	EXPECT(console_says("node 1 has no memory"), "memoryless said");
	EXPECT(node_managed_pages(0) >= 2 * PHYS_PFN(SZ_64M) - 64 &&
	       node_managed_pages(1) == 0, "placement");
	p = pfn_to_page(PHYS_PFN(SZ_1G + 2 * SZ_64M) + 5);
	EXPECT(p && page_to_nid(p) == 0, "node-less memory in node 0");
	p = alloc_pages_node(1, __GFP_NOWARN, 0);
	EXPECT(p, "a node without memory falls back");
	__free_pages(p, 0);
	EXPECT(!alloc_pages_node(1, __GFP_THISNODE | __GFP_NOWARN, 0),
	       "__GFP_THISNODE on a node without memory");
	console_clear();
	EXPECT(!alloc_pages_node(5, 0, 0) && console_says("node 5"),
	       "a node that is not online is refused");
	EXPECT_SOUND();
	return true;
}

/*
 * A node of one page between two parts of another: the page is its own
 * zone's only block (its node data goes elsewhere), no block of node 0
 * swallows it when freed, and node 0's pages around it never merge across
 * it (page_alloc_check(), in snapshot_same(), would see a block in two
 * zones).
 *   | m0 ... |1| ... m0 |
 */
static bool one_page_node_inside_another(void)
{
	const phys_addr_t mid = SZ_1G + 8 * SZ_1M + 3 * SZ_4K;
	struct held h = { 0 };
	struct page *p, *q;
	struct snapshot base;

	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(1) == 0, "online");
	EXPECT(memblock_add_node(SZ_1G, SZ_64M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_set_node(mid, SZ_4K, &memblock.memory, 1) == 0, "n1");
	EXPECT(memblock.memory.cnt == 3, "three regions");
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(node_managed_pages(1) == 1, "node 1: %lu pages",
	       node_managed_pages(1));
	snapshot_take(&base);
	p = alloc_pages_node(1, __GFP_THISNODE, 0);
	EXPECT(p && page_to_phys(p) == mid && page_to_nid(p) == 1, "its page");
	EXPECT(!alloc_pages_node(1, __GFP_THISNODE | __GFP_NOWARN, 0), "only one");
	EXPECT(!alloc_pages_node(1, __GFP_THISNODE | __GFP_NOWARN, 1), "no pair");
	/* Node 0's whole memory, then all back: merges stop at the page. */
	while ((q = alloc_pages_node(0, __GFP_THISNODE | __GFP_NOWARN, 0)))
		hold(&h, q, 0);
	EXPECT(node_free_pages(0) == 0, "node 0 empty");
	release(&h);
	__free_pages(p, 0);
	EXPECT(snapshot_same(&base), "as before");
	EXPECT(page_zone(pfn_to_page(PHYS_PFN(mid) - 1))->node == 0 &&
	       page_zone(pfn_to_page(PHYS_PFN(mid) + 1))->node == 0 &&
	       page_zone(pfn_to_page(PHYS_PFN(mid)))->node == 1, "zones");
	snapshot_drop(&base);
	return true;
}

/* /proc/buddyinfo's lines, one per node and zone. */
static bool buddyinfo_per_node_and_zone(void)
{
	machine_map(5 * SZ_1G);
	EXPECT(node_set_online(1) == 0, "online");
	EXPECT(memblock_add_node(SZ_1G, SZ_64M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(4 * SZ_1G, SZ_64M, 1, MEMBLOCK_NONE) == 0, "n1");
	EXPECT(memblock_free_all() > 0, "hand-off");
	console_clear();
	show_buddyinfo();
	EXPECT(console_says("Node 0, zone    DMA32 ") &&
	       console_says("Node 1, zone   Normal ") &&
	       !console_says("Node 0, zone   Normal") &&
	       !console_says("Node 1, zone    DMA32"), "lines");
	return true;
}

/* 1 GiB from [1 GiB, 3 GiB + 8 MiB), one node: room for one aligned run. */
#define HEAP_BASE	SZ_1G
#define HEAP_SIZE	(2 * SZ_1G + 8 * SZ_1M)
#define GIG_PAGES	(SZ_1G / PAGE_SIZE)

static bool heap(void)
{
	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(HEAP_BASE, HEAP_SIZE) == 0, "heap");
	EXPECT(memblock_free_all() > 0, "hand-off");
	return true;
}

/*
 * Fragment the heap (half of every top-order block or more held), see a
 * 1 GiB run refused, free it all, and take 1 GiB in one piece.
 */
static bool contig_1g_on_fragmented_then_freed_heap(void)
{
	struct held h = { 0 }, small = { 0 };
	struct snapshot base;
	struct page *p, *q;
	unsigned long pfn;

	if (!heap())
		return false;
	snapshot_take(&base);
	while ((p = alloc_pages(__GFP_NOWARN, MAX_PAGE_ORDER)))
		hold(&h, p, MAX_PAGE_ORDER);
	/*
	 * Give each block back and take a half block: the lower half of it,
	 * or the upper half the block before left free.
	 */
	for (unsigned long i = 0; i < h.n; i++) {
		__free_pages(h.page[i], MAX_PAGE_ORDER);
		q = alloc_pages(0, NR_PAGE_ORDERS - 2);
		EXPECT(q, "half block after freeing block %lu", i);
		hold(&small, q, NR_PAGE_ORDERS - 2);
	}
	h.n = 0;
	EXPECT(!alloc_contig_pages(GIG_PAGES, __GFP_NOWARN, NUMA_NO_NODE, NULL),
	       "1 GiB on a fragmented heap");
	EXPECT_SOUND();
	release(&small);
	release(&h);
	EXPECT(snapshot_same(&base), "all back");
	/* A block in a CPU's cache inside the run: drained, not in the way. */
	p = alloc_contig_pages(GIG_PAGES, GFP_KERNEL, NUMA_NO_NODE, NULL);
	EXPECT(p, "1 GiB after freeing");
	pfn = page_to_pfn(p);
	EXPECT(!(pfn & (GIG_PAGES - 1)), "1 GiB aligned: pfn %#lx", pfn);
	EXPECT(nr_free_pages() == base.nr_free - GIG_PAGES, "counted");
	/* Write its ends and its middle (the host backs pages lazily). */
	memset(page_address(p), 0xa5, PAGE_SIZE);
	memset((char *)page_address(p) + SZ_1G / 2, 0x5a, PAGE_SIZE);
	memset((char *)page_address(p) + SZ_1G - PAGE_SIZE, 0x3c, PAGE_SIZE);
	EXPECT(((unsigned char *)page_address(p))[SZ_1G - 1] == 0x3c, "written");
	EXPECT_SOUND();
	/* Its blocks are not alloc_pages() blocks. */
	console_clear();
	EXPECT(free_pages_checked(p, MAX_PAGE_ORDER) == FREE_REFUSED_WRONG_ORDER &&
	       console_says("free_contig_range() frees it"), "page free refused");
	/* [1 GiB, 2 GiB) and [2 GiB, 3 GiB); the next would reach past it. */
	q = alloc_contig_pages(GIG_PAGES, GFP_KERNEL, NUMA_NO_NODE, NULL);
	EXPECT(q && page_to_pfn(q) == pfn + GIG_PAGES, "the second 1 GiB");
	EXPECT(!alloc_contig_pages(GIG_PAGES, __GFP_NOWARN, NUMA_NO_NODE, NULL),
	       "only two 1 GiB runs fit");
	free_contig_range(page_to_pfn(q), GIG_PAGES);
	/* Given back in two parts, the second first. */
	free_contig_range(pfn + GIG_PAGES / 2 + 3, GIG_PAGES / 2 - 3);
	EXPECT_SOUND();
	free_contig_range(pfn, GIG_PAGES / 2 + 3);
	EXPECT(snapshot_same(&base), "all back after the contiguous range");
	snapshot_drop(&base);
	return true;
}

/* A cached block inside the only possible run is drained, not in the way. */
static bool contig_drains_cached_blocks(void)
{
	struct page *p, *c;
	unsigned long nr = 3 * TOP_PAGES + 5;

	machine_map(2 * SZ_1G);
	EXPECT(memblock_add(SZ_1G, 4 * TOP_BYTES) == 0, "small heap");
	EXPECT(memblock_add(SZ_1G + 8 * TOP_BYTES, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	p = alloc_pages(0, 0);
	__free_pages(p, 0);
	EXPECT(p->state == (PG_PCP | 0), "cached");
	c = alloc_contig_pages(nr, GFP_KERNEL, 0, NULL);
	EXPECT(c, "%lu pages", nr);
	EXPECT_SOUND();
	free_contig_range(page_to_pfn(c), nr);
	EXPECT_SOUND();
	return true;
}

/* Each bad free of a range is refused, with its errno, changing nothing. */
static bool contig_bad_frees_refused(void)
{
	struct snapshot base;
	struct page *c, *a;
	unsigned long pfn, meta;

	if (!heap())
		return false;
	/* Straight from the buddy lists: not from a batch near the range. */
	zone_pcp_disable();
	a = alloc_pages(0, 2);
	c = alloc_contig_pages(100, GFP_KERNEL, NUMA_NO_NODE, NULL);
	EXPECT(c && a, "allocations");
	pfn = page_to_pfn(c);
	EXPECT(!(pfn & 63), "aligned to 64");
	meta = page_to_pfn(virt_to_page(page_allocator.parts[0].map));
	snapshot_take(&base);
	EXPECT(free_contig_range_checked(pfn, 101) == FREE_REFUSED_DOUBLE_FREE,
	       "one page past the end is free");
	EXPECT(console_says("refused free_contig_range of pfn"), "said");
	EXPECT(free_contig_range_checked(page_to_pfn(a), 4) ==
	       FREE_REFUSED_WRONG_ORDER, "an alloc_pages() block");
	EXPECT(free_contig_range_checked(meta, 1) == FREE_REFUSED_RESERVED,
	       "the metadata");
	EXPECT(free_contig_range_checked(PHYS_PFN(SZ_1G / 2), 1) ==
	       FREE_REFUSED_OUT_OF_RANGE, "outside memory");
	EXPECT(free_contig_range_checked(pfn, ~0UL) == FREE_REFUSED_OUT_OF_RANGE,
	       "wraps");
	EXPECT(free_contig_range_checked(pfn, 0) == 0, "nothing to do");
	EXPECT(snapshot_same(&base), "nothing changed");
	EXPECT(free_contig_range_checked(pfn, 100) == 0, "the good free");
	EXPECT(free_contig_range_checked(pfn, 100) == FREE_REFUSED_DOUBLE_FREE,
	       "twice");
	EXPECT(!alloc_contig_pages(0, 0, NUMA_NO_NODE, NULL), "0 pages");
	__free_pages(a, 2);
	snapshot_drop(&base);
	EXPECT_SOUND();
	return true;
}

/* The nodemask and __GFP_THISNODE choose the node of a range. */
static bool contig_honours_nodes(void)
{
	nodemask_t only1;
	struct page *c;

	if (!two_nodes())
		return false;
	nodes_clear(&only1);
	node_set(1, &only1);
	c = alloc_contig_pages(1000, GFP_KERNEL, 0, &only1);
	EXPECT(c && page_in(c, N1_BASE, N1_SIZE), "nodemask: node 1");
	free_contig_range(page_to_pfn(c), 1000);
	c = alloc_contig_pages(1000, __GFP_THISNODE, 0, NULL);
	EXPECT(c && page_in(c, N0_BASE, N0_SIZE), "thisnode: node 0");
	free_contig_range(page_to_pfn(c), 1000);
	EXPECT(!alloc_contig_pages(PHYS_PFN(N0_SIZE), __GFP_THISNODE | __GFP_NOWARN,
				   0, NULL), "more than node 0 holds");
	EXPECT_SOUND();
	return true;
}

/* The node of memblock's memory holding [@phys, @phys + @size), or -1. */
static int node_of_range(phys_addr_t phys, phys_addr_t size)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (phys >= r->base && phys + size <= r->base + r->size)
			return r->nid;
	}
	return -1;
}

/*
 * Whether node @nid's part of the map is on @nid, and its chunk tables
 * too, unless they are in the static area (in no memory of the machine).
 */
static bool part_on(const struct map_part *part, int nid)
{
	unsigned long chunks = part->nr >> MAP_CHUNK_SHIFT;
	int t = node_of_range(virt_to_phys(part->chunk_nr),
			      chunks * sizeof(uint32_t));
	int z = node_of_range(virt_to_phys(part->chunk_zone), chunks);

	return node_of_range(virt_to_phys(part->map), part->nr) == nid &&
	       (t == nid || t == -1) && z == t;
}

/* The node of the first memory at or above @phys, or -1. */
static int node_from(phys_addr_t phys)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (r->base + r->size > phys)
			return r->nid;
	}
	return -1;
}

/*
 * Four nodes, one of them split by another's memory and one above 4 GiB,
 * boundaries inside a chunk: each node's part of the map (its chunk
 * tables too) is in its own memory, every page's struct page is in the
 * part of the node of its chunk, and the conversions agree.
 *   | n0 | n1 | n0 |  ...  | n2 |  ...  | n3 (above 4 GiB) |
 */
static bool map_parts_on_their_nodes(void)
{
	static const struct { phys_addr_t base, size; int nid; } r[] = {
		{ SZ_1G, 200 * SZ_1M + 3 * SZ_4K, 0 },
		{ SZ_1G + 200 * SZ_1M + 3 * SZ_4K, 300 * SZ_1M, 1 },
		{ SZ_1G + 500 * SZ_1M + 3 * SZ_4K, 100 * SZ_1M, 0 },
		{ 3 * SZ_1G, 256 * SZ_1M, 2 },
		{ 5 * SZ_1G + 7 * SZ_4K, 384 * SZ_1M, 3 },
	};
	const struct page_allocator *pa = &page_allocator;

	machine_map(6 * SZ_1G);
	for (int nid = 1; nid < 4; nid++)
		EXPECT(node_set_online(nid) == 0, "node %d online", nid);
	for (unsigned int i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		EXPECT(memblock_add_node(r[i].base, r[i].size, r[i].nid,
					 MEMBLOCK_NONE) == 0, "region %u", i);
	console_clear();
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(!console_says("no room"), "every node had room");
	EXPECT(pa->nr_parts == 4, "%u parts", pa->nr_parts);
	for (unsigned int k = 0; k < pa->nr_parts; k++) {
		const struct map_part *part = &pa->parts[k];

		EXPECT(part->nid == (int)k && part->on_node, "part %u", k);
		EXPECT(NODE_DATA(part->nid) &&
		       node_of_range(virt_to_phys(NODE_DATA(part->nid)),
				     sizeof(pg_data_t)) == part->nid,
		       "node %d's pg_data_t", part->nid);
		EXPECT(part_on(part, part->nid),
		       "node %d's map at %#llx is not in its memory", part->nid,
		       (unsigned long long)virt_to_phys(part->map));
	}
	/* Every page: its byte in its chunk's node's part, pfn round trip. */
	for (unsigned int i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		unsigned long spfn = PFN_UP(r[i].base);
		unsigned long epfn = PHYS_PFN(r[i].base + r[i].size);

		for (unsigned long pfn = spfn; pfn < epfn; pfn++) {
			struct page *page = pfn_to_page(pfn);
			const struct map_part *part = page ? page_part(page) : NULL;
			/* A chunk is the node's of the first memory in it. */
			int owner = node_from(PFN_PHYS(ALIGN_DOWN(pfn,
								  MAP_CHUNK_PAGES)));

			EXPECT(page && part && page_to_pfn(page) == pfn &&
			       page_to_nid(page) == r[i].nid && part->nid == owner,
			       "pfn %#lx: node %d, part of node %d", pfn, r[i].nid,
			       part ? part->nid : -1);
		}
	}
	EXPECT_SOUND();
	return true;
}

/*
 * Node 0 has no memory: its node data goes to node 1, made after it, and
 * the console names node 1 (not the node memory in a node not made yet
 * would fall back to).
 */
static bool memoryless_node_data_said_where(void)
{
	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(0) == 0 && node_set_online(1) == 0, "online");
	EXPECT(memblock_add_node(SZ_1G, SZ_64M, 1, MEMBLOCK_NONE) == 0, "n1");
	console_clear();
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(console_says("node 0 has no room for its") &&
	       console_says("bytes of node data: placed on node 1\n"), "said");
	EXPECT(console_says("node 0 has no memory"), "memoryless");
	EXPECT(node_data[0] && page_in(virt_to_page(node_data[0]), SZ_1G, SZ_64M),
	       "node 0's data in node 1's memory");
	EXPECT_SOUND();
	return true;
}

/*
 * A node whose memory is all reserved but a few pages has no room for its
 * part of the map: said on the console, placed on another node, and the
 * node's pages are still handed out.
 */
static bool map_part_of_a_full_node_goes_elsewhere(void)
{
	const struct page_allocator *pa = &page_allocator;
	/* In a chunk of its own: the part is node 1's, not node 0's. */
	const phys_addr_t n1 = ALIGN_UP(SZ_1G + SZ_64M,
					(phys_addr_t)MAP_CHUNK_PAGES * PAGE_SIZE);
	struct page *p;

	machine_map(2 * SZ_1G);
	EXPECT(node_set_online(1) == 0, "online");
	EXPECT(memblock_add_node(SZ_1G, SZ_64M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(n1, SZ_64M, 1, MEMBLOCK_NONE) == 0, "n1");
	EXPECT(memblock_reserve(n1 + 8 * SZ_4K, SZ_64M - 8 * SZ_4K) == 0,
	       "node 1 full");
	console_clear();
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(console_says("node 1 has no room for its") &&
	       console_says("bytes of page map: placed on node 0"),
	       "said");
	EXPECT(pa->nr_parts == 2 && pa->parts[0].on_node &&
	       part_on(&pa->parts[0], 0) && !pa->parts[1].on_node &&
	       part_on(&pa->parts[1], 0), "node 1's part on node 0");
	EXPECT(node_managed_pages(1) == 8, "node 1: %lu pages",
	       node_managed_pages(1));
	p = alloc_pages_node(1, __GFP_THISNODE, 3);
	EXPECT(p && page_to_phys(p) == n1 && page_to_nid(p) == 1, "its pages");
	__free_pages(p, 3);
	EXPECT_SOUND();
	return true;
}

/*
 * Two nodes in one chunk of the map (with 64K pages a chunk is a whole
 * section, 512 MiB): the chunk, so the only part, is node 0's, and it is
 * in node 0's memory, not at the top of memory, which is node 1's.
 */
static bool lone_part_of_two_nodes_on_its_node(void)
{
	const struct page_allocator *pa = &page_allocator;
	const phys_addr_t chunk = (phys_addr_t)MAP_CHUNK_PAGES * PAGE_SIZE;
	const phys_addr_t base = ALIGN_UP(SZ_1G, chunk);

	machine_map(base + chunk);
	EXPECT(node_set_online(1) == 0, "online");
	EXPECT(memblock_add_node(base, chunk / 2, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(base + chunk / 2, chunk / 2, 1,
				 MEMBLOCK_NONE) == 0, "n1");
	console_clear();
	EXPECT(memblock_free_all() > 0, "hand-off");
	EXPECT(!console_says("no room"), "node 0 had room");
	EXPECT(pa->nr_parts == 1 && pa->parts[0].nid == 0 &&
	       pa->parts[0].on_node && part_on(&pa->parts[0], 0),
	       "the part at %#llx is not node 0's, in its memory",
	       (unsigned long long)virt_to_phys(pa->parts[0].map));
	EXPECT(page_to_nid(pfn_to_page(PHYS_PFN(base + chunk - PAGE_SIZE))) == 1,
	       "node 1's last page");
	EXPECT_SOUND();
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(each_node_every_order_from_its_memory),
	HOST_TEST(thisnode_exhaustion_stops_at_the_node),
	HOST_TEST(fallback_follows_distance),
	HOST_TEST(alloc_pages_starts_at_this_cpus_node),
	HOST_TEST(dma32_exhaustion_stays_below_4g),
	HOST_TEST(odd_nodes_are_said_and_placed),
	HOST_TEST(one_page_node_inside_another),
	HOST_TEST(buddyinfo_per_node_and_zone),
	HOST_TEST(contig_1g_on_fragmented_then_freed_heap),
	HOST_TEST(contig_drains_cached_blocks),
	HOST_TEST(contig_bad_frees_refused),
	HOST_TEST(contig_honours_nodes),
	HOST_TEST(map_parts_on_their_nodes),
	HOST_TEST(map_part_of_a_full_node_goes_elsewhere),
	HOST_TEST(memoryless_node_data_said_where),
	HOST_TEST(lone_part_of_two_nodes_on_its_node),
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
