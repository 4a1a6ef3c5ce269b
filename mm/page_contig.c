/*
 * page_contig.c - contiguous ranges of any size: alloc_contig_pages() and
 * free_contig_range(), with Linux's signatures and meanings.
 *
 * A range is looked for in one zone at a time, in the zonelist's order,
 * at every multiple of its alignment (the largest power of two not above
 * its size) in the zone's span. It is free when every page of it lies in
 * a free block of that zone on the buddy lists (or a deferred run); a
 * block cached on a CPU makes it busy, and the whole search is tried once
 * more after every CPU's cache is drained. Under the zone lock the range
 * is checked and taken in one operation: the free blocks it overlaps
 * leave the lists (deferred runs it touches are linked first), the parts
 * of them outside the range go back as free blocks, and the range itself
 * is cut into the largest aligned blocks, each with a PG_CONTIG head
 * byte. So a range never needs more metadata than any other allocation,
 * page_alloc_check() counts it as allocated, and __free_pages() refuses
 * its blocks. free_contig_range() takes any part of such ranges back: it
 * checks every page first and changes nothing on a refusal; blocks only
 * partly given back are cut again, the rest staying allocated.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <lib/printk.h>
#include <lib/string.h>
#include "page_pcp.h"
#include "page_state.h"

/* The largest power of two not above @n (n > 0). */
static unsigned long contig_align(unsigned long n)
{
	return 1UL << (63 - __builtin_clzl(n));
}

/* The largest aligned block at @pfn that fits in [@pfn, @end). */
static unsigned int cut_order(unsigned long pfn, unsigned long end)
{
	unsigned int order = pfn_align_order(pfn);

	while ((1UL << order) > end - pfn)
		order--;
	return order;
}

/*
 * The head of the block holding @pfn and its state, or NULL (*@s is then
 * the page's own byte, or PG_RESERVED when it has no struct page).
 */
static struct page *block_of(unsigned long pfn, uint8_t *s)
{
	struct page *page = __pfn_to_page(pfn);

	if (!page) {
		*s = PG_RESERVED;
		return NULL;
	}
	*s = pg_state(page);
	if (*s == PG_TAIL) {
		page = enclosing_head(page);
		if (page)
			*s = pg_state(page);
	}
	return *s == PG_TAIL || *s == PG_RESERVED ? NULL : page;
}

/*
 * Under @zone's lock: whether [@pfn, @pfn + @nr) is all in free blocks of
 * @zone. When not, *@bad is a pfn of the range that is not, and *@busy is
 * set when that is because of a block cached on a CPU.
 */
static bool range_free(struct zone *zone, unsigned long pfn, unsigned long nr,
		       unsigned long *bad, bool *busy)
{
	unsigned long p = pfn, end = pfn + nr;

	while (p < end) {
		uint8_t s;
		struct page *head = block_of(p, &s);

		if (head && pg_is_head(s, PG_PCP))
			*busy = true;
		if (!head || !pg_is_head(s, PG_FREE) ||
		    map_zone(head) != zone ||
		    (pa_chunk_mixed(head) &&
		     pfn_zone_slow(__page_to_pfn(head) + (1UL << pg_order(s)) - 1)
			     != zone)) {
			*bad = p;
			return false;
		}
		p = __page_to_pfn(head) + (1UL << pg_order(s));
	}
	return true;
}

/* Under @zone's lock: [@s, @e) become free blocks of @zone, linked. */
static void give_back(struct zone *zone, unsigned long s, unsigned long e)
{
	while (s < e) {
		unsigned int order = cut_order(s, e);
		struct page *page = __pfn_to_page(s);

		set_pg_state(page, PG_FREE | order);
		free_area_add(zone, order, page);
		s += 1UL << order;
	}
}

/* [@s, @e) become blocks of a contiguous allocation (PG_CONTIG heads). */
static void mark_contig(unsigned long s, unsigned long e)
{
	while (s < e) {
		unsigned int order = cut_order(s, e);

		set_pg_state(__pfn_to_page(s), PG_CONTIG | order);
		s += 1UL << order;
	}
}

/* Under @zone's lock, [@pfn, @pfn + @nr) free in @zone: take it. */
static void take_range(struct zone *zone, unsigned long pfn, unsigned long nr)
{
	unsigned long end = pfn + nr, p = pfn;

	/* Deferred blocks have no list node: link the runs it touches. */
	for (unsigned long k = 0; k < zone->nr_runs;) {
		const struct deferred_run *r = &zone->deferred[k];

		if (r->pfn < end && r->pfn + (r->nr << MAX_PAGE_ORDER) > pfn)
			zone_undefer_run(zone, k);
		else
			k++;
	}
	while (p < end) {
		uint8_t s;
		struct page *head = block_of(p, &s);
		unsigned int order = pg_order(s);
		unsigned long b = __page_to_pfn(head), e = b + (1UL << order);

		free_area_del(zone, order, head);
		set_pg_state(head, PG_TAIL);
		give_back(zone, b, MAX(b, MIN(pfn, e)));
		give_back(zone, MIN(e, MAX(end, b)), e);
		p = e;
	}
	mark_contig(pfn, end);
}

/*
 * Look for a free run of @nr pages in @zone and take it. Return: its first
 * pfn, or 0 with *@busy set when a cached block was in the way.
 */
static struct page *contig_in_zone(struct zone *zone, unsigned long nr,
				   bool *busy)
{
	unsigned long align = contig_align(nr);
	unsigned long last = zone->zone_start_pfn + zone->spanned_pages;
	unsigned long pfn = ALIGN_UP(zone->zone_start_pfn, align), bad;
	struct page *page = NULL;

	if (zone->managed_pages < nr)
		return NULL;
	zone_lock(zone);
	while (pfn < last && last - pfn >= nr) {
		if (range_free(zone, pfn, nr, &bad, busy)) {
			take_range(zone, pfn, nr);
			page = __pfn_to_page(pfn);
			break;
		}
		pfn = ALIGN_UP(bad + 1, align);
	}
	zone_unlock(zone);
	return page;
}

/* Whether @gfp, @pgdat's node and @nodemask allow @zone. */
static bool contig_zone_allowed(const struct zone *zone, gfp_t gfp,
				const struct pglist_data *pgdat,
				const nodemask_t *nodemask)
{
	if ((gfp & __GFP_DMA32) && zone->zone_idx != ZONE_DMA32)
		return false;
	if ((gfp & __GFP_THISNODE) && zone->node != pgdat->node_id)
		return false;
	return !nodemask || node_isset(zone->node, nodemask);
}

struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp, int nid,
				nodemask_t *nodemask)
{
	struct pglist_data *pgdat;
	struct page *page = NULL;
	bool busy = false;

	if (!nr_pages)
		return NULL;
	if (nid == NUMA_NO_NODE)
		nid = numa_node_id();
	pgdat = NODE_DATA(nid);
	if (!pgdat)
		pgdat = NODE_DATA(page_allocator.default_nid);
	if (!pgdat)
		return NULL;
	for (int pass = 0; pass < 2 && !page; pass++) {
		if (pass) {
			if (!busy)
				break;
			drain_all_pages();
		}
		for (struct zone *const *z = pgdat->node_zonelist.zones; *z; z++) {
			if (!contig_zone_allowed(*z, gfp, pgdat, nodemask))
				continue;
			page = contig_in_zone(*z, nr_pages, &busy);
			if (page)
				break;
		}
	}
	if (!page) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("alloc_contig_pages: no free run of %lu pages "
				"from node %d\n", nr_pages, pgdat->node_id);
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(__page_address(page), 0, PAGE_SIZE * nr_pages);
	return page;
}

static __printf(4, 5) int refuse_range(unsigned long pfn, unsigned long nr,
				       int why, const char *detail, ...)
{
	va_list ap;

	pr_err("refused free_contig_range of pfn %#lx, %lu pages: %s", pfn,
	       nr, free_refusal_name(why));
	va_start(ap, detail);
	refusal_detail(detail, ap);
	va_end(ap);
	return why;
}

/* Every page of [@pfn, @pfn + @nr) is in a contiguous allocation. */
static int check_contig_range(unsigned long pfn, unsigned long nr)
{
	unsigned long p = pfn, end = pfn + nr;

	if (end < pfn)
		return refuse_range(pfn, nr, FREE_REFUSED_OUT_OF_RANGE,
				    "the range wraps around");
	while (p < end) {
		uint8_t s;
		struct page *head = block_of(p, &s);

		if (head && pg_is_head(s, PG_CONTIG)) {
			p = __page_to_pfn(head) + (1UL << pg_order(s));
			continue;
		}
		if (!__pfn_to_page(p) || !pfn_to_page(p))
			return refuse_range(pfn, nr, FREE_REFUSED_OUT_OF_RANGE,
					    "pfn %#lx is not memory", p);
		if (head && pg_is_free_head(s))
			return refuse_range(pfn, nr, FREE_REFUSED_DOUBLE_FREE,
					    "pfn %#lx is free", p);
		if (head && pg_is_head(s, PG_ALLOC))
			return refuse_range(pfn, nr, FREE_REFUSED_WRONG_ORDER,
					    "pfn %#lx is in a block of order %u "
					    "from alloc_pages()", p, pg_order(s));
		if (s == PG_RESERVED)
			return refuse_range(pfn, nr, FREE_REFUSED_RESERVED,
					    "pfn %#lx", p);
		return refuse_range(pfn, nr, FREE_REFUSED_CORRUPT,
				    "pfn %#lx: struct page byte %#x", p, s);
	}
	return 0;
}

int free_contig_range_checked(unsigned long pfn, unsigned long nr_pages)
{
	unsigned long p = pfn, end = pfn + nr_pages;
	int err;

	if (!nr_pages)
		return 0;
	err = check_contig_range(pfn, nr_pages);
	if (err)
		return err;
	while (p < end) {
		uint8_t s;
		struct page *head = block_of(p, &s);
		unsigned long b = __page_to_pfn(head), e = b + (1UL << pg_order(s));
		unsigned long fs = MAX(b, pfn), fe = MIN(e, end);
		struct zone *zone = map_zone(head);

		zone_lock(zone);
		set_pg_state(head, PG_TAIL);
		/* What stays allocated: cut again around the part given back. */
		mark_contig(b, fs);
		mark_contig(fe, e);
		while (fs < fe) {
			unsigned int order = cut_order(fs, fe);

			__free_one_page(zone, __pfn_to_page(fs), order);
			fs += 1UL << order;
		}
		zone_unlock(zone);
		p = e;
	}
	return 0;
}

void free_contig_range(unsigned long pfn, unsigned long nr_pages)
{
	free_contig_range_checked(pfn, nr_pages);
}
