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
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
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
			memset(&pa->map[ms->start + (s - b)], v, t - s);
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
 * Record @n free top-order blocks from @pfn as a deferred run.
 * Return: false when there is no room (the caller links them instead).
 */
static bool defer_run(unsigned long pfn, unsigned long n)
{
	struct page_allocator *pa = &page_allocator;
	struct page *page = NULL;

	if (pa->nr_runs == pa->max_runs)
		return false;
	pa->deferred[pa->nr_runs++] = (struct deferred_run){ pfn, n };
	pa->nr_deferred += n;
	pa->free_area[MAX_PAGE_ORDER].nr_free += n;
	/* The map is contiguous within a section: look up once per section. */
	for (unsigned long i = 0; i < n; i++, pfn += MAX_BLOCK_PAGES) {
		if (!page || !(pfn & (PAGES_PER_SECTION - 1)))
			page = __pfn_to_page(pfn);
		else
			page += MAX_BLOCK_PAGES;
		page->state = PG_FREE | MAX_PAGE_ORDER;
	}
	return true;
}

/* Give [@start, @end), whose bytes are TAIL, to the allocator. */
static unsigned long free_pfn_range(unsigned long start, unsigned long end)
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
		    defer_run(pfn, (end - pfn) >> MAX_PAGE_ORDER)) {
			blocks += (end - pfn) >> MAX_PAGE_ORDER;
			pfn += ALIGN_DOWN(end - pfn, MAX_BLOCK_PAGES) -
			       MAX_BLOCK_PAGES;
			continue;
		}
		page = __pfn_to_page(pfn);
		page->state = PG_FREE | order;
		free_area_add(order, page);
		blocks++;
	}
	return blocks;
}

/*
 * next_free_span - the next free range, joined with the ranges that touch
 * it: memblock keeps the regions of different nodes apart, but the buddy
 * allocator has one set of free lists for every node, so the hand-off
 * frees across a node boundary as across nothing. Start with *@i = 0.
 * Return: false at the end.
 */
static bool next_free_span(uint64_t *i, phys_addr_t *start, phys_addr_t *end)
{
	phys_addr_t s, e;
	uint64_t j;

	if (*i == MEMBLOCK_ITER_END)
		return false;
	__next_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &memblock.memory,
			 &memblock.reserved, start, end, NULL);
	if (*i == MEMBLOCK_ITER_END)
		return false;
	for (;;) {
		j = *i;
		__next_mem_range(&j, NUMA_NO_NODE, MEMBLOCK_NONE,
				 &memblock.memory, &memblock.reserved, &s, &e,
				 NULL);
		if (j == MEMBLOCK_ITER_END || s != *end)
			return true;
		*end = e;
		*i = j;
	}
}

/* Free ranges holding a whole top-order block: each makes one run. */
static unsigned long count_runs(void)
{
	unsigned long n = 0;
	phys_addr_t start, end;
	uint64_t i;

	for (i = 0; next_free_span(&i, &start, &end);)
		if (pfn_up(start) < PHYS_PFN(end) &&
		    top_blocks_in(pfn_up(start), PHYS_PFN(end)))
			n++;
	return n;
}

unsigned long memblock_free_all(void)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long pages = 0, blocks = 0, k = 0, done = 0;
	phys_addr_t start, end;
	uint64_t i;

	if (memblock.handed_off) {
		pr_err("memblock_free_all: already called; nothing to do\n");
		return 0;
	}
	/*
	 * Empty lists first: whatever is refused below, every entry point of
	 * the allocator then finds nothing and fails as documented (NULL, a
	 * refused free), instead of following the zeroed sentinels.
	 */
	__page_allocator_init_lists();
	/* The page-0 policy: see memblock_free_all() in <mm/memblock.h>. */
	if (!phys_to_virt(0) && memblock_is_memory(0) &&
	    !memblock_is_region_reserved(0, PAGE_SIZE)) {
		if (memblock_reserve(0, PAGE_SIZE))
			return 0;
		pr_info("memblock_free_all: page 0 kept out: physical 0 is "
			"NULL here\n");
	}
	/* The metadata allocation only trims a range: it adds no run. */
	if (sparse_init(count_runs()))
		return 0;
	memblock.handed_off = true;

	for (i = 0; next_free_span(&i, &start, &end);) {
		unsigned long spfn = pfn_up(start);
		unsigned long epfn = PHYS_PFN(end);

		if (spfn >= epfn)
			continue;
		set_map(&k, done, spfn, PG_RESERVED);
		set_map(&k, spfn, epfn, PG_TAIL);
		done = epfn;
		blocks += free_pfn_range(spfn, epfn);
		pages += epfn - spfn;
	}
	set_map(&k, done, ~0UL, PG_RESERVED);
	pa->nr_managed = pages;
	pa->handoff_blocks = blocks;
	pr_info("memblock_free_all: %lu pages (%lu KiB) in %lu blocks to the "
		"buddy allocator (%lu top-order blocks deferred); metadata %zu "
		"bytes for %lu sections, in %lu pages\n", pages,
		pages << (PAGE_SHIFT - 10), blocks, pa->nr_deferred,
		pa->metadata_bytes, pa->nr_sections,
		(unsigned long)PFN_UP(pa->metadata_alloc));
	setup_per_cpu_pageset();
	return pages;
}
