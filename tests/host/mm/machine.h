/*
 * machine.h - simulated machines for the buddy allocator's host tests.
 *
 * machine_map() backs physical [0, span) with lazily mapped host memory
 * (host_phys_offset points physical 0 at it), so tests choose any physical
 * layout, PFN 0 and banks above 4 GiB included, and only what the
 * allocator touches costs host memory.
 */
#ifndef TESTS_HOST_MM_MACHINE_H
#define TESTS_HOST_MM_MACHINE_H

#include "harness.h"
#include "../../../mm/page_state.h"

#define SZ_4K		0x1000ULL
#define SZ_1M		0x100000ULL
#define SZ_1G		0x40000000ULL
#define TOP_PAGES	(1UL << MAX_PAGE_ORDER)
#define TOP_BYTES	((phys_addr_t)PAGE_SIZE << MAX_PAGE_ORDER)

void machine_map(phys_addr_t span);

/*
 * machine_fuzz_reset - the libFuzzer targets' fresh start for each input:
 * physical [0, @span) backed as machine_map() does (mapped at the first
 * call, the same memory afterwards), memblock, the page allocator and the
 * slab allocator reset, the console captured from here.
 */
void machine_fuzz_reset(size_t span);

/*
 * std_machine - @nr_top top-order blocks at 2 GiB, the metadata in a small
 * bank of its own at 3 GiB, handed off, and every block below the top order
 * taken out (held, never freed) so that the free lists hold exactly @nr_top
 * top-order blocks. Return: false (with a diagnostic) if that failed.
 */
#define STD_BASE	(2 * SZ_1G)
bool std_machine(unsigned int nr_top);

/*
 * A copy of the whole allocator state, to prove a refusal changed nothing.
 * snapshot_same() compares what is free (the page map and the counts), so
 * that a block taken from a deferred run and freed onto its list again
 * counts as the same state; snapshot_runs_same() compares the runs too.
 * Blocks cached in per-CPU lists are free too: both drain every CPU's
 * lists (snapshot_same() after comparing the free page count, which
 * counts cached pages), so they compare the state those blocks merge into.
 */
struct snapshot {
	unsigned char *map;
	size_t bytes;
	unsigned long blocks[MAX_ZONE_IDS][NR_PAGE_ORDERS];
	unsigned long nr_free, nr_managed;
	struct deferred_run *runs;
	unsigned long nr_runs;
};

/* The one populated zone (NULL when there are several); all zones' runs. */
struct zone *only_zone(void);
unsigned long all_max_runs(void);

void snapshot_take(struct snapshot *s);
bool snapshot_same(const struct snapshot *s);
bool snapshot_runs_same(const struct snapshot *s);
void snapshot_drop(struct snapshot *s);

/*
 * slab_given_back - every empty slab returned (kmem_cache_shrink_all()),
 * none left, slab_check() and page_alloc_check() clean, and the free page
 * count back at @free_before.
 */
bool slab_given_back(unsigned long free_before);

#define EXPECT_SOUND()	EXPECT(page_alloc_check() == 0, "invariant checker")

#endif /* TESTS_HOST_MM_MACHINE_H */
