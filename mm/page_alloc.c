/*
 * page_alloc.c - the buddy allocator: free lists, allocation by splitting,
 * freeing by merging, the per-CPU fast paths, and the refusal of bad frees.
 *
 * free_area[o] lists the free blocks of 2^o pages; a block's list node lives
 * in its own first bytes. Allocation takes the smallest order that has a
 * block and splits it down, putting each upper half on its list. Freeing
 * merges with the buddy (index ^ 2^order) while the buddy is a free head of
 * the same order, up to MAX_PAGE_ORDER and no further. Every step touches a
 * constant number of struct page bytes per order: see page_state.h.
 *
 * Each zone of each node (<mm/mmzone.h>) has its own buddy lists under
 * its own zone lock. An allocation walks the zonelist of its node (the
 * calling CPU's for alloc_pages()): its own zones, ZONE_NORMAL before
 * ZONE_DMA32, then the other nodes' by distance; GFP_DMA32 skips every
 * ZONE_NORMAL, __GFP_THISNODE stops at the first other node. A free finds
 * its zone from the page's chunk (page_state.h). Orders up to
 * PCP_MAX_ORDER are first served from this CPU's lists of cached
 * blocks for the zone (page_pcp.h), which are this CPU's alone: the common
 * allocation pops a block with plain loads and stores, the common free
 * passes one test and pushes it; neither takes a lock or an atomic. For
 * this CPU's home set those two are inline in the callers
 * (<mm/page_alloc_fast.h>); alloc_pages_slow() and free_pages_slow() here
 * do the rest. Refill, drain, splitting, deferred runs and the reasons for
 * a refusal are out of line. An allocation no zone
 * can serve drains every CPU's cached blocks and tries once more, so that
 * no page is lost to a cache.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/test_reset.h>
#include "page_pcp.h"
#include "page_state.h"

struct page_allocator page_allocator;
struct pglist_data *node_data[MAX_NUMNODES];
const char *const zone_names[MAX_NR_ZONES] = { "DMA32", "Normal" };

void zone_init_lists(struct zone *zone)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &zone->free_area[o];

		area->list.next = area->list.prev = &area->list;
		WRITE_ONCE(area->nr_free, 0);
	}
}

static inline uintptr_t node_check(const struct free_block *node,
				   const struct page *page)
{
	return FREE_BLOCK_MAGIC ^ (uintptr_t)node ^ (uintptr_t)page;
}

/* Link the free block @page, whose first bytes are @node, to its list. */
static inline void __free_area_add(struct zone *zone, unsigned int order,
				   struct page *page, struct free_block *node)
{
	struct free_area *area = &zone->free_area[order];

	node->next = area->list.next;
	node->prev = &area->list;
	node->page = page;
	node->check = node_check(node, page);
	area->list.next->prev = node;
	area->list.next = node;
	WRITE_ONCE(area->nr_free, area->nr_free + 1);
}

static inline void __free_area_del(struct zone *zone, unsigned int order,
				   struct free_block *node)
{
	/* A broken node means something wrote to free memory. */
	if (unlikely(node->check != node_check(node, node->page) ||
		     node->next->prev != node || node->prev->next != node))
		panic("free block at %p order %u is corrupted: something "
		      "wrote to free memory", (void *)node, order);
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->check = 0;
	WRITE_ONCE(zone->free_area[order].nr_free,
		   zone->free_area[order].nr_free - 1);
}

void free_area_add(struct zone *zone, unsigned int order, struct page *page)
{
	__free_area_add(zone, order, page, __page_address(page));
}

void free_area_del(struct zone *zone, unsigned int order, struct page *page)
{
	__free_area_del(zone, order, __page_address(page));
}

/*
 * Take a free block of @order with no list node: the highest block of the
 * last deferred run, when @order is the top order and its list is empty.
 */
static __attribute__((noinline)) struct page *
deferred_take(struct zone *pa, unsigned int order)
{
	struct deferred_run *run;
	unsigned long pfn;

	if (order != MAX_PAGE_ORDER || !pa->nr_runs)
		panic("free_area[%u] counts %lu free blocks but holds none",
		      order, pa->free_area[order].nr_free);
	run = &pa->deferred[pa->nr_runs - 1];
	pfn = run->pfn + ((run->nr - 1) << MAX_PAGE_ORDER);
	if (!--run->nr)
		pa->nr_runs--;
	pa->nr_deferred--;
	WRITE_ONCE(pa->free_area[order].nr_free, pa->free_area[order].nr_free - 1);
	return __pfn_to_page(pfn);
}

static __attribute__((noinline, cold)) struct page *
refuse_order(gfp_t gfp, unsigned int order)
{
	if (!(gfp & __GFP_NOWARN))
		pr_warn("alloc_pages: order %u is above MAX_PAGE_ORDER (%d): "
			"refused\n", order, MAX_PAGE_ORDER);
	return NULL;
}

/* Take a block by splitting a larger one, or from a deferred run. */
static __attribute__((noinline)) struct page *
rmqueue_split(struct zone *pa, unsigned int order)
{
	struct free_block *node;
	struct page *page;
	unsigned int o;
	char *addr;

	for (o = order; !pa->free_area[o].nr_free;)
		if (++o > MAX_PAGE_ORDER)
			return NULL;

	node = pa->free_area[o].list.next;
	if (node != &pa->free_area[o].list) {
		page = node->page;
		__free_area_del(pa, o, node);
		addr = (char *)node;
	} else {
		page = deferred_take(pa, o);
		addr = __page_address(page);
	}
	/* Split: the upper half of each order goes back on its list. */
	while (o > order) {
		o--;
		set_pg_state(&page[1UL << o], PG_FREE | o);
		__free_area_add(pa, o, &page[1UL << o],
				(struct free_block *)(addr + (PAGE_SIZE << o)));
	}
	return page;
}

/* __rmqueue(), inline for rmqueue_buddy(): a call less per allocation. */
static inline __attribute__((always_inline)) struct page *
rmqueue_listed(struct zone *zone, unsigned int order)
{
	struct free_area *area = &zone->free_area[order];
	struct free_block *node = area->list.next;
	struct page *page;

	/* The common case: a free block of exactly this order is listed. */
	if (unlikely(node == &area->list))
		return rmqueue_split(zone, order);
	page = node->page;
	__free_area_del(zone, order, node);
	return page;
}

struct page *__rmqueue(struct zone *zone, unsigned int order)
{
	return rmqueue_listed(zone, order);
}

void zone_undefer_run(struct zone *zone, unsigned long k)
{
	struct deferred_run run = zone->deferred[k];
	struct free_area *area = &zone->free_area[MAX_PAGE_ORDER];
	unsigned long nr_free = area->nr_free;

	for (unsigned long i = 0; i < run.nr; i++)
		free_area_add(zone, MAX_PAGE_ORDER,
			      __pfn_to_page(run.pfn + (i << MAX_PAGE_ORDER)));
	/* They were counted already, as deferred blocks. */
	WRITE_ONCE(area->nr_free, nr_free);
	zone->nr_deferred -= run.nr;
	memmove(&zone->deferred[k], &zone->deferred[k + 1],
		(zone->nr_runs - k - 1) * sizeof(run));
	zone->nr_runs--;
}

/*
 * One zone's buddy lists, under its lock: orders above the cached ones,
 * and the cached ones when this CPU's refill found nothing.
 */
static inline __attribute__((always_inline)) struct page *
rmqueue_buddy(struct zone *zone, unsigned int order)
{
	struct page *page;

	/*
	 * Every caller refused larger orders already; inline, the compiler
	 * cannot see it, and a build with MAX_PAGE_ORDER 0 would index
	 * free_area[] past its end on a path that never runs.
	 */
	if (unlikely(order > MAX_PAGE_ORDER))
		return NULL;
	zone_lock(zone);
	page = rmqueue_listed(zone, order);
	if (page)
		set_pg_state(page, PG_ALLOC | order);
	zone_unlock(zone);
	return page;
}

/*
 * The cached orders, when this CPU's list is empty or a request waits.
 * NULL when a refill found no block of @order or above under the zone
 * lock: the buddy lists have none either.
 */
static __attribute__((noinline)) struct page *
rmqueue_pcp(struct zone *zone, unsigned int order)
{
	return pcp_alloc(zone, order);
}

/*
 * A block of @order from @zone: this CPU's cached blocks first, unless
 * @gfp says __GFP_BUDDY_ONLY.
 */
static inline __attribute__((always_inline)) struct page *
rmqueue(struct zone *zone, unsigned int order, gfp_t gfp)
{
	struct page *page;

	if (unlikely(order >= NR_PCP_ORDERS || (gfp & __GFP_BUDDY_ONLY)))
		return rmqueue_buddy(zone, order);
	page = pcp_take(this_zone_pcp(zone), order);
	if (unlikely(!page))
		return rmqueue_pcp(zone, order);
	return page;
}

/* Whether @gfp may take blocks of @zone: GFP_DMA32 only below 4 GiB. */
static inline bool zone_allowed(const struct zone *zone, gfp_t gfp)
{
	return !(gfp & __GFP_DMA32) || zone->zone_idx == ZONE_DMA32;
}

/*
 * Walk @pgdat's zonelist: the first zone that @gfp allows and that gives
 * a block, but @tried (NULL: none), which just gave none. __GFP_THISNODE
 * stops at the first zone of another node.
 */
static struct page *get_page_from_freelist(const struct pglist_data *pgdat,
					   gfp_t gfp, unsigned int order,
					   const struct zone *tried)
{
	struct zone *const *z = pgdat->node_zonelist.zones;
	struct page *page;

	for (; *z; z++) {
		if (*z == tried)
			continue;
		if (unlikely(gfp & (__GFP_DMA32 | __GFP_THISNODE))) {
			if ((gfp & __GFP_THISNODE) &&
			    (*z)->node != pgdat->node_id)
				break;
			if (!zone_allowed(*z, gfp))
				continue;
		}
		page = rmqueue(*z, order, gfp);
		if (page)
			return page;
	}
	return NULL;
}

static __attribute__((noinline, cold)) struct page *
refuse_node(gfp_t gfp, int nid)
{
	if (!(gfp & __GFP_NOWARN))
		pr_warn("alloc_pages_node: node %d has no memory map (not "
			"online, or out of range): refused\n", nid);
	return NULL;
}

/*
 * The pg_data_t an allocation for @nid, a CPU's node (so in range:
 * set_cpu_numa_node() checks it), starts at, or NULL.
 */
static inline struct pglist_data *start_node(int nid)
{
	struct pglist_data *pgdat = node_data[nid];

	/* A CPU in a node without a pg_data_t: where node-less memory is. */
	return pgdat ? pgdat : NODE_DATA(page_allocator.default_nid);
}

/*
 * The allocation itself, @tried (NULL: none) left out as it just gave
 * nothing. When no zone has a block, the blocks cached on every CPU go
 * back to the buddy lists (where they may merge) and the whole zonelist
 * is walked again.
 */
static __attribute__((noinline)) struct page *
__alloc_pages(gfp_t gfp, unsigned int order, struct pglist_data *pgdat,
	      const struct zone *tried)
{
	struct page *page;

	if (unlikely(order > MAX_PAGE_ORDER))
		return refuse_order(gfp, order);
	if (unlikely(!pgdat))
		return NULL;
	page = get_page_from_freelist(pgdat, gfp, order, tried);
	if (unlikely(!page) && pcp_count_pages(NULL)) {
		drain_all_pages();
		page = get_page_from_freelist(pgdat, gfp, order, NULL);
	}
	if (unlikely(page && (gfp & __GFP_ZERO)))
		memset(__page_address(page), 0, PAGE_SIZE << order);
	return page;
}

/* Make the first zone of @pgdat's zonelist this CPU's home. */
static __attribute__((noinline)) void pcp_home_set(struct pglist_data *pgdat)
{
	struct zone *zone = pgdat ? pgdat->node_zonelist.zones[0] : NULL;
	const struct page_allocator *pa = &page_allocator;
	const struct map_part *part = NULL, *best_part = NULL;
	unsigned long c, start = 0, best = 0, best_len = 0;

	if (!zone)
		return;
	/* The longest run of chunks all of the zone (none mixed). */
	for (part = pa->parts; part < pa->parts + pa->nr_parts; part++) {
		unsigned long nr_chunks = part->nr >> MAP_CHUNK_SHIFT;

		if (part->nid != zone->node)
			continue;
		for (c = 0, start = 0; c <= nr_chunks; c++) {
			if (c < nr_chunks && part->chunk_zone[c] == zone->id)
				continue;
			if (c - start > best_len) {
				best_part = part;
				best = start;
				best_len = c - start;
			}
			start = c + 1;
		}
	}
	pcp_home_adopt(zone, best_part ?
		       (uintptr_t)&best_part->map[best << MAP_CHUNK_SHIFT] : 0,
		       best_len << MAP_CHUNK_SHIFT);
}

/*
 * What alloc_pages()'s inline fast path (<mm/page_alloc_fast.h>) did not
 * serve. With no constraint in @gfp and a home set, the home zone is the
 * first zone of this CPU's zonelist: it is tried directly (every order,
 * its cached blocks first), and only when it has no block is the zonelist
 * walked, the other zones first (the home zone again only after a drain:
 * an exhausted home zone costs one look per allocation). Without a home
 * yet, this finds it, for the next allocation and free.
 */
struct page *alloc_pages_slow(gfp_t gfp, unsigned int order)
{
	struct zone *zone, *tried = NULL;
	struct pglist_data *pgdat;
	struct page *page;

	pcp_home_enter(order);
	zone = this_cpu_ptr(&pcp_home)->zone;
	if (likely(zone && order <= MAX_PAGE_ORDER && !(gfp & HOME_SLOW_GFP))) {
		page = rmqueue(zone, order, gfp);
		if (likely(page))
			return page;
		tried = zone;
	}
	pgdat = start_node(numa_node_id());
	if (!zone)
		pcp_home_set(pgdat);
	return __alloc_pages(gfp, order, pgdat, tried);
}

struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	struct pglist_data *pgdat;

	if (nid == NUMA_NO_NODE)
		return alloc_pages(gfp, order);
	pgdat = NODE_DATA(nid);
	if (unlikely(!pgdat)) {
		/* Before the hand-off no node has one: fail quietly then. */
		if (!page_allocator.nr_managed)
			return NULL;
		return refuse_node(gfp, nid);
	}
	return __alloc_pages(gfp, order, pgdat, NULL);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

const char *free_refusal_name(int err)
{
	switch (err) {
	case 0:					return "ok";
	case FREE_REFUSED_OUT_OF_RANGE:		return "out of range";
	case FREE_REFUSED_BAD_ORDER:		return "order above MAX_PAGE_ORDER";
	case FREE_REFUSED_MISALIGNED:		return "misaligned";
	case FREE_REFUSED_DOUBLE_FREE:		return "double free";
	case FREE_REFUSED_WRONG_ORDER:		return "wrong order";
	case FREE_REFUSED_RESERVED:		return "reserved page";
	case FREE_REFUSED_NOT_BLOCK_START:	return "not the first page of a block";
	case FREE_REFUSED_CORRUPT:		return "corrupt page metadata";
	default:				return "unknown";
	}
}

void refusal_detail(const char *detail, va_list ap)
{
	if (detail) {
		printk(" (");
		vprintk(detail, ap);
		printk(")");
	}
	printk("\n");
}

/* Report a refused free, with an optional detail in parentheses. */
int refuse_free(unsigned long pfn, unsigned int order, int why,
		const char *detail, ...)
{
	va_list ap;

	pr_err("refused free of pfn %#lx order %u: %s", pfn, order,
	       free_refusal_name(why));
	va_start(ap, detail);
	refusal_detail(detail, ap);
	va_end(ap);
	return why;
}

/* The head of the block holding the TAIL page @page, or NULL. */
struct page *enclosing_head(const struct page *page)
{
	const struct map_part *part = page_part(page);
	struct page *map = part->map;
	unsigned long idx = (unsigned long)(page - map);

	for (unsigned int o = 1; o <= MAX_PAGE_ORDER; o++) {
		struct page *head = &map[idx & ~((1UL << o) - 1)];
		uint8_t s = pg_state(head);

		if ((pg_is_free_head(s) || pg_is_head(s, PG_ALLOC) ||
		     pg_is_head(s, PG_CONTIG)) && pg_order(s) >= o)
			return head;
	}
	return NULL;
}

/*
 * Check everything before changing anything: a refusal changes nothing.
 * Off the fast path: free_block() only calls it for a bad free.
 */
static __attribute__((noinline, cold)) int
check_free(unsigned long pfn, struct page *page, unsigned int order)
{
	uint8_t s = pg_state(page);
	struct page *head;

	if (order > MAX_PAGE_ORDER)
		return refuse_free(pfn, order, FREE_REFUSED_BAD_ORDER, NULL);
	if (pfn & ((1UL << order) - 1))
		return refuse_free(pfn, order, FREE_REFUSED_MISALIGNED,
			      "a block of this order starts at pfn %#lx",
			      pfn & ~((1UL << order) - 1));
	if (s == (PG_ALLOC | order))
		return 0;
	if (pg_is_head(s, PG_FREE))
		return refuse_free(pfn, order, FREE_REFUSED_DOUBLE_FREE,
			      "free block of order %u", pg_order(s));
	if (pg_is_head(s, PG_PCP))
		return refuse_free(pfn, order, FREE_REFUSED_DOUBLE_FREE,
			      "free block of order %u, in a per-CPU list",
			      pg_order(s));
	if (pg_is_head(s, PG_ALLOC))
		return refuse_free(pfn, order, FREE_REFUSED_WRONG_ORDER,
			      "allocated at order %u", pg_order(s));
	if (s == PG_RESERVED)
		return refuse_free(pfn, order, FREE_REFUSED_RESERVED, NULL);
	if (pg_is_head(s, PG_CONTIG))
		return refuse_free(pfn, order, FREE_REFUSED_WRONG_ORDER,
			      "part of a contiguous range: free_contig_range() "
			      "frees it");
	head = s == PG_TAIL ? enclosing_head(page) : NULL;
	if (head && pg_is_free_head(pg_state(head)))
		return refuse_free(pfn, order, FREE_REFUSED_DOUBLE_FREE,
			      "inside the free block at pfn %#lx order %u%s",
			      __page_to_pfn(head), pg_order(pg_state(head)),
			      pg_is_head(pg_state(head), PG_PCP) ?
			      ", in a per-CPU list" : "");
	if (head)
		return refuse_free(pfn, order, FREE_REFUSED_NOT_BLOCK_START,
			      "inside the block at pfn %#lx order %u",
			      __page_to_pfn(head), pg_order(pg_state(head)));
	return refuse_free(pfn, order, FREE_REFUSED_CORRUPT,
		      "struct page byte %#x", s);
}

/*
 * Under the zone lock: give the free block @page of @order back to the
 * buddy lists, merging it with its buddy while the buddy is a FREE head
 * of the same order (never a cached PCP one) in the same zone, up to
 * MAX_PAGE_ORDER. A buddy is always in the same chunk (a chunk holds
 * whole top-order blocks), so only a chunk of several zones needs the
 * buddy's zone looked up. @part is @page's part of the map, which a
 * caller that has it passes on (__free_one_page() finds it).
 */
static inline __attribute__((always_inline)) void
free_one_page_in(struct zone *zone, const struct map_part *part,
		 struct page *page, unsigned int order)
{
	struct page *map = part->map;
	unsigned long idx = (unsigned long)(page - map);
	phys_addr_t phys = PFN_PHYS(part_page_to_pfn(part, page));
	bool mixed = part_chunk_mixed(part, page);

	/* Merge while there is an order above to merge into. */
	while (order + 1 < NR_PAGE_ORDERS) {
		unsigned long buddy = idx ^ (1UL << order);

		/* Another CPU may be writing it, if it is cached there. */
		if (pg_state(&map[buddy]) != (PG_FREE | order))
			break;
		if (unlikely(mixed) &&
		    pfn_zone_slow(PHYS_PFN(phys ^ (PAGE_SIZE << order))) != zone)
			break;
		__free_area_del(zone, order,
				phys_to_virt(phys ^ (PAGE_SIZE << order)));
		/* The upper half stops being a head; the lower one is set below. */
		set_pg_state(&map[MAX(idx, buddy)], PG_TAIL);
		idx &= buddy;
		phys &= ~(phys_addr_t)(PAGE_SIZE << order);
		order++;
	}
	set_pg_state(&map[idx], PG_FREE | order);
	__free_area_add(zone, order, &map[idx], phys_to_virt(phys));
}

void __free_one_page(struct zone *zone, struct page *page, unsigned int order)
{
	free_one_page_in(zone, page_part(page), page, order);
}

/* A good free of a cached order: the list is full, or a request waits. */
static __attribute__((noinline)) int
free_block_pcp(struct zone *zone, struct page *page, unsigned int order)
{
	pcp_free(zone, page, order);
	return 0;
}

/* A good free of an order above the cached ones, @page one of @part's. */
static __attribute__((noinline)) int
free_block_zone(struct zone *zone, const struct map_part *part,
		struct page *page, unsigned int order)
{
	zone_lock(zone);
	free_one_page_in(zone, part, page, order);
	zone_unlock(zone);
	return 0;
}

/*
 * Free the block at @page, a page of this allocator. The test below is
 * check_free()'s condition for a good free: only the first page of an
 * allocated block carries PG_ALLOC | order, and blocks are aligned, so a
 * misaligned free never passes it. Anything else goes to check_free() for
 * the reason, which changes nothing. The byte is stable while we look: the
 * block is the caller's (two CPUs freeing one block at the same moment is
 * a race in the caller that no allocator can order; one after the other
 * is a double free, refused).
 */
static inline __attribute__((always_inline)) int
free_block(const struct map_part *part, struct page *page, unsigned int order)
{
	struct zone *zone;

	if (unlikely(order > MAX_PAGE_ORDER ||
		     pg_state(page) != (PG_ALLOC | order)))
		return check_free(part_page_to_pfn(part, page), page, order);
	zone = part_zone(part, page);
	if (unlikely(order >= NR_PCP_ORDERS))
		return free_block_zone(zone, part, page, order);
	if (unlikely(!pcp_give(this_zone_pcp(zone), page, order)))
		return free_block_pcp(zone, page, order);
	return 0;
}

static __attribute__((noinline, cold)) int
refuse_out_of_range(const struct page *page, unsigned int order)
{
	pr_err("refused free of page %p order %u: %s (not a page of this "
	       "allocator)\n", (const void *)page, order,
	       free_refusal_name(FREE_REFUSED_OUT_OF_RANGE));
	return FREE_REFUSED_OUT_OF_RANGE;
}

/*
 * What the inline __free_pages() and free_pages_checked() did not do
 * (<mm/page_alloc_fast.h>): every bad free, refused here, and the good
 * frees that need more than a push on the home set.
 */
int free_pages_slow(struct page *page, unsigned int order)
{
	/* NULL when @page is none of the map's: one comparison a part. */
	const struct map_part *part = page_part(page);

	if (order < NR_PCP_ORDERS)
		pcp_home_enter(order);
	if (unlikely(!part))
		return refuse_out_of_range(page, order);
	return free_block(part, page, order);
}

void free_pages(unsigned long addr, unsigned int order)
{
	phys_addr_t phys;
	struct page *page;

	if (!addr)
		return;
	phys = virt_to_phys((void *)addr);
	if (phys & (PAGE_SIZE - 1)) {
		refuse_free(PHYS_PFN(phys), order, FREE_REFUSED_MISALIGNED,
		       "address %#lx is not page aligned", addr);
		return;
	}
	page = __pfn_to_page(PHYS_PFN(phys));
	if (!page) {
		refuse_free(PHYS_PFN(phys), order, FREE_REFUSED_OUT_OF_RANGE, NULL);
		return;
	}
	__free_pages(page, order);
}

int get_order(unsigned long size)
{
	unsigned long pages;

	if (size <= PAGE_SIZE)
		return 0;
	pages = (size - 1) >> PAGE_SHIFT;
	return (int)(sizeof(long) * 8) - __builtin_clzl(pages);
}

struct zone *page_zone(const struct page *page)
{
	return map_zone(page);
}

/* Every populated zone, by zone id. */
#define for_each_zone_id(zone, id)					\
	for ((id) = 0; (id) < MAX_ZONE_IDS; (id)++)			\
		if (((zone) = page_allocator.zone_table[(id)]) != NULL)

/* The free pages on @zone's buddy lists, without its lock. */
static unsigned long zone_buddy_pages(const struct zone *zone)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		pages += READ_ONCE(zone->free_area[o].nr_free) << o;
	return pages;
}

/*
 * Summed when asked, so that alloc and free keep one count, not two: the
 * buddy lists' blocks and every CPU's cached pages, read without locks (a
 * snapshot while other CPUs work, exact when they are still).
 */
unsigned long zone_free_pages(const struct zone *zone)
{
	return zone_buddy_pages(zone) + pcp_count_pages(zone);
}

unsigned long nr_free_pages(void)
{
	unsigned long pages = pcp_count_pages(NULL);
	struct zone *zone;
	unsigned int id;

	for_each_zone_id(zone, id)
		pages += zone_buddy_pages(zone);
	return pages;
}

unsigned long node_free_pages(int nid)
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	unsigned long pages = 0;

	if (!pgdat)
		return 0;
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
		if (populated_zone(&pgdat->node_zones[z]))
			pages += zone_free_pages(&pgdat->node_zones[z]);
	return pages;
}

unsigned long node_managed_pages(int nid)
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	unsigned long pages = 0;

	if (!pgdat)
		return 0;
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
		pages += pgdat->node_zones[z].managed_pages;
	return pages;
}

unsigned long nr_free_blocks(unsigned int order)
{
	unsigned long n = 0;
	struct zone *zone;
	unsigned int id;

	if (order > MAX_PAGE_ORDER)
		return 0;
	for_each_zone_id(zone, id)
		n += READ_ONCE(zone->free_area[order].nr_free);
	return n + (order < NR_PCP_ORDERS ? pcp_count_blocks(order) : 0);
}

unsigned long nr_managed_pages(void)
{
	return page_allocator.nr_managed;
}

unsigned long zone_lock_acquisitions(void)
{
	unsigned long n = 0;
	struct zone *zone;
	unsigned int id;

	for_each_zone_id(zone, id)
		n += READ_ONCE(zone->lock_count);
	return n;
}

size_t page_metadata_bytes(void)
{
	return page_allocator.metadata_bytes;
}

/*
 * The buddy lists, as /proc/buddyinfo: one line per populated zone of
 * each node; then each CPU's cached blocks.
 */
void show_buddyinfo(void)
{
	struct zone *zone;
	unsigned int id;

	for_each_zone_id(zone, id) {
		printk("Node %d, zone %8s", zone->node, zone->name);
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			printk(" %6lu", READ_ONCE(zone->free_area[o].nr_free));
		printk("\n");
	}
	show_pcp_lists();
}

#ifdef CONFIG_HOST
void page_alloc_reset_for_test(void)
{
	memset(&page_allocator, 0, sizeof(page_allocator));
	memset(node_data, 0, sizeof(node_data));
	pcp_reset_for_test();
}
#endif
