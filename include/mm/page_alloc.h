/*
 * page_alloc.h - the buddy page allocator.
 *
 * Blocks of 2^order pages, order 0..MAX_PAGE_ORDER, each naturally aligned
 * (its first pfn is a multiple of 2^order). Names and meanings follow Linux.
 *
 * struct page is one byte per page: see mm/page_state.h for its encoding.
 * A struct page pointer is only meaningful to the functions below.
 */
#ifndef MM_PAGE_ALLOC_H
#define MM_PAGE_ALLOC_H

#include <lib/compiler.h>
#include <lib/errno.h>
#include <lib/types.h>
#include <mm/gfp.h>
#include <mm/mmzone.h>
#include <mm/numa.h>
#include <mm/page_order.h>

struct page {
	uint8_t state;
};

/* Linux's value and meaning: above it, a block is costly to find. */
#define PAGE_ALLOC_COSTLY_ORDER	3

/*
 * Orders up to PCP_MAX_ORDER are served from per-CPU lists first:
 * Linux's small orders, up to PAGE_ALLOC_COSTLY_ORDER, and one more (or
 * up to MAX_PAGE_ORDER, when that is smaller). Order 4 (64 KiB with 4 KiB
 * pages) is the slab order of kmalloc-512 and kmalloc-4096 there, and
 * uncached, a pair of it on a fresh heap split and merged six levels
 * under two zone-lock acquisitions (docs/performance.md, section 2).
 */
#define PCP_MAX_ORDER		MIN(PAGE_ALLOC_COSTLY_ORDER + 1, MAX_PAGE_ORDER)

/*
 * alloc_pages - allocate a block of 2^@order pages, from the calling CPU's
 * node first (cpu_to_node()), then by its zonelist (<mm/mmzone.h>).
 * GFP_DMA32: only from below 4 GiB. __GFP_THISNODE: only from that node.
 * Return: its first page, or NULL when @order > MAX_PAGE_ORDER or no block
 * of that order can be made; in both cases nothing changes.
 * Inline (below): the common case, a cached block of this CPU's home set,
 * takes no call; alloc_pages_slow() does the rest.
 */
static inline struct page *alloc_pages(gfp_t gfp, unsigned int order);
struct page *alloc_pages_slow(gfp_t gfp, unsigned int order);

/*
 * alloc_pages_node - the same, starting at node @nid (NUMA_NO_NODE: the
 * calling CPU's). A node with no memory falls back by distance like any
 * other (and fails with __GFP_THISNODE). A node that is out of range or
 * not online is refused with a message (NULL, nothing changed).
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);

/*
 * alloc_contig_pages - @nr_pages physically contiguous pages, any number
 * (beyond MAX_PAGE_ORDER too), from one zone that @gfp allows, of node
 * @nid first (NUMA_NO_NODE: the calling CPU's) then by its zonelist, only
 * among the nodes of @nodemask (NULL: any). The run starts at a multiple
 * of the largest power of two not above @nr_pages (a 1 GiB run on a
 * 1 GiB boundary). The free blocks that make it up are taken in one
 * operation under the zone lock; blocks cached on CPUs are drained first
 * when they are in the way. __GFP_ZERO zeroes it.
 * Return: the first page, or NULL (nothing changed) when no zone has such
 * a run free, or for 0 pages.
 */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp, int nid,
				nodemask_t *nodemask);

/*
 * free_contig_range - give back @nr_pages pages from @pfn, all from
 * alloc_contig_pages() (a part of a run may be given back, the rest stays
 * allocated). A range with any page that is not part of a contiguous
 * allocation (free, from alloc_pages(), reserved, outside memory) is
 * refused as a bad page free is: reported, and nothing changes.
 * free_contig_range_checked() also says why: 0 or an enum free_refusal.
 */
void free_contig_range(unsigned long pfn, unsigned long nr_pages);
int free_contig_range_checked(unsigned long pfn, unsigned long nr_pages);

/*
 * __free_pages - give back a block from alloc_pages() with the same order;
 * it merges with its free buddy, order by order, up to MAX_PAGE_ORDER.
 * A double free, a wrong order, a reserved, misaligned or out-of-range page
 * is refused, reported with its pfn and order, and changes nothing.
 * Inline (below): the common good free of a cached order takes no call;
 * free_pages_slow() (free_pages_checked() out of line) does the rest.
 */
static inline void __free_pages(struct page *page, unsigned int order);

/*
 * __get_free_pages/free_pages - the same, by (virtual) address. 0 on
 * failure; free_pages(0, order) does nothing, as in Linux.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);

/* One page: Linux's shorthands for order 0. */
#define alloc_page(gfp)		alloc_pages(gfp, 0)
#define __free_page(page)	__free_pages(page, 0)
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
#define free_page(addr)		free_pages(addr, 0)

/*
 * alloc_pages_exact - @size bytes of whole pages, page aligned, holding
 * only the pages @size needs: the block of get_order(@size) is cut into
 * aligned blocks and those past the run are given back (mm/page_exact.c).
 * NULL for 0 bytes or no memory. free_pages_exact - give such a run back,
 * with the same @size; a size or pointer that does not match a run is
 * refused, as __free_pages() refuses, and changes nothing.
 */
void *alloc_pages_exact(size_t size, gfp_t gfp);
void free_pages_exact(void *virt, size_t size);

/*
 * Why a free was refused. Each is a distinct negative errno; a refused
 * free is reported on the console as
 *   "error: refused free of pfn 0x1234 order 3: double free"
 * and leaves the allocator exactly as it was.
 */
enum free_refusal {
	FREE_REFUSED_OUT_OF_RANGE = -ERANGE,	/* no page of this allocator */
	FREE_REFUSED_BAD_ORDER = -E2BIG,	/* order above MAX_PAGE_ORDER */
	FREE_REFUSED_MISALIGNED = -EFAULT,	/* pfn or address not aligned */
	FREE_REFUSED_DOUBLE_FREE = -EEXIST,	/* the page is already free */
	FREE_REFUSED_WRONG_ORDER = -EINVAL,	/* allocated with another order */
	FREE_REFUSED_RESERVED = -EPERM,		/* never the allocator's */
	FREE_REFUSED_NOT_BLOCK_START = -ENOENT,	/* inside an allocated block */
	FREE_REFUSED_CORRUPT = -EIO,		/* metadata makes no sense */
};

/*
 * free_pages_checked - __free_pages() that also says why it refused.
 * Return: 0, or an enum free_refusal value.
 */
static inline int free_pages_checked(struct page *page, unsigned int order);
int free_pages_slow(struct page *page, unsigned int order);

/* free_refusal_name - the words used on the console for @err. */
const char *free_refusal_name(int err);

/*
 * get_order - the smallest order whose block holds @size bytes.
 * Return: 0 for size 0 or up to PAGE_SIZE; may exceed MAX_PAGE_ORDER for
 * large sizes, which alloc_pages() then refuses.
 */
int get_order(unsigned long size);

unsigned long page_to_pfn(const struct page *page);
/*
 * pfn_to_page/virt_to_page - NULL when the page is not memory (outside RAM,
 * or a hole, even one inside the map); a reserved page of memory has one.
 */
struct page *pfn_to_page(unsigned long pfn);
phys_addr_t page_to_phys(const struct page *page);
void *page_address(const struct page *page);
struct page *virt_to_page(const void *addr);

/*
 * Counters: pages free now; free blocks of one order (/proc/buddyinfo),
 * summed over every zone. Per zone and node: <mm/mmzone.h>.
 */
unsigned long nr_free_pages(void);
unsigned long nr_free_blocks(unsigned int order);
/* Pages the allocator manages: free or allocated, not reserved. */
unsigned long nr_managed_pages(void);
/*
 * page_metadata_bytes - bytes of per-page metadata and its tables: one
 * byte per page of each present section between the first and the last
 * top-order block (at least; see mm/page_state.h) that memory touches,
 * plus a few hundred bytes per present section. The map is allocated in
 * whole pages: the hand-off message says how many it keeps.
 */
size_t page_metadata_bytes(void);

/*
 * show_buddyinfo - print the buddy lists' free blocks per order, one line
 * per node and zone, in /proc/buddyinfo's format
 * ("Node 0, zone    DMA32      3      1 ..."), then one line per CPU and
 * zone with its cached blocks (show_pcp_lists(), in the style of Linux's
 * show_free_areas()).
 */
void show_buddyinfo(void);
void show_pcp_lists(void);

/*
 * Per-CPU pagesets (mm/page_pcp.c). Every function here may be called
 * from any CPU at any time, with no allocator lock held. Those that act on
 * other CPUs' lists do it through per-CPU requests (smp/smp.h): they wait
 * until each CPU answered at a poll point or was served while away, at
 * most smp_request_timeout_ns for a CPU that does neither (named on the
 * console: drain_all_pages() then says what it keeps).
 *
 * drain_all_pages - give every online CPU's cached blocks back to the
 * buddy lists. alloc_pages() calls it before it fails.
 * drain_local_pages - the same for this CPU's.
 * setup_per_cpu_pageset - derive batch and high from the memory size and
 * num_online_cpus() (the hand-off does so for the CPUs online then), print
 * them, and apply them to every online CPU; call it once the CPUs are up.
 * zone_pcp_disable - cache nothing (high 0, batch 1) and drain every CPU:
 * alloc_pages() and __free_pages() then act on the buddy lists directly.
 * zone_pcp_enable - back to the derived values.
 * percpu_pagelist_high_fraction - as Linux's sysctl: when non-zero, each
 * CPU's list of each order may hold (managed pages / fraction / CPUs)
 * pages; 0 is the default
 * (see mm/page_pcp.c). Takes effect at the next setup_per_cpu_pageset().
 */
void drain_all_pages(void);
void drain_local_pages(void);
void setup_per_cpu_pageset(void);
void zone_pcp_disable(void);
void zone_pcp_enable(void);
extern int percpu_pagelist_high_fraction;
/* The current tunables, as setup_per_cpu_pageset() printed them. */
int pcp_batch(void);
int pcp_high(void);

/* zone_lock_acquisitions - times the zone lock was taken (benchmarks). */
unsigned long zone_lock_acquisitions(void);

#include <mm/page_alloc_fast.h>

static inline struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = pcp_alloc_fast(gfp, order);

	return likely(page) ? page : alloc_pages_slow(gfp, order);
}

static inline int free_pages_checked(struct page *page, unsigned int order)
{
	return likely(pcp_free_fast(page, order)) ? 0
						  : free_pages_slow(page, order);
}

static inline void __free_pages(struct page *page, unsigned int order)
{
	if (unlikely(!pcp_free_fast(page, order)))
		(void)free_pages_slow(page, order);
}

#endif /* MM_PAGE_ALLOC_H */
