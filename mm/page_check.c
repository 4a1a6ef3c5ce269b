/*
 * page_check.c - the invariant checker: walks the whole allocator state
 * and reports every inconsistency (see include/mm/page_check.h).
 *
 * It trusts nothing it reads: a free-list node is only followed after its
 * address has been found to be the first page of a free block of the
 * list's order, so a corrupt list ends the walk instead of crashing it.
 * It stops every other online CPU (smp_stop_others(): each waits at its
 * next poll point, or is held away) and holds the zone lock while it
 * walks, so it may run while other CPUs allocate: they wait meanwhile.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <mm/page_check.h>
#include "page_pcp.h"
#include "page_state.h"

#define CHECK_REPORT_LIMIT	16

struct census {
	unsigned int problems;
	unsigned long run;		/* deferred run at or after the walk */
	unsigned long deferred_found;	/* free top-order heads in runs */
	unsigned long free_blocks[NR_PAGE_ORDERS];	/* on the buddy lists */
	unsigned long cached_blocks[NR_PAGE_ORDERS];	/* PCP heads in the map */
	unsigned long free_pages;			/* both */
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

/* The list node at the start of free block @page is intact. */
static bool node_is_sound(const struct free_block *node,
			  const struct page *page)
{
	return node->page == page &&
	       node->check == (FREE_BLOCK_MAGIC ^ (uintptr_t)node ^
			       (uintptr_t)page);
}

/*
 * Whether @pfn starts a block of a deferred run. The map is walked in
 * ascending order, so the runs are too.
 */
static bool is_deferred(struct census *c, unsigned long pfn)
{
	const struct page_allocator *pa = &page_allocator;
	const struct deferred_run *r = pa->deferred;

	while (c->run < pa->nr_runs &&
	       r[c->run].pfn + (r[c->run].nr << MAX_PAGE_ORDER) <= pfn)
		c->run++;
	return c->run < pa->nr_runs && r[c->run].pfn <= pfn &&
	       !((pfn - r[c->run].pfn) & (MAX_BLOCK_PAGES - 1));
}

/* Runs ascend, do not overlap, are aligned, and add up to nr_deferred. */
static void check_runs(struct census *c)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long sum = 0, next = 0;

	if (pa->nr_runs > pa->max_runs) {
		problem(c, "%lu deferred runs, room for %lu", pa->nr_runs,
			pa->max_runs);
		return;
	}
	for (unsigned long k = 0; k < pa->nr_runs; k++) {
		const struct deferred_run *r = &pa->deferred[k];

		if (!r->nr || r->pfn < next || (r->pfn & (MAX_BLOCK_PAGES - 1)))
			problem(c, "deferred run %lu (pfn %#lx, %lu blocks) is "
				"empty, misaligned or out of order", k, r->pfn,
				r->nr);
		next = r->pfn + (r->nr << MAX_PAGE_ORDER);
		sum += r->nr;
	}
	if (sum != pa->nr_deferred || c->deferred_found != sum)
		problem(c, "deferred runs hold %lu blocks, nr_deferred says %lu, "
			"the page map has %lu free heads in them", sum,
			pa->nr_deferred, c->deferred_found);
}

/*
 * Check the block whose head is @sec[@i]; @sec covers @len pages from
 * @base_pfn. Return: pages to skip.
 */
static unsigned long check_block(struct census *c, const struct page *sec,
				 unsigned long i, unsigned long len,
				 unsigned long base_pfn)
{
	uint8_t s = sec[i].state;
	unsigned int order = pg_order(s);
	unsigned long n, pfn = base_pfn + i;

	/* A head's order is at most MAX_PAGE_ORDER; say so to the compiler. */
	if (order > MAX_PAGE_ORDER)
		order = MAX_PAGE_ORDER;
	n = 1UL << order;

	if (pfn & (n - 1))
		problem(c, "block at pfn %#lx order %u is not naturally aligned",
			pfn, order);
	if (i + n > len) {
		problem(c, "block at pfn %#lx order %u crosses its section",
			pfn, order);
		n = len - i;
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
	if (pg_is_head(s, PG_PCP)) {
		/* Its node is checked from its CPU's list; it never merges. */
		if (order >= NR_PCP_ORDERS)
			problem(c, "block at pfn %#lx order %u is marked cached, "
				"above the cached orders", pfn, order);
		c->cached_blocks[order]++;
		c->free_pages += n;
		return n;
	}
	c->free_blocks[order]++;
	c->free_pages += n;
	if (order == MAX_PAGE_ORDER && is_deferred(c, pfn))
		c->deferred_found++;
	else if (!node_is_sound(page_address(&sec[i]), &sec[i]))
		problem(c, "free block at pfn %#lx order %u: list node corrupt "
			"(something wrote to free memory)", pfn, order);
	if (order + 1 < NR_PAGE_ORDERS && !(pfn & (n - 1))) {
		unsigned long buddy = i ^ n;

		if (buddy > i && buddy < len &&
		    sec[buddy].state == (PG_FREE | order))
			problem(c, "free buddies at pfn %#lx and %#lx, order %u, "
				"left unmerged", pfn, base_pfn + buddy, order);
	}
	return n;
}

/* The tables must describe the map: ascending, contiguous, chunk-aligned. */
static void check_section(struct census *c, const struct mem_section *ms,
			  const struct mem_section *prev)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long first = (ms->section << PFN_SECTION_SHIFT) + ms->lo;
	unsigned long start = prev ? prev->start + (prev->hi - prev->lo) : 0;

	if ((prev && prev->section >= ms->section) || ms->start != start ||
	    ms->lo >= ms->hi || ms->hi > PAGES_PER_SECTION ||
	    (ms->lo | ms->hi) & (MAP_CHUNK_PAGES - 1)) {
		problem(c, "section tables disagree on section %#lx",
			ms->section);
		return;
	}
	for (unsigned long i = 0; i < ms->hi - ms->lo; i += MAP_CHUNK_PAGES)
		if (pa->chunk_nr[(ms->start + i) >> MAP_CHUNK_SHIFT] !=
		    (first + i) >> MAP_CHUNK_SHIFT)
			problem(c, "chunk table disagrees at pfn %#lx", first + i);
}

static void check_map(struct census *c)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned long k = 0; k < pa->nr_sections; k++) {
		const struct mem_section *ms = &pa->sections[k];
		unsigned long base_pfn = (ms->section << PFN_SECTION_SHIFT) + ms->lo;
		unsigned long len = ms->hi - ms->lo, i = 0;
		const struct page *sec;

		check_section(c, ms, k ? ms - 1 : NULL);
		if (ms->start + len > pa->nr_map)
			return;
		sec = &pa->map[ms->start];
		while (i < len) {
			uint8_t s = sec[i].state;

			if (pg_is_free_head(s) || pg_is_head(s, PG_ALLOC)) {
				i += check_block(c, sec, i, len, base_pfn);
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
		    pg_state(page) != (PG_FREE | order) ||
		    !node_is_sound(node, page)) {
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
	if (order == MAX_PAGE_ORDER)
		n += page_allocator.nr_deferred;
	if (n != area->nr_free || n != c->free_blocks[order])
		problem(c, "order %u: %lu blocks on the list or deferred, "
			"nr_free says %lu, the page map has %lu", order, n,
			area->nr_free, c->free_blocks[order]);
}

/*
 * Each online CPU's lists (the CPUs are stopped): every entry a cached
 * head of the list's order, the lengths within the limits, and all lists
 * together holding exactly the cached heads the map has.
 */
static void check_pcp_lists(struct census *c, const cpumask_t *stopped)
{
	unsigned long listed[NR_PCP_ORDERS] = { 0 };

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct per_cpu_pages *pcp;

		if (!cpumask_test_cpu(cpu, stopped))
			continue;
		pcp = per_cpu_ptr(&pcp_pages, cpu);
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
			unsigned int n = pcp->nr[o];

			if (n > PCP_LIST_SLOTS ||
			    (pcp->batch && n > pcp->limit[o])) {
				problem(c, "CPU %u list of order %u holds %u "
					"blocks, its limit is %u", cpu, o, n,
					pcp->limit[o]);
				n = MIN(n, (unsigned int)PCP_LIST_SLOTS);
			}
			for (unsigned int i = 0; i < n; i++) {
				const struct page *page = pcp->lists[o][i];

				if ((uintptr_t)page - (uintptr_t)page_allocator.map >=
				    nr_map_pages() ||
				    pg_state(page) != (PG_PCP | o)) {
					problem(c, "CPU %u list of order %u: entry "
						"%u (%p) is not a cached block "
						"of that order", cpu, o, i,
						(const void *)page);
					break;
				}
			}
			listed[o] += n;
		}
		if (pcp->batch && (pcp->batch < 1 || pcp->high < 0 ||
				   pcp->high > PCP_LIST_SLOTS))
			problem(c, "CPU %u: batch %d, high %d", cpu, pcp->batch,
				pcp->high);
	}
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long n = o < NR_PCP_ORDERS ? listed[o] : 0;

		if (n != c->cached_blocks[o])
			problem(c, "order %u: %lu blocks in per-CPU lists, the "
				"page map has %lu cached heads", o, n,
				c->cached_blocks[o]);
	}
}

int page_alloc_check(void)
{
	const struct page_allocator *pa = &page_allocator;
	struct census c = { 0 };
	unsigned int missed;
	cpumask_t stopped;

	/* Every other CPU still (at a poll point or away): their lists at rest. */
	missed = smp_stop_others(&stopped);
	if (missed) {
		smp_resume_others();
		pr_err("page_alloc_check: %u CPU%s did not stop: nothing "
		       "checked\n", missed, missed > 1 ? "s" : "");
		return (int)missed;
	}
	zone_lock();
	check_map(&c);
	check_runs(&c);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		check_list(&c, o);
	check_pcp_lists(&c, &stopped);
	if (c.free_pages != nr_free_pages())
		problem(&c, "%lu pages in free blocks, nr_free_pages() says %lu",
			c.free_pages, nr_free_pages());
	if (c.free_pages + c.alloc_pages != pa->nr_managed)
		problem(&c, "%lu free + %lu allocated pages, but %lu managed",
			c.free_pages, c.alloc_pages, pa->nr_managed);
	zone_unlock();
	smp_resume_others();
	if (c.problems > CHECK_REPORT_LIMIT)
		pr_err("page_alloc_check: %u problems in all\n", c.problems);
	return (int)c.problems;
}
