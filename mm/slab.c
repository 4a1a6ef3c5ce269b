/*
 * slab.c - the slab allocator: per-CPU slabs, the lock-free fast paths,
 * remote frees, and how slabs move between CPUs, the cache's lists and
 * the page allocator. The design and its invariants: slab_state.h and
 * docs/allocator.md ("Small objects").
 *
 * Fast paths. Allocation takes the lowest set bit of this CPU's cursor
 * word (a free word of its current slab); a free into any slab this CPU
 * owns (its current one, or one on its partial list) sets the bit again.
 * Neither takes a lock or an atomic read-modify-write: only the owner
 * writes its free words. A free on any other CPU sets the object's bit
 * in the slab's remote word with an atomic OR and counts itself in the
 * slab's state word; the owner takes the remote words back in a batch
 * when its free words run dry.
 *
 * The state word (slab_remote(s)->sc) packs the slab's state, the number of remote
 * frees ever made (R) and, while the slab has no owner, the value R will
 * have when every object is free again (frozen). The remote free that
 * changes it with one compare-and-swap also learns, in the same step,
 * whether it must put the slab on the cache's partial list (the first free
 * after its owner let it go full) or give it back (the last object out),
 * so no CPU ever touches a slab after its own free unless it was given
 * one of those two jobs. The count comes after the bit, so an owner that
 * took a bit back may not give the slab back, even empty, until that free
 * has counted itself too (slab_remote_settled()).
 */
#include <arch/memory.h>
#include <lib/bitops.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/test_reset.h>
#include "slab_state.h"

DEFINE_PER_CPU(struct slab_pcpu, slab_pcpu);

struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
/*
 * Their twins for kmalloc(GFP_DMA32), "kmalloc-dma32-<size>", whose slabs
 * come from ZONE_DMA32 (SLAB_CACHE_DMA32): empty, and costing nothing but
 * these structs and their slots, on a machine that never asks.
 */
struct kmem_cache kmalloc_dma32_caches[NR_KMALLOC_CACHES];
/* Every cache; slab_caches_lock. Made empty by kmem_cache_init(). */
struct slab_list slab_caches;
DEFINE_SPINLOCK(slab_caches_lock);
/* Slots of slab_pcpu.c[] in use; slab_caches_lock. */
static unsigned long slab_slots[(SLAB_MAX_CACHES + 63) / 64];
/* 1 once the kmalloc caches exist: set with release, read with acquire. */
static int slab_ready_flag;
static bool slab_hook_registered;	/* slab_caches_lock */
/* The table's want of memory was said: once, not at every retry. */
static bool slab_tab_nomem_said;	/* slab_caches_lock */

struct slab_tab slab_tab;

/*
 * Make slab_tab: one byte per page of the physical span of RAM, in one
 * block when a top-order block holds them, else in chunks of one such
 * block each; per larger unit when even the chunks' pointers would not
 * fit in one block. Called under slab_caches_lock, before any slab
 * exists, until it is made. Return: true when it is made, or never can
 * be (RAM spans too much: then no slab is ever made and kmalloc()
 * returns NULL); false when the page allocator had no memory for it,
 * to be tried again.
 */
static bool slab_tab_init(void)
{
	const struct page_allocator *pa = &page_allocator;
	const unsigned long block = PAGE_SIZE << MAX_PAGE_ORDER;
	const struct mem_section *first, *last;
	unsigned int shift = PAGE_SHIFT;
	unsigned long n, chunks = 0;
	phys_addr_t lo, hi;
	struct page *page;

	if (slab_tab.units)
		return true;
	if (!pa->nr_sections)
		return false;
	first = &pa->sections[0];
	last = &pa->sections[pa->nr_sections - 1];
	lo = PFN_PHYS((first->section << PFN_SECTION_SHIFT) + first->lo);
	hi = PFN_PHYS((last->section << PFN_SECTION_SHIFT) + last->hi);
	lo &= ~(phys_addr_t)(SLAB_MAX_SIZE - 1);
	for (;; shift++) {
		n = (unsigned long)((hi - lo) >> shift) + 1;
		if (n <= block)
			break;
		chunks = (n + block - 1) / block;
		if (chunks * sizeof(uint8_t *) <= block)
			break;
	}
	if (shift - PAGE_SHIFT > SLAB_MAX_ORDER) {
		pr_err("slab: RAM spans too much for the slab table: no slabs\n");
		return true;
	}
	if (n <= block) {
		page = alloc_pages(__GFP_ZERO | __GFP_NOWARN, (unsigned int)get_order(n));
		if (!page)
			goto nomem;
		slab_tab.tab = page_address(page);
		/* kfree()'s fast path only: without it, the general way. */
		page = alloc_pages(__GFP_ZERO | __GFP_NOWARN,
				   (unsigned int)get_order(n * sizeof(uint16_t)));
		if (page)
			slab_tab.obj = page_address(page);
	} else {
		page = alloc_pages(__GFP_ZERO | __GFP_NOWARN,
				   (unsigned int)get_order(chunks * sizeof(uint8_t *)));
		if (!page)
			goto nomem;
		slab_tab.dir = page_address(page);
		for (unsigned long i = 0; i < chunks; i++) {
			page = alloc_pages(__GFP_ZERO | __GFP_NOWARN, MAX_PAGE_ORDER);
			if (!page) {
				while (i--)
					__free_pages(virt_to_page(slab_tab.dir[i]),
						     MAX_PAGE_ORDER);
				__free_pages(virt_to_page(slab_tab.dir),
					     (unsigned int)get_order(chunks * sizeof(uint8_t *)));
				slab_tab.dir = NULL;
				goto nomem;
			}
			slab_tab.dir[i] = page_address(page);
		}
		slab_tab.chunk_shift = (unsigned int)__builtin_ctzl(block);
	}
	slab_tab.lo = lo;
	slab_tab.vlo = (uintptr_t)phys_to_virt(lo);
	slab_tab.shift = shift;
	slab_tab.min_order = shift - PAGE_SHIFT;
	/* Orders the fields above before the sizes that let readers in. */
	smp_store_release(&slab_tab.units, n);
	if (slab_tab.tab && slab_tab.obj)
		smp_store_release(&slab_tab.n, n);
	return true;
nomem:
	/* Each kmalloc() retries and says its own refusal (or not: NOWARN). */
	if (!slab_tab_nomem_said)
		pr_err("slab: no memory for the slab table (%lu bytes): no "
		       "slab until there is\n", n);
	slab_tab_nomem_said = true;
	return false;
}

/* Mark @s's units (the log2 of its size), or clear them when it goes. */
static void slab_tab_mark(struct slab *s, bool live)
{
	const struct kmem_cache *c = s->cache;
	uint8_t *t = slab_tab_entry(virt_to_phys(s));
	unsigned long units = 1UL << (c->order - slab_tab.min_order);

	/* Before the byte (release): see SLAB_OBJ() in <mm/slab_fast.h>. */
	if (slab_tab.obj) {
		uint16_t e = slab_obj_entry(c);
		unsigned long u = (unsigned long)(t - slab_tab.tab);

		for (unsigned long i = 0; i < units; i++)
			__atomic_store_n(&slab_tab.obj[u + i], live ? e : 0,
					 __ATOMIC_RELAXED);
	}
	/* Release: a CPU that finds the entry finds the header written. */
	for (unsigned long i = 0; i < units; i++)
		__atomic_store_n(&t[i], live ? SLAB_TAB_SLAB(c->order + PAGE_SHIFT) : 0,
				 __ATOMIC_RELEASE);
}

/*
 * This CPU's slab state for a fast path, or NULL to take the general way
 * when another CPU has posted a request for this one, which closed its
 * gate (smp/smp.h: the general way answers it before touching this
 * CPU's state). (On the host, a thread not numbered yet gets the state
 * of no CPU, which holds no slab: the general way numbers it.)
 */
static __always_inline struct slab_pcpu *slab_this_cpu_fast(void)
{
	struct slab_pcpu *pc = __percpu_shift(&slab_pcpu,
					      arch_percpu_offset_nocall());

	if (unlikely(__atomic_load_n(&pc->gate, __ATOMIC_RELAXED)))
		return NULL;
	return pc;
}

/* smp_on_request_posted()'s function: close CPU @cpu's fast paths. */
static void slab_request_posted(unsigned int cpu)
{
	__atomic_store_n(&per_cpu_ptr(&slab_pcpu, cpu)->gate, 1, __ATOMIC_RELAXED);
}

/*
 * The general way's poll point: open this CPU's gate if a sender closed
 * it, and answer this CPU's pending requests.
 */
static inline void slab_poll(void)
{
	int *gate = &this_cpu_ptr(&slab_pcpu)->gate;

	if (__atomic_load_n(gate, __ATOMIC_RELAXED)) {
		__atomic_store_n(gate, 0, __ATOMIC_RELAXED);
		smp_request_poll_opened();
		return;
	}
	if (smp_request_pending())
		smp_request_poll();
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

/* Objects of an unowned slab still out when R is @count: frozen - R. */
static inline long sc_out(long v, long count)
{
	return (sc_frozen(v) - count) & SC_MASK;
}

static inline bool sc_cas(atomic_long_t *v, long *old, long new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* Set the state, keeping R; frozen from the owner's own counts. */
static long slab_set_state(struct slab *s, int state)
{
	long frozen = (long)(slab_remote(s)->collected + slab_inuse(s));
	long old = atomic_long_read(slab_sc(s));

	while (!sc_cas(slab_sc(s), &old, sc_make(state, frozen, sc_count(old))))
		;
	return old;
}

int slab_state_of(const struct slab *s)
{
	return sc_state(atomic_long_read(slab_sc(s)));
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
	struct page *page;
	struct slab *s;

	if (!smp_load_acquire(&slab_tab.units))
		return NULL;
	/* The cache's zone, not the caller's: a slab serves every later call. */
	gfp &= ~(__GFP_ZERO | __GFP_DMA32);
	if (cache->flags & SLAB_CACHE_DMA32)
		gfp |= __GFP_DMA32;
	page = alloc_pages(gfp | __GFP_NOWARN, cache->order);
	if (!page)
		return NULL;
	s = page_address(page);
	s->cache = cache;
	s->remote_off = cache->remote_off;
	slab_remote(s)->collected = 0;
	s->owner = -1;
	atomic_long_set(slab_sc(s), sc_make(SLAB_ACTIVE, 0, 0));
	for (unsigned int w = 0; w < cache->map_words; w++) {
		*slab_aword(s, w) = slab_word_mask(cache, w);
		*slab_fword(s, w) = 0;
		*slab_rword(s, w) = 0;
	}
	for (unsigned int i = cache->first; i < cache->nr_objects; i++) {
		if (cache->ctor)
			cache->ctor(slab_object(s, i));
		if (CONFIG_SLAB_DEBUG)
			slab_debug_init_object(cache, slab_object(s, i));
	}
	s->check = SLAB_MAGIC ^ (uintptr_t)s;
	slab_list_init(&s->list);
	/*
	 * The header is written before the table names the slab (release
	 * stores): a kfree() that finds the table entry (a racing bad
	 * pointer at worst) reads a whole header. Objects reach other CPUs
	 * only through their user's own synchronisation, which orders this
	 * too.
	 */
	slab_tab_mark(s, true);
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
	slab_tab_mark(s, false);
	spin_unlock(&cache->lock);
	__free_pages(virt_to_page(s), cache->order);
}

/* Objects of @s neither free on the owner's side nor taken back: by its owner. */
unsigned int slab_inuse(struct slab *s)
{
	const struct kmem_cache *cache = s->cache;
	unsigned int free = 0;

	for (unsigned int w = 0; w < cache->map_words; w++)
		free += hweight_long(slab_owner_free(s, w));
	return slab_capacity(cache) - free;
}

/* Whether every object of @s is free on the owner's side: by its owner. */
static bool slab_empty(struct slab *s)
{
	const struct kmem_cache *cache = s->cache;

	for (unsigned int w = 0; w < cache->map_words; w++)
		if (slab_owner_free(s, w) != slab_word_mask(cache, w))
			return false;
	return true;
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
		atomic_long_set(slab_sc(s), sc_make(SLAB_SPARE, 0, 0));
		slab_remote(s)->collected = 0;
		cache->spare = s;
		spin_unlock(&cache->lock);
		return;
	}
	spin_unlock(&cache->lock);
	slab_free_slab(cache, s);
}

/*
 * A remote free found its object already free on the owner's side: the owner freed
 * it too, at the same time (each saw it in use before the other's bit
 * was set). Reported here, when the owner takes the remote word back.
 */
static __attribute__((noinline, cold)) void
slab_report_raced_free(struct slab *s, unsigned int w, unsigned long both)
{
	while (both) {
		unsigned int b = (unsigned int)__builtin_ctzl(both);

		pr_err("kfree: refused %p in cache %s: double free (by its "
		       "owner and by another CPU at once)\n",
		       slab_object(s, (unsigned long)w * 64 + b), s->cache->name);
		both &= both - 1;
	}
}

/*
 * Take back the objects other CPUs freed into @s's remote words, as its
 * owner (or its only holder). Return: with @count_free, the objects free
 * on the owner's side afterwards; else the objects made free. Inline, so
 * that each caller's loop is its own, without the other's count.
 */
static __always_inline unsigned int slab_collect(struct slab *s,
						 bool count_free)
{
	const struct kmem_cache *cache = s->cache;
	unsigned int n = 0;

	for (unsigned int w = 0; w < cache->map_words; w++) {
		unsigned long *rw = slab_rword(s, w), *aw = slab_aword(s, w);
		unsigned long r, fresh, old;

		if (!__atomic_load_n(rw, __ATOMIC_RELAXED)) {
			if (count_free)
				n += hweight_long(slab_owner_free(s, w));
			continue;
		}
		/* Acquire: the freeing CPU's last writes to the objects. */
		r = __atomic_exchange_n(rw, 0, __ATOMIC_ACQUIRE);
		old = slab_owner_free(s, w);
		/* A bit already free here was freed twice at once: once. */
		fresh = r & ~old;
		if (unlikely(r & old))
			slab_report_raced_free(s, w, r & old);
		WRITE_ONCE(*aw, READ_ONCE(*aw) | fresh);
		slab_remote(s)->collected += hweight_long(r);
		n += hweight_long(count_free ? old | fresh : fresh);
	}
	return n;
}

/* slab_collect_remote - slab_collect(), returning the objects made free. */
int slab_collect_remote(struct slab *s)
{
	return (int)slab_collect(s, false);
}

/*
 * slab_collect_free - slab_collect_remote(), and the objects of @s free
 * on the owner's side after it, in one pass over the words: what the
 * choice among a CPU's partial slabs needs of each.
 */
static unsigned int slab_collect_free(struct slab *s)
{
	return slab_collect(s, true);
}

/*
 * slab_remote_settled - as @s's owner (or its only holder): has every
 * remote free whose bit this CPU took back also counted itself in s->sc?
 * A remote free sets its bit, then counts; until it has counted it still
 * writes s->sc, so @s may not go back to the page allocator or become the
 * spare (whose state word is reset) even when every object is free.
 * Such a slab is kept, or put on cache->partial, where that last count
 * hands its freeing CPU the job of giving it back (slab_publish()).
 */
static bool slab_remote_settled(struct slab *s)
{
	/* Acquire: the counting CAS, that CPU's last access to @s. */
	long sc = __atomic_load_n(&slab_sc(s)->counter, __ATOMIC_ACQUIRE);

	return sc_count(sc) == (long)(slab_remote(s)->collected & SC_MASK);
}

/* Every object free, and no remote free still on its way: give it back. */
static bool slab_can_go(struct slab *s)
{
	return slab_empty(s) && slab_remote_settled(s);
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
		frozen = (long)(slab_remote(s)->collected + slab_inuse(s)) & SC_MASK;
		spin_lock(&cache->lock);
		old = atomic_long_read(slab_sc(s));
		while (!sc_cas(slab_sc(s), &old,
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
		if (slab_can_go(s)) {
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
	if (slab_can_go(s))
		slab_release(cache, s);
	else
		slab_publish(cache, s);
}

/*
 * slab_deactivate - @s was a CPU's current slab and is no longer: give it
 * back when empty (and settled), else put it on the partial list for any
 * CPU.
 */
void slab_deactivate(struct kmem_cache *cache, struct slab *s)
{
	slab_collect_remote(s);
	if (slab_can_go(s))
		slab_release(cache, s);
	else
		slab_publish(cache, s);
}

/* Any remote bit set? */
static bool slab_remote_pending(struct slab *s)
{
	for (unsigned int w = 0; w < s->cache->map_words; w++)
		if (__atomic_load_n(slab_rword(s, w), __ATOMIC_SEQ_CST))
			return true;
	return false;
}

/*
 * The owner found no free object in @s: let it go (SLAB_FULL). A remote
 * free that lands before the state changes is seen in its remote word (its
 * bit is set before it counts itself), and the owner keeps the slab;
 * one that lands after sees SLAB_FULL and lists the slab itself.
 */
static bool slab_let_go(struct slab *s)
{
	long old;

	slab_set_state(s, SLAB_FULL);
	if (!slab_remote_pending(s))
		return false;
	old = atomic_long_read(slab_sc(s));
	while (sc_state(old) == SLAB_FULL)
		if (sc_cas(slab_sc(s), &old, sc_make(SLAB_ACTIVE, sc_frozen(old),
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
	long old = atomic_long_read(slab_sc(s));

	while (sc_state(old) == SLAB_PARTIAL) {
		if (sc_cas(slab_sc(s), &old, sc_make(SLAB_ACTIVE, sc_frozen(old),
						 sc_count(old)))) {
			slab_list_del(&s->list);
			cache->nr_partial--;
			return true;
		}
	}
	return false;
}

/*
 * The page allocator is exhausted: put every full slab of @cache that
 * remote frees have given an object back on cache->partial, however few
 * (SLAB_FULL_RELIST_MAX). A remote free racing with this sees the new
 * state when its compare-and-swap fails, as it would had the slab been
 * listed by the free that brought it to cache->full_relist. Return:
 * slabs listed.
 */
static unsigned long slab_relist_full(struct kmem_cache *cache)
{
	unsigned long listed = 0;

	spin_lock(&cache->lock);
	for (struct slab_list *p = cache->slabs.next; p != &cache->slabs;
	     p = p->next) {
		struct slab *s = slab_entry(p, all);
		long old = atomic_long_read(slab_sc(s));

		while (sc_state(old) == SLAB_FULL &&
		       sc_out(old, sc_count(old)) < (long)slab_capacity(cache)) {
			if (sc_cas(slab_sc(s), &old, sc_make(SLAB_PARTIAL,
							 sc_frozen(old),
							 sc_count(old)))) {
				slab_list_add(&s->list, &cache->partial);
				cache->nr_partial++;
				listed++;
				break;
			}
		}
	}
	spin_unlock(&cache->lock);
	return listed;
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
		atomic_long_set(slab_sc(s),
				sc_make(SLAB_ACTIVE, 0,
					sc_count(atomic_long_read(slab_sc(s)))));
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

/* Point this CPU's cursor of @s at word @w. */
static void cpu_slab_cursor(struct kmem_cache_cpu *c, struct slab *s,
			    unsigned int w)
{
	c->word = slab_aword(s, w);
	c->base = slab_object(s, (unsigned long)w * 64);
}

/* Make @s this CPU's current slab of its cache (@c, @pc: this CPU's). */
static void cpu_slab_own(struct slab_pcpu *pc, struct kmem_cache_cpu *c,
			 struct slab *s, unsigned int cpu)
{
	s->owner = (int)cpu;
	WRITE_ONCE(s->owner_pc, pc);
	cpu_slab_cursor(c, s, 0);
}

/* @c's CPU lets its current slab @s go (it may not be running it). */
static void cpu_slab_drop(struct kmem_cache_cpu *c, struct slab *s)
{
	c->word = NULL;
	c->base = NULL;
	WRITE_ONCE(s->owner_pc, NULL);
	s->owner = -1;
}

/*
 * Point this CPU's cursor at the first word of its slab with a free
 * object, moving the word's freed bits to its alloc word. Local frees do
 * not move the cursor back (that would cost the fast path a store): the
 * scan starts from word 0 each time.
 */
static bool slab_find_free(struct kmem_cache_cpu *c, struct slab *s)
{
	for (unsigned int w = 0; w < s->cache->map_words; w++) {
		if (slab_merge_freed(s, w)) {
			cpu_slab_cursor(c, s, w);
			return true;
		}
	}
	return false;
}

/*
 * Take the lowest free object of this CPU's cursor word (an alloc
 * word), or NULL when the word has none. No read-modify-write: only the
 * owner writes it (relaxed accesses, as other CPUs read it to check a
 * free).
 * @shift: log2 of the stride when the caller knows it, else 0.
 */
static __always_inline void *slab_take_object(struct kmem_cache *cache,
					      struct kmem_cache_cpu *c,
					      gfp_t gfp, unsigned int shift)
{
	unsigned long *lw = c->word;
	unsigned long bits, i;
	void *obj;

	if (unlikely(!lw))
		return NULL;
	bits = READ_ONCE(*lw);
	if (unlikely(!bits))
		return NULL;
	WRITE_ONCE(*lw, bits & (bits - 1));
	i = __ffs(bits);
	obj = c->base + (shift ? i << shift : i * cache->size);
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_alloc(cache, obj);
	if (unlikely(gfp & __GFP_ZERO))
		memset(obj, 0, cache->object_size);
	return obj;
}

/* This CPU gives up owned slab @t (current or partial): it is no one's. */
static void cpu_slab_disown(struct slab *t)
{
	WRITE_ONCE(t->owner_pc, NULL);
	t->owner = -1;
}

/*
 * This CPU's current slab @s has no free object left. Move to a slab of
 * its partial list that has some (taking back their remote frees first),
 * giving back every other one found empty, and put @s in the list in its
 * place. When none has any, @s joins the list, and the oldest slab there
 * is let go when the list is full. Return: the new current slab, or NULL
 * (this CPU then has none and takes one from the cache).
 */
static struct slab *cpu_partial_next(struct kmem_cache *cache,
				     struct slab_pcpu *pc,
				     struct kmem_cache_cpu *c, struct slab *s,
				     unsigned int cpu)
{
	struct slab **own = pc->partial[cache->slot], *pick = NULL, *victim;
	unsigned int most = 0;
	int at = -1;

	/*
	 * The one with the most free objects: one with a few would send the
	 * CPU back here a few allocations later. Empty ones found after the
	 * first pick are given back.
	 */
	for (int i = 0; i < SLAB_CPU_PARTIAL; i++) {
		struct slab *t = own[i];
		unsigned int n;

		if (!t)
			continue;
		n = slab_collect_free(t);
		if (!n)
			continue;
		if (n == slab_capacity(cache) && pick &&
		    slab_remote_settled(t)) {
			own[i] = NULL;
			cpu_slab_disown(t);
			slab_release(cache, t);
			continue;
		}
		if (n > most) {
			pick = t;
			most = n;
			at = i;
		}
	}
	c->word = NULL;
	c->base = NULL;
	if (pick) {
		own[at] = s;
		cpu_slab_cursor(c, pick, 0);
		return pick;
	}
	for (int i = 0; i < SLAB_CPU_PARTIAL; i++) {
		if (!own[i]) {
			own[i] = s;
			return NULL;
		}
	}
	victim = own[SLAB_CPU_PARTIAL - 1];
	for (int i = SLAB_CPU_PARTIAL - 1; i > 0; i--)
		own[i] = own[i - 1];
	own[0] = s;
	cpu_slab_disown(victim);
	if (slab_let_go(victim)) {
		/* A remote free came in meanwhile: it is still this CPU's. */
		cpu_slab_own(pc, c, victim, cpu);
		return victim;
	}
	return NULL;
}

/* slab_alloc_slow()'s work, while this CPU is marked busy. */
static void *slab_alloc_busy(struct kmem_cache *cache, gfp_t gfp,
			     struct slab_pcpu *pc, struct kmem_cache_cpu *c,
			     unsigned int cpu)
{
	struct slab *s;
	void *obj;

	for (;;) {
		s = cpu_slab(c);
		if (s) {
			if (slab_find_free(c, s) ||
			    (slab_collect_remote(s) && slab_find_free(c, s)))
				goto take;
			if (cpu_partial_next(cache, pc, c, s, cpu))
				continue;
		}
		s = slab_take_shared(cache);
		if (!s)
			s = slab_new(cache, gfp);
		/*
		 * The page allocator is exhausted: list the full slabs with a
		 * free object, and give back every empty slab (spares, this
		 * CPU's own, other CPUs'), then try once more.
		 */
		if (!s && (slab_relist_full(cache) + slab_shrink_everywhere()) > 0) {
			s = slab_take_shared(cache);
			if (!s)
				s = slab_new(cache, gfp);
		}
		if (!s) {
			if (!(gfp & __GFP_NOWARN))
				pr_warn("slab: cache %s: no memory for a slab "
					"of order %u\n", cache->name,
					cache->order);
			return NULL;
		}
		cpu_slab_own(pc, c, s, cpu);
		slab_find_free(c, s);
take:
		obj = slab_take_object(cache, c, gfp, cache->shift);
		if (obj)
			return obj;
	}
}

static __attribute__((noinline)) void *
slab_alloc_slow(struct kmem_cache *cache, gfp_t gfp)
{
	struct slab_pcpu *pc;
	struct kmem_cache_cpu *c;
	unsigned int cpu;
	void *obj;

	kmem_cache_init();
	slab_poll();
	pc = this_cpu_ptr(&slab_pcpu);
	c = &pc->c[cache->slot];
	cpu = smp_processor_id();
	WRITE_ONCE(pc->busy, pc->busy + 1);
	obj = slab_alloc_busy(cache, gfp, pc, c, cpu);
	WRITE_ONCE(pc->busy, pc->busy - 1);
	return obj;
}

static __always_inline void *slab_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	struct slab_pcpu *pc = slab_this_cpu_fast();
	void *obj;

	if (likely(pc)) {
		obj = slab_take_object(cache, &pc->c[cache->slot], gfp,
				       cache->shift);
		if (likely(obj))
			return obj;
	}
	return slab_alloc_slow(cache, gfp);
}

/* ---- freeing -------------------------------------------------------- */

/*
 * A free from a CPU that does not own @s: the bit in the remote word,
 * then the count, and whatever job the count hands out.
 */
static __attribute__((noinline)) void
slab_free_remote(struct kmem_cache *cache, struct slab *s, unsigned long idx,
		 const void *p, const char *fn)
{
	unsigned int w = (unsigned int)(idx / 64);
	unsigned long *rw = slab_rword(s, w), bit = 1UL << (idx % 64);
	long old, new;
	int state;

	if ((slab_owner_free(s, w) | __atomic_load_n(rw, __ATOMIC_RELAXED)) & bit)
		{ refuse(fn, p, cache, "double free"); return; }
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_free(cache, (void *)p);
	/* Release: the object's last writes before the owner reuses it. */
	if (__atomic_fetch_or(rw, bit, __ATOMIC_SEQ_CST) & bit)
		{ refuse(fn, p, cache, "double free (two CPUs at once)"); return; }
	old = atomic_long_read(slab_sc(s));
	do {
		long count = (sc_count(old) + 1) & SC_MASK;

		state = sc_state(old);
		if (state == SLAB_FULL &&
		    sc_out(old, count) <=
			    (long)(slab_capacity(cache) - cache->full_relist))
			state = SLAB_PENDING;
		else if (state == SLAB_PARTIAL && count == sc_frozen(old))
			state = SLAB_RECLAIM;
		new = sc_make(state, sc_frozen(old), count);
	} while (!sc_cas(slab_sc(s), &old, new));
	if (state == SLAB_PENDING && sc_state(old) == SLAB_FULL)
		slab_publish(cache, s);
	else if (state == SLAB_RECLAIM && sc_state(old) == SLAB_PARTIAL)
		slab_reclaim(cache, s);
}

/*
 * The index of object @p of @s, or -1 when @p is not the start of one
 * (inside the header, inside an object, past the last).
 */
static __always_inline long slab_obj_index(const struct kmem_cache *cache,
					   const struct slab *s, const void *p)
{
	unsigned long off = (unsigned long)((const char *)p - (const char *)s);
	unsigned long idx;

	if (likely(cache->shift)) {
		idx = off >> cache->shift;
		if (unlikely(off & ((1UL << cache->shift) - 1)))
			return -1;
	} else {
		idx = slab_index(cache, off);
		if (unlikely(idx * cache->size != off))
			return -1;
	}
	if (unlikely(idx - cache->first >= slab_capacity(cache)))
		return -1;
	return (long)idx;
}

/* Any free of @p in @s, every check made: the local and remote paths. */
static void slab_free(struct kmem_cache *cache, struct slab *s, const void *p,
		      const char *fn)
{
	long i = slab_obj_index(cache, s, p);
	unsigned long idx = (unsigned long)i, bit, m, *aw;
	unsigned int w;

	if (unlikely(i < 0))
		{ refuse(fn, p, cache, "not the start of an object"); return; }
	if (unlikely(READ_ONCE(s->owner_pc) != this_cpu_ptr(&slab_pcpu)))
		{ slab_free_remote(cache, s, idx, p, fn); return; }
	/*
	 * Into the alloc word, not the freed word as the inline kfree()
	 * does: the object is the next one out if it is the word's lowest,
	 * as a SLAB_DEBUG build (where every free comes here) wants, so
	 * that a use after free is found at the next allocation.
	 */
	w = (unsigned int)(idx / 64);
	aw = slab_aword(s, w);
	bit = 1UL << (idx % 64);
	m = READ_ONCE(*aw);
	if (unlikely((m | READ_ONCE(*slab_fword(s, w)) |
		      __atomic_load_n(slab_rword(s, w), __ATOMIC_RELAXED)) & bit))
		{ refuse(fn, p, cache, "double free"); return; }
	if (CONFIG_SLAB_DEBUG)
		slab_debug_on_free(cache, (void *)p);
	WRITE_ONCE(*aw, m | bit);
}

/* ---- caches --------------------------------------------------------- */

static bool is_power_of_2(unsigned long x)
{
	return x && !(x & (x - 1));
}

/*
 * Where a slab of @words 64-object words has its struct slab_remote: in
 * the first line after the owner's words (struct slab says why).
 */
static size_t slab_remote_offset(unsigned int words)
{
	return ALIGN_UP(sizeof(struct slab) + SLAB_MAP_LONGS * words * sizeof(long),
			SMP_CACHE_BYTES);
}

/*
 * Lay out a slab of 2^@order pages for @cache: objects at multiples of
 * the stride from the slab's start, the header in the first ones.
 * Return: the bytes of the slab no object uses (header slots and tail),
 * or SIZE_MAX when no object fits.
 */
static size_t cache_layout_order(struct kmem_cache *cache, unsigned int order)
{
	size_t bytes = PAGE_SIZE << order, stride = cache->size;
	unsigned int n = (unsigned int)(bytes / stride), first = 0;

	for (;;) {
		unsigned int words = (n + 63) / 64;
		size_t hdr = slab_remote_offset(words) +
			     sizeof(struct slab_remote) + words * sizeof(long);
		unsigned int f = (unsigned int)((hdr + stride - 1) / stride);

		if (f == first)
			break;
		first = f;
	}
	if (first >= n)
		return SIZE_MAX;
	cache->order = order;
	cache->first = first;
	cache->nr_objects = n;
	cache->map_words = (n + 63) / 64;
	cache->remote_off = (unsigned int)slab_remote_offset(cache->map_words);
	return bytes - (size_t)(n - first) * stride;
}

/*
 * The least order up to SLAB_MAX_ORDER at which @cache's header slots and
 * tail cost at most 1/@parts of the slab (with @small, below 64 bytes:
 * or at which it holds 8 objects), or -1. Either way @cache is left laid
 * out at some order tried: the caller lays it out at the one it chooses.
 */
static int cache_least_order(struct kmem_cache *cache, unsigned int parts,
			     bool small)
{
	for (unsigned int o = slab_tab.min_order; o <= SLAB_MAX_ORDER; o++) {
		size_t lost = cache_layout_order(cache, o);

		if (lost == SIZE_MAX)
			continue;
		if ((small && cache->size < 64 && slab_capacity(cache) >= 8) ||
		    lost * parts <= (PAGE_SIZE << o))
			return (int)o;
	}
	return -1;
}

/*
 * The order up to SLAB_MAX_ORDER whose header slots and tail cost the
 * least share of the slab (the least order of equals), or -1 when no
 * object fits in any.
 */
static int cache_least_lost_order(struct kmem_cache *cache)
{
	size_t best_lost = SIZE_MAX;
	int best = -1;

	for (unsigned int o = slab_tab.min_order; o <= SLAB_MAX_ORDER; o++) {
		size_t lost = cache_layout_order(cache, o);

		if (lost != SIZE_MAX && (best < 0 ||
		    lost * (PAGE_SIZE << best) < best_lost * (PAGE_SIZE << o))) {
			best = (int)o;
			best_lost = lost;
		}
	}
	return best;
}

/*
 * Choose @cache's slab order (slab_state.h): below 64 bytes, the least
 * that holds 8 objects; from 64 bytes, the least at which the header's
 * slots and the tail cost at most 1% of the slab, else the least at which
 * they cost at most 1/SLAB_LOSS_FALLBACK, else the one that loses the
 * least. Then check that slab_index() is exact for it.
 */
static bool cache_layout(struct kmem_cache *cache)
{
	unsigned int stride = cache->size, l = 0;
	int order = cache_least_order(cache, 100, true);

	if (order < 0)
		order = cache_least_order(cache, SLAB_LOSS_FALLBACK, false);
	if (order < 0)
		order = cache_least_lost_order(cache);
	if (order < 0)
		return false;
	cache_layout_order(cache, (unsigned int)order);
	cache->full_relist = MAX(1U, MIN(slab_capacity(cache) / 4,
					 (unsigned int)SLAB_FULL_RELIST_MAX));
	cache->shift = is_power_of_2(stride) ? (unsigned int)__builtin_ctz(stride) : 0;
	/* Odd strides (shift 0) take kfree()'s general way: slab_obj_entry(). */
	/* idx = off * recip >> (24 + l), exact for off < 2^24 (slabs <= 16 MiB). */
	while ((1U << l) < stride)
		l++;
	cache->recip_shift = 24 + l;
	cache->recip = ((uint64_t)1 << cache->recip_shift) / stride + 1;
	if (cache->shift)
		return true;
	for (unsigned long i = 1; i <= cache->nr_objects; i++)
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
static void kmalloc_class_check(void);

bool slab_setup(void)
{
	if (smp_load_acquire(&slab_ready_flag))
		return true;
	spin_lock(&slab_caches_lock);
	/*
	 * Not before the hand-off, nor without the slab table (the page
	 * allocator had no memory for it): a later call tries again.
	 * First: the table's unit is the least slab order.
	 */
	if (!slab_ready_flag && nr_managed_pages() && slab_tab_init()) {
		slab_list_init(&slab_caches);
		kmalloc_class_check();
		/* The classes, then their DMA32 twins: slots 0 .. 2n - 1. */
		for (unsigned int i = 0; i < 2 * NR_KMALLOC_CACHES; i++) {
			unsigned int k = i % NR_KMALLOC_CACHES;
			bool dma32 = i >= NR_KMALLOC_CACHES;
			struct kmem_cache *cache = dma32 ? &kmalloc_dma32_caches[k]
							 : &kmalloc_caches[k];
			unsigned int size = 1U << (k + KMALLOC_SHIFT_LOW);
			char name[32];

			ksnprintf(name, sizeof(name), "kmalloc-%s%u",
				  dma32 ? "dma32-" : "", size);
			if (!cache_setup(cache, name, size, size,
					 dma32 ? SLAB_CACHE_DMA32 : 0, NULL))
				panic("slab: cannot lay out %s in a slab of at "
				      "most %lu bytes", name, SLAB_MAX_SIZE);
			cache->slot = i;
			slab_slots[i / 64] |= 1UL << (i % 64);
			slab_list_add(&cache->caches, slab_caches.prev);
		}
		/* Once per program: a host test's reset makes the caches again. */
		if (!slab_hook_registered) {
			smp_register_cpu_dead(slab_cpu_dead);
			/* Before any CPU has a cursor: gates close from now. */
			smp_on_request_posted(slab_request_posted);
			slab_hook_registered = true;
		}
		smp_store_release(&slab_ready_flag, 1);
	}
	spin_unlock(&slab_caches_lock);
	return smp_load_acquire(&slab_ready_flag);
}

void kmem_cache_init(void)
{
	(void)slab_setup();
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *cache;
	unsigned int slot;

	if (!name)
		name = "(unnamed)";
	if (!slab_setup()) {
		pr_err("kmem_cache_create: refused cache %s: %s\n", name,
		       SLAB_NOT_SET_UP);
		goto fail;
	}
	/* Half the largest slab: its header takes the first slot of a stride. */
	if (!size || size > SLAB_MAX_SIZE / 2 || (align && !is_power_of_2(align)) ||
	    align > PAGE_SIZE) {
		pr_err("kmem_cache_create: refused cache %s: size %u align %u "
		       "(size 1..%lu, align 0 or a power of two up to %lu)\n",
		       name, size, align, SLAB_MAX_SIZE / 2, PAGE_SIZE);
		goto fail;
	}
	cache = kzalloc(sizeof(*cache), GFP_KERNEL);
	if (!cache)
		goto fail;
	if (!cache_setup(cache, name, size, align, flags, ctor)) {
		pr_err("kmem_cache_create: refused cache %s: no layout for "
		       "size %u align %u in a slab of at most %lu bytes\n",
		       name, size, align, SLAB_MAX_SIZE);
		kfree(cache);
		goto fail;
	}
	/* Polling: slab_check() may hold the lock while it stops this CPU. */
	spin_lock_polling(&slab_caches_lock);
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

/* Objects in use in @s: neither free on the owner's side nor freed remotely. */
static unsigned long slab_objects_in_use(struct slab *s)
{
	unsigned long free = 0;

	for (unsigned int w = 0; w < s->cache->map_words; w++)
		free += hweight_long(
			(slab_owner_free(s, w) |
			 __atomic_load_n(slab_rword(s, w), __ATOMIC_RELAXED)) &
			slab_word_mask(s->cache, w));
	return slab_capacity(s->cache) - free;
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

/*
 * CPU @cpu lets its current and partial slabs of @cache go. Run by @cpu
 * itself or, while it is away, for it (a request, cache_deactivate_all()),
 * or for a CPU that went away for good (slab_cpu_dead()).
 */
static void cache_deactivate_cpu(struct kmem_cache *cache, unsigned int cpu)
{
	struct slab_pcpu *pc = per_cpu_ptr(&slab_pcpu, cpu);
	struct kmem_cache_cpu *c = &pc->c[cache->slot];
	struct slab *s = cpu_slab(c);

	if (s) {
		cpu_slab_drop(c, s);
		slab_deactivate(cache, s);
	}
	for (int i = 0; i < SLAB_CPU_PARTIAL; i++) {
		s = pc->partial[cache->slot][i];
		if (s) {
			pc->partial[cache->slot][i] = NULL;
			cpu_slab_disown(s);
			slab_deactivate(cache, s);
		}
	}
}

/* A request run for CPU @cpu, by it or for it while it is away. */
static void cache_deactivate_request(unsigned int cpu, void *arg)
{
	cache_deactivate_cpu(arg, cpu);
}

/*
 * Every online CPU lets its slabs of @cache go, each on its own state
 * (smp_request_cpus()). Return: how many CPUs did not answer in time.
 */
static unsigned int cache_deactivate_all(struct kmem_cache *cache)
{
	cpumask_t all;
	unsigned int cpu;

	cpumask_clear(&all);
	for_each_online_cpu(cpu)
		cpumask_set_cpu(cpu, &all);
	return smp_request_cpus(&all, cache_deactivate_request, cache, NULL);
}

/*
 * The empty slabs, current and partial, that CPU @pc holds of @cache back
 * to the page allocator: run by that CPU, or for it while it is away.
 * Each slab leaves the CPU's state before it is freed (a poll point), so
 * the state is whole at every poll point. Return: how many.
 */
static int cpu_shrink_cache(struct slab_pcpu *pc, struct kmem_cache *cache)
{
	struct kmem_cache_cpu *c = &pc->c[cache->slot];
	struct slab *s = cpu_slab(c);
	int freed = 0;

	if (s) {
		slab_collect_remote(s);
		if (slab_can_go(s)) {
			cpu_slab_drop(c, s);
			slab_free_slab(cache, s);
			freed++;
		}
	}
	for (int i = 0; i < SLAB_CPU_PARTIAL; i++) {
		s = pc->partial[cache->slot][i];
		if (!s)
			continue;
		slab_collect_remote(s);
		if (slab_can_go(s)) {
			pc->partial[cache->slot][i] = NULL;
			cpu_slab_disown(s);
			slab_free_slab(cache, s);
			freed++;
		}
	}
	return freed;
}

/*
 * A request: CPU @cpu gives back the empty slabs it holds of every cache
 * (adding their number to *@arg), unless it is inside slab_alloc_slow(),
 * whose state a poll point there may find half changed: then it keeps
 * them. A slot's cache is its slabs' own (slab->cache).
 */
static void cpu_shrink_request(unsigned int cpu, void *arg)
{
	struct slab_pcpu *pc = per_cpu_ptr(&slab_pcpu, cpu);
	unsigned long freed = 0;

	if (READ_ONCE(pc->busy))
		return;
	for (unsigned int slot = 0; slot < SLAB_MAX_CACHES; slot++) {
		struct slab *s = cpu_slab(&pc->c[slot]);

		for (int i = 0; !s && i < SLAB_CPU_PARTIAL; i++)
			s = pc->partial[slot][i];
		if (s)
			freed += (unsigned long)cpu_shrink_cache(pc, s->cache);
	}
	__atomic_fetch_add((unsigned long *)arg, freed, __ATOMIC_RELAXED);
}

/*
 * The page allocator is exhausted: every empty slab anywhere back to it.
 * This CPU's and the caches' (kmem_cache_shrink_all()), then every other
 * online CPU's, each by a request (one that does not answer in time, or
 * is inside its own slow path, keeps its own). Return: slabs given back.
 */
unsigned long slab_shrink_everywhere(void)
{
	unsigned long freed = (unsigned long)kmem_cache_shrink_all();
	unsigned int me = smp_processor_id(), cpu;
	cpumask_t others;

	cpumask_clear(&others);
	for_each_online_cpu(cpu)
		if (cpu != me)
			cpumask_set_cpu(cpu, &others);
	smp_request_cpus(&others, cpu_shrink_request, &freed, NULL);
	return __atomic_load_n(&freed, __ATOMIC_RELAXED);
}

int kmem_cache_shrink(struct kmem_cache *cache)
{
	struct slab_list *pos;
	unsigned long n;
	struct slab *s;
	int freed;

	kmem_cache_init();
	freed = cpu_shrink_cache(this_cpu_ptr(&slab_pcpu), cache);
	/*
	 * The spare, then each partial slab no CPU is taking, one at a time
	 * from the list's tail (a slab still in use goes back at its head),
	 * so that this CPU holds at most one slab off every list when it
	 * reaches a poll point (in __free_pages()): slab_check() may stop
	 * it there, and the one it holds is already out of every list.
	 */
	spin_lock(&cache->lock);
	s = cache->spare;
	cache->spare = NULL;
	n = cache->nr_partial;
	spin_unlock(&cache->lock);
	if (s) {
		slab_free_slab(cache, s);
		freed++;
	}
	for (; n; n--) {
		s = NULL;
		spin_lock(&cache->lock);
		for (pos = cache->partial.prev; pos != &cache->partial; pos = pos->prev) {
			if (slab_claim_partial(cache, slab_entry(pos, list))) {
				s = slab_entry(pos, list);
				break;
			}
		}
		spin_unlock(&cache->lock);
		if (!s)
			break;
		slab_collect_remote(s);
		if (slab_can_go(s)) {
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

	if (!slab_setup())
		return 0;
	spin_lock_polling(&slab_caches_lock);
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
	if (cache_deactivate_all(cache)) {
		pr_err("kmem_cache_destroy: refused cache %s: a CPU did not "
		       "give its slabs back\n", cache->name);
		return;
	}
	kmem_cache_shrink(cache);
	live = kmem_cache_objects_in_use(cache);
	if (live || cache->nr_slabs) {
		pr_err("kmem_cache_destroy: refused cache %s: %lu objects still "
		       "in use\n", cache->name, live);
		return;
	}
	spin_lock_polling(&slab_caches_lock);
	slab_list_del(&cache->caches);
	slab_slots[cache->slot / 64] &= ~(1UL << (cache->slot % 64));
	spin_unlock(&slab_caches_lock);
	kfree(cache);
}

/*
 * A CPU went away (a host thread ended; the hook runs on it): its slabs
 * go to the shared lists or back to the page allocator. The page
 * allocator's own hook, registered first, has already emptied this CPU's
 * page lists: the slabs given back now land there, so empty them again.
 */
static void slab_cpu_dead(unsigned int cpu)
{
	spin_lock_polling(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		cache_deactivate_cpu(container_of(p, struct kmem_cache, caches), cpu);
	spin_unlock(&slab_caches_lock);
	slab_large_cpu_dead(cpu);
	if (cpu == smp_processor_id())
		drain_local_pages();
}

unsigned int kmem_cache_size(struct kmem_cache *cache)
{
	return cache->object_size;
}

/*
 * __GFP_DMA32 asked of a cache whose slabs come from any zone (made
 * without SLAB_CACHE_DMA32): refused and said, whatever else @gfp says,
 * since memory above 4 GiB handed to a caller that needs it below would
 * be a silent failure. (Linux strips the flag with a warning.)
 */
static __attribute__((noinline, cold)) void *slab_refuse_zone(const struct kmem_cache *cache)
{
	pr_err("kmem_cache_alloc: %s of %u bytes refused: __GFP_DMA32 asked "
	       "of a cache made without SLAB_CACHE_DMA32, whose slabs come from "
	       "any zone\n", cache->name, cache->object_size);
	return NULL;
}

void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	if (unlikely((gfp & __GFP_DMA32) && !(cache->flags & SLAB_CACHE_DMA32)))
		return slab_refuse_zone(cache);
	return slab_alloc(cache, gfp);
}

void *kmem_cache_zalloc(struct kmem_cache *cache, gfp_t gfp)
{
	return kmem_cache_alloc(cache, gfp | __GFP_ZERO);
}

void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	struct slab *s;

	if (!obj)
		return;
	s = slab_of(obj);
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

/* The class of 1..KMALLOC_MAX_CACHE_SIZE bytes: 8 and less are class 0. */
static __always_inline unsigned int kmalloc_index(size_t size)
{
	return (unsigned int)(63 - __builtin_clzl((size - 1) | (KMALLOC_MIN_SIZE - 1))) +
	       1 - KMALLOC_SHIFT_LOW;
}

/* A kmalloc() before the slab allocator is set up: refused, said. */
static __attribute__((noinline, cold)) void *kmalloc_unready(size_t size,
							     gfp_t gfp)
{
	if (!(gfp & __GFP_NOWARN))
		pr_warn("kmalloc: %zu bytes refused: %s\n", size,
			SLAB_NOT_SET_UP);
	return NULL;
}

/* kmalloc() of nothing, of more than the classes hold, or the first one. */
static __attribute__((noinline)) void *kmalloc_other(size_t size, gfp_t gfp)
{
	if (!size)
		return ZERO_SIZE_PTR;
	if (!slab_setup())
		return kmalloc_unready(size, gfp);
	return kmalloc_large(size, gfp);
}

/*
 * The class of each size, by 8-byte steps (<mm/slab_fast.h>): entry i
 * serves sizes up to 8 * (i + 1), so the class of 2^s bytes (s > 3)
 * serves entries 2^(s - 4) to 2^(s - 3) - 1. Written out by the
 * compiler, up to the largest class; kmalloc_class_check() proves each
 * entry against kmalloc_index().
 */
_Static_assert(KMALLOC_MIN_SIZE == 8 && KMALLOC_SHIFT_LOW == 3,
	       "kmalloc_class_shift[] is written for 8-byte steps from 8 bytes");
#define KMALLOC_CLASS(s)	[1UL << ((s) - 4) ... (1UL << ((s) - 3)) - 1] = (s)

const uint8_t kmalloc_class_shift[KMALLOC_MAX_CACHE_SIZE / KMALLOC_MIN_SIZE] = {
	[0] = KMALLOC_SHIFT_LOW,
	KMALLOC_CLASS(4), KMALLOC_CLASS(5), KMALLOC_CLASS(6), KMALLOC_CLASS(7),
	KMALLOC_CLASS(8), KMALLOC_CLASS(9),
#if KMALLOC_SHIFT_HIGH >= 10
	KMALLOC_CLASS(10),
#endif
#if KMALLOC_SHIFT_HIGH >= 11
	KMALLOC_CLASS(11),
#endif
#if KMALLOC_SHIFT_HIGH >= 12
	KMALLOC_CLASS(12),
#endif
#if KMALLOC_SHIFT_HIGH >= 13
	KMALLOC_CLASS(13),
#endif
#if KMALLOC_SHIFT_HIGH >= 14
	KMALLOC_CLASS(14),
#endif
#if KMALLOC_SHIFT_HIGH >= 15
	KMALLOC_CLASS(15),
#endif
#if KMALLOC_SHIFT_HIGH >= 16
	KMALLOC_CLASS(16),
#endif
#if KMALLOC_SHIFT_HIGH < 9 || KMALLOC_SHIFT_HIGH > 16
#error "kmalloc_class_shift[]: add the classes of this page size"
#endif
};

/* Every entry of kmalloc_class_shift[] is its sizes' class. */
static void kmalloc_class_check(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_class_shift); i++)
		if (kmalloc_class_shift[i] != KMALLOC_SHIFT_LOW +
		    kmalloc_index((i + 1) * KMALLOC_MIN_SIZE))
			panic("slab: kmalloc_class_shift[%zu] is %u, not the "
			      "class of %zu bytes", i, kmalloc_class_shift[i],
			      (i + 1) * KMALLOC_MIN_SIZE);
}

static __attribute__((noinline)) void *kmalloc_slow(size_t size, gfp_t gfp)
{
	/* Before the cache is read: the first call may be this CPU's. */
	if (!slab_setup())
		return kmalloc_unready(size, gfp);
	return slab_alloc(&(gfp & __GFP_DMA32 ? kmalloc_dma32_caches
					     : kmalloc_caches)[kmalloc_index(size)],
			  gfp);
}

/*
 * kmalloc()'s general way (its fast path: <mm/slab_fast.h>): zeroing,
 * SLAB_DEBUG, no slab or an empty cursor word, a pending request, sizes
 * above the classes, 0.
 */
void *__kmalloc(size_t size, gfp_t gfp)
{
	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_slow(size, gfp);
	return kmalloc_other(size, gfp);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

static void *array_alloc(const char *fn, size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes)) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("%s: %zu * %zu bytes overflows: refused\n",
				fn, n, size);
		return NULL;
	}
	return kmalloc(bytes, gfp);
}

void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	return array_alloc("kmalloc_array", n, size, gfp);
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return array_alloc("kcalloc", n, size, gfp | __GFP_ZERO);
}

/*
 * kfree()'s general way (its fast path: <mm/slab_fast.h>): NULL, another
 * CPU's slab, a large block, SLAB_DEBUG, an odd stride, the table in
 * chunks, and every pointer it must refuse. Everything is checked here.
 */
void __kfree(const void *p)
{
	struct slab *s;

	/* NULL may lie in a slab where RAM starts at 0. */
	if (ZERO_OR_NULL_PTR(p))
		return;
	slab_poll();
	s = slab_of(p);
	if (s) {
		slab_free(s->cache, s, p, "kfree");
		return;
	}
	if (kfree_large(p))
		return;
	refuse("kfree", p, NULL, "not an address kmalloc returned, or "
	       "already freed");
}

void __kfree_object(struct slab *s, const void *p)
{
	slab_poll();
	slab_free(s->cache, s, p, "kfree");
}

/* The bytes usable at @p, not NULL; 0 for a bad pointer, refused as @fn's. */
static size_t usable_size(const char *fn, const void *p)
{
	struct slab *s = slab_of(p);
	size_t size;

	if (s) {
		if (slab_obj_index(s->cache, s, p) >= 0)
			return s->cache->object_size;
		refuse(fn, p, s->cache, "not the start of an object");
		return 0;
	}
	size = ksize_large(p);
	if (!size)
		refuse(fn, p, NULL, "not an address kmalloc returned");
	return size;
}

size_t ksize(const void *p)
{
	return ZERO_OR_NULL_PTR(p) ? 0 : usable_size("ksize", p);
}

void *krealloc(const void *p, size_t new_size, gfp_t gfp)
{
	size_t old;
	void *n;

	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(new_size, gfp);
	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	old = usable_size("krealloc", p);
	if (!old)
		return NULL;
	/* It fits, and where it is (below 4 GiB, if GFP_DMA32 asks). */
	if (new_size <= old && (!(gfp & __GFP_DMA32) ||
				PHYS_PFN(virt_to_phys(p) + old - 1) < DMA32_END_PFN))
		return (void *)p;
	if (new_size < old)
		old = new_size;
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
	memset(kmalloc_dma32_caches, 0, sizeof(kmalloc_dma32_caches));
	memset(slab_slots, 0, sizeof(slab_slots));
	slab_list_init(&slab_caches);
	memset(&slab_tab, 0, sizeof(slab_tab));
	slab_tab_nomem_said = false;
	smp_store_release(&slab_ready_flag, 0);
	spin_unlock(&slab_caches_lock);
	slab_large_reset();
}
#endif
