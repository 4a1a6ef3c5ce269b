/*
 * slab_fast.h - kmalloc() and kfree() inline, and the little of the slab
 * allocator's private state they read. mm/'s own: <mm/slab.h> includes it
 * for kmalloc() and kfree(), and mm/slab_state.h takes the definitions
 * from here; nothing else may use these names.
 *
 * The fast paths read the per-CPU offset once (arch_percpu_offset_nocall())
 * and touch the words of 64 objects of a slab this CPU owns: kmalloc()
 * clears the lowest set bit of the alloc word, kfree() sets the object's
 * bit in the freed word after the slab table (its byte and stride entry)
 * proves the pointer is the start of an object, the slab header that the
 * slab is this CPU's, and the bits that the object is in use (none of
 * its alloc, freed and remote bits set). Each writes a word of its own,
 * so an allocation does not wait for the store of the free before it
 * (a pair's cost is not the chain of both); kmalloc() moves the freed
 * bits to the alloc word when that runs dry.
 * No lock, no atomic read-modify-write, no call.
 * Anything else (no slab yet, an empty word, __GFP_ZERO, __GFP_DMA32
 * (served there from the DMA32 classes), SLAB_DEBUG, an
 * arch without inline fast paths (ARCH_NO_INLINE_FAST_PATHS), a
 * request posted for this CPU (its gate closed), another CPU's slab, a
 * large block, any pointer not so proven) takes the out-of-line paths,
 * __kmalloc() and __kfree() in mm/slab.c, which check everything again:
 * a bad free is refused there with the same message as ever.
 */
#ifndef MM_SLAB_FAST_H
#define MM_SLAB_FAST_H

#ifndef MM_SLAB_H
#error "include <mm/slab.h>, not <mm/slab_fast.h>"
#endif

#include <lib/atomic.h>
#include <lib/bitops.h>
#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/gfp.h>
#include <mm/page_order.h>
#include <smp/percpu.h>
#include <smp/smp.h>

struct slab_list {
	struct slab_list *next, *prev;
};

/*
 * A slab's map[], per 64 objects: SLAB_MAP_LONGS longs, the alloc word
 * and the freed word at these indexes (mm/slab_state.h). The remote
 * words are elsewhere, in struct slab_remote.
 */
#define SLAB_MAP_ALLOC	0
#define SLAB_MAP_FREED	1
#define SLAB_MAP_LONGS	2
/* A CPU's cursor points at an alloc word, which starts its group. */
_Static_assert(SLAB_MAP_ALLOC == 0, "the cursor word starts its group");

/*
 * The slab header, at the start of every slab: see mm/slab_state.h. It
 * is cut into three by who writes it, so that one CPU's writes do not
 * take from another the lines it reads:
 *   the first line, read by every free (local or remote) and written
 *   only when the slab changes hands or lists;
 *   map[], from the second line: the words only the owner writes (its
 *   kmalloc() and local kfree());
 *   struct slab_remote, from the first line after map[]: the state word
 *   and the remote words, which other CPUs' frees write with atomics.
 */
struct slab {
	/* Written when the slab is made, constant until it is given back. */
	uintptr_t check;		/* SLAB_MAGIC ^ address; 0 once given back */
	struct kmem_cache *cache;
	/*
	 * The owner's per-CPU slab state while a CPU owns the slab (current
	 * or on its partial list), else NULL: written by the owner (and by
	 * whoever takes the slab away from a CPU that is not running, see
	 * cache_deactivate_cpu()), read by any CPU freeing an object, which
	 * is local only when this is its own: a CPU never sees its own
	 * address here but for a slab it holds, since it wrote NULL itself
	 * when it let the slab go.
	 */
	struct slab_pcpu *owner_pc;
	/* The owner's (SLAB_ACTIVE), or its one holder's; frozen otherwise. */
	int owner;			/* owning CPU, -1 without one (for checks) */
	/*
	 * Constant: bytes from the slab to its struct slab_remote. A copy of
	 * cache->remote_off, so that kfree()'s fast path finds the remote
	 * word from this line alone, without a load of the cache first.
	 */
	unsigned int remote_off;
	/* cache->lock. */
	struct slab_list list;		/* on cache->partial */
	struct slab_list all;		/* on cache->slabs: every slab of the cache */
	/*
	 * Per 64 objects, SLAB_MAP_LONGS words, both the owner's: the alloc
	 * word (kmalloc() takes from it) and the freed word (kfree() on the
	 * owner puts back into it). See mm/slab_state.h.
	 */
	unsigned long map[] __aligned(SMP_CACHE_BYTES);
};
_Static_assert(__builtin_offsetof(struct slab, map) == SMP_CACHE_BYTES,
	       "the fields every free reads fill the header's first line");

/* The part of the header that other CPUs' frees write: see struct slab. */
struct slab_remote {
	/*
	 * Any CPU, by compare-and-swap: the state, R (remote frees ever
	 * counted) and frozen (R when all is free), see slab.c.
	 */
	atomic_long_t sc;
	/* The owner's (SLAB_ACTIVE), or its one holder's: see sc. */
	unsigned int collected;		/* remote bits ever taken back, mod 2^28 */
	/*
	 * Per 64 objects, the remote word: bits of objects other CPUs freed,
	 * set with an atomic OR, taken back by the owner with an exchange.
	 */
	unsigned long word[];
};

/* @s's struct slab_remote. */
static inline __attribute__((always_inline)) struct slab_remote *
slab_remote(const struct slab *s)
{
	return (struct slab_remote *)((uintptr_t)s + s->remote_off);
}

/*
 * Each CPU's current slab of each cache, and the 64-object word it
 * allocates from: written only by that CPU (or for a CPU that is not
 * running: cache_deactivate_cpu()). All NULL without a slab.
 */
struct kmem_cache_cpu {
	unsigned long *word;		/* the cursor's alloc word: tried first */
	char *base;			/* object cursor * 64's address */
};

/*
 * Slabs a CPU owns besides its current one, per cache: frees into them
 * on that CPU are local (plain stores), and when the current slab runs
 * dry the CPU moves to one of these with free objects before it takes a
 * slab from the cache (Linux's per-CPU partial list). Written by the
 * owner only (or for a CPU that is not running: cache_deactivate_cpu()).
 */
#define SLAB_CPU_PARTIAL	4

struct slab_pcpu {
	/*
	 * The fast paths' gate: nonzero once a request was posted for this
	 * CPU (smp_on_request_posted(): any CPU, a relaxed store), which
	 * sends them the general way, where slab_poll() opens it (this CPU
	 * only) and answers the request. Beside the cursors, so that
	 * kmalloc() tests it from the address it has already made.
	 */
	int gate;
	struct kmem_cache_cpu c[SLAB_MAX_CACHES];
	struct slab *partial[SLAB_MAX_CACHES][SLAB_CPU_PARTIAL];
	/* Pages in large kmalloc blocks this CPU took minus those it freed. */
	long large_pages;
	/*
	 * Depth of this CPU's slab_alloc_slow(), which may reach a poll
	 * point (in the page allocator) with this state half changed: a
	 * request to give back empty slabs leaves the CPU alone meanwhile.
	 * Written by this CPU only.
	 */
	unsigned int busy;
};

DECLARE_PER_CPU(struct slab_pcpu, slab_pcpu);

/*
 * slab_tab - where slabs and large kmalloc blocks are: one byte per
 * 2^shift bytes of physical memory from @lo (a page, unless RAM spans
 * more than the bytes of one page of chunk pointers can describe). A
 * unit covered by a slab of 2^k bytes holds SLAB_TAB_SLAB(k) = 64 - k,
 * the shift that keeps, of an address's offset from @vlo, the bits below
 * 2^k: its offset in the slab (release stores by the CPU that makes the
 * slab, after its header; cleared when it is given back); the first unit
 * of a large kmalloc block holds SLAB_TAB_LARGE | order (set by the
 * allocating CPU, cleared by a compare-and-swap in kfree(), so one of two
 * racing frees wins). As a signed byte: 0 none, > 0 a slab, < 0 a large
 * block. Readers load the byte relaxed: the header's address depends on
 * the value read, which orders the header's reads after it.
 *
 * The bytes are one block (@tab, @n units: kfree()'s fast path, where
 * the unit is always a page) when a top-order block holds them, else
 * chunks of one top-order block each (@dir; @n is 0 and lookups take the
 * general way). Made once by kmem_cache_init(): @units and @n are
 * published last, with release.
 *
 * @obj, beside @tab (read by kfree()'s fast path; n units of two bytes, 0.05% of
 * RAM with 4 KiB pages): for a unit of a slab whose stride is 2^s
 * (3 <= s <= 15) and whose first object is f < 4095, SLAB_OBJ(s, f);
 * for any other slab SLAB_OBJ_NONE, whose first object no offset in a
 * slab reaches (a slab is at most 64 pages, 4 MiB: off >> 15 < 128), so
 * kfree() goes the general way; on the first unit of a large kmalloc
 * run that is not a power of two of pages, its length in pages (the
 * byte, SLAB_TAB_LARGE, sends kfree() the general way before it is
 * used: mm/slab_large.c); 0 where no slab is (the byte says so
 * too; a 0 read for a slab can only be stale, and see below). kfree() loads it beside the table byte, so
 * the header is not on the path to the object's bit: written (plain)
 * before the table byte's release store, and read only as far as the
 * owner check lets the fast path go on: a CPU that owns a slab took it
 * after the entry was written, and no later slab can take the address
 * while it owns it, so the value it reads is that slab's.
 */
#define SLAB_OBJ(shift, first)	((uint16_t)((first) << 4 | (shift)))
#define SLAB_OBJ_NONE		SLAB_OBJ(15, 4095)
#define SLAB_OBJ_SHIFT(e)	((e) & 15)
#define SLAB_OBJ_FIRST(e)	((e) >> 4)
#define SLAB_TAB_LARGE	0x80
#define SLAB_TAB_SLAB(log2_bytes)	((uint8_t)(64 - (log2_bytes)))
struct slab_tab {
	uint8_t *tab;
	uint16_t *obj;			/* per unit of @tab: SLAB_OBJ(), a run length, 0 */
	/*
	 * @lo's virtual address: RAM's map is linear, and @lo is aligned to
	 * SLAB_MAX_SIZE, so an address's offset from @vlo is its physical
	 * offset from @lo, and that offset rounded gives its slab's start.
	 */
	uintptr_t vlo;
	unsigned long n;		/* units in @tab (of a page each); 0 when chunked */
	unsigned int shift;		/* log2 of the bytes per unit */
	unsigned int min_order;		/* shift - PAGE_SHIFT: the least slab order */
	phys_addr_t lo;
	unsigned long units;		/* all units; 0 until made */
	uint8_t **dir;			/* the chunks, or NULL */
	unsigned int chunk_shift;	/* log2 of the units per chunk */
};
extern struct slab_tab slab_tab;

/*
 * The class of each size, by 8-byte steps: kmalloc_class_shift[(size -
 * 1) / 8] is log2 of the class's object size for 1..KMALLOC_MAX_CACHE_SIZE
 * bytes, its index plus KMALLOC_SHIFT_LOW: the fast path scales the
 * object's number by it as it is. Constant, made by the compiler (mm/slab.c),
 * so that the first kmalloc() of several CPUs at once reads nothing that
 * kmem_cache_init() writes.
 */
extern const uint8_t kmalloc_class_shift[KMALLOC_MAX_CACHE_SIZE / KMALLOC_MIN_SIZE];

/* The general ways: every check, every case (mm/slab.c). */
void *__kmalloc(size_t size, gfp_t gfp);
void __kfree(const void *p);
/* __kfree() of @p, which the slab table and @s's header say starts an object. */
void __kfree_object(struct slab *s, const void *p);

/*
 * kmalloc - @size bytes (see <mm/slab.h>). Inline: the lowest free
 * object of this CPU's cursor word of the size's class, its freed bits
 * taken back when its alloc bits ran out; else __kmalloc().
 */
static inline __attribute__((always_inline)) void *kmalloc(size_t size, gfp_t gfp)
{
	if (likely(!CONFIG_SLAB_DEBUG && !ARCH_NO_INLINE_FAST_PATHS &&
		   !(gfp & (__GFP_ZERO | __GFP_DMA32)) &&
		   size - 1 < KMALLOC_MAX_CACHE_SIZE)) {
		unsigned long shift =
			kmalloc_class_shift[(size - 1) / KMALLOC_MIN_SIZE];
		struct kmem_cache_cpu *c;
		struct slab_pcpu *pc = __percpu_shift(&slab_pcpu,
						      arch_percpu_offset_nocall());
		unsigned long *lw, bits;

		/* A request posted for this CPU: the general way answers it. */
		if (unlikely(__atomic_load_n(&pc->gate, __ATOMIC_RELAXED)))
			goto slow;
		c = &pc->c[shift - KMALLOC_SHIFT_LOW];
		lw = c->word;
		if (unlikely(!lw))
			goto slow;
		/* Only this CPU writes its free words: no read-modify-write. */
		bits = READ_ONCE(*lw);
		if (likely(bits)) {
			WRITE_ONCE(*lw, bits & (bits - 1));
		} else {
			/*
			 * The alloc word ran dry: take the word's freed bits
			 * back here rather than in the general way, in
			 * slab_merge_freed()'s order: the alloc word, then
			 * the freed word cleared with release.
			 */
			bits = READ_ONCE(lw[SLAB_MAP_FREED]);
			if (unlikely(!bits))
				goto slow;
			WRITE_ONCE(*lw, bits & (bits - 1));
			__atomic_store_n(&lw[SLAB_MAP_FREED], 0, __ATOMIC_RELEASE);
		}
		return c->base + (__ffs(bits) << shift);
	}
slow:
	return __kmalloc(size, gfp);
}

/*
 * kfree - free @p (see <mm/slab.h>). Inline: the slab table names a slab
 * at @p, the table's SLAB_OBJ() entry says @p starts an object past the
 * header (its stride and first object, loaded beside the table byte, so
 * that the header's line is read in parallel, for the owner check, not
 * before the object's bit can be found),
 * the header's owner is this CPU, and the object's three bits say it is
 * in use: none is set; then its bit in the freed word. Anything else:
 * __kfree(), which checks all,
 * or, for a proven object start of another CPU's slab or with a bit set,
 * __kfree_object(), which checks all but the table.
 * It does not poll for requests: a CPU answers at its next kmalloc() or
 * general path, and a free sets one bit of a slab it owns, which a
 * request run for it meanwhile cannot take away (a CPU that is not away
 * runs its requests itself).
 */
static inline __attribute__((always_inline)) void kfree(const void *p)
{
	/* Acquire: @tab and @vlo are written before @n is published. */
	unsigned long n = smp_load_acquire(&slab_tab.n);
	unsigned long rel = (uintptr_t)p - slab_tab.vlo;
	unsigned long off, idx, bit, m, *lw, e;
	struct slab *s;
	int k;

	if (CONFIG_SLAB_DEBUG || ARCH_NO_INLINE_FAST_PATHS ||
	    unlikely((rel >> PAGE_SHIFT) >= n))
		goto slow;
	k = (int8_t)__atomic_load_n(&slab_tab.tab[rel >> PAGE_SHIFT],
				    __ATOMIC_RELAXED);
	/* Beside the byte, not after it: the header is off this path. */
	e = __atomic_load_n(&slab_tab.obj[rel >> PAGE_SHIFT], __ATOMIC_RELAXED);
	if (unlikely(k <= 0))
		goto slow;
	off = rel << k >> k;
	s = (struct slab *)((uintptr_t)p - off);
#if defined(__riscv) && !defined(__riscv_zbb)
	/* No rotate: the number shifted back, and the first object's bound. */
	idx = off >> SLAB_OBJ_SHIFT(e);
	if (unlikely((idx << SLAB_OBJ_SHIFT(e)) != off || idx < SLAB_OBJ_FIRST(e)))
		goto slow;
#else
	/*
	 * Rotated right by the stride's shift, an offset that is a multiple
	 * of the stride is its object's number (below 2^19: a slab is at
	 * most 4 MiB, a stride at least 8 bytes), and any other has a low
	 * bit rotated to the top (2^49 at least): one range check says both
	 * that an object starts there and that it is past the header.
	 */
	idx = ror64(off, SLAB_OBJ_SHIFT(e));
	if (unlikely(idx - SLAB_OBJ_FIRST(e) >= 1UL << 32))
		goto slow;
#endif
	/* From here @p is the start of an object of @s. */
	if (unlikely(READ_ONCE(s->owner_pc) !=
		     __percpu_shift(&slab_pcpu, arch_percpu_offset_nocall())))
		goto object;
	lw = &s->map[idx / 64 * SLAB_MAP_LONGS];
	bit = 1UL << (idx % 64);
	m = READ_ONCE(lw[SLAB_MAP_FREED]);
	if (unlikely((m | READ_ONCE(lw[SLAB_MAP_ALLOC]) |
		      __atomic_load_n(&slab_remote(s)->word[idx / 64],
				      __ATOMIC_RELAXED)) & bit))
		goto object;
	WRITE_ONCE(lw[SLAB_MAP_FREED], m | bit);
	return;
object:
	/* Another CPU's slab (a remote free), or a double free. */
	__kfree_object(s, p);
	return;
slow:
	__kfree(p);
}

#endif /* MM_SLAB_FAST_H */
