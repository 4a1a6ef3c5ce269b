/*
 * slab.c - kmalloc and kmem_cache on the real machine, every target and
 * page size.
 *
 *   slab_every_class_exhaust   each kmalloc class allocated until the page
 *                              allocator has no block left for a slab:
 *                              exactly as many objects as the free counts
 *                              predict, each aligned and written with a
 *                              pattern of its own, none handed out twice;
 *                              all freed, and the free counts,
 *                              page_alloc_check() and slab_check() back
 *   slab_large_and_zero        large kmalloc (3 pages take 3), kzalloc,
 *                              krealloc, kcalloc
 *   slab_refusals              double free, interior pointer, wrong cache,
 *                              pointers kmalloc never returned: each
 *                              refused, nothing changed
 *   slab_dma32_objects         kmalloc(GFP_DMA32) at several sizes: every
 *                              object below 4 GiB, all given back
 *   slab_kmem_caches           kmem_cache_create with odd sizes and
 *                              alignments, destroy refused while objects
 *                              are live
 *
 * On a machine of a few MiB, with less free than SLAB_CASE_BYTES, each
 * case skips, saying so.
 * On machines with more memory than a class needs, all but its share
 * (exhaust_keep_pages()) is first taken from the buddy allocator and
 * held, so that exhausting a small class costs a fraction of a second
 * under TCG, on any machine.
 */
#include <lib/printk.h>
#include <selftest/selftest.h>
#include "../../mm/slab_state.h"
#include "buddy_check.h"

/*
 * Memory left to a class when exhausting it: four of its slabs, so that
 * it fills several and moves from one to the next, and at least 1 MiB
 * (128 Ki objects of 8 bytes, hundreds of one-page slabs). More buys
 * no more cases, only time: 16 MiB of 8-byte objects is two million of
 * them, seconds of every boot under TCG.
 */
#define SLAB_EXHAUST_MIN_BYTES	(1UL << 20)

static unsigned long exhaust_keep_pages(const struct kmem_cache *cache)
{
	return MAX(SLAB_EXHAUST_MIN_BYTES >> PAGE_SHIFT, 4UL << cache->order);
}

static uint64_t obj_word(const void *obj, size_t i)
{
	return pattern_word((uintptr_t)obj ^ 0x736c6162ULL, i);
}

/*
 * Memory for a slab case: a few slabs at once, two of the largest size's
 * worth. A machine with less (a few MiB) skips the case, saying so,
 * rather than failing it on an allocation it cannot have.
 */
#define SLAB_CASE_BYTES		(2 * SLAB_MAX_SIZE)

static bool slab_no_room(void)
{
	kmem_cache_shrink_all();
	return nr_free_pages() * PAGE_SIZE < SLAB_CASE_BYTES;
}

#define SLAB_SKIP_WITHOUT_ROOM()					\
	do {								\
		if (slab_no_room())					\
			return selftest_skip("%lu KiB free; a slab case "	\
					     "needs %lu KiB", nr_free_pages() * \
					     (PAGE_SIZE / 1024),		\
					     SLAB_CASE_BYTES / 1024);	\
	} while (0)

/* Give every empty slab back; the counts must then be @before's. */
static bool slab_restored(const struct buddy_counts *before, const char *when)
{
	int problems;

	kmem_cache_shrink_all();
	problems = slab_check();
	SELFTEST_EXPECT(problems == 0, "%s: slab_check() found %d problems",
			when, problems);
	SELFTEST_EXPECT(slab_nr_slabs() == 0, "%s: %lu slabs still held", when,
			slab_nr_slabs());
	return buddy_restored(before, when);
}

static bool exhaust_class(struct kmem_cache *cache)
{
	size_t size = cache->object_size, align = MIN(size, PAGE_SIZE);
	unsigned long slabs = 0, n = 0, walked = 0;
	struct block_chain objs = { 0 };
	bool ok = true;
	void *p;

	/* Cached small blocks merge when the buddy lists run dry. */
	drain_all_pages();
	for (unsigned int o = cache->order; o <= MAX_PAGE_ORDER; o++)
		slabs += nr_free_blocks(o) << (o - cache->order);
	while ((p = kmalloc(size, __GFP_NOWARN))) {
		if (((uintptr_t)p & (align - 1)) && ok)
			ok = selftest_fail(__FILE__, __LINE__, "%s: object %p "
					   "not aligned to %zu", cache->name,
					   p, align);
		chain_push(&objs, p);
		for (size_t i = 1; i < size / 8; i++)
			((uint64_t *)p)[i] = obj_word(p, i);
		n++;
	}
	if (n != slabs * slab_capacity(cache))
		ok = selftest_fail(__FILE__, __LINE__, "%s: %lu objects, but %lu "
				   "slabs of %u were predicted", cache->name, n,
				   slabs, slab_capacity(cache));
	for (unsigned int o = cache->order; o <= MAX_PAGE_ORDER; o++)
		if (nr_free_blocks(o))
			ok = selftest_fail(__FILE__, __LINE__, "%s: refused with "
					   "%lu free blocks of order %u",
					   cache->name, nr_free_blocks(o), o);
	if (slab_check())
		ok = selftest_fail(__FILE__, __LINE__, "%s: slab_check() when "
				   "exhausted", cache->name);
	/* An object handed out twice breaks the chain or its pattern. */
	while ((p = chain_pop(&objs)) && walked++ <= n) {
		for (size_t i = 1; i < size / 8; i++)
			if (((uint64_t *)p)[i] != obj_word(p, i) && ok) {
				ok = selftest_fail(__FILE__, __LINE__, "%s: "
						   "object %p word %zu changed",
						   cache->name, p, i);
				break;
			}
		kfree(p);
	}
	if (walked != n)
		ok = selftest_fail(__FILE__, __LINE__, "%s: %lu objects on the "
				   "chain, %lu allocated", cache->name, walked, n);
	return ok;
}

SELFTEST(slab_every_class_exhaust, STAGE_SLAB)
{
	struct block_chain held[NR_PAGE_ORDERS] = { { 0 } };
	struct buddy_counts before, start;
	char when[48];
	bool ok = true;

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_init();
	kmem_cache_shrink_all();
	buddy_counts_take(&start);
	for (unsigned int k = 0; k < NR_KMALLOC_CACHES && ok; k++) {
		struct kmem_cache *cache = &kmalloc_caches[k];

		hold_all_but(held, exhaust_keep_pages(cache), 0);
		buddy_counts_take(&before);
		ok = exhaust_class(cache);
		ksnprintf(when, sizeof(when), "after %s", cache->name);
		ok = slab_restored(&before, when) && ok;
		release_held(held);
	}
	return buddy_restored(&start, "after every class") && ok;
}

SELFTEST(slab_large_and_zero, STAGE_SLAB)
{
	struct buddy_counts before;
	unsigned char *p, *q;

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_shrink_all();
	buddy_counts_take(&before);
	p = kmalloc(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL);
	SELFTEST_EXPECT(p && !((uintptr_t)p & (PAGE_SIZE - 1)) &&
			ksize(p) == PAGE_SIZE << get_order(KMALLOC_MAX_CACHE_SIZE + 1),
			"large kmalloc %p", (void *)p);
	kfree(p);
	/*
	 * Three pages' worth takes three pages (where a block would hold
	 * four): wherever the table has page units and its length array.
	 */
	if (MAX_PAGE_ORDER >= 2 && 3 * PAGE_SIZE > KMALLOC_MAX_CACHE_SIZE &&
	    slab_tab.obj && !slab_tab.min_order) {
		unsigned long free_before = nr_free_pages();

		p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
		SELFTEST_EXPECT(p && ksize(p) == 3 * PAGE_SIZE &&
				nr_free_pages() == free_before - 3,
				"kmalloc of 3 pages: ksize %zu, %lu pages taken",
				p ? ksize(p) : 0, free_before - nr_free_pages());
		kfree(p);
	}
	p = kmalloc(100, GFP_KERNEL);
	SELFTEST_EXPECT(p && ksize(p) == 128, "kmalloc(100)");
	for (int i = 0; i < 128; i++)
		p[i] = 0xa5;
	kfree(p);
	q = kzalloc(100, GFP_KERNEL);
	SELFTEST_EXPECT(q, "kzalloc");
	for (int i = 0; i < 128; i++)
		SELFTEST_EXPECT(!q[i], "kzalloc byte %d is %#x", i, q[i]);
	q[99] = 7;
	p = krealloc(q, PAGE_SIZE, GFP_KERNEL);
	if (!p)
		kfree(q);
	SELFTEST_EXPECT(p && p[99] == 7 && ksize(p) == PAGE_SIZE, "krealloc");
	kfree(p);
	SELFTEST_EXPECT(!kcalloc(~(size_t)0 / 4, 8, __GFP_NOWARN), "kcalloc overflow");
	SELFTEST_EXPECT(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kmalloc(0)");
	kfree(ZERO_SIZE_PTR);
	return slab_restored(&before, "after large blocks");
}

/* A refused free: nothing changes. */
static bool refused(void (*fn)(void *cache, void *p), void *cache, void *p,
		    const char *what)
{
	unsigned long free = nr_free_pages(), slabs = slab_nr_slabs();

	fn(cache, p);
	SELFTEST_EXPECT(nr_free_pages() == free && slab_nr_slabs() == slabs &&
			!slab_check() && !page_alloc_check(),
			"%s changed the allocator's state", what);
	return true;
}

static void do_kfree(void *cache, void *p)
{
	kfree(p);
}

static void do_cache_free(void *cache, void *p)
{
	kmem_cache_free(cache, p);
}

static char not_from_kmalloc[64];

SELFTEST(slab_refusals, STAGE_SLAB)
{
	struct buddy_counts before;
	struct kmem_cache *a;
	struct page *page;
	char *p, *q, *x;

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_shrink_all();
	buddy_counts_take(&before);
	printk("# slab_refusals: the errors below are expected\n");
	a = kmem_cache_create("selftest-a", 40, 0, 0, NULL);
	SELFTEST_EXPECT(a, "kmem_cache_create");
	p = kmalloc(64, GFP_KERNEL);
	q = kmalloc(64, GFP_KERNEL);
	x = kmem_cache_alloc(a, GFP_KERNEL);
	kfree(p);
	if (!refused(do_kfree, NULL, p, "double free") ||
	    !refused(do_kfree, NULL, q + 8, "interior pointer") ||
	    !refused(do_kfree, NULL, not_from_kmalloc, "a static variable") ||
	    !refused(do_cache_free, a, q, "kmalloc object into a cache") ||
	    !refused(do_kfree, NULL, x + 1, "inside a cache object"))
		return false;
	page = alloc_pages(GFP_KERNEL, 0);
	if (!refused(do_kfree, NULL, page_address(page), "an alloc_pages block"))
		return false;
	__free_pages(page, 0);
	p = kmalloc(64, GFP_KERNEL);
	SELFTEST_EXPECT(p != q, "an object handed out twice after a double free");
	kmem_cache_destroy(a);	/* refused: x is live */
	kmem_cache_free(a, x);
	kmem_cache_destroy(a);
	kfree(p);
	kfree(q);
	return slab_restored(&before, "after the refusals");
}

/*
 * GFP_DMA32: every object below 4 GiB, from the DMA32 classes (or, above
 * them, ZONE_DMA32's pages), whatever memory lies above; all given back.
 */
SELFTEST(slab_dma32_objects, STAGE_SLAB)
{
	static const size_t sizes[] = { 8, 100, 1000, KMALLOC_MAX_CACHE_SIZE,
					KMALLOC_MAX_CACHE_SIZE + 1 };
	const phys_addr_t four_gib = (phys_addr_t)1 << 32;
	struct buddy_counts before;
	unsigned long low = 0;
	void *objs[32];
	int nid;

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_shrink_all();
	/* The zone decides the skip, never a failed allocation. */
	for_each_online_node(nid)
		if (NODE_DATA(nid))
			low += zone_free_pages(&NODE_DATA(nid)->node_zones[ZONE_DMA32]);
	if (low * PAGE_SIZE < SLAB_CASE_BYTES)
		return selftest_skip("%lu KiB free below 4 GiB; the case needs "
				     "%lu KiB", low * (PAGE_SIZE / 1024),
				     SLAB_CASE_BYTES / 1024);
	buddy_counts_take(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (unsigned int k = 0; k < ARRAY_SIZE(objs); k++) {
			objs[k] = kmalloc(sizes[i], GFP_DMA32 | __GFP_NOWARN);
			SELFTEST_EXPECT(objs[k] && virt_to_phys(objs[k]) +
					sizes[i] <= four_gib,
					"kmalloc(%zu, GFP_DMA32) = %p", sizes[i],
					objs[k]);
		}
		for (unsigned int k = 0; k < ARRAY_SIZE(objs); k++)
			kfree(objs[k]);
	}
	return slab_restored(&before, "after the DMA32 objects");
}

static int ctor_runs;

static void ctor(void *obj)
{
	ctor_runs++;
	*(uint32_t *)obj = 0xc0ffee;
}

SELFTEST(slab_kmem_caches, STAGE_SLAB)
{
	/* Up to the largest a cache takes: half the largest slab. */
	static const unsigned int sizes[] = { 1, 24, 100, 200, 1000, 3000,
					      SLAB_MAX_SIZE / 2 };
	static const unsigned int aligns[] = { 0, 16, 64, 256 };
	struct buddy_counts before;
	struct kmem_cache *c;
	void *objs[64];

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_shrink_all();
	buddy_counts_take(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++)
		for (unsigned int j = 0; j < ARRAY_SIZE(aligns); j++) {
			unsigned int align = aligns[j] ? aligns[j] : 8;
			/* 64, or what a slab case's memory holds at worst. */
			unsigned int nobj = (unsigned int)MIN(64UL,
				SLAB_CASE_BYTES / (2 * ALIGN_UP(sizes[i], align)));

			/*
			 * A slab holds a stride (SLAB_DEBUG's red zone in it)
			 * beside its header, at most.
			 */
			if (ALIGN_UP(sizes[i] + (CONFIG_SLAB_DEBUG ? 8 : 0),
				     align) > SLAB_MAX_SIZE / 2)
				continue;

			c = kmem_cache_create("selftest", sizes[i], aligns[j], 0,
					      NULL);
			SELFTEST_EXPECT(c, "cache of %u aligned %u", sizes[i],
					aligns[j]);
			for (unsigned int k = 0; k < nobj; k++) {
				objs[k] = kmem_cache_alloc(c, GFP_KERNEL);
				SELFTEST_EXPECT(objs[k] && !((uintptr_t)objs[k] &
							    (align - 1)),
						"object %p of %u not aligned to %u",
						objs[k], sizes[i], align);
			}
			for (unsigned int k = 0; k < nobj; k++)
				kmem_cache_free(c, objs[k]);
			kmem_cache_destroy(c);
		}
	printk("# slab_kmem_caches: the error below is expected\n");
	c = kmem_cache_create("selftest-ctor", 32, 0, 0, ctor);
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	SELFTEST_EXPECT(ctor_runs > 0 && *(uint32_t *)objs[0] == 0xc0ffee, "ctor");
	kmem_cache_destroy(c);	/* refused: one object live */
	SELFTEST_EXPECT(slab_nr_slabs() > 0, "destroy with a live object");
	kmem_cache_free(c, objs[0]);
	kmem_cache_destroy(c);
	return slab_restored(&before, "after the caches");
}

#if CONFIG_SLAB_DEBUG
/* SLAB_DEBUG: a write past the end and a write after free are found. */
SELFTEST(slab_debug_red_zone_and_poison, STAGE_SLAB)
{
	struct buddy_counts before;
	char *p, *q;
	int found;

	SLAB_SKIP_WITHOUT_ROOM();
	kmem_cache_shrink_all();
	buddy_counts_take(&before);
	printk("# slab_debug_red_zone_and_poison: the errors below are expected\n");
	p = kmalloc(32, GFP_KERNEL);
	q = kmalloc(32, GFP_KERNEL);
	kfree(q);
	p[32] = 'x';		/* past the end of p */
	q[3] = 'y';		/* q is free */
	found = slab_check();
	SELFTEST_EXPECT(found == 2, "slab_check() found %d problems, not 2", found);
	SELFTEST_EXPECT(slab_check() == 0, "the red zone and poison are repaired");
	kfree(p);
	return slab_restored(&before, "after the debug checks");
}
#endif
