/*
 * page_init.c - the hand-off: memblock_free_all() gives every free range
 * to the buddy allocator.
 *
 * Each free range is cut into the largest naturally aligned blocks (bounded
 * by MAX_PAGE_ORDER, by the alignment of the next pfn and by what is left),
 * which go straight onto the free lists: no page-by-page freeing, and the
 * only per-page work is a memset of the range's struct page bytes. Greedy
 * cutting leaves no two free buddies unmerged, because two same-order
 * neighbours could only both appear if the first could have been twice as
 * large. Reserved ranges, no-map memory, holes and partial pages stay
 * RESERVED and never reach the allocator.
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include "page_state.h"
#include "sparse.h"

/* Give [@start, @end) to the allocator. Return: blocks made. */
static unsigned long free_pfn_range(unsigned long start, unsigned long end)
{
	unsigned long pfn, blocks = 0;
	unsigned int order;

	/* Range pages become TAIL, one section's bytes at a time. */
	for (pfn = start; pfn < end;) {
		unsigned long stop = MIN(end, (pfn | (PAGES_PER_SECTION - 1)) + 1);

		memset(__pfn_to_page(pfn), PG_TAIL, stop - pfn);
		pfn = stop;
	}
	for (pfn = start; pfn < end; pfn += 1UL << order) {
		struct page *page = __pfn_to_page(pfn);

		order = pfn_align_order(pfn);
		while ((1UL << order) > end - pfn)
			order--;
		page->state = PG_FREE | order;
		free_area_add(order, page);
		blocks++;
	}
	return blocks;
}

unsigned long memblock_free_all(void)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long pages = 0, blocks = 0;
	phys_addr_t start, end;
	uint64_t i;

	if (memblock.handed_off) {
		pr_err("memblock_free_all: already called; nothing to do\n");
		return 0;
	}
	/*
	 * Where physical 0 is virtual NULL, a block there would look like a
	 * failed allocation: keep that one page out.
	 */
	if (!phys_to_virt(0) && memblock_is_memory(0) &&
	    memblock_reserve(0, PAGE_SIZE))
		return 0;
	if (sparse_init())
		return 0;
	memblock.handed_off = true;

	__page_allocator_init_lists();
	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &start, &end,
				NULL) {
		unsigned long spfn = pfn_up(start);
		unsigned long epfn = PHYS_PFN(end);

		if (spfn >= epfn)
			continue;
		blocks += free_pfn_range(spfn, epfn);
		pages += epfn - spfn;
	}
	pa->nr_free = pages;
	pa->nr_managed = pages;
	pa->handoff_blocks = blocks;
	pr_info("memblock_free_all: %lu pages (%lu KiB) in %lu blocks to the "
		"buddy allocator; metadata %zu bytes for %lu sections\n",
		pages, pages << (PAGE_SHIFT - 10), blocks, pa->metadata_bytes,
		pa->nr_slots);
	return pages;
}
