/*
 * page_check.c - the invariant checker: walks the whole allocator state
 * and reports every inconsistency (see include/mm/page_check.h).
 *
 * It trusts nothing it reads: a free-list node is only followed after its
 * address has been found to be the first page of a free block of the
 * list's order, so a corrupt list ends the walk instead of crashing it.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <mm/page_check.h>
#include "page_state.h"

#define CHECK_REPORT_LIMIT	16

struct census {
	unsigned int problems;
	unsigned long free_blocks[NR_PAGE_ORDERS];
	unsigned long free_pages;
	unsigned long alloc_pages;
};

static void __printf(2, 3) problem(struct census *c, const char *fmt, ...)
{
	va_list ap;

	if (c->problems++ >= CHECK_REPORT_LIMIT)
		return;
	pr_err("page_alloc_check: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

static bool node_is_sound(const struct free_block *node)
{
	return node->check == (FREE_BLOCK_MAGIC ^ (uintptr_t)node);
}

/* Check the block whose head is @sec[@i]. Return: pages to skip. */
static unsigned long check_block(struct census *c, const struct page *sec,
				 unsigned long i, unsigned long base_pfn)
{
	uint8_t s = sec[i].state;
	unsigned int order = pg_order(s);
	unsigned long n = 1UL << order, pfn = base_pfn + i;

	if (i & (n - 1))
		problem(c, "block at pfn %#lx order %u is not naturally aligned",
			pfn, order);
	if (i + n > PAGES_PER_SECTION) {
		problem(c, "block at pfn %#lx order %u crosses its section",
			pfn, order);
		n = PAGES_PER_SECTION - i;
	}
	for (unsigned long j = 1; j < n; j++) {
		if (sec[i + j].state != PG_TAIL) {
			problem(c, "pfn %#lx is in two states: inside the block "
				"at pfn %#lx order %u, but has byte %#x",
				pfn + j, pfn, order, sec[i + j].state);
			n = j;
			break;
		}
	}
	if (pg_is_head(s, PG_ALLOC)) {
		c->alloc_pages += n;
		return n;
	}
	c->free_blocks[order]++;
	c->free_pages += n;
	if (!node_is_sound(page_address(&sec[i])))
		problem(c, "free block at pfn %#lx order %u: list node corrupt "
			"(something wrote to free memory)", pfn, order);
	if (order + 1 < NR_PAGE_ORDERS && !(i & (n - 1))) {
		unsigned long buddy = i ^ n;

		if (buddy > i && sec[buddy].state == (PG_FREE | order))
			problem(c, "free buddies at pfn %#lx and %#lx, order %u, "
				"left unmerged", pfn, base_pfn + buddy, order);
	}
	return n;
}

static void check_map(struct census *c)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned long slot = 0; slot < pa->nr_slots; slot++) {
		unsigned long section = pa->slot_section[slot];
		unsigned long base_pfn = section << PFN_SECTION_SHIFT;
		const struct page *sec = &pa->map[slot << PFN_SECTION_SHIFT];
		unsigned long i = 0;

		if (section < pa->first_section ||
		    section - pa->first_section >= pa->nr_span ||
		    pa->section_slot[section - pa->first_section] != slot)
			problem(c, "section tables disagree on slot %lu", slot);
		while (i < PAGES_PER_SECTION) {
			uint8_t s = sec[i].state;

			if (pg_is_head(s, PG_FREE) || pg_is_head(s, PG_ALLOC)) {
				i += check_block(c, sec, i, base_pfn);
				continue;
			}
			if (s == PG_TAIL)
				problem(c, "pfn %#lx is in no state: a tail page "
					"outside any block", base_pfn + i);
			else if (s != PG_RESERVED)
				problem(c, "pfn %#lx has struct page byte %#x, "
					"which encodes nothing", base_pfn + i, s);
			i++;
		}
	}
}

static void check_list(struct census *c, unsigned int order)
{
	const struct free_area *area = &page_allocator.free_area[order];
	const struct free_block *prev = &area->list;
	const struct free_block *node = area->list.next;
	unsigned long n = 0;

	while (node != &area->list) {
		struct page *page = virt_to_page(node);

		if (!page || page_address(page) != node ||
		    page->state != (PG_FREE | order) || !node_is_sound(node)) {
			problem(c, "free list of order %u: entry %lu at %p is "
				"not a free block of that order", order, n,
				(const void *)node);
			return;
		}
		if (node->prev != prev)
			problem(c, "free list of order %u: entry %lu has a "
				"broken back link", order, n);
		if (++n > nr_map_pages()) {
			problem(c, "free list of order %u loops", order);
			return;
		}
		prev = node;
		node = node->next;
	}
	if (n != area->nr_free || n != c->free_blocks[order])
		problem(c, "order %u: %lu blocks on the list, nr_free says %lu, "
			"the page map has %lu", order, n, area->nr_free,
			c->free_blocks[order]);
}

int page_alloc_check(void)
{
	const struct page_allocator *pa = &page_allocator;
	struct census c = { 0 };

	check_map(&c);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		check_list(&c, o);
	if (c.free_pages != pa->nr_free)
		problem(&c, "%lu pages in free blocks, nr_free_pages() says %lu",
			c.free_pages, pa->nr_free);
	if (c.free_pages + c.alloc_pages != pa->nr_managed)
		problem(&c, "%lu free + %lu allocated pages, but %lu managed",
			c.free_pages, c.alloc_pages, pa->nr_managed);
	if (c.problems > CHECK_REPORT_LIMIT)
		pr_err("page_alloc_check: %u problems in all\n", c.problems);
	return (int)c.problems;
}
