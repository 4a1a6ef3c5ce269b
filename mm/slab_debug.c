/*
 * slab_debug.c - SLAB_DEBUG=1 builds: red zones and poison.
 *
 * Each object is followed by a red zone (at least 8 bytes, up to the next
 * multiple of the cache's alignment) filled with SLAB_RED_BYTE; a free
 * object (in a cache without a constructor) is filled with
 * SLAB_POISON_BYTE. A write past the end of an object is reported when
 * the object is freed or allocated, or by slab_check(); a write to a free
 * object when it is next allocated, or by slab_check(). Each report names
 * the cache, the object and the first byte found changed; the red zone or
 * poison is then written again, so one bad write is reported once.
 * In other builds nothing here is called.
 */
#include <lib/printk.h>
#include <lib/string.h>
#include "slab_state.h"

/* The first byte of [p, p + n) that is not @byte, or -1. */
static long first_not(const void *p, size_t n, uint8_t byte)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != byte)
			return (long)i;
	return -1;
}

static size_t red_bytes(const struct kmem_cache *cache)
{
	return cache->size - cache->object_size;
}

void slab_debug_init_object(struct kmem_cache *cache, void *obj)
{
	if (cache->poison)
		memset(obj, SLAB_POISON_BYTE, cache->object_size);
	memset((char *)obj + cache->object_size, SLAB_RED_BYTE, red_bytes(cache));
}

/* Report and repair a red zone written over. Return: 1 if it was. */
static int check_red(struct kmem_cache *cache, void *obj, const char *when)
{
	char *red = (char *)obj + cache->object_size;
	long at = first_not(red, red_bytes(cache), SLAB_RED_BYTE);

	if (at < 0)
		return 0;
	pr_err("slab: cache %s object %p: written past its end (red zone "
	       "byte %ld, at %p, is %#x), found %s\n", cache->name, obj, at,
	       (void *)(red + at), (unsigned int)(uint8_t)red[at], when);
	memset(red, SLAB_RED_BYTE, red_bytes(cache));
	return 1;
}

/* Report and repair poison written over. Return: 1 if it was. */
static int check_poison(struct kmem_cache *cache, void *obj, const char *when)
{
	long at;

	if (!cache->poison)
		return 0;
	at = first_not(obj, cache->object_size, SLAB_POISON_BYTE);
	if (at < 0)
		return 0;
	pr_err("slab: cache %s object %p: written after it was freed (byte "
	       "%ld is %#x), found %s\n", cache->name, obj, at,
	       (unsigned int)((uint8_t *)obj)[at], when);
	memset(obj, SLAB_POISON_BYTE, cache->object_size);
	return 1;
}

void slab_debug_on_alloc(struct kmem_cache *cache, void *obj)
{
	check_poison(cache, obj, "when allocated again");
	check_red(cache, obj, "when allocated");
}

void slab_debug_on_free(struct kmem_cache *cache, void *obj)
{
	check_red(cache, obj, "when freed");
	if (cache->poison)
		memset(obj, SLAB_POISON_BYTE, cache->object_size);
}

int slab_debug_check_slab(struct slab *s)
{
	struct kmem_cache *cache = s->cache;
	int problems = 0;

	for (unsigned int i = cache->first; i < cache->nr_objects; i++) {
		unsigned long bit = 1UL << (i % 64);
		void *obj = slab_object(s, i);

		problems += check_red(cache, obj, "by slab_check");
		if ((slab_owner_free(s, i / 64) |
		     __atomic_load_n(slab_rword(s, i / 64), __ATOMIC_RELAXED)) & bit)
			problems += check_poison(cache, obj, "by slab_check");
	}
	return problems;
}
