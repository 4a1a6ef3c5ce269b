/*
 * buddy_check.c - shared checks of the buddy cases (see buddy_check.h).
 */
#include <arch/memory.h>
#include <boot/reserve.h>
#include <lib/printk.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include "buddy_check.h"

void buddy_counts_take(struct buddy_counts *c)
{
	/*
	 * Blocks cached in per-CPU lists are free, but whether one is cached
	 * or merged back changes the per-order counts: count the state they
	 * all merge into. nr_free_pages() counts cached pages either way.
	 */
	drain_all_pages();
	c->nr_free = nr_free_pages();
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		c->blocks[o] = nr_free_blocks(o);
}

unsigned long buddy_counts_predict(const struct buddy_counts *c,
				   unsigned int order)
{
	unsigned long n = 0;

	for (unsigned int j = order; j <= MAX_PAGE_ORDER; j++)
		n += c->blocks[j] << (j - order);
	return n;
}

static bool counts_equal(const struct buddy_counts *before, const char *when)
{
	struct buddy_counts now;
	bool ok = true;

	/* Before draining: cached pages must count as free. */
	if (nr_free_pages() != before->nr_free)
		ok = selftest_fail(__FILE__, __LINE__, "%s: nr_free_pages() is "
				   "%lu with blocks cached, was %lu", when,
				   nr_free_pages(), before->nr_free);
	buddy_counts_take(&now);
	if (now.nr_free != before->nr_free)
		ok = selftest_fail(__FILE__, __LINE__, "%s: nr_free_pages() is "
				   "%lu, was %lu", when, now.nr_free,
				   before->nr_free);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		if (now.blocks[o] != before->blocks[o])
			ok = selftest_fail(__FILE__, __LINE__, "%s: %lu free "
					   "blocks of order %u, were %lu", when,
					   now.blocks[o], o, before->blocks[o]);
	return ok;
}

bool order_allocatable(unsigned int order, const char *when)
{
	struct page *page = alloc_pages(GFP_KERNEL, order);

	SELFTEST_EXPECT(page, "%s: order %u refused with %lu pages and %lu "
			"top-order blocks free", when, order, nr_free_pages(),
			nr_free_blocks(MAX_PAGE_ORDER));
	if (!block_placement_ok(page, order)) {
		__free_pages(page, order);
		return false;
	}
	__free_pages(page, order);
	return true;
}

bool buddy_restored(const struct buddy_counts *before, const char *when)
{
	int problems;

	if (!counts_equal(before, when))
		return false;
	problems = page_alloc_check();
	SELFTEST_EXPECT(problems == 0, "%s: page_alloc_check() found %d "
			"problems", when, problems);
	if (!before->blocks[MAX_PAGE_ORDER])
		return true;
	return order_allocatable(MAX_PAGE_ORDER, when) &&
	       counts_equal(before, when);
}

/* The memblock region containing @addr, by binary search, or NULL. */
static const struct memblock_region *region_of(const struct memblock_type *t,
					       phys_addr_t addr)
{
	unsigned long lo = 0, hi = t->cnt;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;
		const struct memblock_region *r = &t->regions[mid];

		if (addr < r->base)
			hi = mid;
		else if (addr - r->base >= r->size)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}

/* The first reserved region ending above @base, if it begins below @end. */
static const struct memblock_region *reserved_overlap(phys_addr_t base,
						      phys_addr_t end)
{
	const struct memblock_type *t = &memblock.reserved;
	unsigned long lo = 0, hi = t->cnt;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;
		const struct memblock_region *r = &t->regions[mid];

		if (r->base + r->size <= base)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->cnt && t->regions[lo].base < end)
		return &t->regions[lo];
	return NULL;
}

/* The reason boot/reserve.c recorded for a range overlapping [base, end). */
static const char *reservation_reason(phys_addr_t base, phys_addr_t end)
{
	for (unsigned int i = 0; i < boot_reservation_count(); i++) {
		const struct boot_reservation *b = boot_reservation_get(i);

		if (b->base < end && base < b->base + b->size)
			return b->reason;
	}
	return "not recorded with a reason: an allocation from memblock";
}

/*
 * The bytes from @r's base to the end of the run of memory regions that
 * touch it with the same flags. Regions of different nodes stay apart in
 * memblock, but the buddy allocator does not know nodes yet: one block
 * may lie across a node boundary.
 */
static phys_addr_t memory_run_size(const struct memblock_region *r)
{
	const struct memblock_type *t = &memblock.memory;
	const struct memblock_region *last = &t->regions[t->cnt - 1];
	phys_addr_t size = r->size;

	for (; r < last && r->base + r->size == r[1].base &&
	       r->flags == r[1].flags; r++)
		size += r[1].size;
	return size;
}

bool block_placement_ok(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	phys_addr_t base = page_to_phys(page);
	phys_addr_t end = base + (PAGE_SIZE << order);
	const struct memblock_region *r;
	const struct boot_span *span;

	SELFTEST_EXPECT(!(pfn & ((1UL << order) - 1)), "block at pfn %#lx is "
			"not aligned to its order %u", pfn, order);
	SELFTEST_EXPECT(pfn_to_page(pfn) == page && base == PFN_PHYS(pfn) &&
			page_address(page) == phys_to_virt(base),
			"pfn %#lx order %u: struct page, pfn, physical and "
			"virtual address disagree", pfn, order);
	r = region_of(&memblock.memory, base);
	SELFTEST_EXPECT(r && end - r->base <= memory_run_size(r),
			"block [%#llx-%#llx) order %u is not inside one "
			"memory region", (unsigned long long)base,
			(unsigned long long)end, order);
	SELFTEST_EXPECT(!(r->flags & MEMBLOCK_NOMAP), "block [%#llx-%#llx) "
			"order %u lies in no-map memory",
			(unsigned long long)base, (unsigned long long)end,
			order);
	r = reserved_overlap(base, end);
	SELFTEST_EXPECT(!r, "block [%#llx-%#llx) order %u overlaps reserved "
			"[%#llx-%#llx) (%s)", (unsigned long long)base,
			(unsigned long long)end, order,
			(unsigned long long)(r ? r->base : 0),
			(unsigned long long)(r ? r->base + r->size : 0),
			reservation_reason(base, end));
	span = selftest_kept_span(base, end);
	SELFTEST_EXPECT(!span, "block [%#llx-%#llx) order %u overlaps "
			"[%#llx-%#llx), the kernel image, boot stack, boot "
			"info or a boot module", (unsigned long long)base,
			(unsigned long long)end, order,
			(unsigned long long)(span ? span->base : 0),
			(unsigned long long)(span ? span->end : 0));
	span = selftest_reserved_span(base, end);
	SELFTEST_EXPECT(!span, "block [%#llx-%#llx) order %u overlaps the "
			"boot reservation [%#llx-%#llx) (%s), which "
			"memblock.reserved lost", (unsigned long long)base,
			(unsigned long long)end, order,
			(unsigned long long)(span ? span->base : 0),
			(unsigned long long)(span ? span->end : 0),
			reservation_reason(base, end));
	return true;
}

#define PATTERN_STEP	0x9e3779b97f4a7c15ULL	/* 2^64 / golden ratio */

uint64_t pattern_word(uint64_t seed, size_t i)
{
	return seed ^ ((uint64_t)(i + 1) * PATTERN_STEP);
}

void pattern_fill(void *p, size_t bytes, uint64_t seed)
{
	uint64_t *w = p, x = 0;

	for (size_t i = 0; i < bytes / 8; i++) {
		x += PATTERN_STEP;
		w[i] = seed ^ x;
	}
}

long pattern_mismatch(const void *p, size_t bytes, uint64_t seed)
{
	const uint64_t *w = p;
	uint64_t x = 0;

	for (size_t i = 0; i < bytes / 8; i++) {
		x += PATTERN_STEP;
		if (w[i] != (seed ^ x))
			return (long)i;
	}
	return -1;
}

void chain_free(struct block_chain *c, unsigned int order)
{
	void *block;

	/* Bounded by the count: a chain broken into a loop still ends. */
	while (c->count && (block = chain_pop(c)))
		__free_pages(virt_to_page(block), order);
}

unsigned long hold_all_but(struct block_chain held[NR_PAGE_ORDERS],
			   unsigned long keep_pages, unsigned int lowest)
{
	unsigned long pages = 0;

	for (unsigned int o = MAX_PAGE_ORDER + 1; o-- > lowest;) {
		struct page *page;

		while (nr_free_blocks(o) &&
		       nr_free_pages() >= keep_pages + (1UL << o) &&
		       (page = alloc_pages(__GFP_NOWARN, o))) {
			chain_push(&held[o], page_address(page));
			pages += 1UL << o;
		}
	}
	return pages;
}

void release_held(struct block_chain held[NR_PAGE_ORDERS])
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		chain_free(&held[o], o);
}
