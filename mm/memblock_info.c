/*
 * memblock_info.c - questions about the memory map, and its dump.
 */
#include <lib/printk.h>
#include <mm/memblock.h>
#include "memblock_internal.h"

phys_addr_t memblock_phys_mem_size(void)
{
	return memblock.memory.total_size;
}

phys_addr_t memblock_reserved_size(void)
{
	return memblock.reserved.total_size;
}

phys_addr_t memblock_start_of_DRAM(void)
{
	return memblock.memory.cnt ? memblock.memory.regions[0].base : 0;
}

/* Return: the end (exclusive) of the highest memory region, 0 if none. */
phys_addr_t memblock_end_of_DRAM(void)
{
	const struct memblock_type *t = &memblock.memory;

	if (!t->cnt)
		return 0;
	return t->regions[t->cnt - 1].base + t->regions[t->cnt - 1].size;
}

long memblock_search(const struct memblock_type *type, phys_addr_t addr)
{
	unsigned long lo = 0, hi = type->cnt;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct memblock_region *r = &type->regions[mid];

		if (addr < r->base)
			hi = mid;
		else if (addr - r->base >= r->size)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

bool memblock_is_memory(phys_addr_t addr)
{
	return memblock_search(&memblock.memory, addr) >= 0;
}

/* Return: whether one memory region holds all of [@base, @base + @size). */
bool memblock_is_region_memory(phys_addr_t base, phys_addr_t size)
{
	long idx = memblock_search(&memblock.memory, base);
	const struct memblock_region *r;

	if (idx < 0)
		return false;
	r = &memblock.memory.regions[idx];
	size = MIN(size, PHYS_ADDR_MAX - base);
	return base + size <= r->base + r->size;
}

/* Return: whether any reserved region overlaps [@base, @base + @size). */
bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size)
{
	const struct memblock_type *t = &memblock.reserved;
	phys_addr_t end = base + MIN(size, PHYS_ADDR_MAX - base);

	/* An empty range overlaps nothing. */
	if (end == base)
		return false;
	for (unsigned long i = 0; i < t->cnt; i++) {
		const struct memblock_region *r = &t->regions[i];

		if (r->base < end && base < r->base + r->size)
			return true;
	}
	return false;
}

static void memblock_dump(const struct memblock_type *type)
{
	pr_info(" %s.cnt  = %lu, total %#llx bytes (%llu KiB)\n", type->name,
		type->cnt, (unsigned long long)type->total_size,
		(unsigned long long)(type->total_size >> 10));
	for (unsigned long i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];

		char node[16] = "";

		/* As Linux: " on node N" once a node is known. */
		if (r->nid != NUMA_NO_NODE)
			ksnprintf(node, sizeof(node), " on node %d", r->nid);
		pr_info(" %s[%#lx]\t[%#018llx-%#018llx], %#llx bytes%s%s\n",
			type->name, i, (unsigned long long)r->base,
			(unsigned long long)(r->base + r->size - 1),
			(unsigned long long)r->size, node,
			(r->flags & MEMBLOCK_NOMAP) ? " no-map" : "");
	}
}

void memblock_dump_all(void)
{
	pr_info("MEMBLOCK configuration:\n");
	pr_info(" memory size = %#llx reserved size = %#llx\n",
		(unsigned long long)memblock.memory.total_size,
		(unsigned long long)memblock.reserved.total_size);
	memblock_dump(&memblock.memory);
	memblock_dump(&memblock.reserved);
}
