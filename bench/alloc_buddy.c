/*
 * alloc_buddy.c - buddyboot's buddy allocator as a benchmark subject.
 *
 * As on the host build everywhere: a "physical" address is a host virtual
 * address. The heap is an anonymous MAP_NORESERVE mapping, aligned to a
 * section so that it starts with whole top-order blocks; it is
 * memblock_add()ed and handed to the buddy allocator by memblock_free_all().
 * One process holds one allocator, so each heap is made once per process.
 */
#include <stdio.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include "bench.h"
#include "map.h"

_Static_assert(PAGE_SHIFT == BENCH_PAGE_SHIFT,
	       "the benchmark assumes the host build's 4 KiB pages");

static bool heap_made;

static int buddy_heap_init(unsigned long bytes)
{
	phys_addr_t base;

	if (heap_made)
		return -EBUSY;
	heap_made = true;
	bytes = (bytes + PAGE_SIZE - 1) & PAGE_MASK;
	base = bench_map(bytes, 1UL << SECTION_SIZE_BITS);
	if (memblock_add(base, bytes))
		return -ENOMEM;
	if (!memblock_free_all())
		return -ENOMEM;
	return 0;
}

static long buddy_free_pages(void)
{
	return (long)nr_free_pages();
}

static long buddy_free_blocks(unsigned int order)
{
	return (long)nr_free_blocks(order);
}

static uintptr_t buddy_address(void *blk)
{
	return (uintptr_t)page_address(blk);
}

static void buddy_describe(void (*emit)(const char *key, const char *value))
{
	char buf[32], lib[96];

	snprintf(lib, sizeof(lib), "buddyboot libmm.a (-O2, CONFIG_DEBUG_SPINLOCK=%d, "
		 "HOST_RELAX_SPINS=%d)", CONFIG_DEBUG_SPINLOCK, HOST_RELAX_SPINS);
	emit("library", lib);
	snprintf(buf, sizeof(buf), "%d", MAX_PAGE_ORDER);
	emit("max_page_order", buf);
	snprintf(buf, sizeof(buf), "%zu", sizeof(struct page));
	emit("struct_page_bytes", buf);
	emit("calls", "alloc_pages / __free_pages");
	snprintf(buf, sizeof(buf), "%d", PCP_MAX_ORDER);
	emit("pcp_orders", buf);
}

static unsigned long buddy_lock_count(void)
{
	return zone_lock_acquisitions();
}

static unsigned long buddy_cache_batch(void)
{
	return (unsigned long)pcp_batch();
}

static void buddy_caches(bool on)
{
	if (on)
		zone_pcp_enable();
	else
		zone_pcp_disable();
}

static long buddy_object_pages(void)
{
	return (long)slab_nr_pages();
}

const struct bench_allocator bench_allocator = {
	.name = BENCH_NAME,
	.max_order = MAX_PAGE_ORDER,
	.heap_init = buddy_heap_init,
	.free_pages = buddy_free_pages,
	.free_blocks = buddy_free_blocks,
	.address = buddy_address,
	.describe = buddy_describe,
	.lock_count = buddy_lock_count,
	.cache_batch = buddy_cache_batch,
	.caches = buddy_caches,
	.object_pages = buddy_object_pages,
};
