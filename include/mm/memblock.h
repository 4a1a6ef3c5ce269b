/*
 * memblock.h - the early physical memory map: what RAM exists and what of it
 * is taken, before the buddy allocator runs.
 *
 * Names and meanings follow Linux's memblock. Two region arrays, "memory" and
 * "reserved", each kept sorted, non-overlapping and merged. Allocation is
 * top-down unless memblock_set_bottom_up(true). memblock_free_all() ends the
 * early phase: it hands every free range to the buddy allocator.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include <lib/types.h>

/*
 * The size of each static array memblock starts with, before anything is
 * mapped and before memblock_allow_resize(): as many as a boot-info list
 * may hold (BOOT_MAX_RANGES), so a map of 1024 memory banks or 1024
 * reservations is taken whole before the page allocator exists (servers'
 * EFI maps pass a few hundred entries). Once resizing is allowed, a full
 * array doubles into free memory, without limit.
 */
#define INIT_MEMBLOCK_REGIONS	1024
#define NUMA_NO_NODE		(-1)

/* Definable limits for memblock_phys_alloc_range(). */
#define MEMBLOCK_ALLOC_ANYWHERE	(~(phys_addr_t)0)
#define MEMBLOCK_LOW_LIMIT	0

enum memblock_flags {
	MEMBLOCK_NONE	= 0x0,	/* no special request */
	MEMBLOCK_NOMAP	= 0x4,	/* never map, never hand out (DT "no-map") */
};

/*
 * @nid: the NUMA node the range belongs to, NUMA_NO_NODE until
 * memblock_set_node() says (reserved regions stay NUMA_NO_NODE). Regions
 * of different nodes never merge.
 */
struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	enum memblock_flags flags;
	int nid;
};

struct memblock_type {
	unsigned long cnt;		/* regions in use */
	unsigned long max;		/* capacity of @regions */
	phys_addr_t total_size;		/* sum of region sizes */
	struct memblock_region *regions;
	const char *name;		/* "memory" or "reserved" */
};

struct memblock {
	bool bottom_up;			/* allocate from the bottom up */
	bool can_resize;		/* region arrays may grow (see below) */
	bool handed_off;		/* memblock_free_all() has run */
	phys_addr_t current_limit;	/* highest address allocations may use */
	struct memblock_type memory;
	struct memblock_type reserved;
};

extern struct memblock memblock;

/*
 * The add/remove/reserve family returns 0, or a negative errno:
 * -EINVAL for a zero-size or malformed request, -ENOMEM when a region
 * array is full and cannot grow (reported on the console; nothing is lost:
 * the arrays are unchanged), -EBUSY after memblock_free_all() (the buddy
 * allocator owns memory by then; a late change would be silently ignored).
 * Ranges reaching past the top of the address space are clamped to it.
 */
int memblock_add(phys_addr_t base, phys_addr_t size);
/* memblock_add_node - as memblock_add, the new parts in node @nid. */
int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid,
		      enum memblock_flags flags);
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
int memblock_mark_nomap(phys_addr_t base, phys_addr_t size);
int memblock_clear_nomap(phys_addr_t base, phys_addr_t size);

/*
 * memblock_set_node - put [@base, @base + @size) of @type in node @nid,
 * splitting the regions that straddle its ends; parts of the range that
 * @type does not hold are left alone, as in Linux. @nid is a node id
 * (0 or more) or NUMA_NO_NODE. Return: 0, -EINVAL for another @nid or a
 * zero size, -ENOMEM when a split finds no slot (nothing changed), -EBUSY
 * after memblock_free_all().
 */
int memblock_set_node(phys_addr_t base, phys_addr_t size,
		      struct memblock_type *type, int nid);

static inline int memblock_get_region_node(const struct memblock_region *r)
{
	return r->nid;
}

/*
 * memblock_cap_memory - drop all memory at and above @limit (RAM the
 * kernel cannot reach). It cannot fail for a full array: when the region
 * that straddles @limit cannot be split for want of a slot, the whole of
 * it goes too (reported), so no byte above @limit stays. Returns -EBUSY
 * after memblock_free_all(), else 0.
 */
int memblock_cap_memory(phys_addr_t limit);

/*
 * memblock_phys_alloc_range - find and reserve @size bytes aligned to @align
 * (a power of two; 0 is refused) inside [@start, @end), from the top unless
 * bottom-up is set. @end may be MEMBLOCK_ALLOC_ANYWHERE.
 * Return: the physical base, or 0 when nothing fits.
 */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align);
/* memblock_alloc - as memblock_phys_alloc, mapped and zeroed. NULL on failure. */
void *memblock_alloc(phys_addr_t size, phys_addr_t align);

/*
 * memblock_allow_resize - let full region arrays grow, as Linux does: a
 * doubled array is allocated from memblock itself, so call this only once
 * the memory added so far may be written (it is mapped). Until then a full
 * array refuses with -ENOMEM.
 */
void memblock_allow_resize(void);

void memblock_set_bottom_up(bool enable);
bool memblock_bottom_up(void);
void memblock_set_current_limit(phys_addr_t limit);

phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);
phys_addr_t memblock_start_of_DRAM(void);
phys_addr_t memblock_end_of_DRAM(void);
bool memblock_is_memory(phys_addr_t addr);
bool memblock_is_region_memory(phys_addr_t base, phys_addr_t size);
bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size);

/* memblock_dump_all - print both arrays, one region a line. */
void memblock_dump_all(void);

/*
 * memblock_free_all - the hand-off. Sets up per-page metadata (allocated
 * from memblock and reserved), then gives every free, mapped range to the
 * buddy allocator in the largest naturally aligned blocks.
 *
 * The page-0 policy, stated here only: where physical address 0 is the
 * virtual NULL pointer (every kernel target: RAM is identity-mapped), the
 * page at 0 is reserved first and never handed out, because a block there
 * would have the address of a failed allocation. (memblock's own
 * allocator never returns 0 either: 0 is its "nothing found".)
 * Return: the number of pages given to the buddy allocator.
 */
unsigned long memblock_free_all(void);

/* Iterator internals; use the for_each_* macros below. */
#define MEMBLOCK_ITER_END	(~(uint64_t)0)
void __next_mem_range(uint64_t *idx, int nid, enum memblock_flags flags,
		      struct memblock_type *type_a,
		      struct memblock_type *type_b, phys_addr_t *out_start,
		      phys_addr_t *out_end, int *out_nid);

/*
 * __for_each_mem_range - the ranges of @type_a (minus @type_b, when not
 * NULL) in node @nid (NUMA_NO_NODE: every node), lowest first; @p_nid
 * (may be NULL) gets each range's node.
 */
#define __for_each_mem_range(i, type_a, type_b, nid, flags, p_start,	\
			     p_end, p_nid)				\
	for (i = 0, __next_mem_range(&i, nid, flags, type_a, type_b,	\
				     p_start, p_end, p_nid);		\
	     i != MEMBLOCK_ITER_END;					\
	     __next_mem_range(&i, nid, flags, type_a, type_b,		\
			      p_start, p_end, p_nid))

/* for_each_mem_range - every "memory" region that is not no-map. */
#define for_each_mem_range(i, p_start, p_end)				\
	__for_each_mem_range(i, &memblock.memory, NULL, NUMA_NO_NODE,	\
			     MEMBLOCK_NONE, p_start, p_end, NULL)

/*
 * for_each_free_mem_range - every range of "memory" (not no-map) in node
 * @nid (NUMA_NO_NODE: all) that no "reserved" region covers, lowest
 * first; *@p_nid (when not NULL) is the node of each.
 */
#define for_each_free_mem_range(i, nid, flags, p_start, p_end, p_nid)	\
	__for_each_mem_range(i, &memblock.memory, &memblock.reserved,	\
			     nid, flags, p_start, p_end, p_nid)

/*
 * memblock_whole_pages - narrow the range [*@start, *@end) that
 * for_each_free_mem_range() gave (inside one memory region) to the whole
 * pages of that region: memblock allocates only from pages that are all
 * memory, though a page part reserved may give its other bytes. Shared
 * by memblock_find_in_range() and the node-data placement (sparse.c), so
 * that a range one counts as room is room for the other. Return: false
 * when nothing is left.
 */
bool memblock_whole_pages(phys_addr_t *start, phys_addr_t *end);

/*
 * for_each_mem_pfn_range - the whole pages of every "memory" region (no-map
 * ones included, as Linux) in node @nid (NUMA_NO_NODE: all), as
 * [*@p_start, *@p_end) page frame numbers; *@p_nid its node.
 */
void __next_mem_pfn_range(int *idx, int nid, unsigned long *out_start_pfn,
			  unsigned long *out_end_pfn, int *out_nid);
#define for_each_mem_pfn_range(i, nid, p_start, p_end, p_nid)		\
	for (i = -1, __next_mem_pfn_range(&i, nid, p_start, p_end, p_nid); \
	     i >= 0; __next_mem_pfn_range(&i, nid, p_start, p_end, p_nid))

#endif /* MM_MEMBLOCK_H */
