/*
 * slab_state.h - the slab allocator's private state: caches, slabs, the
 * per-CPU slab pointers, the page table that finds a slab from any of
 * its addresses, and who may touch what. Only mm/slab*.c (and tests that
 * look inside) include this. docs/allocator.md ("Small objects") tells
 * the whole design.
 *
 * A slab is one naturally aligned block of 2^cache->order pages from
 * alloc_pages(). Object i of a slab lives at (char *)slab + i * stride;
 * the first objects' room holds the header (struct slab, then the
 * bitmaps), so the first real object is number cache->first. Any object
 * pointer finds its slab through slab_tab[], one byte per page of RAM
 * holding the log2 of the size of the slab covering the page (0: none):
 * rounding the address down to that size gives the header.
 *
 * An object's state is three bits, in three words per 64 objects: the
 * owner's two side by side in map[2w .. 2w + 1] (SLAB_MAP_LONGS;
 * <mm/slab_fast.h> names the index of each), the remote word in
 * slab_remote(s)->word[w], lines away from them:
 *   the alloc word   (1: free, ready to be handed out) kmalloc() takes
 *                    its lowest bit; written only by the slab's owner;
 *   the freed word   (1: freed by the owner since its bits last moved to
 *                    the alloc word) kfree() sets the bit; written only
 *                    by the owner, which moves it to the alloc word when
 *                    that runs dry (slab_merge_freed()). Two words, so
 *                    that an allocation never waits for the free before
 *                    it: each fast path writes its own word;
 *   the remote word  (1: freed by another CPU, not yet taken back; set
 *                    with an atomic OR by that CPU, cleared by the owner
 *                    with an atomic exchange).
 * An object is in use iff all three bits are 0; no two are ever 1. Bits
 * below cache->first and from cache->nr_objects on are always 0.
 *
 * A slab is in one of four states:
 *   SLAB_ACTIVE   owned by one CPU, as its current slab (kmem_cache_cpu)
 *                 or on its partial list (slab_pcpu.partial): that CPU
 *                 allocates from it and frees into map[] without a lock
 *                 or an atomic; every other CPU frees into the remote
 *                 words.
 *   SLAB_FULL     its owner found no free object and let it go: no owner,
 *                 on no list. The remote free that brings its free
 *                 objects to cache->full_relist moves it to PARTIAL.
 *   SLAB_PARTIAL  on cache->partial, under cache->lock, no owner; a CPU
 *                 that needs a slab takes it (and becomes its owner).
 *   SLAB_SPARE    empty, kept as the cache's reserve (cache->spare).
 */
#ifndef MM_SLAB_STATE_H
#define MM_SLAB_STATE_H

#include <lib/atomic.h>
#include <lib/compiler.h>
#include <mm/slab.h>
#include <smp/percpu.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include "page_state.h"

/*
 * Slab sizes. Each cache has its own slab order (cache->order), the
 * smallest that keeps what the header costs (the object slots it covers,
 * and the tail no object fits in) within 1% of the slab for objects of 64
 * bytes and more, and one page for smaller ones: 4 KiB slabs for 8..32
 * bytes, 32 KiB for 64 to 256, up to 256 KiB for 2048 (4K pages;
 * docs/allocator.md has the table). Small slabs keep the memory a CPU
 * holds in its current slabs small; large ones keep the large classes'
 * header cost under 1%. SLAB_MAX_ORDER caps the order.
 *
 * A stride that no slab up to the cap holds within 1% (PAGE_SIZE, whose
 * header takes a whole slot: 1/64 at the cap) takes the least order that
 * loses at most 1/SLAB_LOSS_FALLBACK, as SLUB accepts, rather than the
 * cap: 15 page-sized objects in 16 pages, 64 KiB with 4K pages, where
 * 63 in 256 KiB would have every CPU that allocates one page-sized
 * object hold 256 KiB for it.
 */
#define SLAB_MAX_ORDER	(MAX_PAGE_ORDER < 6 ? MAX_PAGE_ORDER : 6)
#define SLAB_MAX_SIZE	(PAGE_SIZE << SLAB_MAX_ORDER)
#define SLAB_LOSS_FALLBACK	16
#define SLAB_MAGIC	((uintptr_t)0x736c616273746174ULL)	/* "slabstat" */

/*
 * A full slab (SLAB_FULL) goes back on cache->partial once remote frees
 * have given it a quarter of its objects back, at most this many: the CPU
 * that lists it and the one that takes it each pay a cache->lock round
 * trip, so a slab listed at its first free would cost two for one object.
 * A full slab holds fewer free objects than that out of reach; an
 * allocation that finds the page allocator exhausted lists every full
 * slab with a free object first (slab_relist_full()).
 */
#define SLAB_FULL_RELIST_MAX	32

#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif

/*
 * struct slab, the per-CPU state (struct slab_pcpu, struct
 * kmem_cache_cpu) and slab_tab are in <mm/slab_fast.h>, which kmalloc()'s
 * and kfree()'s inline fast paths read.
 */

#define NR_KMALLOC_CACHES	(KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_LOW + 1)

#define SLAB_RED_BYTE		0xbb	/* red zone: bytes after each object */
#define SLAB_POISON_BYTE	0x6b	/* a free object's every byte */

enum slab_state {
	SLAB_ACTIVE = 1,
	SLAB_FULL,
	SLAB_PARTIAL,
	SLAB_SPARE,
};

struct kmem_cache {
	/* Constant once made (slab_obj_entry() gives shift and first to kfree()). */
	unsigned int shift;		/* log2(size) when a power of two, else 0 */
	unsigned int first;		/* the first object's index (after the header) */
	unsigned int slot;		/* index into each CPU's slab_pcpu.c[] */
	unsigned int size;		/* the stride between objects */
	unsigned int object_size;	/* what the user asked for */
	unsigned int align;
	unsigned int recip_shift;	/* idx = off * recip >> recip_shift */
	uint64_t recip;
	unsigned int order;		/* a slab is 2^order pages */
	unsigned int nr_objects;	/* object indexes end here: first..nr_objects-1 */
	unsigned int map_words;		/* 64-object words (SLAB_MAP_LONGS each in map[]) */
	unsigned int remote_off;	/* a slab's struct slab_remote, from its start */
	unsigned int full_relist;	/* remote frees a SLAB_FULL slab waits for */
	unsigned long flags;
	char name[32];
	void (*ctor)(void *obj);
	bool poison;			/* SLAB_DEBUG and no ctor */

	spinlock_t lock;
	/* cache->lock. */
	struct slab_list partial;	/* SLAB_PARTIAL slabs */
	struct slab_list slabs;		/* every slab */
	struct slab *spare;		/* an empty slab kept back, or NULL */
	unsigned long nr_slabs;
	unsigned long nr_partial;
	/* slab_caches_lock. */
	struct slab_list caches;	/* on slab_caches */
};

extern struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
extern struct kmem_cache kmalloc_dma32_caches[NR_KMALLOC_CACHES];
extern struct slab_list slab_caches;
extern spinlock_t slab_caches_lock;

static inline void slab_list_init(struct slab_list *l)
{
	l->next = l->prev = l;
}

static inline bool slab_list_empty(const struct slab_list *l)
{
	return l->next == l;
}

static inline void slab_list_add(struct slab_list *n, struct slab_list *head)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

static inline void slab_list_del(struct slab_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

#define slab_entry(ptr, member) container_of(ptr, struct slab, member)

static inline size_t slab_bytes(const struct kmem_cache *c)
{
	return PAGE_SIZE << c->order;
}

/* The table's byte for unit @u, or NULL outside the table. */
static __always_inline uint8_t *slab_tab_unit(unsigned long u)
{
	if (u >= smp_load_acquire(&slab_tab.units))
		return NULL;
	if (likely(!slab_tab.dir))
		return &slab_tab.tab[u];
	return &slab_tab.dir[u >> slab_tab.chunk_shift]
			    [u & ((1UL << slab_tab.chunk_shift) - 1)];
}

/* The table's byte for @phys, or NULL outside the table. */
static __always_inline uint8_t *slab_tab_entry(phys_addr_t phys)
{
	return slab_tab_unit((unsigned long)((phys - slab_tab.lo) >> slab_tab.shift));
}

/*
 * The slab holding @p, or NULL: the table must say a slab covers @p's
 * unit; then the header is at @p rounded down to the slab's size.
 */
static __always_inline struct slab *slab_of(const void *p)
{
	unsigned long rel = (uintptr_t)p - slab_tab.vlo;
	uint8_t *t = slab_tab_unit(rel >> slab_tab.shift);
	int v;

	if (!t)
		return NULL;
	v = (int8_t)__atomic_load_n(t, __ATOMIC_RELAXED);
	if (v <= 0)
		return NULL;
	/* v = 64 - log2 of the slab's size: the offset's bits below it. */
	return (struct slab *)((uintptr_t)p - (rel << v >> v));
}

/* The slab an object address belongs to, @p known to be in one. */
static inline struct slab *slab_base(const void *p)
{
	return slab_of(p);
}

/* A slab of @c's SLAB_OBJ() entry in slab_tab.obj. */
static inline uint16_t slab_obj_entry(const struct kmem_cache *c)
{
	if (c->shift < 3 || c->shift > 15 || c->first >= 4095)
		return SLAB_OBJ_NONE;
	return SLAB_OBJ(c->shift, c->first);
}

static inline bool slab_header_ok(const struct slab *s)
{
	return s->check == (SLAB_MAGIC ^ (uintptr_t)s);
}

/* The current slab of @c: the one its cursor word is in. */
static inline struct slab *cpu_slab(const struct kmem_cache_cpu *c)
{
	return c->word ? slab_of(c->word) : NULL;
}

/* Object index of the object starting @off bytes after the slab's start. */
static inline unsigned long slab_index(const struct kmem_cache *c,
				       unsigned long off)
{
	if (c->shift)
		return off >> c->shift;
	return (unsigned long)((off * c->recip) >> c->recip_shift);
}

static inline void *slab_object(const struct slab *s, unsigned long idx)
{
	return (char *)s + idx * s->cache->size;
}

static inline unsigned long *slab_aword(struct slab *s, unsigned int w)
{
	return &s->map[SLAB_MAP_LONGS * w + SLAB_MAP_ALLOC];
}

static inline unsigned long *slab_fword(struct slab *s, unsigned int w)
{
	return &s->map[SLAB_MAP_LONGS * w + SLAB_MAP_FREED];
}

static inline unsigned long *slab_rword(struct slab *s, unsigned int w)
{
	return &slab_remote(s)->word[w];
}

/* @s's state word: any CPU, by compare-and-swap (slab.c). */
static inline atomic_long_t *slab_sc(const struct slab *s)
{
	return &slab_remote(s)->sc;
}

/*
 * The objects of word @w free on the owner's side (alloc | freed), read
 * by any CPU. The freed word first, with acquire: the owner's merge
 * writes the alloc word and then clears the freed word with release, so
 * a reader that sees it cleared sees the alloc word with its bits.
 */
static inline unsigned long slab_owner_free(struct slab *s, unsigned int w)
{
	unsigned long f = __atomic_load_n(slab_fword(s, w), __ATOMIC_ACQUIRE);

	return f | READ_ONCE(*slab_aword(s, w));
}

/*
 * As @s's owner (or its only holder): move word @w's freed bits to its
 * alloc word (see slab_owner_free() for the order). Return: the alloc
 * word's bits.
 */
static inline unsigned long slab_merge_freed(struct slab *s, unsigned int w)
{
	unsigned long f = READ_ONCE(*slab_fword(s, w));
	unsigned long a = READ_ONCE(*slab_aword(s, w));

	if (f) {
		a |= f;
		WRITE_ONCE(*slab_aword(s, w), a);
		__atomic_store_n(slab_fword(s, w), 0, __ATOMIC_RELEASE);
	}
	return a;
}

/* The bits of word @w that stand for objects (first..nr_objects-1). */
static inline unsigned long slab_word_mask(const struct kmem_cache *c,
					   unsigned int w)
{
	unsigned long lo = (unsigned long)w * 64, hi = lo + 64, m = ~0UL;

	if (c->nr_objects < hi)
		m = c->nr_objects <= lo ? 0 : (1UL << (c->nr_objects - lo)) - 1;
	if (c->first > lo)
		m &= c->first >= hi ? 0 : ~((1UL << (c->first - lo)) - 1);
	return m;
}

/* Objects a slab of @c holds. */
static inline unsigned int slab_capacity(const struct kmem_cache *c)
{
	return c->nr_objects - c->first;
}

/* slab.c */
int slab_collect_remote(struct slab *s);
unsigned int slab_inuse(struct slab *s);
void slab_release(struct kmem_cache *cache, struct slab *s);
void slab_deactivate(struct kmem_cache *cache, struct slab *s);
unsigned long kmem_cache_objects_in_use(struct kmem_cache *cache);
int slab_state_of(const struct slab *s);

/* slab_debug.c: with SLAB_DEBUG, poison and red zones. */
void slab_debug_init_object(struct kmem_cache *cache, void *obj);
void slab_debug_on_alloc(struct kmem_cache *cache, void *obj);
void slab_debug_on_free(struct kmem_cache *cache, void *obj);
int slab_debug_check_slab(struct slab *s);

/* slab_large.c: kmalloc above KMALLOC_MAX_CACHE_SIZE. */
/*
 * The page allocator is exhausted: every empty slab, this CPU's, the
 * caches' and (by requests) other CPUs', back to it. Return: how many.
 */
unsigned long slab_shrink_everywhere(void);
/*
 * slab_setup - kmem_cache_init(), saying whether the slab allocator is set
 * up: not before memblock_free_all() has given the page allocator memory,
 * nor while it has none for the slab table (a later call tries again).
 * Every entry that reads the caches calls it first.
 */
bool slab_setup(void);
/* What a refusal before the set-up says (slab_setup() false). */
#define SLAB_NOT_SET_UP	"the slab allocator is not set up: no memory handed " \
			"to the page allocator yet (memblock_free_all()), " \
			"or none for its table"
void *kmalloc_large(size_t size, gfp_t gfp);
/* 1: freed; 0: not a large kmalloc block (nothing done). */
int kfree_large(const void *p);
size_t ksize_large(const void *p);
void slab_large_cpu_dead(unsigned int cpu);
void slab_large_reset(void);

#endif /* MM_SLAB_STATE_H */
