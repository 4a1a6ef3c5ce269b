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

struct zone *only_zone(void)
{
	struct zone *found = NULL;

	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
		if (!page_allocator.zone_table[id])
			continue;
		if (found)
			return NULL;
		found = page_allocator.zone_table[id];
	}
	return found;
}

unsigned long all_max_runs(void)
{
	unsigned long n = 0;

	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++)
		if (page_allocator.zone_table[id])
			n += page_allocator.zone_table[id]->max_runs;
	return n;
}

/* Every zone's runs, one after the other, in zone id order. */
static unsigned long copy_runs(struct deferred_run *to)
{
	unsigned long n = 0;

	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
		const struct zone *z = page_allocator.zone_table[id];

		if (!z)
			continue;
		if (to)
			memcpy(to + n, z->deferred, z->nr_runs * sizeof(*to));
		n += z->nr_runs;
	}
	return n;
}

static void count_blocks(unsigned long (*blocks)[NR_PAGE_ORDERS])
{
	for (unsigned int id = 0; id < MAX_ZONE_IDS; id++) {
		const struct zone *z = page_allocator.zone_table[id];

		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			blocks[id][o] = z ? z->free_area[o].nr_free : 0;
	}
}

/* Every part of the map, one after the other, into @to (nr_map_pages()). */
static void copy_map(uint8_t *to)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned int k = 0; k < pa->nr_parts; k++) {
		memcpy(to, pa->parts[k].map, pa->parts[k].nr);
		to += pa->parts[k].nr;
	}
}

static bool same_map(const uint8_t *map)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned int k = 0; k < pa->nr_parts; k++) {
		if (memcmp(map, pa->parts[k].map, pa->parts[k].nr))
			return false;
		map += pa->parts[k].nr;
	}
	return true;
}

void snapshot_take(struct snapshot *s)
{
	const struct page_allocator *pa = &page_allocator;

	/* Cached blocks are free: compare the state they merge back into. */
	drain_all_pages();
	s->bytes = nr_map_pages();
	s->map = malloc(s->bytes);
	copy_map(s->map);
	count_blocks(s->blocks);
	s->nr_free = nr_free_pages();
	s->nr_managed = pa->nr_managed;
	s->nr_runs = copy_runs(NULL);
	s->runs = malloc(s->nr_runs * sizeof(*s->runs) + 1);
	copy_runs(s->runs);
}

bool snapshot_same(const struct snapshot *s)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long blocks[MAX_ZONE_IDS][NR_PAGE_ORDERS];

	/* Pages are counted alike cached or not; blocks once merged back. */
	if (s->nr_free != nr_free_pages())
		return false;
	drain_all_pages();
	count_blocks(blocks);
	if (memcmp(blocks, s->blocks, sizeof(blocks)))
		return false;
	return s->nr_free == nr_free_pages() && s->nr_managed == pa->nr_managed &&
	       s->bytes == nr_map_pages() && same_map(s->map) &&
	       page_alloc_check() == 0;
}

bool snapshot_runs_same(const struct snapshot *s)
{
	struct deferred_run *now;
	unsigned long n = copy_runs(NULL);
	bool same;

	if (n != s->nr_runs)
		return false;
	now = malloc(n * sizeof(*now) + 1);
	copy_runs(now);
	same = memcmp(s->runs, now, n * sizeof(*now)) == 0;
	free(now);
	return same;
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
