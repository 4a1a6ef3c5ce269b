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

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	enum memblock_flags flags;
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
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
int memblock_mark_nomap(phys_addr_t base, phys_addr_t size);
int memblock_clear_nomap(phys_addr_t base, phys_addr_t size);

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
void __next_mem_range(uint64_t *idx, enum memblock_flags flags,
		      struct memblock_type *type_a,
		      struct memblock_type *type_b, phys_addr_t *out_start,
		      phys_addr_t *out_end);

/* for_each_mem_range - every "memory" region that is not no-map. */
#define for_each_mem_range(i, p_start, p_end)				\
	for (i = 0, __next_mem_range(&i, MEMBLOCK_NONE, &memblock.memory, \
				     NULL, p_start, p_end);		\
	     i != MEMBLOCK_ITER_END;					\
	     __next_mem_range(&i, MEMBLOCK_NONE, &memblock.memory, NULL, \
			      p_start, p_end))

/*
 * for_each_free_mem_range - every range of "memory" (not no-map) that no
 * "reserved" region covers, lowest first. @nid and @p_nid are accepted for
 * Linux compatibility; there is one node, so pass NUMA_NO_NODE and NULL.
 */
#define for_each_free_mem_range(i, nid, flags, p_start, p_end, p_nid)	\
	for (i = 0, __next_mem_range(&i, flags, &memblock.memory,	\
				     &memblock.reserved, p_start, p_end); \
	     i != MEMBLOCK_ITER_END;					\
	     __next_mem_range(&i, flags, &memblock.memory,		\
			      &memblock.reserved, p_start, p_end))

#endif /* MM_MEMBLOCK_H */
