/*
 * machine.c - simulated machines and state snapshots for host tests.
 */
#include <stdlib.h>
#include <string.h>
#include <mm/test_reset.h>
#include "host.h"
#include "machine.h"

void machine_map(phys_addr_t span)
{
	host_set_phys_offset((uintptr_t)host_map(span, SZ_1M));
}

void machine_fuzz_reset(size_t span)
{
	/* One machine per process, mapped at the first input. */
	static void *mem;

	if (!mem)
		mem = host_map(span, PAGE_SIZE);
	memblock_reset_for_test();
	page_alloc_reset_for_test();
	slab_reset_for_test();
	host_console_capture_start(true);
	host_set_phys_offset((uintptr_t)mem);
}

bool std_machine(unsigned int nr_top)
{
	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(STD_BASE, nr_top * TOP_BYTES) == 0, "main bank");
	EXPECT(memblock_add(3 * SZ_1G, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	/*
	 * Highest first: taking a whole block of an order splits nothing. A
	 * per-CPU refill would take a batch, splitting: cache nothing here.
	 */
	zone_pcp_disable();
	for (unsigned int o = MAX_PAGE_ORDER; o-- > 0;)
		while (nr_free_blocks(o))
			EXPECT(alloc_pages(0, o), "drain order %u", o);
	zone_pcp_enable();
	EXPECT(nr_free_blocks(MAX_PAGE_ORDER) == nr_top, "%lu top blocks",
	       nr_free_blocks(MAX_PAGE_ORDER));
	EXPECT(nr_free_pages() == nr_top * TOP_PAGES, "free pages");
	return true;
}

void snapshot_take(struct snapshot *s)
{
	const struct page_allocator *pa = &page_allocator;

	/* Cached blocks are free: compare the state they merge back into. */
	drain_all_pages();
	s->bytes = nr_map_pages();
	s->map = malloc(s->bytes);
	memcpy(s->map, pa->map, s->bytes);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		s->blocks[o] = pa->free_area[o].nr_free;
	s->nr_free = nr_free_pages();
	s->nr_managed = pa->nr_managed;
	s->nr_runs = pa->nr_runs;
	s->runs = malloc(pa->nr_runs * sizeof(*s->runs) + 1);
	memcpy(s->runs, pa->deferred, pa->nr_runs * sizeof(*s->runs));
}

bool snapshot_same(const struct snapshot *s)
{
	const struct page_allocator *pa = &page_allocator;

	/* Pages are counted alike cached or not; blocks once merged back. */
	if (s->nr_free != nr_free_pages())
		return false;
	drain_all_pages();
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		if (s->blocks[o] != pa->free_area[o].nr_free)
			return false;
	return s->nr_free == nr_free_pages() && s->nr_managed == pa->nr_managed &&
	       s->bytes == nr_map_pages() &&
	       memcmp(s->map, pa->map, s->bytes) == 0 &&
	       page_alloc_check() == 0;
}

bool snapshot_runs_same(const struct snapshot *s)
{
	const struct page_allocator *pa = &page_allocator;

	return s->nr_runs == pa->nr_runs &&
	       memcmp(s->runs, pa->deferred, s->nr_runs * sizeof(*s->runs)) == 0;
}

void snapshot_drop(struct snapshot *s)
{
	free(s->map);
	free(s->runs);
	s->map = NULL;
	s->runs = NULL;
}

bool slab_given_back(unsigned long free_before)
{
	kmem_cache_shrink_all();
	EXPECT(slab_check() == 0, "slab_check");
	EXPECT(page_alloc_check() == 0, "page_alloc_check");
	EXPECT(slab_nr_slabs() == 0, "%lu slabs still held", slab_nr_slabs());
	EXPECT(nr_free_pages() == free_before, "%lu pages free, %lu before",
	       nr_free_pages(), free_before);
	return true;
}
