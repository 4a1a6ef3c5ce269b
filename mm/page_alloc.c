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

void free_area_add(unsigned int order, struct page *page)
{
	struct free_area *area = &page_allocator.free_area[order];
	struct free_block *node = page_address(page);

	node->next = area->list.next;
	node->prev = &area->list;
	node->check = FREE_BLOCK_MAGIC ^ (uintptr_t)node;
	area->list.next->prev = node;
	area->list.next = node;
	area->nr_free++;
}

void free_area_del(unsigned int order, struct page *page)
{
	struct free_block *node = page_address(page);

	/* A broken node means something wrote to free memory. */
	if (node->check != (FREE_BLOCK_MAGIC ^ (uintptr_t)node) ||
	    node->next->prev != node || node->prev->next != node)
		panic("free block at pfn %#lx order %u is corrupted: "
		      "something wrote to free memory",
		      __page_to_pfn(page), order);
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->check = 0;
	page_allocator.free_area[order].nr_free--;
}

static struct page *free_area_first(unsigned int order)
{
	struct free_block *node = page_allocator.free_area[order].list.next;

	return __pfn_to_page(PHYS_PFN(virt_to_phys(node)));
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page_allocator *pa = &page_allocator;
	struct page *page;
	unsigned long idx;
	unsigned int o;

	if (order > MAX_PAGE_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("alloc_pages: order %u is above MAX_PAGE_ORDER "
				"(%d): refused\n", order, MAX_PAGE_ORDER);
		return NULL;
	}
	for (o = order; o <= MAX_PAGE_ORDER; o++)
		if (pa->free_area[o].nr_free)
			break;
	if (o > MAX_PAGE_ORDER)
		return NULL;

	page = free_area_first(o);
	free_area_del(o, page);
	idx = page_index(page);
	while (o > order) {
		o--;
		pa->map[idx + (1UL << o)].state = PG_FREE | o;
		free_area_add(o, &pa->map[idx + (1UL << o)]);
	}
	page->state = PG_ALLOC | order;
	pa->nr_free -= 1UL << order;
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
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

/* Check everything before changing anything: a refusal changes nothing. */
static int check_free(unsigned long pfn, struct page *page, unsigned int order)
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

static int free_block(unsigned long pfn, struct page *page, unsigned int order)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long idx = page_index(page);
	int err = check_free(pfn, page, order);

	if (err)
		return err;
	pa->nr_free += 1UL << order;
	/* Merge while there is an order above to merge into. */
	while (order + 1 < NR_PAGE_ORDERS) {
		unsigned long buddy = idx ^ (1UL << order);

		if (pa->map[buddy].state != (PG_FREE | order))
			break;
		free_area_del(order, &pa->map[buddy]);
		/* The upper half stops being a head; the lower one is set below. */
		pa->map[MAX(idx, buddy)].state = PG_TAIL;
		idx &= buddy;
		order++;
	}
	pa->map[idx].state = PG_FREE | order;
	free_area_add(order, &pa->map[idx]);
	return 0;
}

int free_pages_checked(struct page *page, unsigned int order)
{
	const struct page_allocator *pa = &page_allocator;

	if (!page || page < pa->map || page >= pa->map + nr_map_pages()) {
		pr_err("refused free of page %p order %u: %s (not a page of "
		       "this allocator)\n", (void *)page, order,
		       free_refusal_name(FREE_REFUSED_OUT_OF_RANGE));
		return FREE_REFUSED_OUT_OF_RANGE;
	}
	return free_block(__page_to_pfn(page), page, order);
}

void __free_pages(struct page *page, unsigned int order)
{
	free_pages_checked(page, order);
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
	free_block(PHYS_PFN(phys), page, order);
}

int get_order(unsigned long size)
{
	unsigned long pages;

	if (size <= PAGE_SIZE)
		return 0;
	pages = (size - 1) >> PAGE_SHIFT;
	return (int)(sizeof(long) * 8) - __builtin_clzl(pages);
}

unsigned long nr_free_pages(void)
{
	return page_allocator.nr_free;
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
