/*
 * slab.h - small objects: kmalloc and kmem_cache, with Linux's names and
 * meanings, on top of the buddy allocator (docs/allocator.md, "Small
 * objects").
 *
 * kmalloc() serves sizes up to KMALLOC_MAX_CACHE_SIZE (PAGE_SIZE, as
 * Linux's SLUB serves a page and more; less when the largest slab is too
 * small, below) from power-of-two size classes, 8 bytes
 * and up, each object aligned to its class; larger sizes get the whole
 * pages they need (alloc_pages_exact()), page aligned.
 * kfree() tells the two apart, and refuses (with a message naming the
 * address and the cache, changing nothing) a pointer it never handed out,
 * a double free and a pointer into the middle of an object.
 *
 * Every CPU allocates from its own slab of each cache with plain loads
 * and stores; an object freed on another CPU goes back to its slab through
 * that slab's remote bitmap (one atomic OR), without the owner's help. Nothing needs setting up beyond
 * the hand-off (memblock_free_all()): the first call does the rest.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include <lib/types.h>
#include <mm/gfp.h>
#include <mm/page_order.h>

struct kmem_cache;

#ifndef CONFIG_SLAB_DEBUG
#define CONFIG_SLAB_DEBUG	0
#endif

#define KMALLOC_MIN_SIZE	8UL
#define KMALLOC_SHIFT_LOW	3
/*
 * The largest class takes two of its strides from the largest slab (one
 * for the slab's header, one for an object). A class's stride is its
 * size, and twice its size with SLAB_DEBUG's red zone, since objects stay
 * aligned to their class. So the classes stop at PAGE_SIZE while
 * MAX_PAGE_ORDER >= 1 (2 with SLAB_DEBUG), and one halving below it for
 * each order short of that: PAGE_SIZE / 2 with order 0, PAGE_SIZE / 4
 * with order 0 and SLAB_DEBUG. Larger requests take whole pages.
 */
#define KMALLOC_SHIFT_SHORT	(1 + CONFIG_SLAB_DEBUG > MAX_PAGE_ORDER ? \
				 1 + CONFIG_SLAB_DEBUG - MAX_PAGE_ORDER : 0)
#define KMALLOC_SHIFT_HIGH	(PAGE_SHIFT - KMALLOC_SHIFT_SHORT)
/* The largest size served from a cache; above it, whole pages. */
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)
/* The largest kmalloc() at all: one top-order block. */
#define KMALLOC_MAX_SIZE	(PAGE_SIZE << MAX_PAGE_ORDER)

/*
 * kmalloc(0) returns ZERO_SIZE_PTR, as in Linux: not NULL, never to be
 * dereferenced; kfree() and ksize() accept it.
 */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* kmem_cache_create() flags (Linux's values where Linux has them). */
#define SLAB_HWCACHE_ALIGN	0x00002000UL	/* align objects to 64 bytes */
#define SLAB_PANIC		0x00040000UL	/* panic if creation fails */
#define SLAB_CACHE_DMA32	0x00008000UL	/* slabs from ZONE_DMA32: below 4 GiB */

/*
 * Caches a machine may have at once, kmalloc's own included: each costs
 * every CPU 48 bytes of per-CPU state (12 KiB per CPU in all).
 */
#define SLAB_MAX_CACHES		256

/*
 * kmalloc - @size bytes, or NULL (inline: <mm/slab_fast.h>). __GFP_ZERO
 * zeroes them; __GFP_DMA32 gives bytes below 4 GiB, from the DMA32
 * classes ("kmalloc-dma32-<size>") or, above the classes, from
 * ZONE_DMA32's pages. kmem_cache_alloc() honours
 * __GFP_DMA32 for a cache made with SLAB_CACHE_DMA32 (whose objects are
 * all below 4 GiB anyway) and refuses it, with a message, for any other.
 */
void *kzalloc(size_t size, gfp_t gfp);
/*
 * kmalloc_array - @n * @size bytes; NULL (with a message, unless
 * __GFP_NOWARN) when the product overflows. kcalloc - the same, zeroed.
 */
void *kmalloc_array(size_t n, size_t size, gfp_t gfp);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
/*
 * krealloc - resize @p (NULL: like kmalloc) to @new_size, keeping the
 * first min(old, new) bytes; @new_size 0 frees @p and returns
 * ZERO_SIZE_PTR, as Linux's does (and as kmalloc(0)). When the object
 * already holds @new_size bytes (and, with __GFP_DMA32, lies below 4 GiB)
 * it is returned unchanged. On failure @p is
 * left as it was and NULL is returned; a @p that kmalloc() did not return
 * (or an interior pointer) is refused with a message, as kfree() refuses.
 */
void *krealloc(const void *p, size_t new_size, gfp_t gfp);
/*
 * kfree - NULL is a no-op; a bad pointer is refused with a message
 * (inline: <mm/slab_fast.h>).
 */
/* ksize - the bytes usable at @p (its size class); 0 for NULL or a bad pointer. */
size_t ksize(const void *p);

/*
 * kmem_cache_create - a cache of @size-byte objects aligned to @align (0,
 * or a power of two up to PAGE_SIZE), at least to 8 bytes, and to 64 with
 * SLAB_HWCACHE_ALIGN; with SLAB_CACHE_DMA32, all below 4 GiB. @ctor, if any, runs once on every object when its
 * slab is made: objects keep their constructed state across free and
 * allocation, as in Linux. @name is copied (up to 31 characters).
 * Objects up to half the largest slab (PAGE_SIZE << min(MAX_PAGE_ORDER,
 * 6): 128 KiB with 4K pages, 2 MiB with 64K) have a cache; the largest
 * take a slab each, their header in the first slot.
 * Return: the cache, or NULL (with a message) for a size of 0 or one no
 * slab can hold beside its header, a bad alignment, more than
 * SLAB_MAX_CACHES caches, or no memory.
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *));
void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp);
void *kmem_cache_zalloc(struct kmem_cache *cache, gfp_t gfp);
/* kmem_cache_free - refused, with a message, for an object of another cache. */
void kmem_cache_free(struct kmem_cache *cache, void *obj);
/*
 * kmem_cache_destroy - free the cache and its empty slabs. Refused, with a
 * message naming the cache and how many objects are live, while any is;
 * the cache then stays usable. NULL is a no-op.
 */
void kmem_cache_destroy(struct kmem_cache *cache);
/*
 * kmem_cache_shrink - give every empty slab of @cache back to the page
 * allocator: the shared ones, the reserve, and this CPU's own when empty.
 * Return: the number of slabs given back.
 */
int kmem_cache_shrink(struct kmem_cache *cache);
/* kmem_cache_shrink_all - the same for every cache. */
int kmem_cache_shrink_all(void);
/* kmem_cache_size - the object size @cache was created with. */
unsigned int kmem_cache_size(struct kmem_cache *cache);

/*
 * kmem_cache_init - set up the kmalloc caches. Called on the first use of
 * any function above; calling it again is harmless. Not before
 * memblock_free_all() has given the page allocator memory, nor while it
 * has none for the slab table: until then kmalloc() returns NULL with a
 * warning, kmem_cache_create() refuses, slab_check() finds nothing, and
 * the first call after sets the caches up.
 */
void kmem_cache_init(void);

/*
 * slab_check - walk every cache and slab and report (pr_err) each broken
 * invariant: a slab header that does not describe its slab, a bitmap bit
 * beyond the last object, counts that disagree with the bitmaps, a slab on
 * the wrong list; with SLAB_DEBUG, a red zone written over or a free object
 * written to. Other CPUs may be allocating: it holds them still while it
 * walks (smp_stop_others()); one that does not stop in time is named and
 * counted as a problem, and nothing is checked.
 * Return: the number of problems found, 0 when the state is sound.
 */
int slab_check(void);

/*
 * show_slabinfo - print every cache in /proc/slabinfo's columns, every
 * other CPU held still meanwhile (smp_stop_others()).
 */
void show_slabinfo(void);

/* Counts for tests and slabinfo: objects in use, slabs held (all caches). */
unsigned long slab_nr_slabs(void);
unsigned long slab_nr_large_pages(void);
/* Pages in slabs and large kmalloc blocks: all the page allocator lent. */
unsigned long slab_nr_pages(void);

#include <mm/slab_fast.h>

#endif /* MM_SLAB_H */
