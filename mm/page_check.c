/*
 * page_check.c - the invariant checker: walks the whole allocator state
 * and reports every inconsistency (see include/mm/page_check.h).
 *
 * It trusts nothing it reads: a free-list node is only followed after its
 * address has been found to be the first page of a free block of the
 * list's order, so a corrupt list ends the walk instead of crashing it.
 * It stops every other online CPU (smp_stop_others(): each waits at its
 * next poll point, or is held away) and holds every zone lock while it
 * walks, so it may run while other CPUs allocate: they wait meanwhile. Every block is counted in
 * its zone (found from its pfn), and every zone's lists, runs and counts
 * are checked against what the map says of that zone. Its census is too
 * big for a small kernel stack: it is static, under check_lock.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/page_check.h>
#include "page_pcp.h"
#include "page_state.h"

#define CHECK_REPORT_LIMIT	16

/* What the map says of one zone. */
struct zone_census {
	unsigned long run;		/* deferred run at or after the walk */
	unsigned long deferred_found;	/* free top-order heads in runs */
	unsigned long free_blocks[NR_PAGE_ORDERS];	/* on the buddy lists */
	unsigned long cached_blocks[NR_PAGE_ORDERS];	/* PCP heads in the map */
	unsigned long free_pages;			/* both */
	unsigned long alloc_pages;			/* contiguous ones too */
};

struct census {
	unsigned int problems;
	unsigned long free_pages;
	unsigned long alloc_pages;
	unsigned long contig_pages;	/* in contiguous allocations */
	struct zone_census zone[MAX_ZONE_IDS];
};

static DEFINE_SPINLOCK(check_lock);
static struct census census;		/* under check_lock */

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
static bool is_deferred(struct zone_census *c, const struct zone *pa,
			unsigned long pfn)
{
	const struct deferred_run *r = pa->deferred;

	while (c->run < pa->nr_runs &&
	       r[c->run].pfn + (r[c->run].nr << MAX_PAGE_ORDER) <= pfn)
		c->run++;
	return c->run < pa->nr_runs && r[c->run].pfn <= pfn &&
	       !((pfn - r[c->run].pfn) & (MAX_BLOCK_PAGES - 1));
}

/* Runs ascend, do not overlap, are aligned, and add up to nr_deferred. */
static void check_runs(struct census *c, const struct zone *pa)
{
	const struct zone_census *zc = &c->zone[pa->id];
	unsigned long sum = 0, next = 0;

	if (pa->nr_runs > pa->max_runs) {
		problem(c, "node %d zone %s: %lu deferred runs, room for %lu",
			pa->node, pa->name, pa->nr_runs, pa->max_runs);
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
	if (sum != pa->nr_deferred || zc->deferred_found != sum)
		problem(c, "node %d zone %s: deferred runs hold %lu blocks, "
			"nr_deferred says %lu, the page map has %lu free heads "
			"in them", pa->node, pa->name, sum, pa->nr_deferred,
			zc->deferred_found);
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
	const struct map_part *part = page_part(&sec[i]);
	unsigned long n, pfn = base_pfn + i;
	bool mixed = part_chunk_mixed(part, &sec[i]);
	struct zone *zone = part_zone(part, &sec[i]);
	struct zone_census *zc;

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
	if (!zone || (mixed && pfn_zone_slow(pfn + n - 1) != zone)) {
		problem(c, "block at pfn %#lx order %u is in no zone, or in "
			"two", pfn, order);
		return n;
	}
	zc = &c->zone[zone->id];
	if (pg_is_head(s, PG_ALLOC) || pg_is_head(s, PG_CONTIG)) {
		c->alloc_pages += n;
		zc->alloc_pages += n;
		if (pg_is_head(s, PG_CONTIG))
			c->contig_pages += n;
		return n;
	}
	if (pg_is_head(s, PG_PCP)) {
		/* Its node is checked from its CPU's list; it never merges. */
		if (order >= NR_PCP_ORDERS)
			problem(c, "block at pfn %#lx order %u is marked cached, "
				"above the cached orders", pfn, order);
		zc->cached_blocks[order]++;
		zc->free_pages += n;
		c->free_pages += n;
		return n;
	}
	zc->free_blocks[order]++;
	zc->free_pages += n;
	c->free_pages += n;
	if (order == MAX_PAGE_ORDER && is_deferred(zc, zone, pfn))
		zc->deferred_found++;
	else if (!node_is_sound(page_address(&sec[i]), &sec[i]))
		problem(c, "free block at pfn %#lx order %u: list node corrupt "
			"(something wrote to free memory)", pfn, order);
	if (order + 1 < NR_PAGE_ORDERS && !(pfn & (n - 1))) {
		unsigned long buddy = i ^ n;

		if (buddy > i && buddy < len &&
		    sec[buddy].state == (PG_FREE | order) &&
		    (!mixed || pfn_zone_slow(base_pfn + buddy) == zone))
			problem(c, "free buddies at pfn %#lx and %#lx, order %u, "
				"left unmerged", pfn, base_pfn + buddy, order);
	}
	return n;
}

/*
 * The tables must describe the map: pieces ascending, each part's pieces
 * contiguous and chunk-aligned, and together filling the part. @filled[]
 * counts each part's pages so far.
 */
static void check_section(struct census *c, const struct mem_section *ms,
			  const struct mem_section *prev, unsigned long *filled)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long first = (ms->section << PFN_SECTION_SHIFT) + ms->lo;
	const struct map_part *part = &pa->parts[ms->part];

	if ((prev && (prev->section > ms->section ||
		      (prev->section == ms->section && prev->hi > ms->lo))) ||
	    ms->part >= pa->nr_parts || ms->start != filled[ms->part] ||
	    ms->lo >= ms->hi || ms->hi > PAGES_PER_SECTION ||
	    (ms->lo | ms->hi) & (MAP_CHUNK_PAGES - 1) ||
	    ms->start + (ms->hi - ms->lo) > part->nr) {
		problem(c, "section tables disagree on section %#lx",
			ms->section);
		return;
	}
	filled[ms->part] += ms->hi - ms->lo;
	for (unsigned long i = 0; i < ms->hi - ms->lo; i += MAP_CHUNK_PAGES)
		if (part->chunk_nr[(ms->start + i) >> MAP_CHUNK_SHIFT] !=
		    (first + i) >> MAP_CHUNK_SHIFT)
			problem(c, "chunk table disagrees at pfn %#lx", first + i);
}

static void check_map(struct census *c)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long filled[MAX_NUMNODES] = { 0 }, total = 0;

	for (unsigned long k = 0; k < pa->nr_sections; k++) {
		const struct mem_section *ms = &pa->sections[k];
		unsigned long base_pfn = (ms->section << PFN_SECTION_SHIFT) + ms->lo;
		unsigned long len = ms->hi - ms->lo, i = 0;
		unsigned long before = ms->part < pa->nr_parts ? filled[ms->part] : 0;
		const struct page *sec;

		check_section(c, ms, k ? ms - 1 : NULL, filled);
		if (ms->part >= pa->nr_parts || filled[ms->part] == before)
			return;
		sec = &pa->parts[ms->part].map[ms->start];
		while (i < len) {
			uint8_t s = sec[i].state;

			if (pg_is_free_head(s) || pg_is_head(s, PG_ALLOC) ||
			    pg_is_head(s, PG_CONTIG)) {
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
	for (unsigned int k = 0; k < pa->nr_parts; k++) {
		if (filled[k] != pa->parts[k].nr)
			problem(c, "section tables disagree: node %d's part of "
				"the map has %lu pages, its pieces %lu",
				pa->parts[k].nid, pa->parts[k].nr, filled[k]);
		total += pa->parts[k].nr;
	}
	if (total != pa->nr_map)
		problem(c, "the map's parts hold %lu pages, not %lu", total,
			pa->nr_map);
}

static void check_list(struct census *c, const struct zone *zone,
		       unsigned int order)
{
	const struct free_area *area = &zone->free_area[order];
	const struct free_block *prev = &area->list;
	const struct free_block *node = area->list.next;
	unsigned long n = 0;

	while (node != &area->list) {
		struct page *page = virt_to_page(node);

		if (!page || page_address(page) != node ||
		    pg_state(page) != (PG_FREE | order) ||
		    !node_is_sound(node, page) || page_zone(page) != zone) {
			problem(c, "node %d zone %s: free list of order %u: "
				"entry %lu at %p is not a free block of that "
				"order in the zone", zone->node, zone->name,
				order, n, (const void *)node);
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
		n += zone->nr_deferred;
	if (n != area->nr_free || n != c->zone[zone->id].free_blocks[order])
		problem(c, "node %d zone %s: order %u: %lu blocks on the list or "
			"deferred, nr_free says %lu, the page map has %lu",
			zone->node, zone->name, order, n, area->nr_free,
			c->zone[zone->id].free_blocks[order]);
}

/*
 * The zone's depot: a sane number of batches, each of a cached order,
 * in a row of the slot table of its own, holding
 * 1..pcp_depot_batch_blocks() cached blocks of that order in the zone,
 * which count in @listed with the lists'.
 */
static void check_pcp_depot(struct census *c, struct zone *zone,
			    unsigned long *listed)
{
	const struct pcp_depot *d = &zone->pcp_depot;

	if (d->nr > PCP_DEPOT_BATCHES) {
		problem(c, "node %d zone %s: depot holds %u batches, room for %u",
			zone->node, zone->name, d->nr, PCP_DEPOT_BATCHES);
		return;
	}
	for (unsigned int i = 0; i < d->nr; i++) {
		unsigned int order = d->order[i], nr = d->blocks[i];
		struct page **slot;

		if (order >= NR_PCP_ORDERS || !nr ||
		    nr > pcp_depot_batch_blocks(zone, order) ||
		    d->row[i] >= PCP_DEPOT_BATCHES) {
			problem(c, "node %d zone %s: depot batch %u: %u blocks "
				"of order %u in row %u", zone->node, zone->name,
				i, nr, order, d->row[i]);
			continue;
		}
		for (unsigned int j = 0; j < i; j++)
			if (d->row[j] == d->row[i])
				problem(c, "node %d zone %s: depot batches %u "
					"and %u share row %u", zone->node,
					zone->name, j, i, d->row[i]);
		slot = pcp_depot_batch(zone, i);	/* its row is in range */
		for (unsigned int k = 0; k < nr; k++) {
			const struct page *page = slot[k];

			if (!page_part(page) ||
			    pg_state(page) != (PG_PCP | order) ||
			    page_zone(page) != zone) {
				problem(c, "node %d zone %s: depot batch %u "
					"entry %u (%p) is not a cached block of "
					"order %u in the zone", zone->node,
					zone->name, i, k, (const void *)page,
					order);
				break;
			}
		}
		listed[order] += nr;
	}
}

/*
 * Each online CPU's lists of @zone: every entry a cached head of the
 * list's order in the zone whose node names it, the lengths adding up to
 * the set's count, and all lists and the depot's batches together
 * holding exactly the cached heads the map has in the zone.
 */
static void check_pcp_lists(struct census *c, struct zone *zone,
			    const cpumask_t *stopped)
{
	unsigned long listed[NR_PCP_ORDERS] = { 0 };

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct per_cpu_pages *pcp;

		if (!cpumask_test_cpu(cpu, stopped))
			continue;
		pcp = zone_pcp(zone, cpu);
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
			unsigned long n = pcp->lists[o].nr;

			if (n > PCP_LIST_SLOTS ||
			    (pcp->batch && n > pcp_list_max(pcp, o))) {
				problem(c, "CPU %u list of node %d zone %s order "
					"%u holds %lu blocks, its limit is %u",
					cpu, zone->node, zone->name, o, n,
					pcp_list_max(pcp, o));
				n = MIN(n, (unsigned long)PCP_LIST_SLOTS);
			}
			for (unsigned int i = 0; i < n; i++) {
				const struct page *page = pcp->lists[o].slot[i];

				if (!page_part(page) ||
				    pg_state(page) != (PG_PCP | o) ||
				    page_zone(page) != zone) {
					problem(c, "CPU %u list of node %d zone %s "
						"order %u: entry %u (%p) is not a "
						"cached block of that order in the "
						"zone", cpu, zone->node, zone->name,
						o, i, (const void *)page);
					break;
				}
			}
			listed[o] += n;
		}
		if (pcp->batch && (pcp->batch < 1 || pcp->high < 0 ||
				   pcp->high > PCP_HIGH_MAX))
			problem(c, "CPU %u: batch %d, high %d", cpu, pcp->batch,
				pcp->high);
	}
	check_pcp_depot(c, zone, listed);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long n = o < NR_PCP_ORDERS ? listed[o] : 0;

		if (n != c->zone[zone->id].cached_blocks[o])
			problem(c, "node %d zone %s order %u: %lu blocks in "
				"per-CPU lists, the page map has %lu cached "
				"heads", zone->node, zone->name, o, n,
				c->zone[zone->id].cached_blocks[o]);
	}
}

/* The zone's counts agree with the census; its zonelist entries exist. */
static void check_zone(struct census *c, struct zone *zone,
		       const cpumask_t *stopped)
{
	const struct zone_census *zc = &c->zone[zone->id];

	check_runs(c, zone);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		check_list(c, zone, o);
	check_pcp_lists(c, zone, stopped);
	if (zc->free_pages + zc->alloc_pages != zone->managed_pages)
		problem(c, "node %d zone %s: %lu free + %lu allocated pages, "
			"but %lu managed", zone->node, zone->name,
			zc->free_pages, zc->alloc_pages, zone->managed_pages);
	if (zone->zone_pgdat != NODE_DATA(zone->node) ||
	    zone->id != (unsigned int)zone->node * MAX_NR_ZONES + zone->zone_idx)
		problem(c, "node %d zone %s: node or id wrong", zone->node,
			zone->name);
}

int page_alloc_check(void)
{
	const struct page_allocator *pa = &page_allocator;
	struct census *c = &census;
	unsigned int id, problems, missed;
	struct zone *zone;
	cpumask_t stopped;

	/* Polling: the holder may be stopping this CPU. */
	spin_lock_polling(&check_lock);
	/* Every other CPU still (at a poll point or away): their lists at rest. */
	missed = smp_stop_others(&stopped);
	if (missed) {
		smp_resume_others();
		spin_unlock(&check_lock);
		pr_err("page_alloc_check: %u CPU%s did not stop: nothing "
		       "checked\n", missed, missed > 1 ? "s" : "");
		return (int)missed;
	}
	memset(c, 0, sizeof(*c));
	for (id = 0; id < MAX_ZONE_IDS; id++)
		if ((zone = pa->zone_table[id]))
			zone_lock(zone);
	check_map(c);
	for (id = 0; id < MAX_ZONE_IDS; id++)
		if ((zone = pa->zone_table[id]))
			check_zone(c, zone, &stopped);
	if (c->free_pages != nr_free_pages())
		problem(c, "%lu pages in free blocks, nr_free_pages() says %lu",
			c->free_pages, nr_free_pages());
	if (c->free_pages + c->alloc_pages != pa->nr_managed)
		problem(c, "%lu free + %lu allocated pages, but %lu managed",
			c->free_pages, c->alloc_pages, pa->nr_managed);
	for (id = MAX_ZONE_IDS; id-- > 0;)
		if ((zone = pa->zone_table[id]))
			zone_unlock(zone);
	smp_resume_others();
	problems = c->problems;
	spin_unlock(&check_lock);
	if (problems > CHECK_REPORT_LIMIT)
		pr_err("page_alloc_check: %u problems in all\n", problems);
	return (int)problems;
}
