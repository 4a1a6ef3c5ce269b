/*
 * page_alloc_fast.h - the allocator's inline fast paths and the little of
 * its private state they read. mm/'s own: <mm/page_alloc.h> includes it
 * for alloc_pages(), __free_pages() and free_pages_checked(), and mm/
 * (page_state.h, page_pcp.h) takes the definitions from here; nothing
 * else may use these names.
 *
 * The fast paths serve an order up to PAGE_ALLOC_COSTLY_ORDER from this
 * CPU's home set (mm/page_pcp.h): they read the per-CPU offset once
 * (arch_percpu_offset_nocall(), which on the host also says whether the
 * thread is numbered yet), and from it this CPU's home and its "request
 * pending" word (smp/smp.h), then pop or push one array slot and write
 * the block's state byte. No lock, no atomic read-modify-write, no call.
 * Anything else (no home yet, a request pending, an empty or full list,
 * a constraint in gfp, a block of another zone, and every free whose
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

/* Orders 0..PAGE_ALLOC_COSTLY_ORDER are cached (or fewer, on a small top). */
#define NR_PCP_ORDERS	(MIN(PAGE_ALLOC_COSTLY_ORDER, MAX_PAGE_ORDER) + 1)

/*
 * Blocks a list can hold: @high is at most this many pages. Each CPU has
 * a set for every possible zone (mm/page_pcp.h), so this stays small.
 */
#define PCP_LIST_SLOTS	64

/* A CPU's per-CPU pageset of one zone: see mm/page_pcp.h. */
struct per_cpu_pages {
	/* Blocks on each list: WRITE_ONCE, as other CPUs read them. */
	unsigned int nr[NR_PCP_ORDERS];
	/* A free to a list holding limit[o] blocks drains first: high >> o. */
	unsigned int limit[NR_PCP_ORDERS];
	int high;			/* pages a list may hold */
	int batch;			/* pages per refill or drain; 0: not set up */
	struct page *lists[NR_PCP_ORDERS][PCP_LIST_SLOTS];
} __aligned(64);

/*
 * This CPU's home set: its set of the first zone of its node's zonelist,
 * where alloc_pages() with no zone or node constraint looks first, so that
 * the fast paths need neither the node nor the zonelist (nor, for a free
 * in that zone, the zone). NULL until the allocation slow path sets it;
 * cleared when the CPU's node changes (set_cpu_numa_node(), numa_reset())
 * and when the host's tests reset the allocator. @pcp: written by its
 * CPU, and cleared by others: WRITE_ONCE and READ_ONCE. The rest is its
 * CPU's alone, written before @pcp and valid while @pcp is set: @zone
 * (the home zone), and @run and @run_pages: the longest run of the
 * per-page map whose chunks are all of the home zone (page_state.h; the
 * map is fixed from the hand-off until the host's tests reset the
 * allocator), so that a free tells a block of the home zone, of this
 * allocator, with one subtraction and one comparison. Blocks of the home
 * zone outside it take the slow path, which finds their zone.
 */
struct pcp_home {
	struct per_cpu_pages *pcp;
	uintptr_t run;			/* first struct page of the run */
	unsigned long run_pages;	/* its length; 0: none */
	struct zone *zone;
};

DECLARE_PER_CPU(struct pcp_home, pcp_home);

/* What the home set may not serve: another zone or node, or zeroing. */
#define HOME_SLOW_GFP	(__GFP_DMA32 | __GFP_THISNODE | __GFP_ZERO)

/* Whether this CPU, at per-CPU offset @off, has a request to answer. */
static inline __attribute__((always_inline)) bool pcp_fast_request_pending(unsigned long off)
{
	return __atomic_load_n(__percpu_shift(&smp_requests_pending, off),
			       __ATOMIC_RELAXED) != 0;
}

/*
 * A block of @order from this CPU's home set, or NULL: the caller then
 * takes the slow path (alloc_pages_slow()).
 */
static inline __attribute__((always_inline)) struct page *
pcp_alloc_fast(gfp_t gfp, unsigned int order)
{
	struct per_cpu_pages *pcp;
	unsigned long off;
	struct page *page;
	unsigned int n;

	if (unlikely(!arch_percpu_offset_nocall(&off)))
		return NULL;
	pcp = READ_ONCE(__percpu_shift(&pcp_home, off)->pcp);
	if (unlikely(!pcp || order >= NR_PCP_ORDERS || (gfp & HOME_SLOW_GFP)))
		return NULL;
	n = pcp->nr[order];
	if (unlikely(!n || pcp_fast_request_pending(off)))
		return NULL;
	page = pcp->lists[order][--n];
	WRITE_ONCE(pcp->nr[order], n);
	__atomic_store_n(&page->state, (uint8_t)(PG_ALLOC | order),
			 __ATOMIC_RELAXED);
	return page;
}

/*
 * Push @page of @order on this CPU's home set when it is a good free (its
 * byte says allocated at @order: only the first page of an allocated
 * block of that order carries it, and blocks are aligned) of a block of
 * the home zone, and the list has room. False: nothing changed, and the
 * caller takes the slow path (free_pages_slow()), which checks all.
 */
static inline __attribute__((always_inline)) bool pcp_free_fast(struct page *page, unsigned int order)
{
	struct per_cpu_pages *pcp;
	struct pcp_home *home;
	unsigned long off;
	unsigned int n;

	if (unlikely(!arch_percpu_offset_nocall(&off)))
		return false;
	home = __percpu_shift(&pcp_home, off);
	pcp = READ_ONCE(home->pcp);
	/*
	 * Integers, not pointers: @page may point anywhere, and its byte is
	 * only read once it is known to be one of the home run's.
	 */
	if (unlikely(!pcp || order >= NR_PCP_ORDERS ||
		     (uintptr_t)page - home->run >= home->run_pages ||
		     __atomic_load_n(&page->state, __ATOMIC_RELAXED) !=
		     (PG_ALLOC | order)))
		return false;
	n = pcp->nr[order];
	if (unlikely(n >= pcp->limit[order] || pcp_fast_request_pending(off)))
		return false;
	pcp->lists[order][n] = page;
	WRITE_ONCE(pcp->nr[order], n + 1);
	__atomic_store_n(&page->state, (uint8_t)(PG_PCP | order),
			 __ATOMIC_RELAXED);
	return true;
}

#endif /* MM_PAGE_ALLOC_FAST_H */
