/*
 * memblock.c - the early memory map: the "memory" and "reserved" arrays.
 *
 * Each array is sorted by base, and no two of its regions overlap. Adding a
 * range inserts the parts no region covers yet (or grows the neighbours
 * they touch), then merges neighbours that touch and share flags; removing
 * first isolates the range (splitting the regions that straddle its ends),
 * then drops what lies inside. Both steps count the slots they need before
 * changing anything, so a full array that cannot grow refuses exactly the
 * requests that need a new slot, whole, and loses nothing.
 *
 * Allocation and iteration live in memblock_range.c.
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <mm/page_order.h>
#include <mm/test_reset.h>
#include "memblock_internal.h"

static struct memblock_region memory_init[INIT_MEMBLOCK_REGIONS];
static struct memblock_region reserved_init[INIT_MEMBLOCK_REGIONS];

struct memblock memblock = {
	.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
	.memory = {
		.max = INIT_MEMBLOCK_REGIONS,
		.regions = memory_init,
		.name = "memory",
	},
	.reserved = {
		.max = INIT_MEMBLOCK_REGIONS,
		.regions = reserved_init,
		.name = "reserved",
	},
};

static phys_addr_t region_end(const struct memblock_region *r)
{
	return r->base + r->size;
}

/* Clamp @size so that @base + @size does not pass the top of the space. */
static phys_addr_t memblock_cap_size(phys_addr_t base, phys_addr_t size)
{
	return MIN(size, PHYS_ADDR_MAX - base);
}

static void memblock_insert_region(struct memblock_type *type,
				   unsigned long idx, phys_addr_t base,
				   phys_addr_t size, enum memblock_flags flags,
				   int nid)
{
	struct memblock_region *r = &type->regions[idx];

	memmove(r + 1, r, (type->cnt - idx) * sizeof(*r));
	r->base = base;
	r->size = size;
	r->flags = flags;
	r->nid = nid;
	type->cnt++;
	type->total_size += size;
}

static void memblock_remove_region(struct memblock_type *type,
				   unsigned long idx)
{
	struct memblock_region *r = &type->regions[idx];

	type->total_size -= r->size;
	memmove(r, r + 1, (type->cnt - idx - 1) * sizeof(*r));
	type->cnt--;
}

/* Merge neighbours that touch and carry the same flags and node. */
static void memblock_merge_regions(struct memblock_type *type)
{
	unsigned long i = 0;

	while (i + 1 < type->cnt) {
		struct memblock_region *this = &type->regions[i];
		struct memblock_region *next = this + 1;

		if (region_end(this) != next->base ||
		    this->flags != next->flags || this->nid != next->nid) {
			i++;
			continue;
		}
		this->size += next->size;
		/* memblock_remove_region() would subtract next's size. */
		type->total_size += next->size;
		memblock_remove_region(type, i + 1);
	}
}

static int memblock_make_room(struct memblock_type *type, unsigned long extra,
			      phys_addr_t base, phys_addr_t size);

/*
 * Double @type's array, allocating the new one from memblock outside
 * [@avoid_base, @avoid_base + @avoid_size), the range being added or
 * reserved right now. Return: 0, or -ENOMEM with @type unchanged.
 */
static int memblock_double_array(struct memblock_type *type,
				 phys_addr_t avoid_base, phys_addr_t avoid_size)
{
	struct memblock_region *old = type->regions;
	phys_addr_t old_bytes = type->max * sizeof(*old);
	phys_addr_t new_bytes = old_bytes * 2;
	phys_addr_t avoid_end = avoid_base + avoid_size;
	phys_addr_t addr;

	if (!memblock.can_resize)
		return -ENOMEM;
	/*
	 * Reserving the new array must not itself grow the reserved array:
	 * that growth could pick the very range found below.
	 */
	if (type != &memblock.reserved &&
	    memblock_make_room(&memblock.reserved, 1, avoid_base, avoid_size))
		return -ENOMEM;
	addr = memblock_find_in_range(new_bytes, PAGE_SIZE, avoid_end,
				      MEMBLOCK_ALLOC_ANYWHERE);
	if (!addr && avoid_base)
		addr = memblock_find_in_range(new_bytes, PAGE_SIZE, 0,
					      avoid_base);
	if (!addr)
		return -ENOMEM;

	/*
	 * Reserve the new array before using it, unless it is the reserved
	 * array itself that grows: that reservation needs the new room.
	 */
	if (type != &memblock.reserved && memblock_reserve(addr, new_bytes))
		return -ENOMEM;
	type->regions = phys_to_virt(addr);
	memcpy(type->regions, old, old_bytes);
	memset(type->regions + type->max, 0, old_bytes);
	type->max *= 2;
	if (type == &memblock.reserved && memblock_reserve(addr, new_bytes)) {
		/* Cannot happen: the array has just doubled. Undo anyway. */
		type->regions = old;
		type->max /= 2;
		return -ENOMEM;
	}
	/*
	 * Give the old array back unless it is the static one. If the
	 * reserved array cannot split for it, the old array stays reserved:
	 * a few bytes lost, never a region.
	 */
	if (old != memory_init && old != reserved_init)
		memblock_phys_free(virt_to_phys(old), old_bytes);
	pr_info("memblock: %s array grew to %lu regions at %#llx\n",
		type->name, type->max, (unsigned long long)addr);
	return 0;
}

/* Make room for @extra more regions in @type, growing it if allowed. */
static int memblock_make_room(struct memblock_type *type, unsigned long extra,
			      phys_addr_t base, phys_addr_t size)
{
	while (type->cnt + extra > type->max) {
		if (memblock_double_array(type, base, size)) {
			pr_err("memblock: %s array is full (%lu regions) and "
			       "cannot grow; refused [%#llx-%#llx]\n",
			       type->name, type->max,
			       (unsigned long long)base,
			       (unsigned long long)(base + size - 1));
			return -ENOMEM;
		}
	}
	return 0;
}

static int memblock_refuse_late(const char *what, phys_addr_t base,
				phys_addr_t size)
{
	pr_err("memblock: %s [%#llx-%#llx] after memblock_free_all() "
	       "refused: the buddy allocator owns memory now\n", what,
	       (unsigned long long)base,
	       (unsigned long long)(base + size - 1));
	return -EBUSY;
}

/*
 * Add [@base, @base + @size) to @type. The pieces no region covers yet are
 * found twice: the first pass counts the slots they need, the second adds
 * them. A piece that touches a region with the same flags grows that region
 * instead of taking a slot (and a piece that touches one on each side joins
 * them, freeing one), so a full array still takes a range that extends or
 * bridges what it holds.
 */
static int memblock_add_range(struct memblock_type *type, phys_addr_t base,
			      phys_addr_t size, int nid,
			      enum memblock_flags flags)
{
	struct memblock_region *r = type->regions;
	unsigned long pieces = 0;
	phys_addr_t end;

	size = memblock_cap_size(base, size);
	if (!size)
		return -EINVAL;
	end = base + size;

	for (int pass = 0; pass < 2; pass++) {
		phys_addr_t cur = base;
		unsigned long nr_new = 0, i = 0;

		while (cur < end) {
			phys_addr_t stop;
			bool left, right;

			while (i < type->cnt && region_end(&r[i]) <= cur)
				i++;
			if (i < type->cnt && r[i].base <= cur) {
				cur = region_end(&r[i++]);
				continue;
			}
			stop = i < type->cnt ? MIN(r[i].base, end) : end;
			left = i && region_end(&r[i - 1]) == cur &&
			       r[i - 1].flags == flags && r[i - 1].nid == nid;
			right = i < type->cnt && r[i].base == stop &&
				r[i].flags == flags && r[i].nid == nid;
			pieces++;
			nr_new += !left && !right;
			if (pass && left) {
				r[i - 1].size += stop - cur;
				type->total_size += stop - cur;
				if (right) {
					/* Removing r[i] subtracts its size. */
					r[i - 1].size += r[i].size;
					type->total_size += r[i].size;
					memblock_remove_region(type, i);
				}
				cur = region_end(&r[i - 1]);
				continue;
			}
			if (pass && right) {
				r[i].base = cur;
				r[i].size += stop - cur;
				type->total_size += stop - cur;
				cur = region_end(&r[i++]);
				continue;
			}
			if (pass)
				memblock_insert_region(type, i++, cur,
						       stop - cur, flags, nid);
			cur = stop;
		}
		if (!pass && !pieces)
			return 0;
		if (!pass && memblock_make_room(type, nr_new, base, size))
			return -ENOMEM;
		/* Growing the array may have moved it. */
		r = type->regions;
	}
	memblock_merge_regions(type);
	return 0;
}

/*
 * Split the regions of @type that straddle @base or @base + @size, so that
 * the range is covered by whole regions [*@first, *@last).
 */
static int memblock_isolate_range(struct memblock_type *type,
				  phys_addr_t base, phys_addr_t size,
				  unsigned long *first, unsigned long *last)
{
	phys_addr_t end;
	unsigned long i, splits = 0;

	*first = *last = 0;
	size = memblock_cap_size(base, size);
	if (!size)
		return -EINVAL;
	end = base + size;
	/* A split is needed where a region straddles @base or @end. */
	for (i = 0; i < type->cnt && type->regions[i].base < end; i++) {
		const struct memblock_region *r = &type->regions[i];

		splits += r->base < base && base < region_end(r);
		splits += r->base < end && end < region_end(r);
	}
	if (memblock_make_room(type, splits, base, size))
		return -ENOMEM;

	for (i = 0; i < type->cnt; i++) {
		struct memblock_region *r = &type->regions[i];
		phys_addr_t rbase = r->base, rend = region_end(r);

		if (rbase >= end)
			break;
		if (rend <= base)
			continue;
		if (rbase < base) {
			/* Keep [rbase, base) as its own region, look again. */
			r->base = base;
			r->size = rend - base;
			type->total_size -= base - rbase;
			memblock_insert_region(type, i, rbase, base - rbase,
					       r->flags, r->nid);
		} else if (rend > end) {
			r->base = end;
			r->size = rend - end;
			type->total_size -= end - rbase;
			memblock_insert_region(type, i, rbase, end - rbase,
					       r->flags, r->nid);
			i--;
		} else {
			if (*first == *last)
				*first = i;
			*last = i + 1;
		}
	}
	return 0;
}

static int memblock_remove_range(struct memblock_type *type, phys_addr_t base,
				 phys_addr_t size)
{
	unsigned long first, last;
	int ret = memblock_isolate_range(type, base, size, &first, &last);

	if (ret)
		return ret;
	while (last > first)
		memblock_remove_region(type, --last);
	return 0;
}

static int memblock_set_flag(phys_addr_t base, phys_addr_t size, bool set,
			     enum memblock_flags flag)
{
	struct memblock_type *type = &memblock.memory;
	unsigned long first, last;
	int ret = memblock_isolate_range(type, base, size, &first, &last);

	if (ret)
		return ret;
	for (unsigned long i = first; i < last; i++) {
		if (set)
			type->regions[i].flags |= flag;
		else
			type->regions[i].flags &= ~flag;
	}
	memblock_merge_regions(type);
	return 0;
}

int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid,
		      enum memblock_flags flags)
{
	if (memblock.handed_off)
		return memblock_refuse_late("add", base, size);
	if (nid < NUMA_NO_NODE)
		return -EINVAL;
	return memblock_add_range(&memblock.memory, base, size, nid, flags);
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_node(base, size, NUMA_NO_NODE, MEMBLOCK_NONE);
}

int memblock_set_node(phys_addr_t base, phys_addr_t size,
		      struct memblock_type *type, int nid)
{
	unsigned long first, last;
	int ret;

	if (memblock.handed_off)
		return memblock_refuse_late("set node", base, size);
	if (nid < NUMA_NO_NODE)
		return -EINVAL;
	ret = memblock_isolate_range(type, base, size, &first, &last);
	if (ret)
		return ret;
	for (unsigned long i = first; i < last; i++)
		type->regions[i].nid = nid;
	memblock_merge_regions(type);
	return 0;
}

int memblock_remove(phys_addr_t base, phys_addr_t size)
{
	if (memblock.handed_off)
		return memblock_refuse_late("remove", base, size);
	return memblock_remove_range(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	if (memblock.handed_off)
		return memblock_refuse_late("reserve", base, size);
	return memblock_add_range(&memblock.reserved, base, size,
				  NUMA_NO_NODE, MEMBLOCK_NONE);
}

int memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	if (memblock.handed_off)
		return memblock_refuse_late("free", base, size);
	return memblock_remove_range(&memblock.reserved, base, size);
}

int memblock_mark_nomap(phys_addr_t base, phys_addr_t size)
{
	if (memblock.handed_off)
		return memblock_refuse_late("mark no-map", base, size);
	return memblock_set_flag(base, size, true, MEMBLOCK_NOMAP);
}

int memblock_clear_nomap(phys_addr_t base, phys_addr_t size)
{
	if (memblock.handed_off)
		return memblock_refuse_late("clear no-map", base, size);
	return memblock_set_flag(base, size, false, MEMBLOCK_NOMAP);
}

int memblock_cap_memory(phys_addr_t limit)
{
	struct memblock_type *mem = &memblock.memory;
	phys_addr_t from = limit;

	if (memblock.handed_off)
		return memblock_refuse_late("cap", limit, PHYS_ADDR_MAX - limit);
	if (limit >= memblock_end_of_DRAM())
		return 0;
	if (!memblock_remove_range(mem, limit, PHYS_ADDR_MAX - limit))
		return 0;
	/* No slot for the split: drop the straddling region whole. */
	for (unsigned long i = 0; i < mem->cnt; i++)
		if (mem->regions[i].base < limit &&
		    limit < region_end(&mem->regions[i]))
			from = mem->regions[i].base;
	pr_warn("memblock: no slot to split memory at %#llx; dropping "
		"[%#llx-%#llx) below it too\n", (unsigned long long)limit,
		(unsigned long long)from, (unsigned long long)limit);
	/* From a region's start, nothing straddles: no slot needed. */
	return memblock_remove_range(mem, from, PHYS_ADDR_MAX - from);
}

void memblock_allow_resize(void)
{
	memblock.can_resize = true;
}

#ifdef CONFIG_HOST
void memblock_reset_for_test(void)
{
	memblock.bottom_up = false;
	memblock.can_resize = false;
	memblock.handed_off = false;
	memblock.current_limit = MEMBLOCK_ALLOC_ANYWHERE;
	memblock.memory.regions = memory_init;
	memblock.reserved.regions = reserved_init;
	for (int i = 0; i < 2; i++) {
		struct memblock_type *t = i ? &memblock.reserved
					    : &memblock.memory;

		t->cnt = 0;
		t->max = INIT_MEMBLOCK_REGIONS;
		t->total_size = 0;
		memset(t->regions, 0, INIT_MEMBLOCK_REGIONS * sizeof(*t->regions));
	}
}
#endif
