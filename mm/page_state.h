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
 * reserved page or a page inside a block. A free block held in a per-CPU
 * list (page_pcp.h) is PCP | order: free, so a second free of it is a
 * double free, but not FREE, so no merge ever takes it.
 *
 * Concurrency: a state byte may be written by a CPU working on its own
 * per-CPU lists (a cached block taken or given back) while another CPU
 * holding the zone lock reads it (the buddy of a block it frees), so every
 * access that can meet another CPU's goes through pg_state()/
 * set_pg_state(): single-byte relaxed atomics, plain loads and stores on
 * every target. What each value means is kept by its owner: FREE heads
 * and TAIL bytes under the zone lock, PCP heads by the CPU whose list
 * holds them, ALLOC heads by whoever holds the block.
 *
 * Per-page bytes exist for every present section (one that any memory
 * region touches), but only for the part of it between the first and the
 * last map chunk that memory touches: a chunk is MAP_CHUNK_PAGES pages, at
 * least a top-order block and at most 1/32 of a section, so a small or odd
 * machine pays about one byte per page of RAM, not a whole section's map.
 * The map is cut by node: each chunk belongs to the node of the first
 * memory in it, and each node's chunks follow each other, ascending, in
 * that node's part of the map (struct map_part), allocated in the node's
 * own memory when it has room. Within a part, each section's piece starts
 * at a chunk-aligned index, so below MAP_CHUNK_SHIFT an index into the
 * part and its pfn have the same bits: the buddy of index i at order o is
 * i ^ (1 << o), always in the same chunk because a chunk holds whole
 * top-order blocks. A part's chunk_nr[] gives each of its chunks its place
 * in physical memory (page to pfn); sections[] lists the pieces of present
 * sections in ascending pfn order (pfn to page, by binary search); a
 * section holding two nodes' memory has a piece in each node's part.
 * A struct page finds its part by comparing its address with each part's
 * bounds: one comparison on a machine of one node.
 */
#ifndef MM_PAGE_STATE_H
#define MM_PAGE_STATE_H

#include <stdarg.h>
#include <arch/memory.h>
#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/mmzone.h>
#include <mm/page_alloc.h>
#include <smp/spinlock.h>

/* The byte values PG_*: <mm/page_alloc_fast.h>, for the inline fast paths. */

_Static_assert(sizeof(struct page) == 1,
	       "struct page must stay one byte: map indexes are byte offsets.");

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
 * The first page of an allocated block of a contiguous range
 * (alloc_contig_pages()): such a range is cut into aligned blocks like the
 * hand-off's, each with a CONTIG head; only free_contig_range() frees them.
 */
#define PG_CONTIG	0x90

/* Free in either sense: on a buddy list (or deferred), or in a CPU's list. */
static inline bool pg_is_free_head(uint8_t s)
{
	return pg_is_head(s, PG_FREE) || pg_is_head(s, PG_PCP);
}

static inline uint8_t pg_state(const struct page *page)
{
	return __atomic_load_n(&page->state, __ATOMIC_RELAXED);
}

static inline void set_pg_state(struct page *page, uint8_t v)
{
	__atomic_store_n(&page->state, v, __ATOMIC_RELAXED);
}

/* free_block.check: the node's and the page's addresses XOR this. */
#define FREE_BLOCK_MAGIC	((uintptr_t)0x6275646479626f6fULL) /* "buddyboo" */

/* The granule of the per-page map: whole top-order blocks, 1/32 section. */
#define MAP_CHUNK_SHIFT							\
	(PFN_SECTION_SHIFT - 5 > MAX_PAGE_ORDER ? PFN_SECTION_SHIFT - 5	\
						: MAX_PAGE_ORDER)
#define MAP_CHUNK_PAGES		(1UL << MAP_CHUNK_SHIFT)

/*
 * A present section's piece of one part of the map: which of its pages it
 * covers, and where. A section has one piece per node that has chunks in
 * it (most have one).
 */
struct mem_section {
	unsigned long section;		/* section number */
	unsigned long start;		/* index in its part of page @lo */
	uint32_t lo, hi;		/* pages [lo, hi) of the section */
	unsigned int part;		/* page_allocator.parts[] */
};

/*
 * One node's part of the per-page map: the struct pages of the chunks
 * that belong to node @nid, ascending, and the chunk tables over them.
 * Allocated from memblock on that node when it has room (else anywhere,
 * said on the console), with its tables after it; written by the
 * hand-off, read-only afterwards.
 */
struct map_part {
	struct page *map;		/* nr struct pages */
	unsigned long nr;		/* a multiple of MAP_CHUNK_PAGES */
	uint32_t *chunk_nr;		/* [chunk of part]: its pfn >> MAP_CHUNK_SHIFT */
	uint8_t *chunk_zone;		/* [chunk of part]: its zone id, or above */
	int nid;			/* the node whose chunks these are */
	bool on_node;			/* allocated in node @nid's memory */
};

/*
 * A run of memory of one zone, [start, end) in pfns: the hand-off's cut of
 * memblock's memory by node and by the 4 GiB line, ascending, touching
 * runs of one zone joined. Only asked for a chunk whose memory is not all
 * in one zone (a node boundary not aligned to a chunk).
 */
struct zone_segment {
	unsigned long start, end;
	unsigned int zone_id;
};

/* chunk_zone[] values besides a zone id. */
#define CHUNK_NO_ZONE	0xff	/* no memory in the chunk */
#define CHUNK_MIXED	0xfe	/* memory of several zones: see segments */
_Static_assert(MAX_ZONE_IDS < CHUNK_MIXED, "zone ids must fit below CHUNK_MIXED");

/*
 * The per-page map and the tables around it, shared by every zone
 * (mm/sparse.c); the zones themselves are in <mm/mmzone.h>. Written once,
 * by the hand-off, and then only read: every CPU's fast path reads them.
 */
struct page_allocator {
	unsigned long nr_managed;	/* pages in free or allocated blocks */

	struct map_part parts[MAX_NUMNODES];	/* [nr_parts], by node id */
	unsigned int nr_parts;
	unsigned long nr_map;		/* struct pages in all parts */
	struct mem_section *sections;	/* [nr_sections], ascending */
	unsigned long nr_sections;	/* pieces of present sections */
	struct deferred_run *run_table;	/* every zone's deferred[], in turn */
	struct zone_segment *segments;	/* [nr_segments], ascending */
	unsigned long nr_segments;
	struct zone *zone_table[MAX_ZONE_IDS];	/* by zone id; NULL: none */
	int default_nid;		/* where memory in no node goes */
	size_t metadata_bytes;		/* map and tables, exactly */
	size_t metadata_alloc;		/* bytes of the parts' allocations */
	unsigned long metadata_pages;	/* pages those allocations touch */
	unsigned long handoff_blocks;	/* blocks memblock_free_all() made */
};

extern struct page_allocator page_allocator;

/*
 * The part of the map holding @page, or NULL when it is none of the map's
 * (@page may point anywhere: integers, not pointers).
 */
static inline const struct map_part *page_part(const struct page *page)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned int k = 0; k < pa->nr_parts; k++)
		if ((uintptr_t)page - (uintptr_t)pa->parts[k].map <
		    pa->parts[k].nr)
			return &pa->parts[k];
	return NULL;
}

static inline unsigned long nr_map_pages(void)
{
	return page_allocator.nr_map;
}

/* __pfn_to_page - the struct page of @pfn, or NULL when it has none. */
struct page *__pfn_to_page(unsigned long pfn);
/*
 * As __pfn_to_page(), and *@end (when not NULL) the pfn where the piece
 * of the map holding it ends: the struct pages of [@pfn, *@end) follow
 * each other.
 */
struct page *pfn_to_page_piece(unsigned long pfn, unsigned long *end);

/* The pfn of @page, one of @part's. */
static inline unsigned long part_page_to_pfn(const struct map_part *part,
					     const struct page *page)
{
	unsigned long idx = (unsigned long)(page - part->map);

	return (unsigned long)part->chunk_nr[idx >> MAP_CHUNK_SHIFT]
		       << MAP_CHUNK_SHIFT |
	       (idx & (MAP_CHUNK_PAGES - 1));
}

/* The pfn of @page, which is one of the map's. */
static inline unsigned long __page_to_pfn(const struct page *page)
{
	return part_page_to_pfn(page_part(page), page);
}

/* The address of @page's memory: the direct map of its pfn. */
static inline void *__page_address(const struct page *page)
{
	return phys_to_virt(PFN_PHYS(__page_to_pfn(page)));
}

/* Free-list primitives, shared by the allocator and the hand-off. */
void free_area_add(struct zone *zone, unsigned int order, struct page *page);
void free_area_del(struct zone *zone, unsigned int order, struct page *page);
void zone_init_lists(struct zone *zone);

static inline void zone_lock(struct zone *zone)
{
	spin_lock(&zone->lock);
	zone->lock_count++;
}

static inline void zone_unlock(struct zone *zone)
{
	spin_unlock(&zone->lock);
}

/* The zone of @pfn by the segments (slow; NULL outside memory). */
struct zone *pfn_zone_slow(unsigned long pfn);

/* The zone of @page (of the map) in @part, which is memory. */
static inline struct zone *part_zone(const struct map_part *part,
				     const struct page *page)
{
	unsigned int id = part->chunk_zone[(unsigned long)(page - part->map) >>
					   MAP_CHUNK_SHIFT];

	if (likely(id < MAX_ZONE_IDS))
		return page_allocator.zone_table[id];
	return pfn_zone_slow(part_page_to_pfn(part, page));
}

/* The zone of @page, one of the map's and memory. */
static inline struct zone *map_zone(const struct page *page)
{
	return part_zone(page_part(page), page);
}

/* Whether the chunk of @page (of @part) holds memory of several zones. */
static inline bool part_chunk_mixed(const struct map_part *part,
				    const struct page *page)
{
	return part->chunk_zone[(unsigned long)(page - part->map) >>
				MAP_CHUNK_SHIFT] == CHUNK_MIXED;
}

static inline bool pa_chunk_mixed(const struct page *page)
{
	return part_chunk_mixed(page_part(page), page);
}

/*
 * Under the zone lock: take a free block of @order from @zone's buddy
 * lists (splitting, or carving a deferred run), NULL when there is none;
 * its state byte is left for the caller to set. Give back the free block
 * @page of @order (its state byte whatever it was), merging it.
 */
struct page *__rmqueue(struct zone *zone, unsigned int order);
void __free_one_page(struct zone *zone, struct page *page, unsigned int order);

/*
 * Under the zone lock: link every block of @zone's deferred run @k to the
 * top-order list and forget the run (contiguous allocations take blocks
 * from the middle of runs).
 */
void zone_undefer_run(struct zone *zone, unsigned long k);

/* nr_deferred_blocks - top-order blocks in every zone's deferred runs. */
unsigned long nr_deferred_blocks(void);

/*
 * refuse - report a refused free of @order pages (or a contiguous range)
 * at @pfn for the reason @why (enum free_refusal), with an optional detail
 * in parentheses. Return: @why.
 */
int __printf(4, 5) refuse_free(unsigned long pfn, unsigned int order, int why,
			  const char *detail, ...);
/* refusal_detail - print " (@detail)" when given, and end the line. */
void refusal_detail(const char *detail, va_list ap);
/* The head of the block holding the TAIL page @page, or NULL. */
struct page *enclosing_head(const struct page *page);

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
