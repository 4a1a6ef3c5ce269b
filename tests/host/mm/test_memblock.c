/*
 * test_memblock.c - every memblock operation on the host, one function per
 * scenario, in the manner of Linux's tools/testing/memblock.
 *
 * Most cases only do address arithmetic on made-up ranges, so nothing is
 * touched; the cases that allocate and write (memblock_alloc, array growth)
 * use a mapped buffer. Pictures: '|' bounds a region, 'r' is reserved,
 * 'm' is memory, '.' is outside both.
 */
#include <string.h>
#include <lib/errno.h>
#include "harness.h"

#define SZ_1K	0x400ULL
#define SZ_2K	0x800ULL
#define SZ_4K	0x1000ULL
#define SZ_8K	0x2000ULL
#define SZ_64K	0x10000ULL
#define SZ_1M	0x100000ULL
#define SZ_16M	0x1000000ULL
#define SZ_1G	0x40000000ULL

struct rgn {
	phys_addr_t base, size;
};

/* Does @type hold exactly the @n regions @want, with the right total? */
static bool regions_are(const struct memblock_type *type,
			const struct rgn *want, unsigned long n)
{
	phys_addr_t total = 0;

	if (type->cnt != n) {
		printf("# %s: %lu regions, expected %lu\n", type->name,
		       type->cnt, n);
		return false;
	}
	for (unsigned long i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		total += want[i].size;
		if (r->base != want[i].base || r->size != want[i].size) {
			printf("# %s[%lu] = [%#llx + %#llx], expected [%#llx + %#llx]\n",
			       type->name, i, (unsigned long long)r->base,
			       (unsigned long long)r->size,
			       (unsigned long long)want[i].base,
			       (unsigned long long)want[i].size);
			return false;
		}
	}
	if (type->total_size != total) {
		printf("# %s total %#llx, expected %#llx\n", type->name,
		       (unsigned long long)type->total_size,
		       (unsigned long long)total);
		return false;
	}
	return true;
}

#define MEMORY_IS(...)							\
	regions_are(&memblock.memory, (const struct rgn[]){ __VA_ARGS__ }, \
		    sizeof((const struct rgn[]){ __VA_ARGS__ }) / sizeof(struct rgn))
#define RESERVED_IS(...)						\
	regions_are(&memblock.reserved, (const struct rgn[]){ __VA_ARGS__ }, \
		    sizeof((const struct rgn[]){ __VA_ARGS__ }) / sizeof(struct rgn))

/* |  m  | */
static bool add_simple(void)
{
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_16M }), "one region");
	EXPECT(memblock_phys_mem_size() == SZ_16M, "size");
	return true;
}

/* | m1 |  | m2 |  : kept apart, sorted */
static bool add_disjoint_sorted(void)
{
	EXPECT(memblock_add(SZ_1G, SZ_1M) == 0, "add high");
	EXPECT(memblock_add(SZ_16M, SZ_1M) == 0, "add low");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_1M }, { SZ_1G, SZ_1M }), "two sorted");
	return true;
}

/* | m1 | m2 |  -> one region, whichever is added first */
static bool add_adjacent_merges(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_16M + SZ_1M, SZ_1M) == 0, "add above");
	EXPECT(memblock_add(SZ_16M - SZ_1M, SZ_1M) == 0, "add below");
	EXPECT(MEMORY_IS({ SZ_16M - SZ_1M, 3 * SZ_1M }), "merged");
	return true;
}

/* |  m1  |          |   m1 + m2   |
 *     |  m2  |  ->                   (overlap at either end) */
static bool add_overlapping_merges(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_add(SZ_16M + SZ_1M * 8, SZ_16M) == 0, "overlap top");
	EXPECT(memblock_add(SZ_1M * 8, SZ_16M) == 0, "overlap bottom");
	EXPECT(MEMORY_IS({ SZ_1M * 8, SZ_16M * 2 }), "merged");
	return true;
}

/* |   m1   |  plus a region inside it, or one covering it */
static bool add_within_and_covering(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_add(SZ_16M + SZ_1M, SZ_1M) == 0, "inside");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_16M }), "unchanged");
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "same again");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_16M }), "unchanged");
	EXPECT(memblock_add(SZ_1M, SZ_1G) == 0, "covering");
	EXPECT(MEMORY_IS({ SZ_1M, SZ_1G }), "one region");
	return true;
}

/* | m1 |  gap  | m2 |  plus one range spanning all three */
static bool add_bridges_gap(void)
{
	EXPECT(memblock_add(SZ_1M, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_1M * 4, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_1M * 8, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_1M + SZ_64K, SZ_1M * 7) == 0, "bridge");
	EXPECT(MEMORY_IS({ SZ_1M, SZ_1M * 8 }), "one region");
	return true;
}

static bool add_zero_size_refused(void)
{
	EXPECT(memblock_add(SZ_1M, 0) == -EINVAL, "zero size");
	EXPECT(memblock_reserve(SZ_1M, 0) == -EINVAL, "zero size");
	EXPECT(MEMORY_IS(), "nothing added");
	return true;
}

/* A range past the top of the address space is clamped to it. */
static bool add_near_top_clamps(void)
{
	phys_addr_t base = PHYS_ADDR_MAX - SZ_1M + 1;

	EXPECT(memblock_add(base, SZ_16M) == 0, "add");
	EXPECT(MEMORY_IS({ base, SZ_1M - 1 }), "clamped to the top");
	EXPECT(memblock_end_of_DRAM() == PHYS_ADDR_MAX, "end");
	EXPECT(memblock_add(PHYS_ADDR_MAX, SZ_1M) == -EINVAL, "nothing left");
	EXPECT(memblock_reserve(base - SZ_4K, PHYS_ADDR_MAX) == 0, "reserve");
	EXPECT(RESERVED_IS({ base - SZ_4K, SZ_1M - 1 + SZ_4K }), "clamped");
	EXPECT(memblock_remove(base + SZ_4K, PHYS_ADDR_MAX) == 0, "remove");
	EXPECT(MEMORY_IS({ base, SZ_4K }), "removed to the top");
	EXPECT(memblock_is_region_reserved(base, PHYS_ADDR_MAX), "overlaps");
	return true;
}

/* |  m  |   reserve across m's top and beyond:  |  m  |
 *                                                   |rrrrrr| */
static bool reserve_inside_and_across(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	EXPECT(memblock_reserve(SZ_16M + SZ_1M, SZ_1M) == 0, "inside");
	EXPECT(memblock_reserve(SZ_16M * 2 - SZ_1M, SZ_1G) == 0, "across");
	EXPECT(RESERVED_IS({ SZ_16M + SZ_1M, SZ_1M },
			   { SZ_16M * 2 - SZ_1M, SZ_1G }), "two reserved");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_16M }, { SZ_1G, SZ_16M }),
	       "memory unchanged");
	EXPECT(memblock_reserved_size() == SZ_1M + SZ_1G, "reserved size");
	EXPECT(memblock_reserve(SZ_16M + SZ_1M * 2, SZ_1M) == 0, "adjacent");
	EXPECT(RESERVED_IS({ SZ_16M + SZ_1M, SZ_1M * 2 },
			   { SZ_16M * 2 - SZ_1M, SZ_1G }), "merged");
	return true;
}

/* |    m    |  ->  | m |   | m |  */
static bool remove_splits(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_remove(SZ_16M + SZ_1M, SZ_1M) == 0, "remove middle");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_1M }, { SZ_16M + SZ_1M * 2, SZ_16M - SZ_1M * 2 }),
	       "split");
	EXPECT(memblock_phys_mem_size() == SZ_16M - SZ_1M, "size");
	return true;
}

static bool remove_ends_and_whole(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_remove(SZ_16M - SZ_1M, SZ_1M * 2) == 0, "bottom");
	EXPECT(memblock_remove(SZ_16M * 2 - SZ_1M, SZ_1M * 4) == 0, "top");
	EXPECT(MEMORY_IS({ SZ_16M + SZ_1M, SZ_16M - SZ_1M * 2 }), "trimmed");
	EXPECT(memblock_remove(SZ_1M, SZ_1G) == 0, "whole");
	EXPECT(MEMORY_IS(), "empty");
	EXPECT(memblock_remove(SZ_1M, SZ_1M) == 0, "nothing there");
	return true;
}

/* | m1 |  | m2 |  | m3 |   remove from inside m1 to inside m3 */
static bool remove_across_regions(void)
{
	EXPECT(memblock_add(SZ_1M, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_1M * 4, SZ_1M) == 0, "add");
	EXPECT(memblock_add(SZ_1M * 8, SZ_1M) == 0, "add");
	EXPECT(memblock_remove(SZ_1M + SZ_64K, SZ_1M * 7) == 0, "remove");
	EXPECT(MEMORY_IS({ SZ_1M, SZ_64K }, { SZ_1M * 8 + SZ_64K, SZ_1M - SZ_64K }),
	       "ends kept");
	return true;
}

static bool phys_free_splits_reserved(void)
{
	EXPECT(memblock_reserve(SZ_16M, SZ_16M) == 0, "reserve");
	EXPECT(memblock_phys_free(SZ_16M + SZ_4K, SZ_4K) == 0, "free");
	EXPECT(RESERVED_IS({ SZ_16M, SZ_4K }, { SZ_16M + SZ_4K * 2, SZ_16M - SZ_4K * 2 }),
	       "split");
	EXPECT(!memblock_is_region_reserved(SZ_16M + SZ_4K, SZ_4K), "hole");
	EXPECT(memblock_is_region_reserved(SZ_16M + SZ_4K, SZ_4K + 1), "edge");
	return true;
}

static bool nomap_mark_and_clear(void)
{
	phys_addr_t s, e;
	uint64_t i;
	int n = 0;

	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_mark_nomap(SZ_16M + SZ_1M, SZ_1M) == 0, "mark");
	EXPECT(memblock.memory.cnt == 3, "split in three");
	EXPECT(memblock.memory.regions[1].flags == MEMBLOCK_NOMAP, "flag");
	for_each_mem_range(i, &s, &e) {
		EXPECT(!(s < SZ_16M + SZ_1M * 2 && SZ_16M + SZ_1M < e),
		       "no-map range visited");
		n++;
	}
	EXPECT(n == 2, "two mapped ranges, got %d", n);
	EXPECT(memblock_clear_nomap(SZ_16M, SZ_16M) == 0, "clear");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_16M }), "merged back");
	return true;
}

/*  |mmmmmmmmmmmmmmmmmmm|     memory
 *      |rr|      |rr|        reserved
 *  |fff|  |ffffff|  |fff|    free ranges, ascending */
static bool free_ranges_are_memory_minus_reserved(void)
{
	const struct rgn want[] = {
		{ SZ_1M, SZ_1M }, { SZ_1M * 3, SZ_1M * 2 },
		{ SZ_1M * 6, SZ_1M * 4 }, { SZ_1G, SZ_1M },
	};
	phys_addr_t s, e;
	uint64_t i;
	unsigned int n = 0;

	EXPECT(memblock_add(SZ_1M, SZ_1M * 9) == 0, "add");
	EXPECT(memblock_add(SZ_1G, SZ_1M) == 0, "add");
	EXPECT(memblock_reserve(SZ_1M * 2, SZ_1M) == 0, "reserve");
	EXPECT(memblock_reserve(SZ_1M * 5, SZ_1M) == 0, "reserve");
	EXPECT(memblock_reserve(SZ_1M * 100, SZ_1M) == 0, "reserve outside");
	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &s, &e, NULL) {
		EXPECT(n < 4, "too many ranges");
		EXPECT(s == want[n].base && e == want[n].base + want[n].size,
		       "range %u is [%#llx-%#llx)", n, (unsigned long long)s,
		       (unsigned long long)e);
		n++;
	}
	EXPECT(n == 4, "%u ranges", n);
	return true;
}

static bool queries(void)
{
	EXPECT(memblock_start_of_DRAM() == 0 && memblock_end_of_DRAM() == 0,
	       "empty");
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_add(SZ_1G, SZ_1M) == 0, "add");
	EXPECT(memblock_start_of_DRAM() == SZ_16M, "start");
	EXPECT(memblock_end_of_DRAM() == SZ_1G + SZ_1M, "end");
	EXPECT(memblock_is_memory(SZ_16M) && memblock_is_memory(SZ_1G + SZ_1M - 1),
	       "inside");
	EXPECT(!memblock_is_memory(SZ_16M * 2) && !memblock_is_memory(SZ_1G + SZ_1M),
	       "outside");
	EXPECT(memblock_is_region_memory(SZ_16M, SZ_16M), "whole");
	EXPECT(!memblock_is_region_memory(SZ_16M, SZ_16M + 1), "past end");
	EXPECT(!memblock_is_region_reserved(0, PHYS_ADDR_MAX), "none reserved");
	EXPECT(memblock_reserve(SZ_16M, SZ_1M) == 0, "reserve");
	EXPECT(memblock_is_region_reserved(SZ_16M + SZ_4K, 1), "one byte");
	/* An empty range overlaps nothing, inside a reservation or not. */
	EXPECT(!memblock_is_region_reserved(SZ_16M + SZ_4K, 0), "empty");
	return true;
}

/* | m: 16 MiB at 1 GiB |  -> the highest aligned fit */
static bool alloc_top_down(void)
{
	phys_addr_t a, b;

	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	a = memblock_phys_alloc(SZ_4K, SZ_4K);
	EXPECT(a == SZ_1G + SZ_16M - SZ_4K, "top page, got %#llx",
	       (unsigned long long)a);
	b = memblock_phys_alloc(SZ_1K, SZ_64K);
	EXPECT(b == SZ_1G + SZ_16M - SZ_64K, "aligned below, got %#llx",
	       (unsigned long long)b);
	EXPECT(RESERVED_IS({ b, SZ_1K }, { a, SZ_4K }), "reserved");
	return true;
}

static bool alloc_bottom_up(void)
{
	phys_addr_t a, b;

	memblock_set_bottom_up(true);
	EXPECT(memblock_bottom_up(), "flag");
	EXPECT(memblock_add(SZ_1G + SZ_1K, SZ_16M) == 0, "add");
	a = memblock_phys_alloc(SZ_4K, SZ_4K);
	EXPECT(a == SZ_1G + SZ_4K, "lowest aligned, got %#llx",
	       (unsigned long long)a);
	/* Not the 3 KiB below it: that page is only partly memory. */
	b = memblock_phys_alloc(SZ_1K, SZ_1K);
	EXPECT(b == SZ_1G + SZ_8K, "above it, got %#llx", (unsigned long long)b);
	EXPECT(RESERVED_IS({ a, SZ_4K + SZ_1K }), "reserved, merged");
	return true;
}

/*
 * |pmmmmmmmmp|  a bank that starts and ends inside a page: allocations,
 * however small or loosely aligned, take only the whole pages between, in
 * both directions; a bank with no whole page gives nothing.
 */
static bool alloc_whole_pages_only(void)
{
	const phys_addr_t base = SZ_1G + SZ_1K, end = SZ_1G + 4 * PAGE_SIZE + SZ_2K;

	for (int up = 0; up < 2; up++) {
		phys_addr_t a;

		memblock_reset_for_test();
		memblock_set_bottom_up(up);
		EXPECT(memblock_add(base, end - base) == 0, "add");
		EXPECT(memblock_add(2 * SZ_1G + SZ_1K, PAGE_SIZE) == 0, "no whole page");
		a = memblock_phys_alloc(64, 64);
		EXPECT(a == (up ? SZ_1G + PAGE_SIZE : SZ_1G + 4 * PAGE_SIZE - 64),
		       "%s: got %#llx", up ? "bottom-up" : "top-down",
		       (unsigned long long)a);
		EXPECT(memblock_phys_alloc(3 * PAGE_SIZE, 8) == 0,
		       "3 whole pages, less 64 bytes");
		EXPECT(memblock_phys_alloc(2 * PAGE_SIZE, 8), "2 whole pages");
		a = memblock_phys_alloc(PAGE_SIZE - 64, 8);
		EXPECT(a >= SZ_1G + PAGE_SIZE && a + PAGE_SIZE - 64 <= SZ_1G + 4 * PAGE_SIZE,
		       "the rest: got %#llx", (unsigned long long)a);
		EXPECT(memblock_phys_alloc(8, 8) == 0,
		       "only partial pages left, got something");
	}
	return true;
}

/* |mmmm|rrrr|mm|  top-down: a 2 MiB request skips the 1 MiB hole on top. */
static bool alloc_skips_reserved_and_small_gaps(void)
{
	for (int up = 0; up < 2; up++) {
		phys_addr_t a;

		memblock_reset_for_test();
		memblock_set_bottom_up(up);
		EXPECT(memblock_add(SZ_16M, SZ_1M * 8) == 0, "add");
		EXPECT(memblock_reserve(SZ_16M + SZ_1M * 2, SZ_1M * 5) == 0, "r");
		a = memblock_phys_alloc(SZ_1M * 2, SZ_4K);
		EXPECT(a == SZ_16M, "the only fit, got %#llx", (unsigned long long)a);
		EXPECT(memblock_phys_alloc(SZ_1M * 2, SZ_4K) == 0, "no fit left");
		EXPECT(memblock_phys_alloc(SZ_1M, SZ_4K) == SZ_16M + SZ_1M * 7,
		       "the 1 MiB gap");
	}
	return true;
}

/* Limits: [start, end) is honoured at both ends, in both directions. */
static bool alloc_range_limits(void)
{
	for (int up = 0; up < 2; up++) {
		phys_addr_t a;

		memblock_reset_for_test();
		memblock_set_bottom_up(up);
		EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
		a = memblock_phys_alloc_range(SZ_1M, SZ_1M, SZ_16M + SZ_1M * 3,
					      SZ_16M + SZ_1M * 5);
		EXPECT(a == (up ? SZ_16M + SZ_1M * 3 : SZ_16M + SZ_1M * 4),
		       "inside the limits, got %#llx", (unsigned long long)a);
		EXPECT(memblock_phys_alloc_range(SZ_1M * 2, SZ_1M, SZ_16M + SZ_1M * 3,
						 SZ_16M + SZ_1M * 5) == 0,
		       "too big for what is left");
		EXPECT(memblock_phys_alloc_range(SZ_1M, SZ_4K, 0, SZ_16M) == 0,
		       "below memory");
		EXPECT(memblock_phys_alloc_range(SZ_1M, SZ_4K, SZ_1G, SZ_1M) == 0,
		       "start above end");
		memblock_set_current_limit(SZ_16M + SZ_1M * 2);
		a = memblock_phys_alloc(SZ_1M, SZ_4K);
		EXPECT(a && a + SZ_1M <= SZ_16M + SZ_1M * 2, "current limit");
	}
	return true;
}

static bool alloc_bad_alignment_refused(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_phys_alloc(SZ_4K, 0) == 0, "align 0");
	EXPECT(console_says("not a power of two"), "reported");
	EXPECT(memblock_phys_alloc(SZ_4K, 3 * SZ_4K) == 0, "align 12K");
	EXPECT(memblock_phys_alloc(0, SZ_4K) == 0, "size 0");
	EXPECT(RESERVED_IS(), "nothing reserved");
	return true;
}

/* Memory at the very top of the address space: no wrap-around. */
static bool alloc_near_top_no_overflow(void)
{
	phys_addr_t base = PHYS_ADDR_MAX - SZ_16M + 1;
	phys_addr_t a;

	for (int up = 0; up < 2; up++) {
		memblock_reset_for_test();
		memblock_set_bottom_up(up);
		EXPECT(memblock_add(base, SZ_16M) == 0, "add");
		EXPECT(memblock_phys_alloc(SZ_16M, SZ_4K) == 0, "one byte short");
		EXPECT(memblock_phys_alloc(PHYS_ADDR_MAX, SZ_4K) == 0, "huge");
		EXPECT(memblock_phys_alloc(SZ_4K, SZ_1G) == 0, "no aligned spot");
		a = memblock_phys_alloc(SZ_4K, SZ_4K);
		EXPECT(a >= base && a <= PHYS_ADDR_MAX - SZ_4K, "in range");
		EXPECT(RESERVED_IS({ a, SZ_4K }), "reserved");
	}
	return true;
}

static bool alloc_never_returns_zero(void)
{
	EXPECT(memblock_add(0, SZ_4K * 2) == 0, "add");
	memblock_set_bottom_up(true);
	EXPECT(memblock_phys_alloc(SZ_4K, SZ_4K) == SZ_4K, "page 1, not 0");
	EXPECT(memblock_phys_alloc(SZ_4K, SZ_4K) == 0, "page 0 is never given");
	return true;
}

static bool alloc_zeroes_and_maps(void)
{
	unsigned char *buf = host_map(SZ_1M, SZ_4K);
	unsigned char *p;

	memset(buf, 0xa5, SZ_1M);
	EXPECT(memblock_add((uintptr_t)buf, SZ_1M) == 0, "add");
	p = memblock_alloc(SZ_4K * 3, SZ_4K);
	EXPECT(p == buf + SZ_1M - SZ_4K * 3, "top-down, got %p", (void *)p);
	for (unsigned int i = 0; i < SZ_4K * 3; i++)
		EXPECT(p[i] == 0, "byte %u not zeroed", i);
	EXPECT(buf[SZ_1M - SZ_4K * 3 - 1] == 0xa5, "nothing else touched");
	EXPECT(memblock_alloc(SZ_1M, SZ_4K) == NULL, "no room");
	return true;
}

/*
 * Before resizing is allowed (nothing mapped yet), 1024 disjoint memory
 * regions and 1024 disjoint reserved regions are all kept: the static
 * arrays hold a whole boot-info list.
 *   |m|.|m|.|m|. ... .|m|      1024 times each, r over the first page of each
 */
static bool many_regions_before_resize(void)
{
	EXPECT(INIT_MEMBLOCK_REGIONS >= 1024, "static arrays of %d",
	       INIT_MEMBLOCK_REGIONS);
	EXPECT(!memblock.can_resize, "resizing not allowed yet");
	for (unsigned int i = 0; i < 1024; i++) {
		EXPECT(memblock_add(SZ_1M * (2 * i + 1), SZ_1M) == 0, "add %u", i);
		EXPECT(memblock_reserve(SZ_1M * (2 * i + 1), SZ_4K) == 0,
		       "reserve %u", i);
	}
	EXPECT(memblock.memory.cnt == 1024 && memblock.reserved.cnt == 1024,
	       "%lu memory, %lu reserved", memblock.memory.cnt,
	       memblock.reserved.cnt);
	EXPECT(memblock.memory.total_size == SZ_1M * 1024 &&
	       memblock.reserved.total_size == SZ_4K * 1024, "totals");
	for (unsigned int i = 0; i < 1024; i++)
		EXPECT(memblock.memory.regions[i].base == SZ_1M * (2 * i + 1) &&
		       memblock.reserved.regions[i].size == SZ_4K, "region %u", i);
	return true;
}

/*
 * Regions of one page each, alone or between others, stay regions of one
 * page: nothing rounds them away or merges them with a neighbour they do
 * not touch.
 *   |m|.|m|.|m|      each m and each r one 4 KiB page
 */
static bool one_page_regions_kept(void)
{
	for (unsigned int i = 0; i < 8; i++)
		EXPECT(memblock_add(SZ_1G + SZ_4K * 2 * i, SZ_4K) == 0, "add %u", i);
	EXPECT(memblock_reserve(SZ_1G + SZ_4K * 2, SZ_4K) == 0, "reserve one");
	EXPECT(memblock.memory.cnt == 8 && memblock_phys_mem_size() == 8 * SZ_4K,
	       "%lu regions", memblock.memory.cnt);
	EXPECT(RESERVED_IS({ SZ_1G + SZ_4K * 2, SZ_4K }), "reserved page");
	/* The free ranges: every page but the reserved one. */
	{
		phys_addr_t s, e;
		unsigned int n = 0;
		uint64_t i;

		for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &s, &e, NULL) {
			EXPECT(e - s == SZ_4K && s != SZ_1G + SZ_4K * 2,
			       "range [%#llx-%#llx)", (unsigned long long)s,
			       (unsigned long long)e);
			n++;
		}
		EXPECT(n == 7, "%u free pages", n);
	}
	/* Bottom-up, a one-page allocation takes the lowest free one-page region. */
	memblock_set_bottom_up(true);
	EXPECT(memblock_phys_alloc(SZ_4K, SZ_4K) == SZ_1G, "lowest page");
	EXPECT(memblock_phys_alloc(SZ_4K, SZ_4K) == SZ_1G + SZ_4K * 4, "next");
	EXPECT(memblock_phys_alloc(SZ_4K * 2, SZ_4K) == 0, "no two pages");
	return true;
}

/* Once full, the static array refuses the next new region. */
static bool full_array_refuses_cleanly(void)
{
	for (unsigned int i = 0; i < INIT_MEMBLOCK_REGIONS; i++) {
		EXPECT(memblock_add(SZ_1M * (2 * i + 1), SZ_1M) == 0, "add %u", i);
		EXPECT(memblock_reserve(SZ_1M * (2 * i + 1), SZ_4K) == 0, "r %u", i);
	}
	EXPECT(memblock_add(SZ_1G * 4, SZ_1M) == -ENOMEM, "full");
	EXPECT(console_says("memory array is full"), "reported");
	EXPECT(memblock_reserve(SZ_1G * 4, SZ_1M) == -ENOMEM, "full");
	/* Removing from the middle needs a split, which needs a slot. */
	EXPECT(memblock_remove(SZ_1M + SZ_4K, SZ_4K) == -ENOMEM, "split");
	EXPECT(memblock.memory.cnt == INIT_MEMBLOCK_REGIONS, "nothing lost");
	EXPECT(memblock.memory.total_size == SZ_1M * INIT_MEMBLOCK_REGIONS,
	       "nothing changed");
	EXPECT(memblock.reserved.cnt == INIT_MEMBLOCK_REGIONS, "nothing lost");
	/* A range already covered needs no slot. */
	EXPECT(memblock_add(SZ_1M, SZ_1M) == 0, "covered");
	return true;
}

/* Fill both arrays with 1 MiB regions at odd MiB, 1, 3, 5, ... */
static bool fill_both_arrays(void)
{
	memblock_reset_for_test();
	for (unsigned int i = 0; i < INIT_MEMBLOCK_REGIONS; i++) {
		EXPECT(memblock_add(SZ_1M * (2 * i + 1), SZ_1M) == 0, "add %u", i);
		EXPECT(memblock_reserve(SZ_1M * (2 * i + 1), SZ_1M) == 0, "r %u", i);
	}
	return true;
}

/* A full array still does everything that needs no new slot. */
static bool full_array_does_what_needs_no_slot(void)
{
	const unsigned long full = INIT_MEMBLOCK_REGIONS;
	const phys_addr_t top = SZ_1M * 2 * full;

	EXPECT(fill_both_arrays(), "fill");
	EXPECT(memblock_remove(SZ_1M * 3, SZ_1M) == 0, "remove one region");
	EXPECT(memblock.memory.cnt == full - 1 &&
	       !memblock_is_memory(SZ_1M * 3), "removed");
	EXPECT(fill_both_arrays(), "fill");
	EXPECT(memblock_remove(SZ_1M * 2, SZ_1M) == 0, "remove a gap");
	EXPECT(memblock_remove(top + SZ_1G, SZ_1M) == 0, "remove above all");
	EXPECT(memblock.memory.cnt == full, "nothing removed");
	EXPECT(memblock_phys_free(SZ_1M * 5, SZ_1M) == 0, "free one region");
	EXPECT(memblock.reserved.cnt == full - 1 &&
	       !memblock_is_region_reserved(SZ_1M * 5, SZ_1M), "freed");
	EXPECT(fill_both_arrays(), "fill");
	EXPECT(memblock_mark_nomap(SZ_1M * 7, SZ_1M) == 0, "no-map one region");
	EXPECT(memblock.memory.cnt == full &&
	       memblock.memory.regions[3].flags == MEMBLOCK_NOMAP, "flagged");
	EXPECT(memblock_clear_nomap(SZ_1M * 7, SZ_1M) == 0, "and back");
	EXPECT(memblock.memory.regions[3].flags == MEMBLOCK_NONE, "cleared");
	/* Bridging two regions leaves one fewer; touching one grows it. */
	EXPECT(memblock_add(SZ_1M * 2, SZ_1M) == 0, "bridge");
	EXPECT(memblock.memory.cnt == full - 1 &&
	       memblock_is_region_memory(SZ_1M, SZ_1M * 3), "bridged");
	EXPECT(fill_both_arrays(), "fill");
	EXPECT(memblock_add(top, SZ_1M) == 0 && memblock_add(0, SZ_1M) == 0,
	       "grow the last and the first");
	EXPECT(memblock_reserve(SZ_1M * 2, SZ_1M * 3) == 0, "bridge three");
	EXPECT(memblock.memory.cnt == full && memblock.reserved.cnt == full - 2,
	       "%lu memory, %lu reserved", memblock.memory.cnt,
	       memblock.reserved.cnt);
	EXPECT(memblock.memory.total_size == SZ_1M * (full + 2) &&
	       memblock.reserved.total_size == SZ_1M * (full + 2), "totals");
	/* What does need a slot is still refused, and changes nothing. */
	EXPECT(memblock_add(SZ_1G * 4, SZ_1M) == -ENOMEM, "new region");
	EXPECT(memblock_remove(top - SZ_1M + SZ_4K, SZ_4K) == -ENOMEM, "split");
	EXPECT(memblock.memory.cnt == full &&
	       memblock.memory.total_size == SZ_1M * (full + 2), "unchanged");
	return true;
}


/* Capping memory never fails and leaves nothing above the cap. */
static bool cap_memory_on_a_full_array(void)
{
	const phys_addr_t limit = SZ_1M * 5 + SZ_4K;

	EXPECT(fill_both_arrays(), "fill");
	EXPECT(memblock_cap_memory(SZ_1G * 4) == 0, "nothing above");
	EXPECT(memblock.memory.cnt == INIT_MEMBLOCK_REGIONS, "kept");
	EXPECT(memblock_cap_memory(limit) == 0, "cap");
	EXPECT(memblock_end_of_DRAM() <= limit && memblock.memory.cnt == 2,
	       "end %#llx, %lu regions",
	       (unsigned long long)memblock_end_of_DRAM(), memblock.memory.cnt);
	EXPECT(console_says("dropping [0x500000-0x501000)"), "reported");
	memblock_reset_for_test();
	EXPECT(memblock_add(0, SZ_16M) == 0 && memblock_cap_memory(SZ_1M) == 0,
	       "cap with room");
	EXPECT(MEMORY_IS({ 0, SZ_1M }), "split at the cap");
	return true;
}

/*
 * With resize allowed, a full reserved array doubles inside memory, as
 * often as it takes: 3072 reserved pages.
 *   |r.r.r.r ... r.r.r   rr|   (the last r: the grown array itself)
 */
static bool full_reserved_array_grows(void)
{
	const phys_addr_t span = 64 * SZ_1M;
	unsigned char *buf = host_map(span, SZ_1M);
	phys_addr_t base = (uintptr_t)buf;
	unsigned int n = INIT_MEMBLOCK_REGIONS * 3;

	EXPECT(memblock_add(base, span) == 0, "add");
	memblock_allow_resize();
	for (unsigned int i = 0; i < n; i++)
		EXPECT(memblock_reserve(base + SZ_4K * 2 * i, SZ_4K) == 0,
		       "reserve %u", i);
	/* n small regions plus the grown array itself. */
	EXPECT(memblock.reserved.cnt == n + 1, "cnt %lu", memblock.reserved.cnt);
	EXPECT(memblock.reserved.max >= n + 1, "max %lu", memblock.reserved.max);
	for (unsigned int i = 0; i < n; i++)
		EXPECT(memblock_is_region_reserved(base + SZ_4K * 2 * i, 1) &&
		       !memblock_is_region_reserved(base + SZ_4K * (2 * i + 1), 1),
		       "region %u kept", i);
	EXPECT(memblock_is_region_reserved(virt_to_phys(memblock.reserved.regions),
					   memblock.reserved.max *
					   sizeof(struct memblock_region)),
	       "the array reserves itself");
	EXPECT(console_says("reserved array grew"), "reported");
	return true;
}

/* The memory array grows too, into memory added before. */
static bool full_memory_array_grows(void)
{
	unsigned char *buf = host_map(SZ_16M, SZ_1M);
	phys_addr_t base = (uintptr_t)buf;
	unsigned int n = INIT_MEMBLOCK_REGIONS + 10;

	memblock_allow_resize();
	EXPECT(memblock_add(base, SZ_1M) == 0, "room for the array");
	for (unsigned int i = 1; i <= n; i++)
		EXPECT(memblock_add(base + SZ_1M + SZ_4K * 2 * i, SZ_4K) == 0,
		       "add %u", i);
	EXPECT(memblock.memory.cnt == n + 1, "cnt %lu", memblock.memory.cnt);
	EXPECT(memblock.memory.regions != NULL &&
	       memblock_is_region_reserved(virt_to_phys(memblock.memory.regions), 1),
	       "new array reserved");
	EXPECT((uintptr_t)memblock.memory.regions >= (uintptr_t)buf &&
	       (uintptr_t)memblock.memory.regions < (uintptr_t)buf + SZ_1M,
	       "placed in memory");
	return true;
}

/* Resize allowed but no room to grow into: refused, not lost. */
static bool full_array_without_room_refuses(void)
{
	memblock_allow_resize();
	for (unsigned int i = 0; i < INIT_MEMBLOCK_REGIONS; i++)
		EXPECT(memblock_reserve(SZ_1M * (2 * i + 1), SZ_4K) == 0, "r %u", i);
	EXPECT(memblock_reserve(SZ_1G, SZ_4K) == -ENOMEM, "no memory to grow");
	EXPECT(memblock.reserved.cnt == INIT_MEMBLOCK_REGIONS, "unchanged");
	return true;
}

static bool dump_shows_both_arrays(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add");
	EXPECT(memblock_reserve(SZ_16M + SZ_1M, SZ_4K) == 0, "reserve");
	EXPECT(memblock_mark_nomap(SZ_16M * 2 - SZ_4K, SZ_4K) == 0, "nomap");
	console_clear();
	memblock_dump_all();
	EXPECT(console_says(" memory[0x0]\t[0x0000000001000000-0x0000000001ffefff], 0xfff000 bytes"),
	       "memory line");
	EXPECT(console_says(" memory[0x1]\t[0x0000000001fff000-0x0000000001ffffff], 0x1000 bytes no-map"),
	       "no-map line");
	EXPECT(console_says(" reserved[0x0]\t[0x0000000001100000-0x0000000001100fff], 0x1000 bytes"),
	       "reserved line");
	EXPECT(console_says("reserved.cnt  = 1"), "count");
	return true;
}

/* The node of each region of @type, in order. */
static bool nids_are(const struct memblock_type *type, const int *want,
		     unsigned long n)
{
	if (type->cnt != n) {
		printf("# %s: %lu regions, expected %lu\n", type->name,
		       type->cnt, n);
		return false;
	}
	for (unsigned long i = 0; i < n; i++)
		if (type->regions[i].nid != want[i]) {
			printf("# %s[%lu] on node %d, expected %d\n", type->name,
			       i, type->regions[i].nid, want[i]);
			return false;
		}
	return true;
}
#define MEMORY_NIDS_ARE(...)						\
	nids_are(&memblock.memory, (const int[]){ __VA_ARGS__ },	\
		 sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

/* New memory and every reservation start in no node. */
static bool nid_defaults_to_no_node(void)
{
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	EXPECT(memblock_reserve(SZ_1G, SZ_1M) == 0, "reserve");
	EXPECT(MEMORY_NIDS_ARE(NUMA_NO_NODE), "memory");
	EXPECT(memblock.reserved.regions[0].nid == NUMA_NO_NODE, "reserved");
	return true;
}

/*
 * Linux's set_node_check: the whole of one region changes node.
 *   |  m  |   ->   |  m (nid 1)  |
 */
static bool set_node_whole_region(void)
{
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	EXPECT(memblock_set_node(SZ_1G, SZ_16M, &memblock.memory, 1) == 0, "set");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_16M }) && MEMORY_NIDS_ARE(1), "node 1");
	return true;
}

/*
 * The middle of a region changes node: split in three, the outer parts
 * keep theirs.
 *   |     m     |   ->   | m0 | m1 | m0 |
 */
static bool set_node_splits(void)
{
	EXPECT(memblock_add_node(SZ_1G, SZ_16M, 0, MEMBLOCK_NONE) == 0, "add");
	EXPECT(memblock_set_node(SZ_1G + SZ_1M, SZ_1M, &memblock.memory, 1) == 0,
	       "set");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_1M }, { SZ_1G + SZ_1M, SZ_1M },
			 { SZ_1G + 2 * SZ_1M, SZ_16M - 2 * SZ_1M }), "split");
	EXPECT(MEMORY_NIDS_ARE(0, 1, 0), "nodes");
	/* Back to node 0: one region again. */
	EXPECT(memblock_set_node(SZ_1G + SZ_1M, SZ_1M, &memblock.memory, 0) == 0,
	       "back");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_16M }) && MEMORY_NIDS_ARE(0), "merged");
	return true;
}

/*
 * A range from inside one region, across the gap, over all of the next:
 * the parts it covers change node, the gap stays no memory (set_node
 * adds nothing).
 *   | m |...| m |   ->   | m | m2 |...|  m2  |
 */
static bool set_node_across_gap(void)
{
	EXPECT(memblock_add(SZ_16M, SZ_16M) == 0, "add low");
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add high");
	EXPECT(memblock_set_node(SZ_16M + SZ_1M, SZ_1G, &memblock.memory, 2) == 0,
	       "set");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_1M }, { SZ_16M + SZ_1M, SZ_16M - SZ_1M },
			 { SZ_1G, SZ_16M }), "regions");
	EXPECT(MEMORY_NIDS_ARE(NUMA_NO_NODE, 2, 2), "nodes");
	EXPECT(memblock_phys_mem_size() == 2 * SZ_16M, "nothing added");
	return true;
}

/*
 * Regions of different nodes never merge, whether added touching or
 * bridged by a later add; the same node merges as before.
 *   | m0 | m1 |   stays two;   | m1 | m1 |   becomes one
 */
static bool different_nodes_never_merge(void)
{
	EXPECT(memblock_add_node(SZ_1G, SZ_1M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(SZ_1G + SZ_1M, SZ_1M, 1, MEMBLOCK_NONE) == 0,
	       "n1 touching");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_1M }, { SZ_1G + SZ_1M, SZ_1M }), "two");
	EXPECT(MEMORY_NIDS_ARE(0, 1), "nodes kept");
	EXPECT(memblock_add_node(SZ_1G + 3 * SZ_1M, SZ_1M, 1, MEMBLOCK_NONE) == 0,
	       "n1 above a gap");
	EXPECT(memblock_add_node(SZ_1G + 2 * SZ_1M, SZ_1M, 1, MEMBLOCK_NONE) == 0,
	       "n1 bridges");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_1M }, { SZ_1G + SZ_1M, 3 * SZ_1M }) &&
	       MEMORY_NIDS_ARE(0, 1), "node 1 merged, node 0 apart");
	/* Memory already there keeps its node when added again. */
	EXPECT(memblock_add_node(SZ_1G, 4 * SZ_1M, 3, MEMBLOCK_NONE) == 0, "again");
	EXPECT(MEMORY_NIDS_ARE(0, 1), "unchanged");
	/* The flags too: a no-map part splits, clearing it merges back. */
	EXPECT(memblock_mark_nomap(SZ_1G + SZ_1M, SZ_1M) == 0 &&
	       memblock_clear_nomap(SZ_1G + SZ_1M, SZ_1M) == 0, "nomap");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_1M }, { SZ_1G + SZ_1M, 3 * SZ_1M }),
	       "as before");
	return true;
}

/* A bad node id or a zero size is refused and changes nothing. */
static bool set_node_refuses_bad_input(void)
{
	EXPECT(memblock_add(SZ_1G, SZ_16M) == 0, "add");
	EXPECT(memblock_set_node(SZ_1G, SZ_1M, &memblock.memory, -2) == -EINVAL,
	       "nid -2");
	EXPECT(memblock_add_node(SZ_16M, SZ_1M, -5, MEMBLOCK_NONE) == -EINVAL,
	       "add nid -5");
	EXPECT(memblock_set_node(SZ_1G, 0, &memblock.memory, 1) == -EINVAL,
	       "size 0");
	EXPECT(MEMORY_IS({ SZ_1G, SZ_16M }) && MEMORY_NIDS_ARE(NUMA_NO_NODE),
	       "unchanged");
	return true;
}

/*
 * The iterators give each range's node and filter by node.
 *   | m0 |rr| m0 |...| m1 |     free ranges: two of node 0, one of node 1
 */
static bool iterators_give_and_filter_nid(void)
{
	phys_addr_t s, e;
	unsigned long sp, ep;
	int nid, n0 = 0, n1 = 0, all = 0, pi;
	uint64_t i;

	EXPECT(memblock_add_node(SZ_16M, SZ_16M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(SZ_1G, SZ_16M, 1, MEMBLOCK_NONE) == 0, "n1");
	EXPECT(memblock_reserve(SZ_16M + SZ_1M, SZ_1M) == 0, "reserve");
	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &s, &e, &nid) {
		EXPECT(nid == (s < SZ_1G ? 0 : 1), "[%#llx) on node %d",
		       (unsigned long long)s, nid);
		all++;
	}
	for_each_free_mem_range(i, 0, MEMBLOCK_NONE, &s, &e, &nid)
		EXPECT(nid == 0 && e <= 2 * SZ_16M && ++n0, "node 0 only");
	for_each_free_mem_range(i, 1, MEMBLOCK_NONE, &s, &e, NULL)
		EXPECT(s == SZ_1G && e == SZ_1G + SZ_16M && ++n1, "node 1 only");
	EXPECT(all == 3 && n0 == 2 && n1 == 1, "%d, %d, %d", all, n0, n1);
	n1 = 0;
	for_each_mem_pfn_range(pi, 1, &sp, &ep, &nid)
		EXPECT(sp == PHYS_PFN(SZ_1G) && ep == PHYS_PFN(SZ_1G + SZ_16M) &&
		       nid == 1 && ++n1, "pfn range of node 1");
	EXPECT(n1 == 1, "one pfn range in node 1");
	for_each_free_mem_range(i, 7, MEMBLOCK_NONE, &s, &e, NULL)
		EXPECT(false, "no range in node 7");
	return true;
}

/* The dump names the node once one is known. */
static bool dump_shows_nodes(void)
{
	EXPECT(memblock_add_node(SZ_16M, SZ_16M, 1, MEMBLOCK_NONE) == 0, "add");
	console_clear();
	memblock_dump_all();
	EXPECT(console_says(" memory[0x0]\t[0x0000000001000000-0x0000000001ffffff], 0x1000000 bytes on node 1"),
	       "node in the line");
	return true;
}


/*
 * Linux's set_node contract across two regions: a range from inside r1
 * to inside r2 splits both, and only the parts inside change node.
 *   | m0  | m0  |  (not touching)  ->  |m0|m1 |...|m1|m0 |
 */
static bool set_node_across_two_regions_splits_both(void)
{
	EXPECT(memblock_add_node(SZ_16M, SZ_16M, 0, MEMBLOCK_NONE) == 0, "r1");
	EXPECT(memblock_add_node(3 * SZ_16M, SZ_16M, 0, MEMBLOCK_NONE) == 0, "r2");
	EXPECT(memblock_set_node(SZ_16M + SZ_4K, 3 * SZ_16M - 2 * SZ_4K,
				 &memblock.memory, 1) == 0, "set");
	EXPECT(MEMORY_IS({ SZ_16M, SZ_4K }, { SZ_16M + SZ_4K, SZ_16M - SZ_4K },
			 { 3 * SZ_16M, SZ_16M - SZ_4K },
			 { 4 * SZ_16M - SZ_4K, SZ_4K }), "regions");
	EXPECT(MEMORY_NIDS_ARE(0, 1, 1, 0), "nodes");
	EXPECT(memblock_phys_mem_size() == 2 * SZ_16M, "the size is unchanged");
	return true;
}

/*
 * Touching regions of two nodes put in one node merge into one region
 * (memblock_set_node() merges what it made equal, as Linux).
 *   | m0 | m1 |   ->   |   m2    |
 */
static bool set_node_merges_what_it_made_equal(void)
{
	EXPECT(memblock_add_node(SZ_16M, SZ_1M, 0, MEMBLOCK_NONE) == 0, "r1");
	EXPECT(memblock_add_node(SZ_16M + SZ_1M, SZ_1M, 1, MEMBLOCK_NONE) == 0,
	       "r2");
	EXPECT(memblock.memory.cnt == 2, "two regions");
	EXPECT(memblock_set_node(SZ_16M, 2 * SZ_1M, &memblock.memory, 2) == 0,
	       "set");
	EXPECT(MEMORY_IS({ SZ_16M, 2 * SZ_1M }) && MEMORY_NIDS_ARE(2), "one");
	return true;
}

/* memblock_set_node() works on the reserved type as on memory. */
static bool set_node_on_reserved(void)
{
	int want[] = { NUMA_NO_NODE, 3, NUMA_NO_NODE };

	EXPECT(memblock_reserve(SZ_16M, SZ_16M) == 0, "reserve");
	EXPECT(memblock_set_node(SZ_16M + SZ_1M, SZ_1M, &memblock.reserved, 3) == 0,
	       "set");
	EXPECT(RESERVED_IS({ SZ_16M, SZ_1M }, { SZ_16M + SZ_1M, SZ_1M },
			   { SZ_16M + 2 * SZ_1M, SZ_16M - 2 * SZ_1M }), "split");
	EXPECT(nids_are(&memblock.reserved, want, 3), "nodes");
	EXPECT(memblock.memory.cnt == 0, "memory untouched");
	return true;
}

/*
 * The iterators' contract (Linux's for_each_mem_range tests): the free
 * ranges of node @nid are memory of that node minus every reservation,
 * whichever node the reservation is in, lowest first.
 *   | m0 |r| m0 | m1 |r| m1 |     a reservation straddles the boundary
 */
static bool iterators_cut_by_any_reservation(void)
{
	const struct rgn want0[] = { { SZ_16M, SZ_1M },
				     { SZ_16M + 2 * SZ_1M, SZ_16M - 3 * SZ_1M } };
	const struct rgn want1[] = { { 2 * SZ_16M + SZ_1M, SZ_16M - SZ_1M } };
	phys_addr_t s, e;
	unsigned int n = 0;
	int nid;
	uint64_t i;

	EXPECT(memblock_add_node(SZ_16M, SZ_16M, 0, MEMBLOCK_NONE) == 0, "n0");
	EXPECT(memblock_add_node(2 * SZ_16M, SZ_16M, 1, MEMBLOCK_NONE) == 0, "n1");
	EXPECT(memblock_reserve(SZ_16M + SZ_1M, SZ_1M) == 0, "inside node 0");
	EXPECT(memblock_reserve(2 * SZ_16M - SZ_1M, 2 * SZ_1M) == 0,
	       "across the boundary");
	for_each_free_mem_range(i, 0, MEMBLOCK_NONE, &s, &e, &nid) {
		EXPECT(n < 2 && s == want0[n].base &&
		       e == want0[n].base + want0[n].size && nid == 0,
		       "node 0 range %u: [%#llx, %#llx)", n,
		       (unsigned long long)s, (unsigned long long)e);
		n++;
	}
	EXPECT(n == 2, "%u ranges in node 0", n);
	n = 0;
	for_each_free_mem_range(i, 1, MEMBLOCK_NONE, &s, &e, &nid) {
		EXPECT(n < 1 && s == want1[n].base &&
		       e == want1[n].base + want1[n].size && nid == 1,
		       "node 1 range %u", n);
		n++;
	}
	EXPECT(n == 1, "%u ranges in node 1", n);
	return true;
}

/*
 * 5000 regions added in random order, then gaps filled, ranges removed
 * and nodes set at random, checked against a model of every page: which
 * pages are memory and in which node. memblock must hold exactly the
 * model's maximal runs of one node (different nodes never merge, equal
 * neighbours always do). The arrays grow past their 1024 static slots
 * into a bank set aside below the test's pages.
 */
#define MODEL_SLOTS	5000
#define MODEL_UNITS	(4 * MODEL_SLOTS)	/* pages of 4 KiB */
#define MODEL_NONE	(-2)			/* not memory */

static int model[MODEL_UNITS];
static phys_addr_t model_base;
static uint64_t model_rng = 0x6275646479626f6fULL;

static unsigned int model_rand(unsigned int n)
{
	model_rng ^= model_rng << 13;
	model_rng ^= model_rng >> 7;
	model_rng ^= model_rng << 17;
	return (unsigned int)(model_rng % n);
}

/* memblock.memory (above the bank) is exactly the model's runs. */
static bool model_matches(const char *when)
{
	unsigned long k = 1;	/* region 0 is the bank */

	for (unsigned int u = 0; u < MODEL_UNITS;) {
		unsigned int v = u;
		const struct memblock_region *r;

		if (model[u] == MODEL_NONE) {
			u++;
			continue;
		}
		while (v < MODEL_UNITS && model[v] == model[u])
			v++;
		EXPECT(k < memblock.memory.cnt, "%s: region %lu missing", when, k);
		r = &memblock.memory.regions[k];
		EXPECT(r->base == model_base + u * SZ_4K &&
		       r->size == (v - u) * SZ_4K && r->nid == model[u],
		       "%s: region %lu is [%#llx + %#llx] node %d, the model "
		       "says [%#llx + %#llx] node %d", when, k,
		       (unsigned long long)r->base, (unsigned long long)r->size,
		       r->nid, (unsigned long long)(model_base + u * SZ_4K),
		       (unsigned long long)((v - u) * SZ_4K), model[u]);
		k++;
		u = v;
	}
	EXPECT(k == memblock.memory.cnt, "%s: %lu regions, the model has %lu",
	       when, memblock.memory.cnt, k);
	return true;
}

static int model_nid(void)
{
	int n = (int)model_rand(4);

	return n == 3 ? NUMA_NO_NODE : n;
}

static bool memblock_5000_random_regions_match_a_model(void)
{
	unsigned int order[MODEL_SLOTS], regions_seen = 0;
	unsigned char *buf = host_map(SZ_16M + MODEL_UNITS * SZ_4K, SZ_1M);

	for (unsigned int u = 0; u < MODEL_UNITS; u++)
		model[u] = MODEL_NONE;
	model_base = (uintptr_t)buf + SZ_16M;
	memblock_allow_resize();
	EXPECT(memblock_add((uintptr_t)buf, SZ_16M - SZ_4K) == 0, "bank");
	/* Slot k: 1 to 3 pages at page 4k, in a random order. */
	for (unsigned int k = 0; k < MODEL_SLOTS; k++)
		order[k] = k;
	for (unsigned int k = MODEL_SLOTS - 1; k > 0; k--) {
		unsigned int j = model_rand(k + 1), t = order[k];

		order[k] = order[j];
		order[j] = t;
	}
	for (unsigned int k = 0; k < MODEL_SLOTS; k++) {
		unsigned int u = 4 * order[k], len = 1 + model_rand(3);
		int nid = model_nid();

		EXPECT(memblock_add_node(model_base + u * SZ_4K, len * SZ_4K, nid,
					 MEMBLOCK_NONE) == 0, "add slot %u", order[k]);
		for (unsigned int v = u; v < u + len; v++)
			model[v] = nid;
	}
	EXPECT(memblock.memory.cnt == MODEL_SLOTS + 1, "%lu regions",
	       memblock.memory.cnt);
	if (!model_matches("after the adds"))
		return false;
	/* Random ranges: add (gaps take the new node), remove, set a node. */
	for (unsigned int op = 0; op < 6000; op++) {
		unsigned int u = model_rand(MODEL_UNITS - 8), len = 1 + model_rand(8);
		phys_addr_t base = model_base + u * SZ_4K;
		int nid = model_nid(), what = (int)model_rand(3);

		if (what == 0) {
			EXPECT(memblock_add_node(base, len * SZ_4K, nid,
						 MEMBLOCK_NONE) == 0, "add %u", op);
			for (unsigned int v = u; v < u + len; v++)
				if (model[v] == MODEL_NONE)
					model[v] = nid;
		} else if (what == 1) {
			EXPECT(memblock_remove(base, len * SZ_4K) == 0, "remove %u",
			       op);
			for (unsigned int v = u; v < u + len; v++)
				model[v] = MODEL_NONE;
		} else {
			EXPECT(memblock_set_node(base, len * SZ_4K, &memblock.memory,
						 nid) == 0, "set %u", op);
			for (unsigned int v = u; v < u + len; v++)
				if (model[v] != MODEL_NONE)
					model[v] = nid;
		}
		if (memblock.memory.cnt > regions_seen)
			regions_seen = (unsigned int)memblock.memory.cnt;
		if (op % 500 == 499 && !model_matches("during the random ops"))
			return false;
	}
	printf("# %lu regions at the end, %u at most; arrays of %lu and %lu\n",
	       memblock.memory.cnt, regions_seen, memblock.memory.max,
	       memblock.reserved.max);
	EXPECT(memblock.memory.max > INIT_MEMBLOCK_REGIONS, "the array grew");
	return model_matches("at the end");
}

static const struct host_test tests[] = {
	HOST_TEST(add_simple),
	HOST_TEST(add_disjoint_sorted),
	HOST_TEST(add_adjacent_merges),
	HOST_TEST(add_overlapping_merges),
	HOST_TEST(add_within_and_covering),
	HOST_TEST(add_bridges_gap),
	HOST_TEST(add_zero_size_refused),
	HOST_TEST(add_near_top_clamps),
	HOST_TEST(reserve_inside_and_across),
	HOST_TEST(remove_splits),
	HOST_TEST(remove_ends_and_whole),
	HOST_TEST(remove_across_regions),
	HOST_TEST(phys_free_splits_reserved),
	HOST_TEST(nomap_mark_and_clear),
	HOST_TEST(free_ranges_are_memory_minus_reserved),
	HOST_TEST(queries),
	HOST_TEST(alloc_top_down),
	HOST_TEST(alloc_bottom_up),
	HOST_TEST(alloc_whole_pages_only),
	HOST_TEST(alloc_skips_reserved_and_small_gaps),
	HOST_TEST(alloc_range_limits),
	HOST_TEST(alloc_bad_alignment_refused),
	HOST_TEST(alloc_near_top_no_overflow),
	HOST_TEST(alloc_never_returns_zero),
	HOST_TEST(alloc_zeroes_and_maps),
	HOST_TEST(many_regions_before_resize),
	HOST_TEST(one_page_regions_kept),
	HOST_TEST(full_array_refuses_cleanly),
	HOST_TEST(full_array_does_what_needs_no_slot),
	HOST_TEST(cap_memory_on_a_full_array),
	HOST_TEST(full_reserved_array_grows),
	HOST_TEST(full_memory_array_grows),
	HOST_TEST(full_array_without_room_refuses),
	HOST_TEST(dump_shows_both_arrays),
	HOST_TEST(nid_defaults_to_no_node),
	HOST_TEST(set_node_whole_region),
	HOST_TEST(set_node_splits),
	HOST_TEST(set_node_across_gap),
	HOST_TEST(different_nodes_never_merge),
	HOST_TEST(set_node_refuses_bad_input),
	HOST_TEST(iterators_give_and_filter_nid),
	HOST_TEST(dump_shows_nodes),
	HOST_TEST(set_node_across_two_regions_splits_both),
	HOST_TEST(set_node_merges_what_it_made_equal),
	HOST_TEST(set_node_on_reserved),
	HOST_TEST(iterators_cut_by_any_reservation),
	HOST_TEST(memblock_5000_random_regions_match_a_model),
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
