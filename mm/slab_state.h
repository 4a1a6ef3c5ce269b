/*
 * slab_state.h - the slab allocator's private state: caches, slabs, the
 * per-CPU slab pointers, and who may touch what. Only mm/slab*.c include
 * this. docs/allocator.md ("Small objects") tells the whole design.
 *
 * A slab is one naturally aligned block of SLAB_PAGES pages from
 * alloc_pages(). Its first bytes are its header (struct slab, then two
 * bitmaps), the objects follow from cache->obj0, each at a multiple of
 * the cache's stride. Any object pointer finds its slab by rounding its
 * physical address down to SLAB_SIZE; the slab's first struct page
 * (PG_ALLOC | SLAB_ORDER) and the header's check word prove it is one.
 *
 * An object's state is two bits: in map[] (1: free, written only by the
 * slab's owner) and in rmap[] (1: freed by another CPU, not yet taken
 * back; set with an atomic OR by that CPU, cleared by the owner with an
 * atomic exchange). An object is in use iff both bits are 0.
 *
 * A slab is in one of four states:
 *   SLAB_ACTIVE   some CPU's current slab (kmem_cache_cpu.slab): that CPU,
 *                 its owner, allocates from it and frees into map[]
 *                 without a lock; every other CPU frees into rmap[].
 *   SLAB_FULL     its owner found no free object and let it go: no owner,
 *                 on no list. The first remote free moves it to PARTIAL.
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
 * Slabs are 64 pages (256 KiB with 4K pages) where the geometry allows:
 * then even the largest kmalloc class (PAGE_SIZE / 2) has 128 objects a
 * slab, and the header, which costs it one object, stays under 1%. With a
 * smaller MAX_PAGE_ORDER, a slab is a top-order block.
 */
#define SLAB_ORDER	(MAX_PAGE_ORDER < 6 ? MAX_PAGE_ORDER : 6)
#define SLAB_PAGES	(1UL << SLAB_ORDER)
#define SLAB_SIZE	(PAGE_SIZE << SLAB_ORDER)
#define SLAB_MAGIC	((uintptr_t)0x736c616273746174ULL)	/* "slabstat" */

#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif

#define NR_KMALLOC_CACHES	(KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_LOW + 1)

#ifndef CONFIG_SLAB_DEBUG
#define CONFIG_SLAB_DEBUG	0
#endif
#define SLAB_RED_BYTE		0xbb	/* red zone: bytes after each object */
#define SLAB_POISON_BYTE	0x6b	/* a free object's every byte */

enum slab_state {
	SLAB_ACTIVE = 1,
	SLAB_FULL,
	SLAB_PARTIAL,
	SLAB_SPARE,
};

struct slab_list {
	struct slab_list *next, *prev;
};

struct slab {
	/* Written when the slab is made, constant until it is given back. */
	uintptr_t check;		/* SLAB_MAGIC ^ address; 0 once given back */
	struct kmem_cache *cache;
	char *obj0;			/* object 0 */
	/* The owner's (SLAB_ACTIVE), or its one holder's; frozen otherwise. */
	unsigned int cursor;		/* map[] words below it are all 0 */
	unsigned int inuse;		/* objects neither in map[] nor taken back from rmap[] */
	unsigned int collected;		/* rmap[] bits ever taken back, mod 2^28 */
	int owner;			/* owning CPU, -1 without one (for checks) */
	/*
	 * Any CPU, by compare-and-swap: the state, R (remote frees ever
	 * counted) and frozen (R when all is free), see slab.c.
	 */
	atomic_long_t sc;
	/* cache->lock. */
	struct slab_list list;		/* on cache->partial */
	struct slab_list all;		/* on cache->slabs: every slab of the cache */
	unsigned long map[];		/* map[map_words], then rmap[map_words] */
};

struct kmem_cache {
	/* Constant once made. */
	char name[32];
	unsigned int object_size;	/* what the user asked for */
	unsigned int size;		/* the stride between objects */
	unsigned int align;
	unsigned int shift;		/* log2(size) when a power of two, else 0 */
	unsigned int recip_shift;	/* idx = off * recip >> recip_shift */
	uint64_t recip;
	unsigned int obj0;		/* offset of object 0 in a slab */
	unsigned int nr_objects;	/* per slab */
	unsigned int map_words;		/* words in map[] (and in rmap[]) */
	unsigned int slot;		/* index into each CPU's slab_pcpu.c[] */
	unsigned long flags;
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

/* Each CPU's current slab of each cache: written only by that CPU. */
struct kmem_cache_cpu {
	struct slab *slab;
};

struct slab_pcpu {
	struct kmem_cache_cpu c[SLAB_MAX_CACHES];
};

DECLARE_PER_CPU(struct slab_pcpu, slab_pcpu);

extern struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
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

static inline unsigned long *slab_rmap(const struct slab *s)
{
	return (unsigned long *)s->map + s->cache->map_words;
}

/* The slab an address would belong to: its SLAB_SIZE-aligned start. */
static inline struct slab *slab_base(const void *p)
{
	phys_addr_t phys = virt_to_phys(p);

	return phys_to_virt(phys & ~(phys_addr_t)(SLAB_SIZE - 1));
}

static inline bool slab_header_ok(const struct slab *s)
{
	return s->check == (SLAB_MAGIC ^ (uintptr_t)s);
}

/* Object index of the object starting @off bytes after obj0. */
static inline unsigned long slab_index(const struct kmem_cache *c,
				       unsigned long off)
{
	if (c->shift)
		return off >> c->shift;
	return (unsigned long)((off * c->recip) >> c->recip_shift);
}

static inline void *slab_object(const struct slab *s, unsigned long idx)
{
	return s->obj0 + idx * s->cache->size;
}

/* The bits of map word @w that stand for objects (the last word is short). */
static inline unsigned long slab_word_mask(const struct kmem_cache *c,
					   unsigned int w)
{
	unsigned int n = c->nr_objects - w * 64;

	return n >= 64 ? ~0UL : (1UL << n) - 1;
}

/* slab.c */
int slab_collect_remote(struct slab *s);
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
void *kmalloc_large(size_t size, gfp_t gfp);
/* 1: freed; 0: not a large kmalloc block (nothing done). */
int kfree_large(const void *p, struct page *page);
size_t ksize_large(struct page *page);
void slab_large_reset(void);

#endif /* MM_SLAB_STATE_H */
