/*
 * page_alloc.c - the buddy allocator: free lists, allocation by splitting,
 * freeing by merging, and the refusal of bad frees.
 *
 * free_area[o] lists the free blocks of 2^o pages; a block's list node lives
 * in its own first bytes. Allocation takes the smallest order that has a
 * block and splits it down, putting each upper half on its list. Freeing
 * merges with the buddy (index ^ 2^order) while the buddy is a free head of
 * the same order, up to MAX_PAGE_ORDER and no further. Every step touches a
 * constant number of struct page bytes per order: see page_state.h.
 *
 * The common cases are kept short: an allocation that finds a block of its
 * order listed, and a free that passes one test and whose buddy is not
 * free, take a few dozen instructions and no table lookup but the one
 * giving the block's address. Splitting, deferred runs and the reasons for
 * a refusal are out of line.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/test_reset.h>
#include "page_state.h"

struct page_allocator page_allocator;

void __page_allocator_init_lists(void)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &page_allocator.free_area[o];

		area->list.next = area->list.prev = &area->list;
		area->nr_free = 0;
	}
}

static inline uintptr_t node_check(const struct free_block *node,
				   const struct page *page)
{
	return FREE_BLOCK_MAGIC ^ (uintptr_t)node ^ (uintptr_t)page;
}

/* Link the free block @page, whose first bytes are @node, to its list. */
static inline void __free_area_add(unsigned int order, struct page *page,
				   struct free_block *node)
{
	struct free_area *area = &page_allocator.free_area[order];

	node->next = area->list.next;
	node->prev = &area->list;
	node->page = page;
	node->check = node_check(node, page);
	area->list.next->prev = node;
	area->list.next = node;
	area->nr_free++;
}

static inline void __free_area_del(unsigned int order, struct free_block *node)
{
	/* A broken node means something wrote to free memory. */
	if (unlikely(node->check != node_check(node, node->page) ||
		     node->next->prev != node || node->prev->next != node))
		panic("free block at %p order %u is corrupted: something "
		      "wrote to free memory", (void *)node, order);
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->check = 0;
	page_allocator.free_area[order].nr_free--;
}

void free_area_add(unsigned int order, struct page *page)
{
	__free_area_add(order, page, __page_address(page));
}

void free_area_del(unsigned int order, struct page *page)
{
	__free_area_del(order, __page_address(page));
}

/*
 * Take a free block of @order with no list node: the highest block of the
 * last deferred run, when @order is the top order and its list is empty.
 */
static __attribute__((noinline)) struct page *deferred_take(unsigned int order)
{
	struct page_allocator *pa = &page_allocator;
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
	pa->free_area[order].nr_free--;
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

/* Allocate by splitting a larger block, or from a deferred run. */
static __attribute__((noinline)) struct page *
alloc_pages_split(gfp_t gfp, unsigned int order)
{
	struct page_allocator *pa = &page_allocator;
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
		__free_area_del(o, node);
		addr = (char *)node;
	} else {
		page = deferred_take(o);
		addr = __page_address(page);
	}
	/* Split: the upper half of each order goes back on its list. */
	while (o > order) {
		o--;
		page[1UL << o].state = PG_FREE | o;
		__free_area_add(o, &page[1UL << o],
				(struct free_block *)(addr + (PAGE_SIZE << o)));
	}
	page->state = PG_ALLOC | order;
	if (gfp & __GFP_ZERO)
		memset(addr, 0, PAGE_SIZE << order);
	return page;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct free_area *area;
	struct free_block *node;
	struct page *page;

	if (unlikely(order > MAX_PAGE_ORDER))
		return refuse_order(gfp, order);
	/* The common case: a free block of exactly this order is listed. */
	area = &page_allocator.free_area[order];
	node = area->list.next;
	if (unlikely(node == &area->list))
		return alloc_pages_split(gfp, order);
	page = node->page;
	__free_area_del(order, node);
	page->state = PG_ALLOC | order;
	if (unlikely(gfp & __GFP_ZERO))
		memset(node, 0, PAGE_SIZE << order);
	return page;
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

/* Report a refused free, with an optional detail in parentheses. */
static int __printf(4, 5) refuse(unsigned long pfn, unsigned int order,
				 int why, const char *detail, ...)
{
	va_list ap;

	pr_err("refused free of pfn %#lx order %u: %s", pfn, order,
	       free_refusal_name(why));
	if (detail) {
		printk(" (");
		va_start(ap, detail);
		vprintk(detail, ap);
		va_end(ap);
		printk(")");
	}
	printk("\n");
	return why;
}

/* The head of the block holding the TAIL page @idx, or NULL. */
static struct page *enclosing_head(unsigned long idx)
{
	struct page *map = page_allocator.map;

	for (unsigned int o = 1; o <= MAX_PAGE_ORDER; o++) {
		struct page *head = &map[idx & ~((1UL << o) - 1)];
		uint8_t s = head->state;

		if ((pg_is_head(s, PG_FREE) || pg_is_head(s, PG_ALLOC)) &&
		    pg_order(s) >= o)
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
	uint8_t s = page->state;
	struct page *head;

	if (order > MAX_PAGE_ORDER)
		return refuse(pfn, order, FREE_REFUSED_BAD_ORDER, NULL);
	if (pfn & ((1UL << order) - 1))
		return refuse(pfn, order, FREE_REFUSED_MISALIGNED,
			      "a block of this order starts at pfn %#lx",
			      pfn & ~((1UL << order) - 1));
	if (s == (PG_ALLOC | order))
		return 0;
	if (pg_is_head(s, PG_FREE))
		return refuse(pfn, order, FREE_REFUSED_DOUBLE_FREE,
			      "free block of order %u", pg_order(s));
	if (pg_is_head(s, PG_ALLOC))
		return refuse(pfn, order, FREE_REFUSED_WRONG_ORDER,
			      "allocated at order %u", pg_order(s));
	if (s == PG_RESERVED)
		return refuse(pfn, order, FREE_REFUSED_RESERVED, NULL);
	head = s == PG_TAIL ? enclosing_head(page_index(page)) : NULL;
	if (head && pg_is_head(head->state, PG_FREE))
		return refuse(pfn, order, FREE_REFUSED_DOUBLE_FREE,
			      "inside the free block at pfn %#lx order %u",
			      __page_to_pfn(head), pg_order(head->state));
	if (head)
		return refuse(pfn, order, FREE_REFUSED_NOT_BLOCK_START,
			      "inside the block at pfn %#lx order %u",
			      __page_to_pfn(head), pg_order(head->state));
	return refuse(pfn, order, FREE_REFUSED_CORRUPT,
		      "struct page byte %#x", s);
}

/*
 * Free the block at @page, a page of this allocator. The test below is
 * check_free()'s condition for a good free: only the first page of an
 * allocated block carries PG_ALLOC | order, and blocks are aligned, so a
 * misaligned free never passes it. Anything else goes to check_free() for
 * the reason, which changes nothing.
 */
static inline __attribute__((always_inline)) int
free_block(struct page *page, unsigned int order)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long idx = page_index(page);
	phys_addr_t phys;

	if (unlikely(order > MAX_PAGE_ORDER ||
		     page->state != (PG_ALLOC | order)))
		return check_free(__page_to_pfn(page), page, order);
	phys = PFN_PHYS(__page_to_pfn(page));
	/* Merge while there is an order above to merge into. */
	while (order + 1 < NR_PAGE_ORDERS) {
		unsigned long buddy = idx ^ (1UL << order);

		if (pa->map[buddy].state != (PG_FREE | order))
			break;
		__free_area_del(order, phys_to_virt(phys ^ (PAGE_SIZE << order)));
		/* The upper half stops being a head; the lower one is set below. */
		pa->map[MAX(idx, buddy)].state = PG_TAIL;
		idx &= buddy;
		phys &= ~(phys_addr_t)(PAGE_SIZE << order);
		order++;
	}
	pa->map[idx].state = PG_FREE | order;
	__free_area_add(order, &pa->map[idx], phys_to_virt(phys));
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

/* Whether @page is one of the map's (NULL is not): one comparison. */
static inline bool page_in_map(const struct page *page)
{
	const struct page_allocator *pa = &page_allocator;

	/* Integers, not pointers: @page may point anywhere. One byte a page. */
	return (uintptr_t)page - (uintptr_t)pa->map < pa->nr_map;
}

int free_pages_checked(struct page *page, unsigned int order)
{
	if (unlikely(!page_in_map(page)))
		return refuse_out_of_range(page, order);
	return free_block(page, order);
}

void __free_pages(struct page *page, unsigned int order)
{
	if (unlikely(!page_in_map(page)))
		refuse_out_of_range(page, order);
	else
		free_block(page, order);
}

void free_pages(unsigned long addr, unsigned int order)
{
	phys_addr_t phys;
	struct page *page;

	if (!addr)
		return;
	phys = virt_to_phys((void *)addr);
	if (phys & (PAGE_SIZE - 1)) {
		refuse(PHYS_PFN(phys), order, FREE_REFUSED_MISALIGNED,
		       "address %#lx is not page aligned", addr);
		return;
	}
	page = __pfn_to_page(PHYS_PFN(phys));
	if (!page) {
		refuse(PHYS_PFN(phys), order, FREE_REFUSED_OUT_OF_RANGE, NULL);
		return;
	}
	free_block(page, order);
}

int get_order(unsigned long size)
{
	unsigned long pages;

	if (size <= PAGE_SIZE)
		return 0;
	pages = (size - 1) >> PAGE_SHIFT;
	return (int)(sizeof(long) * 8) - __builtin_clzl(pages);
}

/* Summed when asked, so that alloc and free keep one count, not two. */
unsigned long nr_free_pages(void)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		pages += page_allocator.free_area[o].nr_free << o;
	return pages;
}

unsigned long nr_free_blocks(unsigned int order)
{
	return order > MAX_PAGE_ORDER ? 0 : page_allocator.free_area[order].nr_free;
}

unsigned long nr_managed_pages(void)
{
	return page_allocator.nr_managed;
}

size_t page_metadata_bytes(void)
{
	return page_allocator.metadata_bytes;
}

void show_buddyinfo(void)
{
	printk("Node 0, zone   Normal");
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		printk(" %6lu", page_allocator.free_area[o].nr_free);
	printk("\n");
}

#ifdef CONFIG_HOST
void page_alloc_reset_for_test(void)
{
	memset(&page_allocator, 0, sizeof(page_allocator));
	__page_allocator_init_lists();
}
#endif
