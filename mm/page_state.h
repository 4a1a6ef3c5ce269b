/*
 * page_state.h - the buddy allocator's private state: the one-byte struct
 * page encoding, the free lists and the sparse per-page map. Only mm/
 * includes this.
 *
 * struct page is one byte. The first page of every block carries a head
 * value, FREE or ALLOC with the block's order in the low four bits; every
 * other page of the block is TAIL. Pages never given to the allocator
 * (reservations, the metadata itself, holes in a present section, no-map
 * memory) are RESERVED. So a split writes one byte (the upper half's head),
 * a merge writes one byte (the upper buddy becomes TAIL), and a free checks
 * one byte to tell a good free from a double free, a wrong order, a
 * reserved page or a page inside a block.
 *
 * Per-page bytes exist for every present section (one that any memory
 * region touches) and sit in one array, a section's pages at a
 * section-aligned offset. Below PFN_SECTION_SHIFT, an index into the array
 * and its pfn have the same bits, so the buddy of index i at order o is
 * i ^ (1 << o), always in the same section because MAX_PAGE_ORDER +
 * PAGE_SHIFT <= SECTION_SIZE_BITS.
 */
#ifndef MM_PAGE_STATE_H
#define MM_PAGE_STATE_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/page_alloc.h>

#define PG_TAIL		0x00	/* inside a block, not its first page */
#define PG_FREE		0x40	/* | order: first page of a free block */
#define PG_ALLOC	0x80	/* | order: first page of an allocated block */
#define PG_RESERVED	0xc0	/* never the allocator's */
#define PG_KIND_MASK	0xc0
#define PG_ORDER_MASK	0x0f

/* Orders live in four bits: page_order.h enforces MAX_PAGE_ORDER <= 15. */
_Static_assert(MAX_PAGE_ORDER <= PG_ORDER_MASK,
	       "MAX_PAGE_ORDER must fit in the four order bits of struct page.");

static inline bool pg_is_head(uint8_t s, uint8_t kind)
{
	return (s & ~PG_ORDER_MASK) == kind && (s & PG_ORDER_MASK) <= MAX_PAGE_ORDER;
}

static inline unsigned int pg_order(uint8_t s)
{
	return s & PG_ORDER_MASK;
}

/*
 * A free block's first bytes hold its list node. @check is the node's
 * address XOR a constant, so stray writes into free memory show up.
 */
struct free_block {
	struct free_block *next;
	struct free_block *prev;
	uintptr_t check;
};

#define FREE_BLOCK_MAGIC	((uintptr_t)0x6275646479626f6fULL) /* "buddyboo" */

struct free_area {
	struct free_block list;		/* sentinel of a circular list */
	unsigned long nr_free;		/* blocks on the list */
};

#define NO_SLOT	UINT32_MAX

/*
 * The whole allocator, in one place: one lock point once there are several
 * CPUs, and nothing else holds allocator state.
 */
struct page_allocator {
	struct free_area free_area[NR_PAGE_ORDERS];
	unsigned long nr_free;		/* pages in free blocks */
	unsigned long nr_managed;	/* pages in free or allocated blocks */

	struct page *map;		/* nr_slots sections of struct page */
	unsigned long nr_slots;		/* present sections */
	unsigned long first_section;	/* lowest present section */
	unsigned long nr_span;		/* sections from first to last present */
	uint32_t *section_slot;		/* [nr_span]: slot, or NO_SLOT */
	unsigned long *slot_section;	/* [nr_slots]: section number */
	size_t metadata_bytes;		/* map and both tables */
	unsigned long handoff_blocks;	/* blocks memblock_free_all() made */
};

extern struct page_allocator page_allocator;

static inline unsigned long page_index(const struct page *page)
{
	return (unsigned long)(page - page_allocator.map);
}

static inline unsigned long nr_map_pages(void)
{
	return page_allocator.nr_slots << PFN_SECTION_SHIFT;
}

/* __pfn_to_page - the struct page of @pfn, or NULL when it has none. */
static inline struct page *__pfn_to_page(unsigned long pfn)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long section = pfn >> PFN_SECTION_SHIFT;
	uint32_t slot;

	if (section < pa->first_section ||
	    section - pa->first_section >= pa->nr_span)
		return NULL;
	slot = pa->section_slot[section - pa->first_section];
	if (slot == NO_SLOT)
		return NULL;
	return &pa->map[((unsigned long)slot << PFN_SECTION_SHIFT) |
			(pfn & (PAGES_PER_SECTION - 1))];
}

static inline unsigned long __page_to_pfn(const struct page *page)
{
	unsigned long idx = page_index(page);

	return page_allocator.slot_section[idx >> PFN_SECTION_SHIFT]
		       << PFN_SECTION_SHIFT |
	       (idx & (PAGES_PER_SECTION - 1));
}

/* Free-list primitives, shared by the allocator and the hand-off. */
void free_area_add(unsigned int order, struct page *page);
void free_area_del(unsigned int order, struct page *page);
void __page_allocator_init_lists(void);

/* The first whole page at or above @addr, without overflowing at the top. */
static inline unsigned long pfn_up(phys_addr_t addr)
{
	return PHYS_PFN(addr) + !!(addr & (PAGE_SIZE - 1));
}

/* Largest order a block starting at @pfn may have, by alignment alone. */
static inline unsigned int pfn_align_order(unsigned long pfn)
{
	unsigned int ctz;

	/* __builtin_ctzl(0) is undefined: PFN 0 is aligned to every order. */
	if (!pfn)
		return MAX_PAGE_ORDER;
	ctz = (unsigned int)__builtin_ctzl(pfn);
	return ctz > MAX_PAGE_ORDER ? MAX_PAGE_ORDER : ctz;
}

#endif /* MM_PAGE_STATE_H */
