/*
 * sparse.c - per-page metadata by sections, and the pfn/page/address
 * conversions over it.
 *
 * A section (2^SECTION_SIZE_BITS bytes) is present when any memory region
 * touches it, and its map covers the chunks (MAP_CHUNK_PAGES pages, see
 * page_state.h) between the first and the last that memory touches. The
 * pieces of all present sections form one array allocated from memblock
 * (so it is reserved and never reaches the buddy allocator), in ascending
 * order. Two small tables describe it: sections[] (pfn to page) and
 * chunk_nr[] (page to pfn), with chunk_zone[] (each chunk's zone) and
 * the zone segments beside them, and the hand-off's deferred runs (see
 * page_init.c). They live in a static area when they fit, so
 * that a small machine's map fills whole pages and nothing else takes a
 * page; otherwise they follow the map in its allocation. Either way they
 * count as metadata.
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include "page_state.h"
#include "sparse.h"

/* Room for the tables of a machine of up to about a dozen sections. */
static unsigned long static_tables[256];

struct present_sections {
	unsigned long nr_sections;
	unsigned long nr_map;			/* pages the map covers */
	unsigned long last_section;
};

/*
 * Visit every present section once, in ascending order, with the pages
 * [lo, hi) of it that its map must cover: from the first chunk memory
 * touches to the last. @fn may be NULL. Fills in *@ps.
 */
static void for_each_present_section(void (*fn)(unsigned long section,
						unsigned long lo,
						unsigned long hi),
				     struct present_sections *ps)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long cur = 0, lo = 0, hi = 0;

	*ps = (struct present_sections){ 0 };
	for (unsigned long i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];
		unsigned long pfn = pfn_up(r->base);
		unsigned long epfn = PHYS_PFN(r->base + r->size);

		while (pfn < epfn) {
			unsigned long stop = MIN(epfn, (pfn | (PAGES_PER_SECTION - 1)) + 1);
			unsigned long section = pfn >> PFN_SECTION_SHIFT;
			unsigned long l = ALIGN_DOWN(pfn & (PAGES_PER_SECTION - 1),
						     MAP_CHUNK_PAGES);
			unsigned long h = ALIGN_UP(((stop - 1) &
						    (PAGES_PER_SECTION - 1)) + 1,
						   MAP_CHUNK_PAGES);

			/* Regions ascend: a shared section only grows upwards. */
			if (ps->nr_sections && section == cur) {
				hi = h;
			} else {
				if (ps->nr_sections) {
					ps->nr_map += hi - lo;
					if (fn)
						fn(cur, lo, hi);
				}
				ps->nr_sections++;
				cur = section;
				lo = l;
				hi = h;
			}
			pfn = stop;
		}
	}
	if (ps->nr_sections) {
		ps->nr_map += hi - lo;
		ps->last_section = cur;
		if (fn)
			fn(cur, lo, hi);
	}
}

/* Append a present section to the tables, in ascending order. */
static void add_section(unsigned long section, unsigned long lo,
			unsigned long hi)
{
	struct page_allocator *pa = &page_allocator;
	struct mem_section *ms = &pa->sections[pa->nr_sections++];
	unsigned long first = (section << PFN_SECTION_SHIFT) + lo;

	*ms = (struct mem_section){ section, pa->nr_map, (uint32_t)lo,
				    (uint32_t)hi };
	for (unsigned long i = 0; i < hi - lo; i += MAP_CHUNK_PAGES)
		pa->chunk_nr[(pa->nr_map + i) >> MAP_CHUNK_SHIFT] =
			(uint32_t)((first + i) >> MAP_CHUNK_SHIFT);
	pa->nr_map += hi - lo;
}

int sparse_init(unsigned long nr_runs, unsigned long nr_segments)
{
	struct page_allocator *pa = &page_allocator;
	struct present_sections ps;
	size_t map_bytes, table_bytes, alloc;
	phys_addr_t phys;
	char *base, *tables;

	for_each_present_section(NULL, &ps);
	if (!ps.nr_sections) {
		pr_err("memblock_free_all: no memory to hand out: memblock has "
		       "no whole page of memory\n");
		return -ENOMEM;
	}
	/* chunk_nr[] holds a chunk's pfn >> MAP_CHUNK_SHIFT in 32 bits. */
	if (((ps.last_section + 1) << PFN_SECTION_SHIFT >> MAP_CHUNK_SHIFT) >
	    UINT32_MAX) {
		pr_err("memblock_free_all: memory reaches section %#lx, too "
		       "high for the chunk table\n", ps.last_section);
		return -ERANGE;
	}
	map_bytes = ps.nr_map * sizeof(struct page);
	table_bytes = nr_runs * sizeof(struct deferred_run) +
		      nr_segments * sizeof(struct zone_segment) +
		      ps.nr_sections * sizeof(struct mem_section) +
		      (ps.nr_map >> MAP_CHUNK_SHIFT) *
			      (sizeof(uint32_t) + sizeof(uint8_t));
	alloc = map_bytes;
	if (table_bytes > sizeof(static_tables))
		alloc = ALIGN_UP(map_bytes, sizeof(long)) + table_bytes;
	phys = memblock_phys_alloc(alloc, PAGE_SIZE);
	if (!phys) {
		pr_err("memblock_free_all: cannot allocate %zu bytes of page "
		       "metadata for %lu sections\n", alloc, ps.nr_sections);
		return -ENOMEM;
	}

	base = phys_to_virt(phys);
	tables = alloc == map_bytes ? (char *)static_tables
				    : base + ALIGN_UP(map_bytes, sizeof(long));
	pa->map = (struct page *)base;
	pa->run_table = (struct deferred_run *)tables;
	tables += nr_runs * sizeof(struct deferred_run);
	pa->segments = (struct zone_segment *)tables;
	pa->nr_segments = 0;
	tables += nr_segments * sizeof(struct zone_segment);
	pa->sections = (struct mem_section *)tables;
	tables += ps.nr_sections * sizeof(struct mem_section);
	pa->chunk_nr = (uint32_t *)tables;
	tables += (ps.nr_map >> MAP_CHUNK_SHIFT) * sizeof(uint32_t);
	pa->chunk_zone = (uint8_t *)tables;
	memset(pa->chunk_zone, CHUNK_NO_ZONE, ps.nr_map >> MAP_CHUNK_SHIFT);
	pa->nr_sections = 0;
	pa->nr_map = 0;
	for_each_present_section(add_section, &ps);
	pa->metadata_bytes = map_bytes + table_bytes;
	pa->metadata_alloc = alloc;
	return 0;
}

struct page *__pfn_to_page(unsigned long pfn)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long section = pfn >> PFN_SECTION_SHIFT;
	unsigned long off = pfn & (PAGES_PER_SECTION - 1);
	unsigned long lo = 0, hi = pa->nr_sections;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct mem_section *ms = &pa->sections[mid];

		if (ms->section < section) {
			lo = mid + 1;
		} else if (ms->section > section) {
			hi = mid;
		} else {
			if (off < ms->lo || off >= ms->hi)
				return NULL;
			return &pa->map[ms->start + (off - ms->lo)];
		}
	}
	return NULL;
}

/*
 * Whether the page at @pfn is memory. The map covers whole chunks, so a
 * hole inside a chunk has a (reserved) struct page byte but no memory.
 */
static bool pfn_is_memory(unsigned long pfn)
{
	phys_addr_t base = PFN_PHYS(pfn);

	return memblock_is_memory(base) &&
	       memblock_is_memory(base + PAGE_SIZE - 1);
}

/*
 * NULL for a hole, inside a chunk or not. Only a reserved byte can be a
 * hole, so a page of a block (free or allocated) costs one byte compare
 * more than __pfn_to_page(), and memblock is asked about reserved ones.
 */
struct page *pfn_to_page(unsigned long pfn)
{
	struct page *page = __pfn_to_page(pfn);

	if (page && page->state == PG_RESERVED && !pfn_is_memory(pfn))
		return NULL;
	return page;
}

struct zone *pfn_zone_slow(unsigned long pfn)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long lo = 0, hi = pa->nr_segments;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct zone_segment *seg = &pa->segments[mid];

		if (seg->end <= pfn)
			lo = mid + 1;
		else if (seg->start > pfn)
			hi = mid;
		else
			return pa->zone_table[seg->zone_id];
	}
	return NULL;
}

unsigned long page_to_pfn(const struct page *page)
{
	return __page_to_pfn(page);
}

phys_addr_t page_to_phys(const struct page *page)
{
	return PFN_PHYS(__page_to_pfn(page));
}

void *page_address(const struct page *page)
{
	return __page_address(page);
}

/* virt_to_page - the struct page of the page holding @addr, or NULL. */
struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(PHYS_PFN(virt_to_phys(addr)));
}
