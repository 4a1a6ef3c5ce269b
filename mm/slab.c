/*
 * slab.c - the slab allocator: per-CPU slabs, the lock-free fast paths,
 * remote frees, and how slabs move between CPUs, the cache's lists and
 * the page allocator. The design and its invariants: slab_state.h and
 * docs/allocator.md ("Small objects").
 *
 * Fast paths. Allocation takes the first set bit of the current slab's
 * map[] word at its cursor; a free by the slab's owner sets the bit
 * again. Neither takes a lock or an atomic read-modify-write: only the
 * owner writes map[]. A free on any other CPU sets the object's bit in
 * rmap[] with an atomic OR and counts itself in the slab's state word;
 * the owner takes rmap[] back when its map[] runs dry.
 *
 * The state word (slab->sc) packs the slab's state, the number of remote
 * frees ever made (R) and, while the slab has no owner, the value R will
 * have when every object is free again (frozen). The remote free that
 * changes it with one compare-and-swap also learns, in the same step,
 * whether it must put the slab on the cache's partial list (the first free
 * after its owner let it go full) or give it back (the last object out),
 * so no CPU ever touches a slab after its own free unless it was given
 * one of those two jobs.
 */
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/test_reset.h>
#include "slab_state.h"

DEFINE_PER_CPU(struct slab_pcpu, slab_pcpu);

struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
/* Every cache; slab_caches_lock. Made empty by kmem_cache_init(). */
struct slab_list slab_caches;
DEFINE_SPINLOCK(slab_caches_lock);
/* Slots of slab_pcpu.c[] in use; slab_caches_lock. */
static unsigned long slab_slots[(SLAB_MAX_CACHES + 63) / 64];
/* 1 once the kmalloc caches exist: set with release, read with acquire. */
static int slab_ready_flag;
static bool slab_hook_registered;	/* slab_caches_lock */

/*
 * Where slabs live: one bit per SLAB_SIZE of physical memory from
 * slab_phys_lo, set while a slab starts there (atomic OR and AND; read
 * relaxed). kfree() asks it before it reads anything at a slab's address.
 * Made by kmem_cache_init(); without it (no block large enough for the
 * span of RAM) the struct page of the slab's first page is asked instead.
 */
static unsigned long *slab_bases;
static unsigned long slab_nr_bases;
static phys_addr_t slab_phys_lo;

#define SLAB_SHIFT	(PAGE_SHIFT + SLAB_ORDER)

static void slab_bases_init(void)
{
	const struct page_allocator *pa = &page_allocator;
	const struct mem_section *first, *last;
	phys_addr_t lo, hi;
	struct page *page;
	int order;

	if (slab_bases || !pa->nr_sections)
		return;
	first = &pa->sections[0];
	last = &pa->sections[pa->nr_sections - 1];
	lo = PFN_PHYS((first->section << PFN_SECTION_SHIFT) + first->lo);
	hi = PFN_PHYS((last->section << PFN_SECTION_SHIFT) + last->hi);
	lo &= ~(phys_addr_t)(SLAB_SIZE - 1);
	slab_nr_bases = (unsigned long)((hi - lo) >> SLAB_SHIFT) + 1;
	order = get_order(ALIGN_UP(slab_nr_bases, 64) / 8);
	if (order > MAX_PAGE_ORDER)
		return;
	page = alloc_pages(__GFP_ZERO | __GFP_NOWARN, (unsigned int)order);
	if (!page)
		return;
	slab_phys_lo = lo;
	smp_store_release(&slab_bases, (unsigned long *)page_address(page));
}

static void slab_bases_mark(const struct slab *s, bool live)
{
	unsigned long i = (unsigned long)((virt_to_phys(s) - slab_phys_lo) >> SLAB_SHIFT);

	if (!slab_bases)
		return;
	if (live)
		__atomic_fetch_or(&slab_bases[i / 64], 1UL << (i % 64), __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&slab_bases[i / 64], ~(1UL << (i % 64)), __ATOMIC_RELEASE);
}

/* ---- the state word ------------------------------------------------ */

#define SC_BITS		28
#define SC_MASK		((1L << SC_BITS) - 1)
#define SC_STATE_SHIFT	(2 * SC_BITS)

/* Two more states, each held by exactly one CPU doing the job it names. */
#define SLAB_PENDING	(SLAB_SPARE + 1)	/* being put on cache->partial */
#define SLAB_RECLAIM	(SLAB_SPARE + 2)	/* empty: being given back */

static inline long sc_make(int state, long frozen, long count)
{
	return (long)state << SC_STATE_SHIFT | (frozen & SC_MASK) << SC_BITS |
	       (count & SC_MASK);
}

static inline int sc_state(long v)
{
	return (int)(v >> SC_STATE_SHIFT);
}

static inline long sc_frozen(long v)
{
	return (v >> SC_BITS) & SC_MASK;
}

static inline long sc_count(long v)
{
	return v & SC_MASK;
}

static inline bool sc_cas(atomic_long_t *v, long *old, long new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* Set the state, keeping R; frozen from the owner's own counts. */
static long slab_set_state(struct slab *s, int state)
{
	long frozen = (long)(s->collected + s->inuse);
	long old = atomic_long_read(&s->sc);

	while (!sc_cas(&s->sc, &old, sc_make(state, frozen, sc_count(old))))
		;
	return old;
}

int slab_state_of(const struct slab *s)
{
	return sc_state(atomic_long_read(&s->sc));
}

/* ---- messages ------------------------------------------------------- */

static __attribute__((noinline, cold)) void
refuse(const char *fn, const void *p, const struct kmem_cache *cache,
       const char *why)
{
	if (cache)
		pr_err("%s: refused %p in cache %s: %s\n", fn, p, cache->name,
		       why);
	else
		pr_err("%s: refused %p in no cache: %s\n", fn, p, why);
}

/* ---- slabs ---------------------------------------------------------- */

static struct slab *slab_new(struct kmem_cache *cache, gfp_t gfp)
{
	struct page *page = alloc_pages((gfp & ~__GFP_ZERO) | __GFP_NOWARN,
					     SLAB_ORDER);
	unsigned long *rmap;
	struct slab *s;

	if (!page)
		return NULL;
	s = page_address(page);
	s->cache = cache;
	s->obj0 = (char *)s + cache->obj0;
	s->cursor = 0;
	s->inuse = 0;
	s->collected = 0;
	s->owner = -1;
	atomic_long_set(&s->sc, sc_make(SLAB_ACTIVE, 0, 0));
	rmap = slab_rmap(s);
	for (unsigned int w = 0; w < cache->map_words; w++) {
		s->map[w] = slab_word_mask(cache, w);
		rmap[w] = 0;
	}
	for (unsigned int i = 0; i < cache->nr_objects; i++) {
		if (cache->ctor)
			cache->ctor(slab_object(s, i));
		if (CONFIG_SLAB_DEBUG)
			slab_debug_init_object(cache, slab_object(s, i));
	}
	s->check = SLAB_MAGIC ^ (uintptr_t)s;
	slab_bases_mark(s, true);
	slab_list_init(&s->list);
	spin_lock(&cache->lock);
	slab_list_add(&s->all, &cache->slabs);
	cache->nr_slabs++;
	spin_unlock(&cache->lock);
	return s;
}

/* Hand a slab no CPU can reach any more back to the page allocator. */
static void slab_free_slab(struct kmem_cache *cache, struct slab *s)
{
	spin_lock(&cache->lock);
	slab_list_del(&s->all);
	cache->nr_slabs--;
	s->check = 0;
	slab_bases_mark(s, false);
	spin_unlock(&cache->lock);
	__free_pages(virt_to_page(s), SLAB_ORDER);
}

/*
 * slab_release - @s is empty, held by this CPU alone and on no list:
 * keep it as the cache's spare if it has none, else give it back.
 */
void slab_release(struct kmem_cache *cache, struct slab *s)
{
	s->owner = -1;
	spin_lock(&cache->lock);
	if (!cache->spare) {
		atomic_long_set(&s->sc, sc_make(SLAB_SPARE, 0, 0));
		s->collected = 0;
		s->cursor = 0;
		cache->spare = s;
		spin_unlock(&cache->lock);
		return;
	}
	spin_unlock(&cache->lock);
	slab_free_slab(cache, s);
}

/*
 * slab_collect_remote - as @s's owner (or its only holder), take back the
 * objects other CPUs freed into rmap[]. Return: objects made free.
 */
int slab_collect_remote(struct slab *s)
{
	const struct kmem_cache *cache = s->cache;
	unsigned long *rmap = slab_rmap(s);
	int got = 0;

	for (unsigned int w = 0; w < cache->map_words; w++) {
		unsigned long r, fresh, old;

		if (!__atomic_load_n(&rmap[w], __ATOMIC_RELAXED))
			continue;
		r = __atomic_exchange_n(&rmap[w], 0, __ATOMIC_ACQUIRE);
		old = READ_ONCE(s->map[w]);
		/* A bit already free here was freed twice at once: once. */
		fresh = r & ~old;
		WRITE_ONCE(s->map[w], old | fresh);
		s->collected += (unsigned int)__builtin_popcountl(r);
		s->inuse -= (unsigned int)__builtin_popcountl(fresh);
		got += __builtin_popcountl(fresh);
		if (fresh && w < s->cursor)
			s->cursor = w;
	}
	return got;
}

/*
 * slab_publish - @s, held by this CPU alone, goes on cache->partial; or,
 * when every object it has out was freed meanwhile, back to the spare or
 * the page allocator.
 */
static void slab_publish(struct kmem_cache *cache, struct slab *s)
{
	for (;;) {
		long frozen, old;

		s->owner = -1;
		frozen = (long)(s->collected + s->inuse) & SC_MASK;
		spin_lock(&cache->lock);
		old = atomic_long_read(&s->sc);
		while (!sc_cas(&s->sc, &old,
			       sc_make(sc_count(old) == frozen ? SLAB_RECLAIM
							       : SLAB_PARTIAL,
				       frozen, sc_count(old))))
			;
		if (sc_count(old) != frozen) {
			slab_list_add(&s->list, &cache->partial);
			cache->nr_partial++;
			spin_unlock(&cache->lock);
			return;
		}
		spin_unlock(&cache->lock);
		slab_collect_remote(s);
		if (!s->inuse) {
			slab_release(cache, s);
			return;
		}
	}
}

/* The reclaim job a remote free was given: take @s off the list, give it back. */
static void slab_reclaim(struct kmem_cache *cache, struct slab *s)
{
	spin_lock(&cache->lock);
	slab_list_del(&s->list);
	cache->nr_partial--;
	spin_unlock(&cache->lock);
	slab_collect_remote(s);
	if (!s->inuse)
		slab_release(cache, s);
	else
		slab_publish(cache, s);
}

/*
 * slab_deactivate - @s was a CPU's current slab and is no longer: give it
 * back when empty, else put it on the partial list for any CPU.
 */
void slab_deactivate(struct kmem_cache *cache, struct slab *s)
{
	slab_collect_remote(s);
	if (!s->inuse)
		slab_release(cache, s);
	else
		slab_publish(cache, s);
}

/* Any rmap[] bit set? */
static bool slab_remote_pending(const struct slab *s)
{
	const unsigned long *rmap = slab_rmap(s);

	for (unsigned int w = 0; w < s->cache->map_words; w++)
		if (__atomic_load_n(&rmap[w], __ATOMIC_SEQ_CST))
			return true;
	return false;
}

/*
 * The owner found no free object in @s: let it go (SLAB_FULL). A remote
 * free that lands before the state changes is seen in rmap[] below (its
 * bit is set before it counts itself), and the owner keeps the slab;
 * one that lands after sees SLAB_FULL and lists the slab itself.
 */
static bool slab_let_go(struct slab *s)
{
	long old;

	s->owner = -1;
	slab_set_state(s, SLAB_FULL);
	if (!slab_remote_pending(s))
		return false;
	old = atomic_long_read(&s->sc);
	while (sc_state(old) == SLAB_FULL)
		if (sc_cas(&s->sc, &old, sc_make(SLAB_ACTIVE, sc_frozen(old),
						 sc_count(old))))
			return true;
	return false;
}

/*
 * Take @s off cache->partial for this CPU, unless a remote free is giving
 * it back (SLAB_RECLAIM). cache->lock held.
 */
static bool slab_claim_partial(struct kmem_cache *cache, struct slab *s)
{
	long old = atomic_long_read(&s->sc);

	while (sc_state(old) == SLAB_PARTIAL) {
		if (sc_cas(&s->sc, &old, sc_make(SLAB_ACTIVE, sc_frozen(old),
						 sc_count(old)))) {
			slab_list_del(&s->list);
			cache->nr_partial--;
			return true;
		}
	}
	return false;
}

/* A slab for this CPU from the cache: the spare, or a partial one. */
static struct slab *slab_take_shared(struct kmem_cache *cache)
{
	struct slab_list *pos;
	struct slab *s;

	spin_lock(&cache->lock);
	s = cache->spare;
	if (s) {
		cache->spare = NULL;
		atomic_long_set(&s->sc, sc_make(SLAB_ACTIVE, 0,
						 sc_count(atomic_long_read(&s->sc))));
		spin_unlock(&cache->lock);
		return s;
	}
	for (pos = cache->partial.next; pos != &cache->partial; pos = pos->next) {
		s = slab_entry(pos, list);
		if (slab_claim_partial(cache, s)) {
			spin_unlock(&cache->lock);
			slab_collect_remote(s);
			return s;
		}
	}
	spin_unlock(&cache->lock);
	return NULL;
}

/* Move the cursor to the first map[] word with a free object. */
static bool slab_find_free(struct slab *s)
{
	for (unsigned int w = s->cursor; w < s->cache->map_words; w++) {
		if (READ_ONCE(s->map[w])) {
			s->cursor = w;
			return true;
		}
	}
	s->cursor = s->cache->map_words - 1;
	return false;
}

/* @shift: log2 of the stride when the caller knows it, else cache->shift. */
static __always_inline void *slab_take_object(struct kmem_cache *cache,
					      struct slab *s, gfp_t gfp,
					      unsigned int shift)
{
	unsigned int w = s->cursor;
	unsigned long bits = READ_ONCE(s->map[w]);
	unsigned long idx;
	void *obj;

	if (unlikely(!bits))
		return NULL;
	WRITE_ONCE(s->map[w], bits & (bits - 1));
	s->inuse++;
	idx = (unsigned long)w * 64 + (unsigned long)__builtin_ctzl(bits);
	obj = s->obj0 + (shift ? idx << shift : idx * cache->size);
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_alloc(cache, obj);
	if (unlikely(gfp & __GFP_ZERO))
		memset(obj, 0, cache->object_size);
	return obj;
}

static __attribute__((noinline)) void *
slab_alloc_slow(struct kmem_cache *cache, gfp_t gfp)
{
	struct kmem_cache_cpu *c;
	struct slab *s;
	void *obj;

	kmem_cache_init();
	c = &this_cpu_ptr(&slab_pcpu)->c[cache->slot];
	for (;;) {
		s = c->slab;
		if (s) {
			if (slab_find_free(s) || slab_collect_remote(s))
				goto take;
			c->slab = NULL;
			if (slab_let_go(s)) {
				c->slab = s;
				s->owner = (int)smp_processor_id();
				continue;
			}
		}
		s = slab_take_shared(cache);
		if (!s)
			s = slab_new(cache, gfp);
		if (!s) {
			if (!(gfp & __GFP_NOWARN))
				pr_warn("slab: cache %s: no memory for a slab "
					"of order %d\n", cache->name,
					SLAB_ORDER);
			return NULL;
		}
		s->owner = (int)smp_processor_id();
		c->slab = s;
		slab_find_free(s);
take:
		obj = slab_take_object(cache, s, gfp, cache->shift);
		if (obj)
			return obj;
	}
}

static __always_inline void *slab_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	struct slab *s = this_cpu_ptr(&slab_pcpu)->c[cache->slot].slab;
	void *obj;

	if (likely(s)) {
		obj = slab_take_object(cache, s, gfp, cache->shift);
		if (likely(obj))
			return obj;
	}
	return slab_alloc_slow(cache, gfp);
}

/* ---- freeing -------------------------------------------------------- */

/*
 * A free from a CPU that does not own @s: the bit in rmap[], then the
 * count, and whatever job the count hands out.
 */
static __attribute__((noinline)) void
slab_free_remote(struct kmem_cache *cache, struct slab *s, unsigned long idx,
		 const void *p, const char *fn)
{
	unsigned long *rmap = slab_rmap(s), bit = 1UL << (idx % 64);
	unsigned int w = (unsigned int)(idx / 64);
	long old, new;
	int state;

	if ((READ_ONCE(s->map[w]) | __atomic_load_n(&rmap[w], __ATOMIC_RELAXED)) & bit)
		{ refuse(fn, p, cache, "double free"); return; }
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_free(cache, (void *)p);
	if (__atomic_fetch_or(&rmap[w], bit, __ATOMIC_SEQ_CST) & bit)
		{ refuse(fn, p, cache, "double free (two CPUs at once)"); return; }
	old = atomic_long_read(&s->sc);
	do {
		long count = (sc_count(old) + 1) & SC_MASK;

		state = sc_state(old);
		if (state == SLAB_FULL)
			state = SLAB_PENDING;
		else if (state == SLAB_PARTIAL && count == sc_frozen(old))
			state = SLAB_RECLAIM;
		new = sc_make(state, sc_frozen(old), count);
	} while (!sc_cas(&s->sc, &old, new));
	if (state == SLAB_PENDING && sc_state(old) == SLAB_FULL)
		slab_publish(cache, s);
	else if (state == SLAB_RECLAIM && sc_state(old) == SLAB_PARTIAL)
		slab_reclaim(cache, s);
}

static __always_inline void slab_free(struct kmem_cache *cache, struct slab *s,
				      const void *p, const char *fn)
{
	unsigned long off = (unsigned long)((const char *)p - s->obj0);
	unsigned long idx = slab_index(cache, off), bit, map;
	unsigned int w;

	if (unlikely((const char *)p < s->obj0 || idx >= cache->nr_objects ||
		     slab_object(s, idx) != p))
		{ refuse(fn, p, cache, "not the start of an object"); return; }
	if (unlikely(s != this_cpu_ptr(&slab_pcpu)->c[cache->slot].slab))
		{ slab_free_remote(cache, s, idx, p, fn); return; }
	w = (unsigned int)(idx / 64);
	bit = 1UL << (idx % 64);
	map = READ_ONCE(s->map[w]);
	if (unlikely((map | __atomic_load_n(&slab_rmap(s)[w], __ATOMIC_RELAXED)) & bit))
		{ refuse(fn, p, cache, "double free"); return; }
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_free(cache, (void *)p);
	WRITE_ONCE(s->map[w], map | bit);
	s->inuse--;
	if (w < s->cursor)
		s->cursor = w;
}

/*
 * The slab holding object pointer @p, or NULL. A page-aligned @p whose
 * page heads a block is never a slab object (a slab's first page holds
 * its header): it may be a large kmalloc. Otherwise the block at @p's
 * SLAB_SIZE-aligned start must be an allocated block of SLAB_ORDER whose
 * header checks; only then is the header trusted.
 */
static __always_inline struct slab *slab_lookup(const void *p)
{
	unsigned long *bases = smp_load_acquire(&slab_bases);
	struct page *page;
	struct slab *s;

	if (likely(bases)) {
		unsigned long i = (unsigned long)((virt_to_phys(p) - slab_phys_lo) >>
						  SLAB_SHIFT);

		if (unlikely(i >= slab_nr_bases ||
			     !(__atomic_load_n(&bases[i / 64], __ATOMIC_ACQUIRE) &
			       (1UL << (i % 64)))))
			return NULL;
		s = slab_base(p);
		return likely(slab_header_ok(s)) ? s : NULL;
	}
	if (unlikely(!(virt_to_phys(p) & (PAGE_SIZE - 1)))) {
		page = virt_to_page(p);
		if (!page || page->state != PG_TAIL)
			return NULL;
	}
	s = slab_base(p);
	page = virt_to_page(s);
	if (unlikely(!page || page->state != (PG_ALLOC | SLAB_ORDER) ||
		     !slab_header_ok(s)))
		return NULL;
	return s;
}

/* ---- caches --------------------------------------------------------- */

static bool is_power_of_2(unsigned long x)
{
	return x && !(x & (x - 1));
}

/* Lay out @cache's slab and check that slab_index() is exact for it. */
static bool cache_layout(struct kmem_cache *cache)
{
	unsigned int stride = cache->size, n = SLAB_SIZE / stride, hdr, obj0;
	unsigned int l = 0;

	for (;;) {
		unsigned int words = (n + 63) / 64, m;

		hdr = (unsigned int)(sizeof(struct slab) + 2 * words * sizeof(long));
		obj0 = ALIGN_UP(hdr, cache->align);
		m = obj0 >= SLAB_SIZE ? 0 : (unsigned int)((SLAB_SIZE - obj0) / stride);
		if (m >= n)
			break;
		n = m;
	}
	if (!n)
		return false;
	cache->nr_objects = n;
	cache->map_words = (n + 63) / 64;
	cache->obj0 = obj0;
	cache->shift = is_power_of_2(stride) ? (unsigned int)__builtin_ctz(stride) : 0;
	/* idx = off * recip >> (24 + l), exact for off < 2^24 (slabs <= 4 MiB). */
	while ((1U << l) < stride)
		l++;
	cache->recip_shift = 24 + l;
	cache->recip = ((uint64_t)1 << cache->recip_shift) / stride + 1;
	if (cache->shift)
		return true;
	for (unsigned long i = 1; i <= n; i++)
		if (slab_index(cache, i * stride) != i ||
		    slab_index(cache, i * stride - 1) != i - 1)
			return false;
	return true;
}

static bool cache_setup(struct kmem_cache *cache, const char *name,
			unsigned int size, unsigned int align,
			unsigned long flags, void (*ctor)(void *))
{
	unsigned int stride;

	memset(cache, 0, sizeof(*cache));
	ksnprintf(cache->name, sizeof(cache->name), "%s", name);
	if (align < 8)
		align = 8;
	if ((flags & SLAB_HWCACHE_ALIGN) && align < 64)
		align = 64;
	stride = ALIGN_UP(size, align);
	/* With SLAB_DEBUG a red zone follows every object. */
	if (CONFIG_SLAB_DEBUG)
		stride = ALIGN_UP(size + 8, align);
	cache->object_size = size;
	cache->size = stride;
	cache->align = align;
	cache->flags = flags;
	cache->ctor = ctor;
	cache->poison = CONFIG_SLAB_DEBUG && !ctor;
	spin_lock_init(&cache->lock);
	slab_list_init(&cache->partial);
	slab_list_init(&cache->slabs);
	slab_list_init(&cache->caches);
	return cache_layout(cache);
}

static void slab_cpu_dead(unsigned int cpu);

void kmem_cache_init(void)
{
	if (smp_load_acquire(&slab_ready_flag))
		return;
	spin_lock(&slab_caches_lock);
	if (!slab_ready_flag) {
		slab_list_init(&slab_caches);
		for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++) {
			struct kmem_cache *cache = &kmalloc_caches[i];
			char name[32];
			unsigned int size = 1U << (i + KMALLOC_SHIFT_LOW);

			ksnprintf(name, sizeof(name), "kmalloc-%u", size);
			if (!cache_setup(cache, name, size, size, 0, NULL))
				panic("slab: cannot lay out %s in a slab of %lu "
				      "bytes", name, SLAB_SIZE);
			cache->slot = i;
			slab_slots[i / 64] |= 1UL << (i % 64);
			slab_list_add(&cache->caches, slab_caches.prev);
		}
		/* Once per program: a host test's reset makes the caches again. */
		if (!slab_hook_registered) {
			smp_register_cpu_dead(slab_cpu_dead);
			slab_hook_registered = true;
		}
		slab_bases_init();
		smp_store_release(&slab_ready_flag, 1);
	}
	spin_unlock(&slab_caches_lock);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *cache;
	unsigned int slot;

	kmem_cache_init();
	if (!name)
		name = "(unnamed)";
	if (!size || size > SLAB_SIZE / 8 || (align && !is_power_of_2(align)) ||
	    align > PAGE_SIZE) {
		pr_err("kmem_cache_create: refused cache %s: size %u align %u "
		       "(size 1..%lu, align 0 or a power of two up to %lu)\n",
		       name, size, align, SLAB_SIZE / 8, PAGE_SIZE);
		goto fail;
	}
	cache = kzalloc(sizeof(*cache), GFP_KERNEL);
	if (!cache)
		goto fail;
	if (!cache_setup(cache, name, size, align, flags, ctor)) {
		pr_err("kmem_cache_create: refused cache %s: no layout for "
		       "size %u align %u\n", name, size, align);
		kfree(cache);
		goto fail;
	}
	spin_lock(&slab_caches_lock);
	for (slot = 0; slot < SLAB_MAX_CACHES; slot++)
		if (!(slab_slots[slot / 64] & (1UL << (slot % 64))))
			break;
	if (slot == SLAB_MAX_CACHES) {
		spin_unlock(&slab_caches_lock);
		pr_err("kmem_cache_create: refused cache %s: all %d caches in "
		       "use\n", cache->name, SLAB_MAX_CACHES);
		kfree(cache);
		goto fail;
	}
	slab_slots[slot / 64] |= 1UL << (slot % 64);
	cache->slot = slot;
	slab_list_add(&cache->caches, slab_caches.prev);
	spin_unlock(&slab_caches_lock);
	return cache;
fail:
	if (flags & SLAB_PANIC)
		panic("kmem_cache_create: cache %s could not be made", name);
	return NULL;
}

/* Objects in use in @s: neither free in map[] nor freed into rmap[]. */
static unsigned long slab_objects_in_use(const struct slab *s)
{
	const unsigned long *rmap = slab_rmap(s);
	unsigned long free = 0;

	for (unsigned int w = 0; w < s->cache->map_words; w++)
		free += (unsigned long)__builtin_popcountl(
			(READ_ONCE(s->map[w]) |
			 __atomic_load_n(&rmap[w], __ATOMIC_RELAXED)) &
			slab_word_mask(s->cache, w));
	return s->cache->nr_objects - free;
}

unsigned long kmem_cache_objects_in_use(struct kmem_cache *cache)
{
	unsigned long n = 0;

	spin_lock(&cache->lock);
	for (struct slab_list *p = cache->slabs.next; p != &cache->slabs; p = p->next)
		n += slab_objects_in_use(slab_entry(p, all));
	spin_unlock(&cache->lock);
	return n;
}

/* Take CPU @cpu's current slab of @cache away; @cpu must not be using it. */
static void cache_deactivate_cpu(struct kmem_cache *cache, unsigned int cpu)
{
	struct kmem_cache_cpu *c = &per_cpu_ptr(&slab_pcpu, cpu)->c[cache->slot];
	struct slab *s = c->slab;

	if (s) {
		c->slab = NULL;
		s->owner = -1;
		slab_deactivate(cache, s);
	}
}

static void cache_deactivate_all(struct kmem_cache *cache)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		cache_deactivate_cpu(cache, cpu);
}

int kmem_cache_shrink(struct kmem_cache *cache)
{
	struct kmem_cache_cpu *c;
	struct slab_list mine, *pos, *next;
	struct slab *s;
	int freed = 0;

	kmem_cache_init();
	c = &this_cpu_ptr(&slab_pcpu)->c[cache->slot];
	s = c->slab;
	if (s) {
		slab_collect_remote(s);
		if (!s->inuse) {
			c->slab = NULL;
			s->owner = -1;
			slab_free_slab(cache, s);
			freed++;
		}
	}
	/* Claim the spare and every partial slab no CPU is taking. */
	slab_list_init(&mine);
	spin_lock(&cache->lock);
	if (cache->spare) {
		slab_list_add(&cache->spare->list, &mine);
		cache->spare = NULL;
	}
	for (pos = cache->partial.next; pos != &cache->partial; pos = next) {
		next = pos->next;
		s = slab_entry(pos, list);
		if (slab_claim_partial(cache, s))
			slab_list_add(&s->list, &mine);
	}
	spin_unlock(&cache->lock);
	while (!slab_list_empty(&mine)) {
		s = slab_entry(mine.next, list);
		slab_list_del(&s->list);
		slab_collect_remote(s);
		if (!s->inuse) {
			slab_free_slab(cache, s);
			freed++;
		} else {
			slab_publish(cache, s);
		}
	}
	return freed;
}

int kmem_cache_shrink_all(void)
{
	int freed = 0;

	kmem_cache_init();
	spin_lock(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		freed += kmem_cache_shrink(container_of(p, struct kmem_cache, caches));
	spin_unlock(&slab_caches_lock);
	return freed;
}

void kmem_cache_destroy(struct kmem_cache *cache)
{
	unsigned long live;

	if (!cache)
		return;
	if (cache >= kmalloc_caches && cache < kmalloc_caches + NR_KMALLOC_CACHES) {
		pr_err("kmem_cache_destroy: refused cache %s: a kmalloc cache\n",
		       cache->name);
		return;
	}
	cache_deactivate_all(cache);
	kmem_cache_shrink(cache);
	live = kmem_cache_objects_in_use(cache);
	if (live || cache->nr_slabs) {
		pr_err("kmem_cache_destroy: refused cache %s: %lu objects still "
		       "in use\n", cache->name, live);
		return;
	}
	spin_lock(&slab_caches_lock);
	slab_list_del(&cache->caches);
	slab_slots[cache->slot / 64] &= ~(1UL << (cache->slot % 64));
	spin_unlock(&slab_caches_lock);
	kfree(cache);
}

/* A CPU went away (a host thread ended): its slabs go to the shared lists. */
static void slab_cpu_dead(unsigned int cpu)
{
	spin_lock(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		cache_deactivate_cpu(container_of(p, struct kmem_cache, caches), cpu);
	spin_unlock(&slab_caches_lock);
}

unsigned int kmem_cache_size(struct kmem_cache *cache)
{
	return cache->object_size;
}

void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	return slab_alloc(cache, gfp);
}

void *kmem_cache_zalloc(struct kmem_cache *cache, gfp_t gfp)
{
	return slab_alloc(cache, gfp | __GFP_ZERO);
}

void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	struct slab *s;

	if (!obj)
		return;
	s = slab_lookup(obj);
	if (unlikely(!s))
		{ refuse("kmem_cache_free", obj, cache,
			      "not an object of any cache"); return; }
	if (unlikely(s->cache != cache)) {
		char why[64];

		ksnprintf(why, sizeof(why), "wrong cache (the object is %s's)",
			  s->cache->name);
		{ refuse("kmem_cache_free", obj, cache, why); return; }
	}
	slab_free(cache, s, obj, "kmem_cache_free");
}

/* ---- kmalloc -------------------------------------------------------- */

static __always_inline unsigned int kmalloc_index(size_t size)
{
	if (size <= KMALLOC_MIN_SIZE)
		return 0;
	return (unsigned int)(64 - __builtin_clzl(size - 1)) - KMALLOC_SHIFT_LOW;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE)) {
		unsigned int idx = kmalloc_index(size);
		struct slab *s = this_cpu_ptr(&slab_pcpu)->c[idx].slab;
		void *obj;

		/* Class idx's stride: its size, twice that with red zones. */
		if (likely(s)) {
			obj = slab_take_object(&kmalloc_caches[idx], s, gfp,
					       idx + KMALLOC_SHIFT_LOW +
						       (CONFIG_SLAB_DEBUG ? 1 : 0));
			if (likely(obj))
				return obj;
		}
		return slab_alloc_slow(&kmalloc_caches[idx], gfp);
	}
	if (!size)
		return ZERO_SIZE_PTR;
	kmem_cache_init();
	return kmalloc_large(size, gfp);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes)) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("kcalloc: %zu * %zu bytes overflows: refused\n",
				n, size);
		return NULL;
	}
	return kzalloc(bytes, gfp);
}

void kfree(const void *p)
{
	struct slab *s;
	struct page *page;

	if (unlikely(ZERO_OR_NULL_PTR(p)))
		return;
	s = slab_lookup(p);
	if (likely(s)) {
		slab_free(s->cache, s, p, "kfree");
		return;
	}
	page = virt_to_page(p);
	if (page && !(virt_to_phys(p) & (PAGE_SIZE - 1)) && kfree_large(p, page))
		return;
	refuse("kfree", p, NULL, "not an address kmalloc returned, or "
	       "already freed");
}

size_t ksize(const void *p)
{
	struct slab *s;
	struct page *page;
	size_t size;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	s = slab_lookup(p);
	if (s) {
		unsigned long idx = slab_index(s->cache,
					       (unsigned long)((const char *)p - s->obj0));

		if ((const char *)p >= s->obj0 && idx < s->cache->nr_objects &&
		    slab_object(s, idx) == p)
			return s->cache->object_size;
		refuse("ksize", p, s->cache, "not the start of an object");
		return 0;
	}
	page = virt_to_page(p);
	size = page && !(virt_to_phys(p) & (PAGE_SIZE - 1)) ? ksize_large(page) : 0;
	if (!size)
		refuse("ksize", p, NULL, "not an address kmalloc returned");
	return size;
}

void *krealloc(const void *p, size_t new_size, gfp_t gfp)
{
	size_t old;
	void *n;

	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(new_size, gfp);
	if (!new_size) {
		kfree(p);
		return NULL;
	}
	old = ksize(p);
	if (!old)
		return NULL;
	if (new_size <= old)
		return (void *)p;
	n = kmalloc(new_size, gfp & ~__GFP_ZERO);
	if (!n)
		return NULL;
	memcpy(n, p, old);
	if (gfp & __GFP_ZERO)
		memset((char *)n + old, 0, new_size - old);
	kfree(p);
	return n;
}

#ifdef CONFIG_HOST
/* Forget every slab: the page allocator is being reset under them. */
void slab_reset_for_test(void)
{
	unsigned int cpu;

	spin_lock(&slab_caches_lock);
	for_each_online_cpu(cpu)
		memset(per_cpu_ptr(&slab_pcpu, cpu), 0, sizeof(struct slab_pcpu));
	memset(kmalloc_caches, 0, sizeof(kmalloc_caches));
	memset(slab_slots, 0, sizeof(slab_slots));
	slab_list_init(&slab_caches);
	slab_bases = NULL;
	smp_store_release(&slab_ready_flag, 0);
	spin_unlock(&slab_caches_lock);
	slab_large_reset();
}
#endif
