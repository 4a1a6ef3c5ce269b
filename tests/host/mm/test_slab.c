/*
 * test_slab.c - kmalloc and kmem_cache on the host, under ASan and UBSan:
 * every size class, large blocks, the refusals (each with its message and
 * no change to any state; a pointer into an object or a header slot, in
 * every class; the slab table without memory, said once), caches with
 * odd sizes, alignments and
 * constructors, destroy refused while objects live, exhaustion of every
 * class, and a model test against a shadow map of what is allocated.
 * Built again with SLAB_DEBUG=1 for the red zone and poison cases, and
 * with SLAB_DEBUG=1 and MAX_PAGE_ORDER 0, the smallest slabs: the sizes
 * below scale with the geometry.
 */
#include <stdlib.h>
#include <string.h>
#include "machine.h"
#include "../../../mm/slab_state.h"

#define BANK		(2 * SZ_1G)

/*
 * A kmalloc() above the classes that takes a run of pages not a power of
 * two when the geometry allows (3 pages, not an order-2 block's 4), and
 * the largest kmem_cache object size.
 */
#define RUN_PAGES	(MAX_PAGE_ORDER >= 2 ? 3UL : 1UL << MAX_PAGE_ORDER)
#define RUN_BYTES	(RUN_PAGES * PAGE_SIZE)
#define CACHE_MAX	(SLAB_MAX_SIZE / 2 - (CONFIG_SLAB_DEBUG ? 8 : 0))

/* A machine of @mib MiB at 2 GiB, handed off, kmalloc ready. */
static bool slab_machine(unsigned long mib)
{
	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(BANK, mib * SZ_1M) == 0, "bank");
	EXPECT(memblock_add(3 * SZ_1G, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	kmem_cache_init();
	kmem_cache_init();	/* harmless twice */
	return true;
}

#define restored(before)	slab_given_back(before)

static uint64_t pat(const void *obj, size_t i)
{
	return ((uintptr_t)obj * 0x9e3779b97f4a7c15ULL) ^ (i * 0x100000001b3ULL);
}

static void fill(void *obj, size_t size)
{
	uint64_t *w = obj;

	for (size_t i = 0; i < size / 8; i++)
		w[i] = pat(obj, i);
}

static bool intact(const void *obj, size_t size)
{
	const uint64_t *w = obj;

	for (size_t i = 0; i < size / 8; i++)
		if (w[i] != pat(obj, i))
			return false;
	return true;
}

static size_t class_of(size_t size)
{
	size_t c = KMALLOC_MIN_SIZE;

	while (c < size)
		c <<= 1;
	return c;
}

/*
 * Before the hand-off there is no memory for slabs or their table:
 * kmalloc() and kmem_cache_create() are refused with a message, the
 * checkers find nothing, and nothing is set up that would keep the slab
 * allocator from working once memblock_free_all() has run.
 */
static bool slabs_wait_for_the_hand_off(void)
{
	void *p;

	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(BANK, 64 * SZ_1M) == 0, "bank");
	console_clear();
	EXPECT(!kmalloc(10, GFP_KERNEL) && !kmalloc(PAGE_SIZE * 3, GFP_KERNEL),
	       "kmalloc before the hand-off");
	EXPECT(console_says("kmalloc: 10 bytes refused: the slab allocator is "
			    "not set up"), "no refusal said");
	EXPECT(!kmem_cache_create("early", 64, 0, 0, NULL) &&
	       console_says("kmem_cache_create: refused cache early: the slab "
			    "allocator is not set up"),
	       "kmem_cache_create before the hand-off");
	EXPECT(slab_check() == 0 && slab_nr_pages() == 0, "checks before");
	show_slabinfo();
	EXPECT(memblock_free_all() > 0, "hand-off");
	p = kmalloc(10, GFP_KERNEL);
	EXPECT(p, "kmalloc after the hand-off");
	kfree(p);
	EXPECT(slab_check() == 0, "slab_check after");
	return true;
}

/*
 * Pages all taken before the first kmalloc(): no memory for the slab
 * table. That is said once, however often kmalloc() tries again; each
 * refusal is said unless __GFP_NOWARN; the first kmalloc() after pages
 * come back sets the slab allocator up.
 */
static bool slab_table_without_memory(void)
{
	struct page **pages;
	unsigned long n = 0, most;
	void *p;

	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(BANK, 16 * SZ_1M) == 0, "bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	most = nr_free_pages();
	pages = calloc(most + 1, sizeof(*pages));
	EXPECT(pages, "host memory");
	while (n <= most && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		n++;
	console_clear();
	for (int i = 0; i < 3; i++)
		EXPECT(!kmalloc(64, GFP_KERNEL), "kmalloc without memory");
	EXPECT(!kmalloc(64, GFP_KERNEL | __GFP_NOWARN), "kmalloc without memory");
	EXPECT(console_count("no memory for the slab table") == 1,
	       "the table's want said %u times, once expected",
	       console_count("no memory for the slab table"));
	EXPECT(console_count("kmalloc: 64 bytes refused") == 3,
	       "%u refusals said, 3 expected (the NOWARN one quiet)",
	       console_count("kmalloc: 64 bytes refused"));
	while (n)
		__free_pages(pages[--n], 0);
	free(pages);
	p = kmalloc(64, GFP_KERNEL);
	EXPECT(p, "kmalloc once pages are back");
	kfree(p);
	EXPECT(slab_check() == 0 && page_alloc_check() == 0, "checks");
	return true;
}

/*
 * GFP_DMA32 on a machine with memory on both sides of 4 GiB: every
 * kmalloc() size, zeroed or not, and a SLAB_CACHE_DMA32 cache's objects
 * lie below it; the DMA32 classes run out with ZONE_DMA32 while plain
 * kmalloc() goes on above; everything comes back.
 */
static bool zeroed(const void *p, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (((const unsigned char *)p)[i])
			return false;
	return true;
}

static bool dma32_objects(void)
{
	const phys_addr_t four_gib = 4 * SZ_1G;
	struct kmem_cache *c;
	unsigned long before, n = 0;
	void **held;
	void *p;

	machine_map(6 * SZ_1G);
	EXPECT(memblock_add(four_gib - 16 * SZ_1M, 16 * SZ_1M) == 0, "low bank");
	EXPECT(memblock_add(5 * SZ_1G, 64 * SZ_1M) == 0, "high bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	kfree(kmalloc(8, GFP_KERNEL));	/* the slab table made first */
	kmem_cache_shrink_all();
	before = nr_free_pages();
	for (size_t size = 1; size <= MIN(4 * PAGE_SIZE, KMALLOC_MAX_SIZE);
	     size = size * 3 + 1) {
		void *q = kzalloc(size, GFP_DMA32);

		p = kmalloc(size, GFP_DMA32);
		EXPECT(p && q && virt_to_phys(p) + size <= four_gib &&
		       virt_to_phys(q) + size <= four_gib,
		       "kmalloc(%zu, GFP_DMA32) = %p, %p", size, p, q);
		EXPECT(ksize(p) >= size && zeroed(q, size),
		       "%zu bytes: ksize %zu, or not zeroed", size, ksize(p));
		kfree(p);
		kfree(q);
	}
	/* krealloc() keeps an object that fits only where GFP_DMA32 asks. */
	p = kmalloc(100, GFP_KERNEL);
	EXPECT(p && virt_to_phys(p) >= four_gib, "plain kmalloc above: %p", p);
	memset(p, 0x5a, 100);
	{
		void *q = krealloc(p, 50, GFP_DMA32);

		EXPECT(q && q != p && virt_to_phys(q) < four_gib &&
		       ((unsigned char *)q)[49] == 0x5a,
		       "krealloc(%p, 50, GFP_DMA32) = %p", p, q);
		p = krealloc(q, 60, GFP_DMA32);
		EXPECT(p == q, "krealloc within a DMA32 object moved it");
		kfree(p);
	}
	c = kmem_cache_create("low", 200, 0, SLAB_CACHE_DMA32, NULL);
	EXPECT(c, "SLAB_CACHE_DMA32 cache");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	EXPECT(p && virt_to_phys(p) < four_gib, "SLAB_CACHE_DMA32 object %p", p);
	kmem_cache_free(c, p);
	p = kmem_cache_alloc(c, GFP_DMA32);
	EXPECT(p && virt_to_phys(p) < four_gib, "with GFP_DMA32: %p", p);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
	/* ZONE_DMA32 runs out for the DMA32 classes, not for kmalloc(). */
	held = calloc(16 * SZ_1M / 512 + 1, sizeof(*held));
	EXPECT(held, "host memory");
	while ((p = kmalloc(512, GFP_DMA32 | __GFP_NOWARN))) {
		EXPECT(virt_to_phys(p) < four_gib && n < 16 * SZ_1M / 512,
		       "object %lu at %p", n, p);
		held[n++] = p;
	}
	/* Half the zone at least, in strides (SLAB_DEBUG's are twice). */
	EXPECT(n * 512 * (CONFIG_SLAB_DEBUG ? 2 : 1) > 16 * SZ_1M / 2,
	       "only %lu DMA32 objects", n);
	p = kmalloc(512, GFP_KERNEL);
	EXPECT(p && virt_to_phys(p) >= four_gib, "plain kmalloc above: %p", p);
	kfree(p);
	while (n)
		kfree(held[--n]);
	free(held);
	kmem_cache_shrink_all();
	EXPECT(slab_check() == 0 && page_alloc_check() == 0, "checks");
	EXPECT(nr_free_pages() == before, "%lu free pages, %lu before",
	       nr_free_pages(), before);
	return true;
}

static bool every_size_class(void)
{
	unsigned long before;
	void *held[64];

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size += size < 64 ? 1 : 37) {
		size_t cls = class_of(size);

		for (int i = 0; i < 64; i++) {
			void *p = kmalloc(size, GFP_KERNEL);

			EXPECT(p, "kmalloc(%zu)", size);
			EXPECT(((uintptr_t)p & (MIN(cls, PAGE_SIZE) - 1)) == 0,
			       "kmalloc(%zu) = %p not aligned to %zu", size, p, cls);
			EXPECT(ksize(p) == cls, "ksize %zu for size %zu", ksize(p), size);
			fill(p, cls);
			held[i] = p;
		}
		for (int i = 0; i < 64; i++) {
			EXPECT(intact(held[i], cls), "object %p of size %zu "
			       "changed", held[i], size);
			kfree(held[i]);
		}
	}
	EXPECT(slab_check() == 0, "slab_check with slabs held");
	show_slabinfo();
	EXPECT(console_says("kmalloc-8 "), "slabinfo names kmalloc-8");
	return restored(before);
}

/*
 * What a slab of 2^@order pages of stride @size loses at least: its tail
 * and one slot, the least a header takes. Used from 256 bytes only: below,
 * headers take several slots, and a layout the rule chose rightly could
 * fail a check made with the bound.
 */
static size_t least_lost(size_t size, unsigned int order)
{
	size_t bytes = PAGE_SIZE << order;

	return bytes % size + size;
}

/*
 * @c's slab order against the rule (mm/slab_state.h): from 64 bytes,
 * what the header's slots and the tail take is within 1% of the slab, or
 * else (no order up to the cap manages 1%) within 1/SLAB_LOSS_FALLBACK
 * at the least order that manages it, or else the slab is as large as
 * slabs go.
 */
static bool order_follows_rule(const struct kmem_cache *c)
{
	size_t bytes = slab_bytes(c), half = bytes / 2;
	size_t lost = bytes - (size_t)(c->nr_objects - c->first) * c->size;

	if (c->size < 64 || lost * 100 <= bytes)
		return true;
	for (unsigned int o = slab_tab.min_order;
	     c->size >= 256 && o <= SLAB_MAX_ORDER; o++)
		EXPECT(least_lost(c->size, o) * 100 > (PAGE_SIZE << o),
		       "%s: %zu of %zu bytes lost, where a slab of %lu bytes "
		       "could lose 1%% at most", c->name, lost, bytes,
		       PAGE_SIZE << o);
	if (lost * SLAB_LOSS_FALLBACK > bytes) {
		EXPECT(c->order == SLAB_MAX_ORDER, "%s: %zu of %zu bytes lost "
		       "below the largest slab", c->name, lost, bytes);
		return true;
	}
	/* Not a larger slab than that needs: half of it loses more. */
	if (c->size >= 256 && c->order > slab_tab.min_order)
		EXPECT(least_lost(c->size, c->order - 1) * SLAB_LOSS_FALLBACK > half,
		       "%s: a slab of %zu bytes would do", c->name, half);
	return true;
}

/*
 * Slab orders: every class and some odd caches follow the rule, and the
 * page-sized stride, which no slab holds within 1%, takes 16 pages, not
 * the largest slab, so that a CPU allocating one page-sized object does
 * not hold 64 pages for it. With 4K pages, up to 64-page slabs and no
 * red zones, the classes' slabs are docs/allocator.md's table.
 */
static bool slab_orders(void)
{
	static const unsigned int odd[] = { 72, 200, 1000, 3000, 5000, 12000 };
	/* docs/allocator.md, section 8: pages per slab, kmalloc-8 up. */
	static const unsigned int table_pages[] = { 1, 1, 1, 8, 8, 8, 16, 32, 64, 16 };
	bool table = PAGE_SIZE == 4096 && SLAB_MAX_ORDER == 6 &&
		     !CONFIG_SLAB_DEBUG && NR_KMALLOC_CACHES == ARRAY_SIZE(table_pages);
	unsigned int paged = 0;

	if (!slab_machine(64))
		return false;
	for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++) {
		const struct kmem_cache *c = &kmalloc_caches[i];

		if (!c->size)
			continue;
		if (!order_follows_rule(c))
			return false;
		if (table)
			EXPECT(1U << c->order == table_pages[i], "%s: %u pages "
			       "per slab, the table says %u", c->name,
			       1U << c->order, table_pages[i]);
		if (c->size == PAGE_SIZE && SLAB_MAX_ORDER >= 4) {
			EXPECT(c->order == 4 && c->nr_objects - c->first == 15,
			       "%s: order %u, %u objects; want 16 pages, 15",
			       c->name, c->order, c->nr_objects - c->first);
			paged++;
		}
	}
	EXPECT(paged || SLAB_MAX_ORDER < 4 || KMALLOC_MAX_CACHE_SIZE < PAGE_SIZE,
	       "no page-sized class");
	EXPECT(table || PAGE_SIZE != 4096 || SLAB_MAX_ORDER != 6 || CONFIG_SLAB_DEBUG,
	       "%d kmalloc classes with 4K pages", NR_KMALLOC_CACHES);
	for (unsigned int i = 0; i < ARRAY_SIZE(odd); i++) {
		struct kmem_cache *c;
		bool ok;

		if (odd[i] > CACHE_MAX)
			continue;
		c = kmem_cache_create("odd", odd[i], 0, 0, NULL);
		EXPECT(c, "cache of %u bytes", odd[i]);
		ok = order_follows_rule(c);
		kmem_cache_destroy(c);
		if (!ok)
			return false;
	}
	return slab_check() == 0;
}

static bool large_blocks(void)
{
	unsigned long before;
	struct page *page;
	void *p, *q;

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	p = kmalloc(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL);
	EXPECT(p && ((uintptr_t)p & (PAGE_SIZE - 1)) == 0, "page aligned %p", p);
	EXPECT(ksize(p) == PAGE_SIZE << get_order(KMALLOC_MAX_CACHE_SIZE + 1),
	       "ksize %zu", ksize(p));
	/* Three pages hold three pages, not an order-2 block's four. */
	q = kmalloc(RUN_BYTES, GFP_KERNEL);
	EXPECT(ksize(q) == RUN_BYTES, "%lu pages: ksize %zu", RUN_PAGES, ksize(q));
	fill(q, RUN_BYTES);
	EXPECT(slab_nr_large_pages() ==
	       (1UL << get_order(KMALLOC_MAX_CACHE_SIZE + 1)) + RUN_PAGES,
	       "%lu large pages", slab_nr_large_pages());
	EXPECT(nr_free_pages() == before - slab_nr_pages(), "%lu free pages, "
	       "%lu before, %lu taken", nr_free_pages(), before, slab_nr_pages());
	/* The run's second piece is no kmalloc: refused, nothing freed. */
	if (RUN_PAGES > 1) {
		console_clear();
		kfree((char *)q + (RUN_PAGES - 1) * PAGE_SIZE);
		EXPECT(console_says("kfree: refused") && ksize(q) == RUN_BYTES,
		       "a pointer to the run's last page");
	}
	kfree(p);
	kfree(q);
	console_clear();
	kfree(q);
	EXPECT(console_says("kfree: refused"), "a second free of the run");
	EXPECT(kmalloc(KMALLOC_MAX_SIZE + 1, __GFP_NOWARN) == NULL, "too large");
	EXPECT(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kmalloc(0)");
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	EXPECT(ksize(NULL) == 0 && ksize(ZERO_SIZE_PTR) == 0, "ksize of nothing");
	/* A block from alloc_pages() is not kmalloc's: refused, kept. */
	page = alloc_pages(GFP_KERNEL, MIN(1, MAX_PAGE_ORDER));
	EXPECT(page, "alloc_pages");
	console_clear();
	kfree(page_address(page));
	EXPECT(console_says("kfree: refused") && console_says("in no cache"),
	       "alloc_pages block refused");
	EXPECT(free_pages_checked(page, MIN(1, MAX_PAGE_ORDER)) == 0,
	       "the block stayed allocated");
	return restored(before);
}

/* When the pages run out, the empty slabs this CPU keeps go back first. */
static bool exhaustion_gives_back_empty_slabs(void)
{
	unsigned long before, n = 0;
	void *head = NULL, *p;

	if (!slab_machine(8))
		return false;
	before = nr_free_pages();
	kfree(kmalloc(64, GFP_KERNEL));		/* an empty slab, kept */
	EXPECT(slab_nr_slabs() == 1, "%lu slabs", slab_nr_slabs());
	EXPECT(slab_nr_pages() == before - nr_free_pages(),
	       "slab_nr_pages() %lu, pages taken %lu", slab_nr_pages(),
	       before - nr_free_pages());
	while ((p = kmalloc(RUN_BYTES, __GFP_NOWARN))) {
		*(void **)p = head;
		head = p;
		n++;
	}
	EXPECT(n > 0, "no large block");
	EXPECT(slab_nr_pages() == RUN_PAGES * n, "slab_nr_pages() %lu for %lu "
	       "blocks of %lu", slab_nr_pages(), n, RUN_PAGES);
	EXPECT(slab_nr_slabs() == 0, "%lu slabs kept with the pages exhausted",
	       slab_nr_slabs());
	while ((p = head)) {
		head = *(void **)p;
		kfree(p);
	}
	return restored(before);
}

/*
 * Allocate @size bytes (@gfp) until @want comes out again, holding the
 * others, then free them. An object freed by the inline kfree() comes
 * back once its word's alloc bits ran out (mm/slab_state.h), within a
 * slab's objects. Return: how many times @want came out; the first time
 * ends the search unless @all, which makes all REUSE_TRIES allocations.
 * The caller owns @want then.
 */
#define REUSE_TRIES	2048
static void *reuse_held[REUSE_TRIES];

static unsigned int alloc_until(size_t size, gfp_t gfp, const void *want,
				bool all)
{
	unsigned int n = 0, seen = 0;

	while (n < REUSE_TRIES) {
		void *p = kmalloc(size, gfp);

		if (!p)
			break;
		if (p == want) {
			seen++;
			if (!all)
				break;
			continue;
		}
		reuse_held[n++] = p;
	}
	while (n)
		kfree(reuse_held[--n]);
	return seen;
}

static bool zeroing_and_realloc(void)
{
	unsigned long before;
	unsigned char *p, *q;

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	p = kmalloc(200, GFP_KERNEL);
	memset(p, 0xa5, 256);
	kfree(p);
	EXPECT(alloc_until(200, GFP_KERNEL | __GFP_ZERO, p, false) == 1,
	       "%p not handed out again", p);
	q = p;
	for (int i = 0; i < 256; i++)
		EXPECT(q[i] == 0, "kzalloc byte %d is %#x", i, q[i]);
	memset(q, 7, 200);
	EXPECT(krealloc(q, 250, GFP_KERNEL) == q, "fits its class: kept");
	p = krealloc(q, 1000, GFP_KERNEL);
	EXPECT(p && p != q && ksize(p) == 1024, "moved to kmalloc-1024");
	for (int i = 0; i < 200; i++)
		EXPECT(p[i] == 7, "byte %d not kept", i);
	p = krealloc(p, RUN_BYTES, GFP_KERNEL);
	EXPECT(p && ksize(p) == RUN_BYTES && p[199] == 7, "grown to pages");
	EXPECT(krealloc(p, 0, GFP_KERNEL) == ZERO_SIZE_PTR, "krealloc to 0 frees");
	EXPECT(krealloc(NULL, 0, GFP_KERNEL) == ZERO_SIZE_PTR, "krealloc(NULL, 0)");
	p = krealloc(ZERO_SIZE_PTR, 10, GFP_KERNEL);
	EXPECT(p && ksize(p) == 16, "krealloc(ZERO_SIZE_PTR)");
	kfree(p);
	EXPECT(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR && ksize(ZERO_SIZE_PTR) == 0,
	       "kmalloc(0)");
	kfree(ZERO_SIZE_PTR);
	p = krealloc(NULL, 10, GFP_KERNEL);
	EXPECT(p && ksize(p) == 16, "krealloc(NULL)");
	kfree(p);
	console_clear();
	EXPECT(kcalloc(SIZE_MAX / 2, 3, GFP_KERNEL) == NULL, "overflow");
	EXPECT(console_says("kcalloc:") && console_says("overflows"), "message");
	p = kcalloc(10, 30, GFP_KERNEL);
	EXPECT(p && ksize(p) == 512 && p[299] == 0, "kcalloc");
	kfree(p);
	console_clear();
	EXPECT(kmalloc_array(SIZE_MAX / 4, 8, GFP_KERNEL) == NULL, "overflow");
	EXPECT(console_says("kmalloc_array:") && console_says("overflows"),
	       "message");
	console_clear();
	EXPECT(kmalloc_array(3, SIZE_MAX / 2, GFP_KERNEL | __GFP_NOWARN) == NULL &&
	       !console_says("overflows"), "__GFP_NOWARN is quiet");
	p = kmalloc_array(7, 100, GFP_KERNEL);
	EXPECT(p && ksize(p) == 1024, "kmalloc_array");
	memset(p, 0x5a, 700);
	kfree(p);
	return restored(before);
}

/* @fn on @p must be refused with @why and change nothing. */
static bool refused_free(void (*fn)(const void *p), const void *p,
			 const char *want)
{
	unsigned long free = nr_free_pages(), slabs = slab_nr_slabs();

	console_clear();
	fn(p);
	EXPECT(console_says(want), "no \"%s\" on the console", want);
	EXPECT(nr_free_pages() == free && slab_nr_slabs() == slabs, "counts");
	EXPECT(slab_check() == 0 && page_alloc_check() == 0, "checkers");
	return true;
}

static struct kmem_cache *wrong_target;

static void free_into_wrong(const void *p)
{
	kmem_cache_free(wrong_target, (void *)p);
}

static void kfree_fn(const void *p)
{
	kfree(p);
}

static bool refusals(void)
{
	char msg[160], stack_buf[64];
	static char global_buf[64];
	struct kmem_cache *a, *b;
	unsigned long before;
	char *p, *q, *x, *y;
	struct slab *s;

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	p = kmalloc(64, GFP_KERNEL);
	q = kmalloc(64, GFP_KERNEL);
	kfree(p);
	snprintf(msg, sizeof(msg), "kfree: refused %p in cache kmalloc-64: double free", p);
	EXPECT(refused_free(kfree_fn, p, msg), "double free");
	/* Handed out once only, despite the second free. */
	EXPECT(alloc_until(64, GFP_KERNEL, p, true) == 1,
	       "%p not handed out exactly once", p);
	x = p;
	y = kmalloc(64, GFP_KERNEL);
	EXPECT(y && y != p && y != q, "%p %p %p", p, q, y);
	snprintf(msg, sizeof(msg), "kfree: refused %p in cache kmalloc-64: not the start of an object", q + 8);
	EXPECT(refused_free(kfree_fn, q + 8, msg), "interior pointer");
	snprintf(msg, sizeof(msg), "kfree: refused %p in no cache", stack_buf);
	EXPECT(refused_free(kfree_fn, stack_buf, msg), "stack");
	EXPECT(refused_free(kfree_fn, global_buf, "in no cache"), "global");
	s = slab_base(q);
	snprintf(msg, sizeof(msg), "kfree: refused %p in cache kmalloc-64: not the start of an object", (void *)s);
	EXPECT(refused_free(kfree_fn, s, msg), "the slab's header");
	snprintf(msg, sizeof(msg), "kfree: refused %p in cache kmalloc-64: not the start of an object", (char *)s + 8);
	EXPECT(refused_free(kfree_fn, (char *)s + 8, msg), "inside the header");

	a = kmem_cache_create("alpha", 48, 0, 0, NULL);
	b = kmem_cache_create("beta", 48, 0, 0, NULL);
	EXPECT(a && b, "caches");
	x = kmem_cache_alloc(a, GFP_KERNEL);
	wrong_target = b;
	snprintf(msg, sizeof(msg), "kmem_cache_free: refused %p in cache beta: wrong cache (the object is alpha's)", x);
	EXPECT(refused_free(free_into_wrong, x, msg), "wrong cache");
	snprintf(msg, sizeof(msg), "kmem_cache_free: refused %p in cache beta: wrong cache (the object is kmalloc-64's)", q);
	EXPECT(refused_free(free_into_wrong, q, msg), "kmalloc object into a cache");
	wrong_target = a;
	kmem_cache_free(a, x);
	snprintf(msg, sizeof(msg), "kmem_cache_free: refused %p in cache alpha: double free", x);
	EXPECT(refused_free(free_into_wrong, x, msg), "double free into a cache");
	console_clear();
	EXPECT(ksize(q + 1) == 0 && console_says("ksize: refused"), "ksize of an interior pointer");
	console_clear();
	EXPECT(krealloc(stack_buf, 100, GFP_KERNEL) == NULL &&
	       console_says("krealloc: refused") && !console_says("ksize"),
	       "krealloc of a stack address, refused in its own name");
	console_clear();
	EXPECT(krealloc(q + 8, 100, GFP_KERNEL) == NULL &&
	       console_says("krealloc: refused") &&
	       console_says("not the start of an object"),
	       "krealloc of an interior pointer");
	/* A zone asked of a cache that keeps none: refused, NOWARN or not. */
	console_clear();
	EXPECT(!kmem_cache_alloc(a, GFP_DMA32 | __GFP_NOWARN) &&
	       !kmem_cache_zalloc(a, GFP_DMA32) &&
	       console_count("kmem_cache_alloc: alpha of 48 bytes refused: "
			     "__GFP_DMA32") == 2, "kmem_cache_alloc(GFP_DMA32)");
	kfree(q);
	kfree(y);
	kfree(p);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	return restored(before);
}

/*
 * In every class, a pointer 1, 2, 3, 4, 5, ... (each power of two and the
 * one after it) and stride - 1 bytes into a live object, and the start of
 * every header slot, is refused as not the start of an object: kfree()'s
 * inline check of the offset (one rotate and one range check where the
 * CPU rotates) must send each to the general way, never free it.
 */
static bool every_non_start_is_refused(void)
{
	unsigned long before;
	char msg[160];

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	for (size_t size = KMALLOC_MIN_SIZE; size <= KMALLOC_MAX_CACHE_SIZE; size *= 2) {
		char *o = kmalloc(size, GFP_KERNEL);
		struct slab *s = o ? slab_base(o) : NULL;
		const char *name = s ? s->cache->name : "";

		EXPECT(o, "kmalloc(%zu)", size);
		for (size_t d = 1; d < size; d = d == size - 1 ? size :
		     (d & (d - 1)) ? MIN(d * 2 - 2, size - 1) : d + 1) {
			snprintf(msg, sizeof(msg), "kfree: refused %p in cache %s: "
				 "not the start of an object", o + d, name);
			EXPECT(refused_free(kfree_fn, o + d, msg), "%s: %p + %zu",
			       name, o, d);
		}
		for (unsigned int i = 0; i < s->cache->first; i++) {
			char *h = (char *)s + (size_t)i * s->cache->size;

			snprintf(msg, sizeof(msg), "kfree: refused %p in cache %s: "
				 "not the start of an object", h, name);
			EXPECT(refused_free(kfree_fn, h, msg), "%s: header slot %u",
			       name, i);
		}
		kfree(o);
	}
	return restored(before);
}

/*
 * slab_check() finds each bitmap corruption it promises to (a bit in two
 * of an object's three words, a bit outside the objects), and is quiet
 * again once the bit is put back: the checker can fail.
 */
static bool slab_check_finds_bad_bits(void)
{
	/*
	 * The word to set a bit in: the free object's other owner word (1),
	 * its remote word (2), or object 0's bit (the header's) in the
	 * alloc word (0).
	 */
	static const struct {
		unsigned int word;
		bool header;
		const char *says;
	} cases[] = {
		{ 1, false, "objects both ready and freed" },
		{ 2, false, "objects both free and freed remotely" },
		{ 0, true, "bits outside its objects" },
	};
	unsigned long before;
	struct slab *s;
	char *p, *q;

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	p = kmalloc(64, GFP_KERNEL);
	q = kmalloc(64, GFP_KERNEL);
	kfree(q);	/* inline: into the freed word; SLAB_DEBUG: the alloc word */
	s = slab_base(p);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		unsigned long idx = (unsigned long)(q - (char *)s) / 64;
		unsigned int w = (unsigned int)(idx / 64);
		unsigned long *words[3] = { slab_aword(s, w), slab_fword(s, w),
					    slab_rword(s, w) };
		unsigned long bit = 1UL << (idx % 64), saved;
		unsigned long *at;

		unsigned int home = (*words[0] & bit) ? 0 : 1;

		EXPECT((*words[0] | *words[1]) & bit, "the free is on the owner's side");
		EXPECT(!CONFIG_SLAB_DEBUG == (home == 1), "the free went to word %u", home);
		/* Object 0 is the header's: outside the objects. */
		if (cases[k].header)
			bit = 1;
		at = words[cases[k].word == 1 ? 1 - home : cases[k].word];
		saved = *at;
		*at |= bit;
		console_clear();
		EXPECT(slab_check() > 0 && console_says(cases[k].says),
		       "slab_check did not say \"%s\"", cases[k].says);
		*at = saved;
		EXPECT(slab_check() == 0, "quiet once mended (%s)", cases[k].says);
	}
	kfree(p);
	return restored(before);
}

static int ctor_calls;

static void ctor(void *obj)
{
	ctor_calls++;
	memset(obj, 0x5a, 24);
}

static bool caches_sizes_alignment_destroy(void)
{
	static const struct { unsigned int size, align; } kinds[] = {
		{ 24, 0 }, { 100, 0 }, { 200, 64 }, { 72, 128 }, { 3000, 0 },
		{ 8, 8 }, { 1, 0 }, { 4096, 4096 }, { 12345, 16 },
		/* The largest, a slab each; one more byte fits in none. */
		{ CACHE_MAX, 0 }, { CACHE_MAX / 2 + 1, 64 }, { CACHE_MAX + 1, 0 },
	};
	struct kmem_cache *c, *many[SLAB_MAX_CACHES];
	unsigned long before;
	void *objs[300], *more;
	char name[40];
	int n = 0;

	if (!slab_machine(64))
		return false;
	before = nr_free_pages();
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		unsigned int align = kinds[k].align ? kinds[k].align : 8;
		/* 300, or as many as 16 MiB of slabs hold at worst. */
		int nobj = (int)MIN(300UL, 8 * SZ_1M /
				    ALIGN_UP(kinds[k].size, align));

		/* Too large for this geometry's slabs: refused. */
		if (kinds[k].size > CACHE_MAX) {
			EXPECT(!kmem_cache_create("odd", kinds[k].size, kinds[k].align,
						  0, NULL), "%u bytes", kinds[k].size);
			continue;
		}
		c = kmem_cache_create("odd", kinds[k].size, kinds[k].align, 0, NULL);
		EXPECT(c, "cache of %u aligned %u", kinds[k].size, kinds[k].align);
		EXPECT(kmem_cache_size(c) == kinds[k].size, "size");
		for (int i = 0; i < nobj; i++) {
			objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
			EXPECT(objs[i] && ((uintptr_t)objs[i] & (align - 1)) == 0,
			       "object %p of %u not aligned to %u", objs[i],
			       kinds[k].size, align);
			EXPECT(ksize(objs[i]) == kinds[k].size, "ksize");
			memset(objs[i], i, kinds[k].size);
		}
		for (int i = 0; i < nobj; i++) {
			EXPECT(((unsigned char *)objs[i])[kinds[k].size - 1] == (unsigned char)i,
			       "object %d overwritten", i);
			/* Every object refuses its inside. */
			if (kinds[k].size > 1) {
				console_clear();
				kmem_cache_free(c, (char *)objs[i] + 1);
				EXPECT(console_says("not the start of an object"), "inside");
			}
			kmem_cache_free(c, objs[i]);
		}
		kmem_cache_destroy(c);
	}
	/* A constructor runs once per object, when its slab is made. */
	c = kmem_cache_create("ctor", 24, 0, SLAB_HWCACHE_ALIGN, ctor);
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	EXPECT(((uintptr_t)objs[0] & 63) == 0, "SLAB_HWCACHE_ALIGN");
	EXPECT(ctor_calls > 1 && ((unsigned char *)objs[0])[23] == 0x5a, "ctor ran");
	n = ctor_calls;
	kmem_cache_free(c, objs[0]);
	objs[0] = kmem_cache_zalloc(c, GFP_KERNEL);
	EXPECT(ctor_calls == n && ((unsigned char *)objs[0])[23] == 0, "zalloc");
	objs[1] = kmem_cache_alloc(c, GFP_KERNEL);
	objs[2] = kmem_cache_alloc(c, GFP_KERNEL);
	console_clear();
	kmem_cache_destroy(c);
	EXPECT(console_says("kmem_cache_destroy: refused cache ctor: 3 objects still in use"),
	       "destroy refused while objects live");
	more = kmem_cache_alloc(c, GFP_KERNEL);
	EXPECT(more, "still usable");
	kmem_cache_destroy(c);
	EXPECT(console_says("4 objects still in use"), "counted");
	EXPECT(slab_check() == 0, "slab_check");
	/* Bad parameters are refused. */
	console_clear();
	EXPECT(!kmem_cache_create("zero", 0, 0, 0, NULL), "size 0");
	EXPECT(!kmem_cache_create("align", 64, 48, 0, NULL), "align 48");
	EXPECT(!kmem_cache_create("huge", SLAB_MAX_SIZE, 0, 0, NULL), "too big");
	EXPECT(console_says("kmem_cache_create: refused cache huge"), "message");
	/* All slots taken: refused, and given back by destroy. */
	n = 0;
	while (n < SLAB_MAX_CACHES && (many[n] = kmem_cache_create("many", 32, 0, 0, NULL)))
		n++;
	/* Each class has a DMA32 twin; one more cache is "ctor". */
	EXPECT(n == SLAB_MAX_CACHES - 2 * NR_KMALLOC_CACHES - 1, "%d caches made", n);
	snprintf(name, sizeof(name), "all %d caches in use", SLAB_MAX_CACHES);
	EXPECT(console_says(name), "slots refused");
	while (n--)
		kmem_cache_destroy(many[n]);
	kmem_cache_free(c, objs[0]);
	kmem_cache_free(c, objs[1]);
	kmem_cache_free(c, objs[2]);
	kmem_cache_free(c, more);
	kmem_cache_destroy(c);
	EXPECT(!console_says("1 objects still in use"), "destroyed");
	return restored(before);
}

/*
 * Each class until no slab can be made: exactly as many objects as the
 * free blocks of the class's slab order and above predict, each written, none
 * overlapping, then all freed and every page back.
 */
static bool exhaust_every_class(void)
{
	if (!slab_machine(8))
		return false;
	for (unsigned int k = 0; k < NR_KMALLOC_CACHES; k++) {
		struct kmem_cache *cache = &kmalloc_caches[k];
		size_t size = cache->object_size;
		unsigned long before = nr_free_pages(), slabs = 0, n = 0;
		void *head = NULL, *p;

		/* Cached small blocks merge when the buddy lists run dry. */
		drain_all_pages();
		for (unsigned int o = cache->order; o <= MAX_PAGE_ORDER; o++)
			slabs += nr_free_blocks(o) << (o - cache->order);
		while ((p = kmalloc(size, __GFP_NOWARN))) {
			*(void **)p = head;
			if (size >= 16)
				fill((char *)p + 8, size - 8);
			head = p;
			n++;
		}
		EXPECT(n == slabs * slab_capacity(cache), "%s: %lu objects, "
		       "predicted %lu slabs of %u", cache->name, n, slabs,
		       slab_capacity(cache));
		for (unsigned int o = cache->order; o <= MAX_PAGE_ORDER; o++)
			EXPECT(!nr_free_blocks(o), "order %u left free", o);
		EXPECT(slab_check() == 0, "slab_check when exhausted");
		while ((p = head)) {
			head = *(void **)p;
			EXPECT(size < 16 || intact((char *)p + 8, size - 8),
			       "%s: object %p changed", cache->name, p);
			kfree(p);
			n--;
		}
		EXPECT(n == 0, "chain lost %lu objects", n);
		if (!restored(before))
			return false;
	}
	return true;
}

/*
 * The model: random allocations (every class, large ones, caches) and
 * frees against a shadow list of what is held; every object is written
 * with a pattern of its own and must read back whole and overlap no other.
 */
struct held {
	char *p;
	size_t size;
	struct kmem_cache *cache;
};

static bool overlaps(const struct held *h, unsigned int n, const char *p,
		     size_t size)
{
	for (unsigned int i = 0; i < n; i++)
		if (p < h[i].p + h[i].size && h[i].p < p + size)
			return true;
	return false;
}

static bool model_against_shadow(void)
{
	static struct held h[1024];
	struct kmem_cache *caches[2];
	unsigned long before, ops = 0;
	uint64_t rng = 12345;
	unsigned int n = 0;

	if (!slab_machine(32))
		return false;
	before = nr_free_pages();
	caches[0] = kmem_cache_create("model-40", 40, 0, 0, NULL);
	caches[1] = kmem_cache_create("model-1000", MIN(1000UL, CACHE_MAX), 64, 0, NULL);
	for (ops = 0; ops < 60000; ops++) {
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned int r = (unsigned int)(rng >> 33);

		if (n < ARRAY_SIZE(h) && (r % 100 < 55 || !n)) {
			struct held x = { 0 };
			unsigned int kind = r % 16;

			if (kind < 2) {
				x.cache = caches[kind];
				x.size = kmem_cache_size(x.cache);
				x.p = kmem_cache_alloc(x.cache, GFP_KERNEL);
			} else {
				x.size = kind == 2 ? 1 + r % MIN(4 * PAGE_SIZE, KMALLOC_MAX_SIZE)
						   : 1 + (r >> 8) % (1U << (r % 12));
				x.p = kmalloc(x.size, GFP_KERNEL);
			}
			EXPECT(x.p, "allocation %lu of %zu", ops, x.size);
			EXPECT(!overlaps(h, n, x.p, x.size), "%p (%zu bytes) "
			       "overlaps a held object", x.p, x.size);
			memset(x.p, (int)(ops & 0xff), x.size);
			x.p[0] = (char)ops;
			h[n++] = x;
		} else {
			unsigned int i = r % n;
			struct held x = h[i];

			for (size_t b = 1; b < x.size; b++)
				if (x.p[b] != x.p[x.size - 1])
					EXPECT(0, "object %p byte %zu changed", x.p, b);
			if (x.cache)
				kmem_cache_free(x.cache, x.p);
			else if (r % 7 == 0) {
				size_t ns = 1 + (r >> 4) % 3000;
				char *q = krealloc(x.p, ns, GFP_KERNEL);

				EXPECT(q, "krealloc");
				EXPECT(ns <= x.size || !overlaps(h, n, q, ns) || q == x.p,
				       "krealloc overlaps");
				if (ns < x.size) {
					x.size = ns;
					memset(q, q[x.size - 1], x.size);
				}
				h[i].p = q;
				h[i].size = x.size;
				continue;
			} else
				kfree(x.p);
			h[i] = h[--n];
		}
		if (ops % 5000 == 0)
			EXPECT(slab_check() == 0, "slab_check at %lu", ops);
	}
	while (n--) {
		if (h[n].cache)
			kmem_cache_free(h[n].cache, h[n].p);
		else
			kfree(h[n].p);
	}
	kmem_cache_destroy(caches[0]);
	kmem_cache_destroy(caches[1]);
	return restored(before);
}

#if CONFIG_SLAB_DEBUG
static bool debug_red_zone_and_poison(void)
{
	struct kmem_cache *c;
	char *p, *q;

	if (!slab_machine(16))
		return false;
	p = kmalloc(64, GFP_KERNEL);
	console_clear();
	p[64] = 1;				/* one byte past the end */
	kfree(p);
	EXPECT(console_says("slab: cache kmalloc-64 object") &&
	       console_says("written past its end (red zone byte 0"),
	       "write past the end, at free");
	/* A use after free: written while free, found at the next allocation. */
	p = kmalloc(128, GFP_KERNEL);
	kfree(p);
	console_clear();
	p[5] = 'x';
	q = kmalloc(128, GFP_KERNEL);
	EXPECT(q == p, "the same object again");
	EXPECT(console_says("written after it was freed (byte 5"), "use after free");
	kfree(q);
	/* Found by slab_check too, and counted. */
	c = kmem_cache_create("dbg", 40, 0, 0, NULL);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	q = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, q);
	p[40] = 0;
	q[0] = 0;
	console_clear();
	EXPECT(slab_check() == 2, "slab_check finds both");
	EXPECT(console_says("cache dbg") && console_says("by slab_check"), "named");
	EXPECT(slab_check() == 0, "repaired: reported once");
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
	return slab_check() == 0;
}
#endif

static const struct host_test tests[] = {
	HOST_TEST(slabs_wait_for_the_hand_off),
	HOST_TEST(slab_table_without_memory),
	HOST_TEST(dma32_objects),
	HOST_TEST(every_size_class),
	HOST_TEST(slab_orders),
	HOST_TEST(large_blocks),
	HOST_TEST(exhaustion_gives_back_empty_slabs),
	HOST_TEST(zeroing_and_realloc),
	HOST_TEST(refusals),
	HOST_TEST(every_non_start_is_refused),
	HOST_TEST(slab_check_finds_bad_bits),
	HOST_TEST(caches_sizes_alignment_destroy),
	HOST_TEST(exhaust_every_class),
	HOST_TEST(model_against_shadow),
#if CONFIG_SLAB_DEBUG
	HOST_TEST(debug_red_zone_and_poison),
#endif
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
