/*
 * test_page_alloc.c - the buddy allocator and the hand-off on the host:
 * split and merge at every order including MAX_PAGE_ORDER, exhaustion,
 * banks that are unaligned, far apart, above 4 GiB or at PFN 0, and the
 * boundaries of the seed patches, and runs of pages that are not a power
 * of two (alloc_pages_exact()). Built at the default MAX_PAGE_ORDER and
 * at 15.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <arch/test_services.h>
#include "machine.h"

/* Split: one top block becomes one free block of every order o..MAX-1. */
static bool split_and_merge_every_order(void)
{
	struct snapshot base;

	if (!std_machine(4))
		return false;
	/* The buddy lists' splitting, not a per-CPU refill's batch. */
	zone_pcp_disable();
	snapshot_take(&base);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		struct page *p = alloc_pages(0, o);

		EXPECT(p, "order %u", o);
		EXPECT((page_to_pfn(p) & ((1UL << o) - 1)) == 0, "aligned");
		for (unsigned int k = 0; k < NR_PAGE_ORDERS; k++)
			EXPECT(nr_free_blocks(k) == (k == MAX_PAGE_ORDER ? 3u
						     : k >= o ? 1u : 0u),
			       "after order %u: order %u has %lu blocks", o, k,
			       nr_free_blocks(k));
		EXPECT(nr_free_pages() == 4 * TOP_PAGES - (1UL << o), "count");
		EXPECT_SOUND();
		__free_pages(p, o);
		EXPECT(snapshot_same(&base), "order %u merged back", o);
	}
	snapshot_drop(&base);
	return true;
}

/* Two top blocks that are buddies one order up stay two blocks. */
static bool merge_stops_at_max_page_order(void)
{
	struct page *p[4];

	if (!std_machine(4))
		return false;
	for (int i = 0; i < 4; i++)
		EXPECT((p[i] = alloc_pages(0, MAX_PAGE_ORDER)), "top %d", i);
	EXPECT(!alloc_pages(__GFP_NOWARN, MAX_PAGE_ORDER), "fifth top block");
	EXPECT(nr_free_pages() == 0, "all taken");
	for (int i = 0; i < 4; i++)
		__free_pages(p[i], MAX_PAGE_ORDER);
	EXPECT(nr_free_blocks(MAX_PAGE_ORDER) == 4, "four top blocks");
	for (int i = 0; i < 4; i++)
		EXPECT(p[i]->state == (PG_FREE | MAX_PAGE_ORDER), "head %d", i);
	EXPECT_SOUND();
	return true;
}

/* Every page, one at a time, then all back: the top blocks return. */
static bool exhaustion_at_order_0(void)
{
	unsigned long n = 2 * TOP_PAGES, got = 0;
	struct page **pages = calloc(n + 1, sizeof(*pages));
	unsigned char *seen = calloc(n, 1);
	struct snapshot base;

	if (!std_machine(2))
		return false;
	snapshot_take(&base);
	while ((pages[got] = alloc_pages(0, 0))) {
		unsigned long i = page_to_pfn(pages[got]) - PHYS_PFN(STD_BASE);

		EXPECT(i < n && !seen[i], "pfn %#lx handed out twice or outside",
		       page_to_pfn(pages[got]));
		seen[i] = 1;
		EXPECT(++got <= n, "more pages than exist");
	}
	EXPECT(got == n, "got %lu of %lu pages", got, n);
	EXPECT(nr_free_pages() == 0 && !alloc_pages(0, 0), "empty");
	EXPECT_SOUND();
	while (got)
		__free_pages(pages[--got], 0);
	EXPECT(snapshot_same(&base), "merged back to top blocks");
	snapshot_drop(&base);
	free(pages);
	free(seen);
	return true;
}

/* Exactly PAGE_SIZE << MAX_PAGE_ORDER is fine; one byte more is not. */
static bool seed_top_size_accepted_one_byte_more_refused(void)
{
	struct snapshot base;
	unsigned long addr;

	if (!std_machine(1))
		return false;
	EXPECT(get_order(TOP_BYTES) == MAX_PAGE_ORDER, "floppy/genwqe size");
	EXPECT(get_order(TOP_BYTES + 1) == MAX_PAGE_ORDER + 1, "one more byte");
	EXPECT(get_order(0) == 0 && get_order(1) == 0 && get_order(PAGE_SIZE) == 0 &&
	       get_order(PAGE_SIZE + 1) == 1, "small sizes");
	snapshot_take(&base);
	console_clear();
	EXPECT(!alloc_pages(0, get_order(TOP_BYTES + 1)), "refused");
	EXPECT(console_says("is above MAX_PAGE_ORDER"), "warned");
	EXPECT(snapshot_same(&base), "nothing changed");
	console_clear();
	EXPECT(!__get_free_pages(__GFP_NOWARN, MAX_PAGE_ORDER + 1), "refused");
	EXPECT(!alloc_pages(__GFP_NOWARN, ~0u), "huge order refused");
	EXPECT(!console_says("above"), "__GFP_NOWARN is quiet");
	EXPECT(snapshot_same(&base), "nothing changed");
	addr = __get_free_pages(0, get_order(TOP_BYTES));
	EXPECT(addr, "exactly the top size");
	memset((void *)addr, 0x5a, TOP_BYTES);
	free_pages(addr, get_order(TOP_BYTES));
	EXPECT(snapshot_same(&base), "freed");
	snapshot_drop(&base);
	return true;
}

/* iommu: the mask of usable orders has bits 0..MAX_PAGE_ORDER, all usable. */
static bool seed_order_mask_covers_every_order(void)
{
	unsigned long mask = (2UL << MAX_PAGE_ORDER) - 1;

	if (!std_machine(2))
		return false;
	EXPECT(__builtin_popcountl(mask) == NR_PAGE_ORDERS, "bits");
	EXPECT((sizeof(long) * 8 - 1) - __builtin_clzl(mask) == MAX_PAGE_ORDER,
	       "highest bit is the top order");
	while (mask) {
		unsigned int order = (sizeof(long) * 8 - 1) - __builtin_clzl(mask);

		EXPECT(alloc_pages(0, order), "order %u from the mask", order);
		mask &= ~(1UL << order);
	}
	return true;
}

/* slub: an order search over 0..MAX_PAGE_ORDER reaches the top order. */
static int slab_order(unsigned long size)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++)
		if ((PAGE_SIZE << order) >= size)
			return (int)order;
	return -1;
}

static bool seed_slab_order_search_reaches_top(void)
{
	if (!std_machine(1))
		return false;
	EXPECT(slab_order(TOP_BYTES) == MAX_PAGE_ORDER, "top size");
	EXPECT(slab_order(TOP_BYTES / 2 + 1) == MAX_PAGE_ORDER, "just over half");
	EXPECT(slab_order(TOP_BYTES + 1) == -1, "too big");
	EXPECT(alloc_pages(0, slab_order(TOP_BYTES)), "allocated");
	return true;
}

static bool gfp_zero_and_addresses(void)
{
	struct page *p;
	unsigned char *a, *z;

	if (!std_machine(1))
		return false;
	p = alloc_pages(0, 2);
	EXPECT(p, "alloc");
	a = page_address(p);
	EXPECT(virt_to_page(a) == p && virt_to_page(a + 5) == p, "virt_to_page");
	EXPECT(pfn_to_page(page_to_pfn(p)) == p, "pfn round trip");
	EXPECT(page_to_phys(p) == PFN_PHYS(page_to_pfn(p)), "phys");
	memset(a, 0xaa, 4 * PAGE_SIZE);
	free_pages((unsigned long)a, 2);
	z = (unsigned char *)__get_free_pages(__GFP_ZERO, 2);
	EXPECT(z == a, "the same block again (most recently freed)");
	for (unsigned long i = 0; i < 4 * PAGE_SIZE; i++)
		EXPECT(z[i] == 0, "byte %lu not zeroed", i);
	z = (unsigned char *)get_zeroed_page(0);
	EXPECT(z && z[0] == 0 && z[PAGE_SIZE - 1] == 0, "zeroed page");
	free_page((unsigned long)z);
	p = alloc_page(0);
	EXPECT(p && page_address(p) == z, "alloc_page: the page just freed");
	__free_page(p);
	z = (unsigned char *)__get_free_page(0);
	EXPECT(z && virt_to_page(z) == p, "__get_free_page: that page again");
	free_page((unsigned long)z);
	free_pages(0, 3);	/* Linux: a no-op */
	EXPECT_SOUND();
	return true;
}

/*
 * alloc_pages_exact(): a run holds the pages its size needs and no more,
 * whatever its length; free_pages_exact() gives them all back; a size
 * that does not match the run's pieces is refused and frees nothing.
 */
static bool exact_runs_hold_only_their_pages(void)
{
	static const unsigned long lengths[] = { 1, 2, 3, 5, 7, 9, 12, 31, 33,
						 100, 255, 257, 1000 };
	unsigned long free_before;
	unsigned char *a;

	if (!std_machine(2))
		return false;
	free_before = nr_free_pages();
	for (unsigned int k = 0; k < ARRAY_SIZE(lengths); k++) {
		unsigned long nr = lengths[k];
		size_t size = nr * PAGE_SIZE - (nr > 1 ? 100 : 0);

		if (nr > TOP_PAGES)
			continue;
		a = alloc_pages_exact(size, 0);
		EXPECT(a && !((uintptr_t)a & (PAGE_SIZE - 1)), "%lu pages", nr);
		EXPECT(nr_free_pages() == free_before - nr, "%lu pages: %lu "
		       "free, %lu expected", nr, nr_free_pages(),
		       free_before - nr);
		memset(a, 0x5a, nr * PAGE_SIZE);
		EXPECT_SOUND();
		free_pages_exact(a, size);
		EXPECT(nr_free_pages() == free_before, "%lu pages: not all back",
		       nr);
	}
	/* A 9-page run freed as 10 pages: the second piece is no 2-page block. */
	a = alloc_pages_exact(9 * PAGE_SIZE, 0);
	EXPECT(a, "9 pages");
	console_clear();
	free_pages_exact(a, 10 * PAGE_SIZE);
	EXPECT(console_says("refused free") &&
	       nr_free_pages() == free_before - 9, "a wrong size freed pages");
	/* Far above the top order: the first piece matches no block. */
	console_clear();
	free_pages_exact(a, (size_t)PAGE_SIZE << (MAX_PAGE_ORDER + 3));
	EXPECT(console_says("refused free") &&
	       nr_free_pages() == free_before - 9, "a huge size freed pages");
	free_pages_exact(a, 9 * PAGE_SIZE);
	EXPECT(nr_free_pages() == free_before, "not all back");
	console_clear();
	free_pages_exact(a, 9 * PAGE_SIZE);	/* twice */
	EXPECT(console_says("double free") && nr_free_pages() == free_before,
	       "a second free went through");
	EXPECT(!alloc_pages_exact(0, 0), "0 bytes");
	EXPECT(!alloc_pages_exact((TOP_PAGES << 1) * PAGE_SIZE, __GFP_NOWARN),
	       "above the top order");
	EXPECT_SOUND();
	return true;
}

/*
 * A run's pieces go back to the buddy lists, not to this CPU's lists, and
 * merge there: after a run of half a block and one page (3, 5, 9 and 17
 * pages: blocks of order 2 up to the first order the lists do not cache)
 * is taken and freed, the free blocks of every order are what they were, the block
 * whole again. Cached one by one, its pieces would sit as blocks of
 * orders 0 and up. The block to cut comes from the buddy lists as well,
 * at a cached order too: taken from this CPU's list, its refill would
 * have left other blocks of its order in the list (the order-15 build's
 * zone is large enough for refills of many).
 */
static bool exact_run_merges_back_whole(void)
{
	unsigned long before[NR_PAGE_ORDERS];

	if (!std_machine(2))
		return false;
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		before[o] = nr_free_blocks(o);
	/* Up to the top order, where a small top leaves no uncached one. */
	for (unsigned int order = 2; order <= MIN(NR_PCP_ORDERS, MAX_PAGE_ORDER);
	     order++) {
		size_t size = ((1UL << order) / 2 + 1) * PAGE_SIZE;
		void *a = alloc_pages_exact(size, 0);

		EXPECT(a, "%zu bytes", size);
		free_pages_exact(a, size);
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
			EXPECT(nr_free_blocks(o) == before[o], "a run of %zu "
			       "pages: order %u: %lu free blocks, %lu before",
			       size / PAGE_SIZE, o, nr_free_blocks(o), before[o]);
	}
	EXPECT_SOUND();
	return true;
}

/*
 * A run that is a whole block of a cached order is an ordinary block:
 * freed, it goes to this CPU's list, where alloc_pages() takes it back.
 */
static bool exact_whole_block_is_cached(void)
{
	const unsigned int order = NR_PCP_ORDERS - 1;
	const size_t size = PAGE_SIZE << order;
	void *a;

	if (!std_machine(2))
		return false;
	a = alloc_pages_exact(size, 0);
	EXPECT(a, "%zu bytes", size);
	free_pages_exact(a, size);
	EXPECT(pg_state(virt_to_page(a)) == (PG_PCP | order), "state %#x, "
	       "%#x (cached) expected", pg_state(virt_to_page(a)),
	       PG_PCP | order);
	EXPECT(alloc_pages_exact(size, 0) == a, "the cached block back");
	free_pages_exact(a, size);
	EXPECT_SOUND();
	return true;
}

/* Every page given to the allocator lies in a bank and outside reserved. */
static bool only_free_memory_handed_out(unsigned long given)
{
	unsigned long got = 0;
	struct page **pages = calloc(given + 1, sizeof(*pages));
	struct snapshot base;

	snapshot_take(&base);
	while ((pages[got] = alloc_pages(0, 0))) {
		phys_addr_t pa = page_to_phys(pages[got]);

		EXPECT(memblock_is_region_memory(pa, PAGE_SIZE), "%#llx: no bank",
		       (unsigned long long)pa);
		EXPECT(!memblock_is_region_reserved(pa, PAGE_SIZE),
		       "%#llx is reserved", (unsigned long long)pa);
		EXPECT(++got <= given, "more than given");
	}
	EXPECT(got == given, "%lu of %lu", got, given);
	while (got)
		__free_pages(pages[--got], 0);
	EXPECT(snapshot_same(&base), "all merged back");
	snapshot_drop(&base);
	free(pages);
	return true;
}

/* PFN 0 is a page like any other: a top-order block starts there. */
static bool handoff_pfn0(void)
{
	unsigned long given;

	machine_map(2 * TOP_BYTES);
	EXPECT(memblock_add(0, 2 * TOP_BYTES) == 0, "bank at 0");
	given = memblock_free_all();
	EXPECT(given == 2 * TOP_PAGES - PFN_UP(page_allocator.metadata_alloc),
	       "given %lu", given);
	EXPECT(pfn_to_page(0) && pfn_to_page(0)->state == (PG_FREE | MAX_PAGE_ORDER),
	       "pfn 0 heads a top block");
	EXPECT_SOUND();
	return only_free_memory_handed_out(given);
}

/*
 * Banks of a single page each, 2 pages apart, below a bank for the
 * metadata: every one-page bank is kept and its page handed out as an
 * order-0 block.
 *   |m.m.m. ... .m|......|mmmm (metadata)|
 */
static bool handoff_one_page_banks(void)
{
	const unsigned int n = 1000;
	const phys_addr_t meta = SZ_1G;
	unsigned long given;

	machine_map(2 * SZ_1G);
	for (unsigned int i = 0; i < n; i++)
		EXPECT(memblock_add(SZ_1M + 2 * SZ_4K * i, SZ_4K) == 0, "bank %u", i);
	EXPECT(memblock_add(meta, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock.memory.cnt == n + 1, "%lu regions", memblock.memory.cnt);
	given = memblock_free_all();
	EXPECT(given == n + PHYS_PFN(SZ_1M) - PFN_UP(page_allocator.metadata_alloc),
	       "given %lu", given);
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = pfn_to_page(PHYS_PFN(SZ_1M + 2 * SZ_4K * i));

		EXPECT(page && page->state == (PG_FREE | 0), "page of bank %u free", i);
	}
	EXPECT_SOUND();
	return only_free_memory_handed_out(given);
}

/*
 * Banks: unaligned start and size below 4 GiB, one reservation inside an
 * aligned bank, a bank above 4 GiB with a no-map hole, whole sections
 * missing in between.
 *   |..mmmm..|....|mmrmmmm|........|mmmNNmm|
 */
static bool handoff_banks_holes_above_4g(void)
{
	phys_addr_t b1 = SZ_1M + 3 * SZ_4K, s1 = TOP_BYTES + 7 * SZ_4K + 5;
	phys_addr_t b2 = 2 * SZ_1G, s2 = TOP_BYTES;
	phys_addr_t b3 = 5 * SZ_1G + 4 * SZ_4K, s3 = TOP_BYTES + 9 * SZ_4K;
	unsigned long given, expect;

	machine_map(6 * SZ_1G);
	EXPECT(memblock_add(b1, s1) == 0 && memblock_add(b2, s2) == 0 &&
	       memblock_add(b3, s3) == 0, "banks");
	EXPECT(memblock_reserve(b2 + 5 * SZ_4K, 3 * SZ_4K) == 0, "reserve");
	EXPECT(memblock_mark_nomap(b3 + TOP_BYTES / 2, 16 * SZ_4K) == 0, "nomap");
	given = memblock_free_all();
	/* Whole pages: s1 loses its last partial page; b3's bank its no-map. */
	expect = PHYS_PFN(s1) + TOP_PAGES - 3 + TOP_PAGES + 9 - 16 -
		 PFN_UP(page_allocator.metadata_alloc);
	EXPECT(given == expect, "given %lu, expected %lu", given, expect);
	EXPECT(nr_managed_pages() == given && nr_free_pages() == given, "counts");
	EXPECT(pfn_to_page(PHYS_PFN(4 * SZ_1G)) == NULL, "missing section");
	EXPECT(pfn_to_page(PHYS_PFN(b1)) != NULL, "present section");
	EXPECT(pfn_to_page(PHYS_PFN(b3 + TOP_BYTES / 2))->state == PG_RESERVED,
	       "no-map is reserved");
	EXPECT_SOUND();
	return only_free_memory_handed_out(given);
}

/* The hand-off frees blocks, not pages: about one per top-order block. */
static bool handoff_frees_large_blocks(void)
{
	unsigned long given, blocks;

	machine_map(2 * SZ_1G);
	EXPECT(memblock_add(SZ_1G, SZ_1G) == 0, "1 GiB");
	given = memblock_free_all();
	blocks = page_allocator.handoff_blocks;
	printf("# hand-off of 1 GiB: %lu pages in %lu blocks (%lu top-order)\n",
	       given, blocks, nr_free_blocks(MAX_PAGE_ORDER));
	EXPECT(blocks <= (given >> MAX_PAGE_ORDER) + 2 * NR_PAGE_ORDERS,
	       "%lu blocks", blocks);
	EXPECT_SOUND();
	return true;
}

/* Resident host pages in [@base, @base + @size), outside [@skip, +@skip_size). */
static unsigned long resident_pages(phys_addr_t base, phys_addr_t size,
				    phys_addr_t skip, phys_addr_t skip_size)
{
	unsigned long n = size / SZ_4K, count = 0;
	unsigned char *vec = malloc(n);

	if (mincore(phys_to_virt(base), size, vec))
		n = 0;
	for (unsigned long i = 0; i < n; i++)
		if ((vec[i] & 1) && (base + i * SZ_4K < skip ||
				     base + i * SZ_4K >= skip + skip_size))
			count++;
	free(vec);
	return count;
}

/*
 * The hand-off writes metadata and a few list nodes at the ends of each
 * free range, never into the top-order blocks between: they are deferred,
 * and alloc_pages() carves them one at a time, highest first.
 */
static bool handoff_touches_no_top_block(void)
{
	unsigned long top, got = 0, last_pfn = ~0UL;
	struct page **blocks;
	phys_addr_t meta;
	struct snapshot base;

	machine_map(2 * SZ_1G);
	EXPECT(memblock_add(SZ_1G, SZ_1G) == 0, "1 GiB");
	EXPECT(memblock_free_all(), "hand-off");
	meta = virt_to_phys(page_allocator.parts[0].map);
	top = nr_free_blocks(MAX_PAGE_ORDER);
	EXPECT(nr_deferred_blocks() == top && top >= SZ_1G / TOP_BYTES - 1,
	       "%lu of %lu top-order blocks deferred", nr_deferred_blocks(),
	       top);
	EXPECT(resident_pages(SZ_1G, SZ_1G, meta, PFN_PHYS(PFN_UP(
		       page_allocator.metadata_alloc))) <= NR_PAGE_ORDERS,
	       "%lu pages of RAM touched", resident_pages(SZ_1G, SZ_1G, meta,
	       PFN_PHYS(PFN_UP(page_allocator.metadata_alloc))));
	EXPECT_SOUND();

	snapshot_take(&base);
	blocks = calloc(top + 1, sizeof(*blocks));
	while ((blocks[got] = alloc_pages(__GFP_NOWARN, MAX_PAGE_ORDER))) {
		EXPECT(page_to_pfn(blocks[got]) < last_pfn, "highest first");
		last_pfn = page_to_pfn(blocks[got]);
		EXPECT(++got <= top, "more top-order blocks than counted");
		if (got % 64 == 0)
			EXPECT_SOUND();
	}
	EXPECT(got == top && nr_deferred_blocks() == 0 &&
	       only_zone()->nr_runs == 0, "%lu of %lu", got, top);
	EXPECT_SOUND();
	while (got)
		__free_pages(blocks[--got], MAX_PAGE_ORDER);
	EXPECT(snapshot_same(&base), "all free again, on the list now");
	EXPECT(nr_deferred_blocks() == 0 &&
	       nr_free_blocks(MAX_PAGE_ORDER) == top, "linked when freed");
	snapshot_drop(&base);
	free(blocks);
	return true;
}

/*
 * Bytes of tables per present section: its entry, and one per chunk; and
 * for the whole machine, one deferred run per free range.
 */
#define SECTION_TABLE_BYTES						\
	(sizeof(struct mem_section) +					\
	 (PAGES_PER_SECTION / MAP_CHUNK_PAGES) *			\
		 (sizeof(uint32_t) + sizeof(uint8_t)))
#define RUN_TABLE_BYTES	(all_max_runs() * sizeof(struct deferred_run) +	\
			 page_allocator.nr_segments * sizeof(struct zone_segment))

/* Measured metadata per page, and hand-off time, for growing machines. */
static bool metadata_and_handoff_scale(void)
{
	static const unsigned int gib[] = { 1, 16, 64 };

	for (unsigned int i = 0; i < sizeof(gib) / sizeof(gib[0]); i++) {
		phys_addr_t size = gib[i] * SZ_1G;
		unsigned long pages = PHYS_PFN(size), given;
		uint64_t t0, t1;

		memblock_reset_for_test();
		page_alloc_reset_for_test();
		machine_map(size + 2 * SZ_1G);
		EXPECT(memblock_add(2 * SZ_1G, size) == 0, "bank");
		t0 = arch_counter();
		given = memblock_free_all();
		t1 = arch_counter();
		EXPECT(given, "hand-off");
		printf("# %u GiB: metadata %zu bytes for %lu pages = %.4f bytes/page; "
		       "%lu blocks (%lu per GiB); hand-off %.2f ms\n", gib[i],
		       page_metadata_bytes(), pages,
		       (double)page_metadata_bytes() / pages,
		       page_allocator.handoff_blocks,
		       page_allocator.handoff_blocks / gib[i],
		       (double)(t1 - t0) / 1e6);
		EXPECT(page_metadata_bytes() <= pages + RUN_TABLE_BYTES +
						       SECTION_TABLE_BYTES *
						       page_allocator.nr_sections,
		       "one byte per page and a few per section");
		EXPECT(t1 - t0 < 2000000000ull, "hand-off took over 2 s");
	}
	return true;
}

/* One layout: @nr banks; metadata near one byte per page, no page wasted. */
static bool metadata_fits(const char *name, const phys_addr_t (*bank)[2],
			  unsigned int nr)
{
	unsigned long pages = 0, chunked = 0, sections, kept;
	phys_addr_t span = bank[nr - 1][0] + bank[nr - 1][1];
	size_t bytes;

	memblock_reset_for_test();
	page_alloc_reset_for_test();
	machine_map(span);
	for (unsigned int i = 0; i < nr; i++) {
		unsigned long s = PHYS_PFN(bank[i][0]);
		unsigned long e = PHYS_PFN(bank[i][0] + bank[i][1]);

		EXPECT(memblock_add(bank[i][0], bank[i][1]) == 0, "%s", name);
		pages += e - s;
		/* The banks here share no chunk: each rounds out on its own. */
		chunked += ALIGN_UP(e, MAP_CHUNK_PAGES) -
			   ALIGN_DOWN(s, MAP_CHUNK_PAGES);
	}
	kept = pages - memblock_free_all();
	bytes = page_metadata_bytes();
	sections = page_allocator.nr_sections;
	printf("# %-22s %8lu pages, %3lu sections: metadata %8zu bytes = "
	       "%.4f bytes/page, %lu pages kept\n", name, pages, sections,
	       bytes, (double)bytes / pages, kept);
	/* The map covers whole chunks of memory, the tables a few per section. */
	EXPECT(bytes <= chunked + sections * SECTION_TABLE_BYTES +
			RUN_TABLE_BYTES,
	       "%s: %zu bytes", name, bytes);
	EXPECT(bytes <= pages + sections * (2 * (MAP_CHUNK_PAGES - 1) +
					    SECTION_TABLE_BYTES) + RUN_TABLE_BYTES,
	       "%s: %zu bytes", name, bytes);
	if (chunked == pages)
		EXPECT(bytes <= pages + sections * SECTION_TABLE_BYTES +
				RUN_TABLE_BYTES,
		       "%s: %zu bytes for %lu pages", name, bytes, pages);
	/* What is kept is the allocation in whole pages, nothing more. */
	EXPECT(kept == PFN_UP(page_allocator.metadata_alloc) &&
	       page_allocator.metadata_alloc <= bytes + sizeof(long),
	       "%s: %lu pages kept for %zu bytes", name, kept, bytes);
	/* Small machines keep their tables out of the map's pages. */
	if (sections * SECTION_TABLE_BYTES + RUN_TABLE_BYTES <= 2048)
		EXPECT(kept == PFN_UP(chunked), "%s: %lu pages kept", name, kept);
	EXPECT_SOUND();
	return true;
}

/*
 * About one byte per page of RAM, for small and odd sizes too:
 *   16M, 32M            |mm..............|           (part of one section)
 *   129M                |mmmmmmmmmmmmmmmm|m.........|
 *   17M + 5 pages       |.mmmm...........|           (unaligned both ends)
 *   1G, 5G with a hole  |mmmm|mmmm|....|....|mmmm|mmmm|mmmm|
 *   two far banks       |mm..|.....  62 GiB  .....|mm..|
 */
static bool metadata_one_byte_per_page(void)
{
	static const phys_addr_t m16[][2] = { { 2 * SZ_1G, 16 * SZ_1M } };
	static const phys_addr_t m32[][2] = { { 2 * SZ_1G, 32 * SZ_1M } };
	static const phys_addr_t m129[][2] = { { 2 * SZ_1G, 129 * SZ_1M } };
	static const phys_addr_t odd[][2] = {
		{ 2 * SZ_1G + 3 * SZ_4K, 17 * SZ_1M + 5 * SZ_4K } };
	static const phys_addr_t g1[][2] = { { SZ_1G, SZ_1G } };
	static const phys_addr_t g5[][2] = { { 0, 2 * SZ_1G },
					     { 4 * SZ_1G, 3 * SZ_1G } };
	static const phys_addr_t far[][2] = { { 2 * SZ_1G, 16 * SZ_1M },
					      { 64 * SZ_1G, 16 * SZ_1M } };

	return metadata_fits("16M", m16, 1) && metadata_fits("32M", m32, 1) &&
	       metadata_fits("129M", m129, 1) &&
	       metadata_fits("17M + 5 pages, odd", odd, 1) &&
	       metadata_fits("1G", g1, 1) && metadata_fits("5G with a hole", g5, 2) &&
	       metadata_fits("two banks 62G apart", far, 2);
}

static bool handoff_twice_and_memblock_after_refused(void)
{
	if (!std_machine(1))
		return false;
	EXPECT(memblock_free_all() == 0, "second hand-off");
	EXPECT(console_says("already called"), "reported");
	EXPECT(memblock_phys_alloc(SZ_4K, SZ_4K) == 0, "memblock alloc after");
	EXPECT(memblock_reserve(STD_BASE, SZ_4K) == -EBUSY, "reserve after");
	EXPECT(console_says("after memblock_free_all()"), "reported");
	return true;
}

static bool handoff_without_memory_refused(void)
{
	EXPECT(memblock_free_all() == 0, "no memory");
	EXPECT(console_says("no memory to hand out"), "reported");
	EXPECT(!alloc_pages(0, 0), "nothing to allocate");
	EXPECT(free_pages_checked(NULL, 0) == FREE_REFUSED_OUT_OF_RANGE, "free");
	return true;
}

/*
 * Every entry point after a hand-off that was refused because no page
 * metadata could be placed: the documented failure, and a sound state.
 * The allocator starts all zero, as the kernel's BSS does.
 */
static bool refused_handoff_leaves_a_sound_empty_allocator(void)
{
	char buf[PAGE_SIZE * 2];
	unsigned long addr;

	memset(&page_allocator, 0, sizeof(page_allocator));
	machine_map(SZ_1G);
	EXPECT(memblock_add(16 * SZ_1M, 16 * SZ_1M) == 0, "bank");
	EXPECT(memblock_reserve(16 * SZ_1M, 16 * SZ_1M) == 0, "all reserved");
	EXPECT(memblock_free_all() == 0, "nothing to hand off");
	EXPECT(console_says("cannot allocate"), "reported");
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		EXPECT(!alloc_pages(0, o), "alloc_pages order %u", o);
	EXPECT(!alloc_pages(__GFP_ZERO, 0), "zeroed");
	EXPECT(__get_free_pages(0, 0) == 0 && get_zeroed_page(0) == 0, "by address");
	EXPECT(free_pages_checked(NULL, 0) == FREE_REFUSED_OUT_OF_RANGE, "free");
	addr = (unsigned long)(((uintptr_t)buf + PAGE_SIZE) & PAGE_MASK);
	console_clear();
	free_pages(addr, 0);
	EXPECT(console_says("out of range"), "free by address refused");
	EXPECT(!pfn_to_page(PHYS_PFN(16 * SZ_1M)) && !virt_to_page(buf), "no page");
	EXPECT(nr_free_pages() == 0 && nr_managed_pages() == 0, "counts");
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		EXPECT(nr_free_blocks(o) == 0, "order %u", o);
	show_buddyinfo();
	EXPECT_SOUND();
	return true;
}

/* A hole inside one map chunk has no struct page for the caller. */
static bool pfn_to_page_null_in_a_hole_inside_a_chunk(void)
{
	const phys_addr_t base = STD_BASE;

	machine_map(4 * SZ_1G);
	/* Two banks 16 pages apart: one chunk holds both and the hole. */
	EXPECT(memblock_add(base, 16 * SZ_4K) == 0, "low bank");
	EXPECT(memblock_add(base + 32 * SZ_4K, TOP_BYTES) == 0, "high bank");
	EXPECT(memblock_add(3 * SZ_1G, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_reserve(base + 4 * SZ_4K, SZ_4K) == 0, "a reservation");
	EXPECT(memblock_free_all() > 0, "hand-off");
	for (unsigned long i = 16; i < 32; i++) {
		EXPECT(!pfn_to_page(PHYS_PFN(base) + i), "hole page %lu", i);
		EXPECT(!virt_to_page(phys_to_virt(base + i * SZ_4K + 8)), "by address");
	}
	EXPECT(pfn_to_page(PHYS_PFN(base)) && pfn_to_page(PHYS_PFN(base) + 15) &&
	       pfn_to_page(PHYS_PFN(base) + 32), "memory has pages");
	EXPECT(pfn_to_page(PHYS_PFN(base) + 4), "a reserved page of memory too");
	EXPECT_SOUND();
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(split_and_merge_every_order),
	HOST_TEST(merge_stops_at_max_page_order),
	HOST_TEST(exhaustion_at_order_0),
	HOST_TEST(seed_top_size_accepted_one_byte_more_refused),
	HOST_TEST(seed_order_mask_covers_every_order),
	HOST_TEST(seed_slab_order_search_reaches_top),
	HOST_TEST(gfp_zero_and_addresses),
	HOST_TEST(exact_runs_hold_only_their_pages),
	HOST_TEST(exact_run_merges_back_whole),
	HOST_TEST(exact_whole_block_is_cached),
	HOST_TEST(handoff_pfn0),
	HOST_TEST(handoff_one_page_banks),
	HOST_TEST(handoff_banks_holes_above_4g),
	HOST_TEST(handoff_frees_large_blocks),
	HOST_TEST(handoff_touches_no_top_block),
	HOST_TEST(metadata_and_handoff_scale),
	HOST_TEST(metadata_one_byte_per_page),
	HOST_TEST(handoff_twice_and_memblock_after_refused),
	HOST_TEST(handoff_without_memory_refused),
	HOST_TEST(refused_handoff_leaves_a_sound_empty_allocator),
	HOST_TEST(pfn_to_page_null_in_a_hole_inside_a_chunk),
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
