/*
 * numa.c - the buddy allocator's nodes and contiguous ranges, measured:
 *
 *   nodepair  an order-0 alloc_pages+__free_pages pair, over and over, on
 *             a heap of nodes=N nodes of equal size (variant: N), the
 *             calling CPU in node 0: with more nodes it must be no slower
 *             than with one (the zonelist's first zone serves it);
 *   contig    alloc_contig_pages() of 1 GiB on a heap of gib=G GiB
 *             (default 16) fragmented by a half top-order block held in
 *             every top-order block but those of its last 1 GiB, then
 *             free_contig_range() (variant: G; metrics contig_ns and
 *             contig_free_ns), and the same once everything is freed
 *             (contig_freed_ns).
 *
 * The hand-off in nodes is bench/handoff.c's, with nodes=N. Each process
 * makes one heap: one scenario per process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mm/mm.h>
#include "bench.h"
#include "map.h"

/* A heap of @bytes in @nodes nodes of equal size, handed off. */
static void numa_heap(unsigned long bytes, unsigned int nodes)
{
	phys_addr_t base = bench_map(bytes, 1UL << SECTION_SIZE_BITS);
	unsigned long part = (bytes / nodes) & PAGE_MASK;

	for (unsigned int nid = 0; nid < nodes; nid++) {
		if (nid && (node_set_online((int)nid) ||
			    numa_set_distance(0, (int)nid, 20) ||
			    numa_set_distance((int)nid, 0, 20)))
			bench_die("cannot describe node %u", nid);
		if (memblock_add_node(base + nid * part,
				      nid + 1 == nodes ? bytes - nid * part : part,
				      (int)nid, MEMBLOCK_NONE))
			bench_die("memblock_add_node refused node %u", nid);
	}
	if (!memblock_free_all())
		bench_die("the hand-off gave nothing");
}

int bench_nodepair(const struct bench_opts *o)
{
	unsigned int nodes = o->nodes ? o->nodes : 1;
	unsigned long before;
	char variant[24];

	if (nodes > MAX_NUMNODES)
		bench_die("nodepair: nodes=%u is above %d", nodes, MAX_NUMNODES);
	snprintf(variant, sizeof(variant), "%u", nodes);
	numa_heap((1UL << 30) * nodes, nodes);
	before = nr_free_pages();
	for (unsigned int rep = 0; rep <= o->reps; rep++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned long i = 0; i < o->iters; i++) {
			struct page *p = alloc_pages(GFP_KERNEL, 0);

			if (!p)
				bench_die("nodepair: out of memory");
			__free_pages(p, 0);
		}
		if (rep)
			bench_emit("nodepair", variant, 0, "pair_ns", rep,
				   (double)(bench_now_ns() - t0) / (double)o->iters);
	}
	if (nr_free_pages() != before)
		bench_die("nodepair: pages lost");
	return 0;
}

/* One 1 GiB run taken and given back: its two times, in ns. */
static void contig_once(const char *metric, const char *variant,
			unsigned int rep, bool free_too)
{
	unsigned long nr = (1UL << 30) >> PAGE_SHIFT;
	uint64_t t0 = bench_now_ns(), t1;
	struct page *p = alloc_contig_pages(nr, GFP_KERNEL, NUMA_NO_NODE, NULL);

	t1 = bench_now_ns();
	if (!p)
		bench_die("contig: no 1 GiB run");
	bench_emit("contig", variant, -1, metric, rep, (double)(t1 - t0));
	t0 = bench_now_ns();
	free_contig_range(page_to_pfn(p), nr);
	t1 = bench_now_ns();
	if (free_too)
		bench_emit("contig", variant, -1, "contig_free_ns", rep,
			   (double)(t1 - t0));
}

int bench_contig(const struct bench_opts *o)
{
	const unsigned long gig = (1UL << 30) >> PAGE_SHIFT;
	const unsigned int half = NR_PAGE_ORDERS > 1 ? NR_PAGE_ORDERS - 2 : 0;
	unsigned long gib = o->gib > 1 ? o->gib : 16, n = 0, window = 0;
	struct page **top, **held, *p;
	char variant[24];

	snprintf(variant, sizeof(variant), "%lu", gib);
	numa_heap((gib << 30) + (128UL << 20), 1);
	top = calloc(((gib + 1) << 30) >> (PAGE_SHIFT + MAX_PAGE_ORDER), sizeof(*top));
	held = calloc(((gib + 1) << 30) >> (PAGE_SHIFT + MAX_PAGE_ORDER), sizeof(*held));
	if (!top || !held)
		bench_die("contig: no memory for the block records");
	while ((p = alloc_pages(__GFP_NOWARN, MAX_PAGE_ORDER))) {
		top[n++] = p;
		window = MAX(window, page_to_pfn(p) + (1UL << MAX_PAGE_ORDER));
	}
	/* The highest whole aligned 1 GiB stays free; the rest is fragmented. */
	window = ALIGN_DOWN(window, gig) - gig;
	for (unsigned long i = 0; i < n; i++) {
		if (page_to_pfn(top[i]) >= window)
			continue;
		__free_pages(top[i], MAX_PAGE_ORDER);
		top[i] = NULL;
		held[i] = alloc_pages(0, half);
	}
	for (unsigned long i = 0; i < n; i++)
		if (top[i])
			__free_pages(top[i], MAX_PAGE_ORDER);
	for (unsigned int rep = 1; rep <= o->reps; rep++)
		contig_once("contig_ns", variant, rep, true);
	for (unsigned long i = 0; i < n; i++)
		if (held[i])
			__free_pages(held[i], half);
	free(top);
	free(held);
	for (unsigned int rep = 1; rep <= o->reps; rep++)
		contig_once("contig_freed_ns", variant, rep, false);
	if (page_alloc_check())
		bench_die("contig: the allocator's state is broken");
	return 0;
}
