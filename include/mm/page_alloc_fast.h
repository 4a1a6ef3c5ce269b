/*
 * page_alloc_fast.h - the allocator's inline fast paths and the little of
 * its private state they read. mm/'s own: <mm/page_alloc.h> includes it
 * for alloc_pages(), __free_pages() and free_pages_checked(), and mm/
 * (page_state.h, page_pcp.h) takes the definitions from here; nothing
 * else may use these names.
 *
 * The fast paths serve an order up to PCP_MAX_ORDER from this
 * CPU's home set (mm/page_pcp.h): they read the per-CPU offset once
 * (arch_percpu_offset_nocall(); on the host, for a thread not numbered
 * yet, that of no CPU, whose lists are empty and closed), which finds the
 * home set at a fixed place, test the list's count against its gate
 * (limit: 0 while closed, which a CPU posting this one a request does, so
 * no "request pending" word is read here), then pop or push one array
 * slot and write the block's state byte. No lock, no atomic
 * read-modify-write, no call.
 * Anything else (no home yet, a closed gate, an empty or full list,
 * an arch without inline fast paths (ARCH_NO_INLINE_FAST_PATHS), a
 * constraint in gfp, a block of another zone, and every free whose
 * state byte is not exactly "allocated at this order") returns to the
 * out-of-line paths in mm/page_alloc.c, which do the full checks: a bad
 * free is refused there with the same errno and message as ever.
 */
#ifndef MM_PAGE_ALLOC_FAST_H
#define MM_PAGE_ALLOC_FAST_H

#ifndef MM_PAGE_ALLOC_H
#error "include <mm/page_alloc.h>, not <mm/page_alloc_fast.h>"
#endif

#include <lib/atomic.h>
#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/gfp.h>
#include <mm/page_order.h>
#include <smp/percpu.h>
#include <smp/smp.h>

/* The struct page byte (its meaning: mm/page_state.h). */
#define PG_TAIL		0x00	/* inside a block, not its first page */
#define PG_FREE		0x40	/* | order: first page of a free block */
#define PG_PCP		0x50	/* | order: free block in a per-CPU list */
#define PG_ALLOC	0x80	/* | order: first page of an allocated block */
#define PG_RESERVED	0xc0	/* never the allocator's */
#define PG_KIND_MASK	0xc0
#define PG_ORDER_MASK	0x0f
/* The bits above the order: PG_FREE and PG_PCP differ only here. */
#define PG_HEAD_MASK	0xf0

/* Orders 0..PCP_MAX_ORDER are cached. */
#define NR_PCP_ORDERS	(PCP_MAX_ORDER + 1)

/* PCP_LIST_SLOTS, the blocks a list can hold: <mm/mmzone.h>. */

/* A CPU's per-CPU pageset of one zone: see mm/page_pcp.h. */
struct per_cpu_pages {
	/*
	 * One list per order, its count and gate beside its array, so that
	 * the fast paths reach all three from one base.
	 */
	struct pcp_list {
		/* Blocks on the list: WRITE_ONCE, as other CPUs read it. */
		unsigned long nr;
		/*
		 * The gate: pcp_list_max() (high >> order, at most
		 * PCP_LIST_SLOTS) while the fast paths may use the
		 * list, 0 while closed. Written by its CPU (opened at a slow
		 * path's entry), and closed by other CPUs that post it a
		 * request or make it forget its home: atomic (relaxed) loads
		 * and stores. Only the fast paths read it: the slow paths
		 * go by @high.
		 */
		unsigned long limit;
		struct page *slot[PCP_LIST_SLOTS];
	} lists[NR_PCP_ORDERS];
	int high;			/* pages a list may hold (and at most
					 * PCP_LIST_SLOTS blocks) */
	int batch;			/* pages per refill or drain; 0: not set up */
} __aligned(64);

/*
 * This CPU's home set: its set of the first zone of its node's zonelist,
 * where alloc_pages() with no zone or node constraint looks first. It sits
 * at a fixed place in the per-CPU area (@set, in pcp_home),
 * so the fast paths find it from the per-CPU offset alone, with no
 * pointer to load and test; they need neither the node nor the zonelist
 * (nor, for a free in that zone, the zone).
 *
 * @set is the CPU's set for @zone in place of the zone's own element of
 * pcp_pages (zone_pcp() picks it), which stays empty meanwhile. @zone:
 * NULL while the CPU has no home (then @set is empty and closed);
 * written by its CPU (WRITE_ONCE), read by others through zone_pcp(). The
 * rest is its CPU's alone, valid while @zone is set: @run and @run_pages,
 * the longest run of the per-page map whose chunks are all of the home
 * zone (page_state.h; the map is fixed from the hand-off until the host's
 * tests reset the allocator), so that a free tells a block of the home
 * zone, of this allocator, with one subtraction and one comparison.
 * Blocks of the home zone outside it take the slow path, which finds
 * their zone. @stale: set by another CPU (set_cpu_numa_node(),
 * numa_reset()) that also closes the gates; the CPU gives the home up at
 * its next allocation's slow path.
 */
struct pcp_home {
	uintptr_t run;			/* first struct page of the run */
	unsigned long run_pages;	/* its length; 0: none */
	struct zone *zone;
	unsigned int stale;		/* atomic */
	struct per_cpu_pages set;	/* a cache line on: short offsets */
};

DECLARE_PER_CPU(struct pcp_home, pcp_home);

/*
 * mm/'s own gfp bit, never a caller's: the block comes from the buddy
 * lists, past every CPU's lists. alloc_pages_exact() takes a block it
 * cuts so, since the pieces go back to the buddy lists (mm/page_exact.c).
 */
#define __GFP_BUDDY_ONLY	0x80000000u

/*
 * What the home set may not serve: another zone or node, zeroing, or a
 * block for the buddy lists.
 */
#define HOME_SLOW_GFP	(__GFP_DMA32 | __GFP_THISNODE | __GFP_ZERO | \
			 __GFP_BUDDY_ONLY)

/*
 * This CPU's home list of @order, from its per-CPU offset @off. The empty
 * asm makes the compiler keep the list's address in one register, from
 * which its count, gate and slots are each one offset away: left alone,
 * GCC 12 rebuilds base + order * size + field for each of them (three
 * more instructions per operation on riscv64).
 */
static inline __attribute__((always_inline)) struct pcp_list *
pcp_home_list(unsigned long off, unsigned int order)
{
	struct pcp_list *list = &__percpu_shift(&pcp_home, off)->set.lists[order];

	__asm__("" : "+r"(list));
	return list;
}

static inline __attribute__((always_inline)) unsigned long
pcp_fast_limit(const struct pcp_list *list)
{
	return __atomic_load_n(&list->limit, __ATOMIC_RELAXED);
}

/*
 * The owner's store of a list's count, which other CPUs read (READ_ONCE):
 * a single store. riscv64's GCC 12 makes a relaxed atomic store an
 * amoswap, which cannot take an offset; a volatile store (Linux's
 * WRITE_ONCE) is the same single store on every target. The host keeps
 * the atomic, for ThreadSanitizer.
 */
static inline __attribute__((always_inline)) void
pcp_set_nr(struct pcp_list *list, unsigned long n)
{
#ifdef CONFIG_HOST
	__atomic_store_n(&list->nr, n, __ATOMIC_RELAXED);
#else
	*(volatile unsigned long *)&list->nr = n;
#endif
}

/*
 * A block of @order from this CPU's home set, or NULL: the caller then
 * takes the slow path (alloc_pages_slow()). One test covers an empty list
 * (nr - 1 wraps) and a closed gate (limit 0): a list never holds more
 * than its open limit.
 */
static inline __attribute__((always_inline)) struct page *
pcp_alloc_fast(gfp_t gfp, unsigned int order)
{
	struct pcp_list *list;
	unsigned long off = arch_percpu_offset_nocall(), n;
	struct page *page;

	if (ARCH_NO_INLINE_FAST_PATHS ||
	    unlikely(order >= NR_PCP_ORDERS || (gfp & HOME_SLOW_GFP)))
		return NULL;
	list = pcp_home_list(off, order);
	n = list->nr - 1;
	if (unlikely(n >= pcp_fast_limit(list)))
		return NULL;
	page = list->slot[n];
	/* A list never holds NULL (page_alloc_check() checks every entry). */
	if (!page)
		__builtin_unreachable();
	pcp_set_nr(list, n);
	__atomic_store_n(&page->state, (uint8_t)(PG_ALLOC | order),
			 __ATOMIC_RELAXED);
	return page;
}

/*
 * Push @page of @order on this CPU's home set when it is a good free (its
 * byte says allocated at @order: only the first page of an allocated
 * block of that order carries it, and blocks are aligned) of a block of
 * the home zone, and the list has room under an open gate. False:
 * nothing changed, and the caller takes the slow path (free_pages_slow()),
 * which checks all.
 */
static inline __attribute__((always_inline)) bool pcp_free_fast(struct page *page, unsigned int order)
{
	struct pcp_list *list;
	struct pcp_home *home;
	unsigned long off = arch_percpu_offset_nocall(), n;

	home = __percpu_shift(&pcp_home, off);
	/*
	 * Integers, not pointers: @page may point anywhere, and its byte is
	 * only read once it is known to be one of the home run's.
	 */
	if (ARCH_NO_INLINE_FAST_PATHS ||
	    unlikely(order >= NR_PCP_ORDERS ||
		     (uintptr_t)page - home->run >= home->run_pages ||
		     __atomic_load_n(&page->state, __ATOMIC_RELAXED) !=
		     (PG_ALLOC | order)))
		return false;
	list = pcp_home_list(off, order);
	n = list->nr;
	if (unlikely(n >= pcp_fast_limit(list)))
		return false;
	list->slot[n] = page;
	pcp_set_nr(list, n + 1);
	__atomic_store_n(&page->state, (uint8_t)(PG_PCP | order),
			 __ATOMIC_RELAXED);
	return true;
}

#endif /* MM_PAGE_ALLOC_FAST_H */
