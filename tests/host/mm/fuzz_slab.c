/*
 * fuzz_slab.c - libFuzzer target: the input is a sequence of calls to the
 * slab allocator on a small machine: kmalloc of any size (large ones
 * included), kmem_cache_alloc from two caches, frees of held objects, and
 * bad frees (twice, inside an object, into the wrong cache), krealloc,
 * kmem_cache_shrink. Every held object carries a pattern of its own that
 * must read back at its free; a bad free must be refused without changing
 * the free page count; slab_check() must stay clean; and when the input
 * ends, freeing everything must give every page back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mm/mm.h>
#include "host.h"
#include "machine.h"

#define SPAN		((size_t)6 << 20)
#define NR_HELD		512

struct held {
	unsigned char *p;
	size_t size;
	struct kmem_cache *cache;
};

static struct held held[NR_HELD];
static unsigned int nr_held;
static struct kmem_cache *caches[2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_slab: %s\n%s", what, host_console_captured());
	abort();
}

static void setup(void)
{
	machine_fuzz_reset(SPAN);
	if (memblock_add(PAGE_SIZE, SPAN - PAGE_SIZE) || !memblock_free_all())
		fail("no machine");
	kmem_cache_init();
	nr_held = 0;
}

static void keep(unsigned char *p, size_t size, struct kmem_cache *cache)
{
	if (!p)
		return;
	memset(p, (int)((uintptr_t)p >> 3) & 0xff, size);
	held[nr_held++] = (struct held){ p, size, cache };
}

static void release(unsigned int i)
{
	struct held h = held[i];

	for (size_t b = 0; b < h.size; b++)
		if (h.p[b] != (unsigned char)(((uintptr_t)h.p >> 3) & 0xff))
			fail("an object's bytes changed while it was held");
	if (h.cache)
		kmem_cache_free(h.cache, h.p);
	else
		kfree(h.p);
	held[i] = held[--nr_held];
}

/* A bad free: refused, nothing changed. */
static void refused(void (*fn)(struct kmem_cache *c, void *p),
		    struct kmem_cache *c, void *p, const char *what)
{
	unsigned long free = nr_free_pages();

	host_console_capture_start(true);
	fn(c, p);
	if (!host_console_contains("refused") || nr_free_pages() != free)
		fail(what);
}

static void do_kfree(struct kmem_cache *c, void *p)
{
	(void)c;
	kfree(p);
}

static void do_cache_free(struct kmem_cache *c, void *p)
{
	kmem_cache_free(c, p);
}

static void operate(uint8_t op, uint8_t a, uint8_t b)
{
	struct held h;
	unsigned int i;

	switch (op % 8) {
	case 0:
	case 1:
		if (nr_held < NR_HELD) {
			size_t sz = 1 + ((size_t)a << (b % 8)) + b;

			keep(kmalloc(sz, __GFP_NOWARN), sz, NULL);
		}
		return;
	case 2:
		if (nr_held < NR_HELD)
			keep(kmem_cache_alloc(caches[a & 1], __GFP_NOWARN),
			     a & 1 ? 200 : 24, caches[a & 1]);
		return;
	case 3:
	case 4:
		if (nr_held)
			release(a % nr_held);
		return;
	case 5:
		if (!nr_held)
			return;
		i = a % nr_held;
		h = held[i];
		if (b % 3 == 0) {
			release(i);
			if (h.cache)
				refused(do_cache_free, h.cache, h.p, "a double free was accepted");
			else
				refused(do_kfree, NULL, h.p, "a double free was accepted");
		} else if (b % 3 == 1 && h.size > 1) {
			refused(do_kfree, NULL, h.p + 1 + b % (h.size - 1),
				"a free inside an object was accepted");
		} else if (h.cache) {
			refused(do_cache_free, caches[h.cache == caches[0]], h.p,
				"a free into the wrong cache was accepted");
		}
		return;
	case 6:
		if (nr_held) {
			size_t sz = 1 + (size_t)a * (b + 1);
			unsigned char *q;

			i = a % nr_held;
			if (held[i].cache)
				return;
			q = krealloc(held[i].p, sz, __GFP_NOWARN);
			if (!q)
				return;
			held[i].p = q;
			held[i].size = sz < held[i].size ? sz : held[i].size;
			memset(q, (int)((uintptr_t)q >> 3) & 0xff, held[i].size);
		}
		return;
	default:
		kmem_cache_shrink(caches[a & 1]);
		if (a & 2)
			kmem_cache_shrink_all();
		return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long before;

	setup();
	before = nr_free_pages();
	caches[0] = kmem_cache_create("fuzz-24", 24, 0, 0, NULL);
	caches[1] = kmem_cache_create("fuzz-200", 200, 64, 0, NULL);
	for (size_t k = 0; k + 2 < size; k += 3) {
		operate(data[k], data[k + 1], data[k + 2]);
		if (k % 48 == 0 && slab_check())
			fail("slab_check found a problem");
	}
	while (nr_held)
		release(0);
	kmem_cache_destroy(caches[0]);
	kmem_cache_destroy(caches[1]);
	kmem_cache_shrink_all();
	if (slab_check() || page_alloc_check())
		fail("a checker found a problem after freeing everything");
	if (slab_nr_slabs())
		fail("slabs held with nothing allocated");
	if (nr_free_pages() != before)
		fail("pages lost");
	return 0;
}
