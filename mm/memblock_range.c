/*
 * memblock_range.c - walking the memory map, and allocating from it.
 *
 * A free range is a piece of a "memory" region that no "reserved" region
 * covers. __next_mem_range() walks them in ascending order, stepping through
 * the memory regions and the gaps between reserved regions at once, as
 * Linux's does. Allocation scans the same free ranges: bottom-up takes the
 * first that fits, top-down the last (the ranges ascend, so the last fit is
 * the highest). Allocation never returns 0, which means "no memory", so the
 * search starts at PAGE_SIZE. It takes only pages that are memory whole:
 * firmware may end a bank off a page boundary (a 64 KiB granule on RAM
 * of 256 MiB + 8 KiB), and a page only partly memory has no struct page,
 * so a page map or node data placed there could not be found again.
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <mm/page_order.h>
#include "memblock_internal.h"

static bool memblock_skip_region(const struct memblock_region *r,
				 enum memblock_flags flags)
{
	/* No-map memory is only visited when the caller asks for it. */
	return (r->flags & MEMBLOCK_NOMAP) && !(flags & MEMBLOCK_NOMAP);
}

static void set_out(phys_addr_t *out, phys_addr_t value)
{
	if (out)
		*out = value;
}

/*
 * The iterator state @idx holds the index into @type_a in its low 32 bits
 * and the index of the gap in @type_b (gap i lies below region i; gap cnt
 * runs to the top) in its high 32 bits.
 */
void __next_mem_range(uint64_t *idx, int nid, enum memblock_flags flags,
		      struct memblock_type *type_a,
		      struct memblock_type *type_b, phys_addr_t *out_start,
		      phys_addr_t *out_end, int *out_nid)
{
	unsigned long idx_a = (uint32_t)*idx;
	unsigned long idx_b = (unsigned long)(*idx >> 32);

	for (; idx_a < type_a->cnt; idx_a++) {
		const struct memblock_region *m = &type_a->regions[idx_a];
		phys_addr_t m_start = m->base, m_end = m->base + m->size;

		if (memblock_skip_region(m, flags))
			continue;
		if (nid != NUMA_NO_NODE && m->nid != nid)
			continue;
		if (out_nid)
			*out_nid = m->nid;
		if (!type_b) {
			set_out(out_start, m_start);
			set_out(out_end, m_end);
			*idx = idx_a + 1;
			return;
		}
		for (; idx_b <= type_b->cnt; idx_b++) {
			const struct memblock_region *r = type_b->regions;
			phys_addr_t r_start, r_end;

			r_start = idx_b ? r[idx_b - 1].base + r[idx_b - 1].size
					: 0;
			r_end = idx_b < type_b->cnt ? r[idx_b].base
						    : PHYS_ADDR_MAX;
			if (r_start >= m_end)
				break;
			if (m_start >= r_end)
				continue;
			set_out(out_start, MAX(m_start, r_start));
			set_out(out_end, MIN(m_end, r_end));
			/* Advance whichever of the two ends first. */
			if (m_end <= r_end)
				idx_a++;
			else
				idx_b++;
			*idx = (uint64_t)idx_a | (uint64_t)idx_b << 32;
			return;
		}
	}
	*idx = MEMBLOCK_ITER_END;
}

void __next_mem_pfn_range(int *idx, int nid, unsigned long *out_start_pfn,
			  unsigned long *out_end_pfn, int *out_nid)
{
	const struct memblock_type *type = &memblock.memory;

	while (++*idx < (int)type->cnt) {
		const struct memblock_region *r = &type->regions[*idx];
		unsigned long spfn = PFN_UP(r->base);
		unsigned long epfn = PHYS_PFN(r->base + r->size);

		if (spfn >= epfn)
			continue;
		if (nid != NUMA_NO_NODE && r->nid != nid)
			continue;
		if (out_start_pfn)
			*out_start_pfn = spfn;
		if (out_end_pfn)
			*out_end_pfn = epfn;
		if (out_nid)
			*out_nid = r->nid;
		return;
	}
	*idx = -1;
}

bool memblock_whole_pages(phys_addr_t *start, phys_addr_t *end)
{
	long idx = memblock_search(&memblock.memory, *start);
	const struct memblock_region *r;
	phys_addr_t lo, hi;

	if (idx < 0)
		return false;	/* not memory: nothing (free ranges are) */
	r = &memblock.memory.regions[idx];
	/* Regions end at PHYS_ADDR_MAX at most: rounding up may not wrap. */
	lo = r->base > PHYS_ADDR_MAX - (PAGE_SIZE - 1) ? PHYS_ADDR_MAX
			: ALIGN_UP(r->base, (phys_addr_t)PAGE_SIZE);
	hi = ALIGN_DOWN(r->base + r->size, (phys_addr_t)PAGE_SIZE);
	*start = MAX(*start, lo);
	*end = MIN(*end, hi);
	return *start < *end;
}

phys_addr_t memblock_find_in_range(phys_addr_t size, phys_addr_t align,
				   phys_addr_t start, phys_addr_t end)
{
	phys_addr_t found = 0, rs, re;
	uint64_t i;

	end = MIN(end, memblock.current_limit);
	start = MAX(start, (phys_addr_t)PAGE_SIZE);
	if (!size || start >= end || size > end - start)
		return 0;

	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &rs, &re, NULL) {
		phys_addr_t cand;

		if (!memblock_whole_pages(&rs, &re))
			continue;
		rs = MAX(rs, start);
		re = MIN(re, end);
		if (rs >= re || re - rs < size)
			continue;
		if (memblock.bottom_up) {
			if (rs > PHYS_ADDR_MAX - (align - 1))
				continue;	/* aligning up would wrap */
			cand = ALIGN_UP(rs, align);
			if (cand <= re - size)
				return cand;
		} else {
			cand = ALIGN_DOWN(re - size, align);
			if (cand >= rs)
				found = cand;
		}
	}
	return found;
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	phys_addr_t found;

	if (memblock.handed_off) {
		pr_err("memblock: allocation of %#llx bytes after "
		       "memblock_free_all() refused\n",
		       (unsigned long long)size);
		return 0;
	}
	if (!align || (align & (align - 1))) {
		pr_err("memblock: alignment %#llx is not a power of two\n",
		       (unsigned long long)align);
		return 0;
	}
	found = memblock_find_in_range(size, align, start, end);
	if (!found || memblock_reserve(found, size))
		return 0;
	return found;
}

phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_phys_alloc_range(size, align, MEMBLOCK_LOW_LIMIT,
					 MEMBLOCK_ALLOC_ANYWHERE);
}

void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t phys = memblock_phys_alloc(size, align);
	void *ptr;

	if (!phys)
		return NULL;
	ptr = phys_to_virt(phys);
	memset(ptr, 0, size);
	return ptr;
}

void memblock_set_bottom_up(bool enable)
{
	memblock.bottom_up = enable;
}

bool memblock_bottom_up(void)
{
	return memblock.bottom_up;
}

void memblock_set_current_limit(phys_addr_t limit)
{
	memblock.current_limit = limit;
}
