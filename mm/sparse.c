/*
 * sparse.c - per-page metadata by sections and nodes, and the pfn/page/
 * address conversions over it.
 *
 * A section (2^SECTION_SIZE_BITS bytes) is present when any memory region
 * touches it, and its map covers the chunks (MAP_CHUNK_PAGES pages, see
 * page_state.h) between the first and the last that memory touches. Each
 * chunk belongs to the node of the first memory in it; a section's chunks
 * of one node form one piece, and the pieces of each node follow each
 * other, ascending, in that node's part of the map. Each part is one
 * allocation from memblock in its node's memory (as Linux's
 * memblock_alloc_try_nid(), but a node that has no room for it is said on
 * the console before the part goes elsewhere), so it is reserved, never
 * reaches the buddy allocator, and a node's allocator reads its own
 * node's memory. A part's chunk tables (chunk_nr[], chunk_zone[]) follow
 * it in its allocation. The tables of the whole machine (sections[]: pfn
 * to page; the zone segments; the hand-off's deferred runs, see
 * page_init.c) follow the first part's map. When all the tables fit in a
 * static area they live there instead, so that a small machine's map
 * fills whole pages and nothing else takes a page. Either way they count
 * as metadata.
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <mm/numa.h>
#include "page_state.h"
#include "sparse.h"

/* Room for the tables of a machine of up to about a dozen sections. */
static unsigned long static_tables[256];

/* What the walk over present sections found. */
struct present_sections {
	unsigned long nr_sections;		/* pieces */
	unsigned long nr_map;			/* pages the map covers */
	unsigned long last_section;
	unsigned long part_pages[MAX_NUMNODES];	/* pages of each node's part */
};

/*
 * Visit every piece of a present section once, in ascending order, with
 * the pages [lo, hi) of the section that it covers (from the first chunk
 * of the node's memory in it to the last, minus chunks an earlier node
 * has) and its node. @fn may be NULL. Fills in *@ps.
 */
static void for_each_present_section(void (*fn)(unsigned long section,
						unsigned long lo,
						unsigned long hi, int nid),
				     struct present_sections *ps)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long cur = 0, lo = 0, hi = 0;
	int cur_nid = 0;

	*ps = (struct present_sections){ 0 };
	for (unsigned long i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];
		unsigned long pfn = pfn_up(r->base);
		unsigned long epfn = PHYS_PFN(r->base + r->size);
		int nid = memory_nid(r->nid);

		while (pfn < epfn) {
			unsigned long stop = MIN(epfn, (pfn | (PAGES_PER_SECTION - 1)) + 1);
			unsigned long section = pfn >> PFN_SECTION_SHIFT;
			unsigned long l = ALIGN_DOWN(pfn & (PAGES_PER_SECTION - 1),
						     MAP_CHUNK_PAGES);
			unsigned long h = ALIGN_UP(((stop - 1) &
						    (PAGES_PER_SECTION - 1)) + 1,
						   MAP_CHUNK_PAGES);

			pfn = stop;
			/* Regions ascend: a shared section only grows upwards. */
			if (ps->nr_sections && section == cur) {
				l = MAX(l, hi);	/* a shared chunk is the first node's */
				if (l >= h)
					continue;
				if (nid == cur_nid) {
					hi = h;
					continue;
				}
			}
			if (ps->nr_sections) {
				ps->nr_map += hi - lo;
				ps->part_pages[cur_nid] += hi - lo;
				if (fn)
					fn(cur, lo, hi, cur_nid);
			}
			ps->nr_sections++;
			cur = section;
			cur_nid = nid;
			lo = l;
			hi = h;
		}
	}
	if (ps->nr_sections) {
		ps->nr_map += hi - lo;
		ps->part_pages[cur_nid] += hi - lo;
		ps->last_section = cur;
		if (fn)
			fn(cur, lo, hi, cur_nid);
	}
}

/* parts[] index of each node during sparse_init(). */
static unsigned int part_of_nid[MAX_NUMNODES];

/* Append a piece of a present section to the tables, in ascending order. */
static void add_section(unsigned long section, unsigned long lo,
			unsigned long hi, int nid)
{
	struct page_allocator *pa = &page_allocator;
	struct map_part *part = &pa->parts[part_of_nid[nid]];
	struct mem_section *ms = &pa->sections[pa->nr_sections++];
	unsigned long first = (section << PFN_SECTION_SHIFT) + lo;

	*ms = (struct mem_section){ section, part->nr, (uint32_t)lo,
				    (uint32_t)hi, part_of_nid[nid] };
	for (unsigned long i = 0; i < hi - lo; i += MAP_CHUNK_PAGES)
		part->chunk_nr[(part->nr + i) >> MAP_CHUNK_SHIFT] =
			(uint32_t)((first + i) >> MAP_CHUNK_SHIFT);
	part->nr += hi - lo;
	pa->nr_map += hi - lo;
}

/*
 * NODE_DATA_SHARE: a node's metadata goes on its own memory only when a
 * free range of the node holds this many times its size, so that a node
 * of a page or two keeps its pages.
 */
#define NODE_DATA_SHARE	64

/* @size bytes from the highest free range of @nid holding @share times it. */
static phys_addr_t alloc_in_node(size_t size, phys_addr_t align, int nid,
				 size_t share)
{
	phys_addr_t start, end, best_start = 0, best_end = 0;
	uint64_t i;

	/*
	 * The highest such range, as memblock allocates from the top; its
	 * whole pages, since memblock allocates from nothing else.
	 */
	for_each_free_mem_range(i, nid, MEMBLOCK_NONE, &start, &end, NULL) {
		if (memblock_whole_pages(&start, &end) &&
		    end - start >= share * size) {
			best_start = start;
			best_end = end;
		}
	}
	return best_end ? memblock_phys_alloc_range(size, align, best_start,
						    best_end)
			: 0;
}

static int phys_nid(phys_addr_t phys);

phys_addr_t alloc_on_node(size_t size, phys_addr_t align, int nid,
			  const char *what)
{
	phys_addr_t phys = alloc_in_node(size, align, nid, NODE_DATA_SHARE);
	bool tried[MAX_NUMNODES] = { false };
	int placed = NUMA_NO_NODE;

	if (phys)
		return phys;
	/* Elsewhere: the nearest node with room (ties: lower id), else anywhere. */
	tried[nid] = true;
	for (;;) {
		int best = -1;

		for (int k = 0; k < MAX_NUMNODES; k++)
			if (!tried[k] && node_online(k) &&
			    (best < 0 || node_distance(nid, k) <
					 node_distance(nid, best)))
				best = k;
		if (best < 0)
			break;
		tried[best] = true;
		phys = alloc_in_node(size, align, best, 1);
		if (phys) {
			placed = best;
			break;
		}
	}
	/*
	 * Anywhere: memory in no node, or in one out of range. (Not
	 * phys_nid() for the above: it names the default node for a node
	 * whose data is not made yet, as the node loop makes them in turn.)
	 */
	if (!phys) {
		phys = memblock_phys_alloc(size, align);
		placed = phys ? phys_nid(phys) : NUMA_NO_NODE;
	}
	if (phys)
		pr_info("memblock_free_all: node %d has no room for its %zu "
			"bytes of %s: placed on node %d\n", nid, size, what,
			placed);
	return phys;
}

/* The node memory at @phys is placed in (memory_nid()), or NUMA_NO_NODE. */
static int phys_nid(phys_addr_t phys)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (phys >= r->base && phys - r->base < r->size)
			return memory_nid(r->nid);
	}
	return NUMA_NO_NODE;
}

/* Whether all of memblock's memory is one node's. */
static bool memory_of_one_node(void)
{
	const struct memblock_type *mem = &memblock.memory;

	for (unsigned long i = 1; i < mem->cnt; i++)
		if (memory_nid(mem->regions[i].nid) !=
		    memory_nid(mem->regions[0].nid))
			return false;
	return true;
}

/* Bytes of the chunk tables of a part of @pages, padded for the next. */
static size_t part_table_bytes(unsigned long pages)
{
	return ALIGN_UP((pages >> MAP_CHUNK_SHIFT) *
			(sizeof(uint32_t) + sizeof(uint8_t)), sizeof(long));
}

/* Lay out @part's chunk tables at @t. Return: the byte after them. */
static char *place_part_tables(struct map_part *part, unsigned long pages,
			       char *t)
{
	part->chunk_nr = (uint32_t *)t;
	part->chunk_zone = (uint8_t *)(t + (pages >> MAP_CHUNK_SHIFT) *
					   sizeof(uint32_t));
	memset(part->chunk_zone, CHUNK_NO_ZONE, pages >> MAP_CHUNK_SHIFT);
	return t + part_table_bytes(pages);
}

/* Lay out the machine's tables at @t. Return: the byte after them. */
static char *place_machine_tables(unsigned long nr_runs,
				  unsigned long nr_segments,
				  unsigned long nr_sections, char *t)
{
	struct page_allocator *pa = &page_allocator;

	pa->run_table = (struct deferred_run *)t;
	t += nr_runs * sizeof(struct deferred_run);
	pa->segments = (struct zone_segment *)t;
	t += nr_segments * sizeof(struct zone_segment);
	pa->sections = (struct mem_section *)t;
	return t + nr_sections * sizeof(struct mem_section);
}

int sparse_init(unsigned long nr_runs, unsigned long nr_segments)
{
	struct page_allocator *pa = &page_allocator;
	struct present_sections ps;
	size_t machine_bytes, table_bytes = 0, alloc_bytes = 0;
	size_t sizes[MAX_NUMNODES];
	unsigned long pages_used = 0;
	unsigned int nr_nodes = 0;
	char *tables = (char *)static_tables;
	bool tables_static;
	int nid;

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
	machine_bytes = nr_runs * sizeof(struct deferred_run) +
			nr_segments * sizeof(struct zone_segment) +
			ps.nr_sections * sizeof(struct mem_section);
	for (nid = 0; nid < MAX_NUMNODES; nid++)
		if (ps.part_pages[nid]) {
			table_bytes += part_table_bytes(ps.part_pages[nid]);
			nr_nodes++;
		}
	tables_static = machine_bytes + table_bytes <= sizeof(static_tables);

	/* Each node's part, on the node; the machine's tables after the first. */
	pa->nr_parts = 0;
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		unsigned long pages = ps.part_pages[nid];
		struct map_part *part = &pa->parts[pa->nr_parts];
		size_t size = pages * sizeof(struct page);
		phys_addr_t phys;
		char *t;

		if (!pages)
			continue;
		if (!tables_static)
			size = ALIGN_UP(size, sizeof(long)) +
			       (pa->nr_parts ? 0 : machine_bytes) +
			       part_table_bytes(pages);
		/*
		 * One node's memory: anywhere, as memblock's other
		 * allocations. A lone part whose chunks hold more than one
		 * node's memory (each chunk is the node's of the first
		 * memory in it) is its own node's, as every part is.
		 */
		phys = nr_nodes == 1 && memory_of_one_node()
			       ? memblock_phys_alloc(size, PAGE_SIZE)
			       : alloc_on_node(size, PAGE_SIZE, nid, "page map");
		if (!phys) {
			pr_err("memblock_free_all: cannot allocate %zu bytes of "
			       "page metadata for node %d\n", size, nid);
			/* Nothing set up: give back the parts already made. */
			while (pa->nr_parts--)
				memblock_phys_free(virt_to_phys(
					pa->parts[pa->nr_parts].map),
					sizes[pa->nr_parts]);
			pa->nr_parts = 0;
			return -ENOMEM;
		}
		*part = (struct map_part){ .map = phys_to_virt(phys), .nid = nid,
					   .on_node = phys_nid(phys) == nid };
		sizes[pa->nr_parts] = size;
		part_of_nid[nid] = pa->nr_parts;
		alloc_bytes += size;
		pages_used += PFN_UP(phys + size) - PHYS_PFN(phys);
		t = tables_static ? tables
				  : (char *)part->map +
					    ALIGN_UP(pages * sizeof(struct page),
						     sizeof(long));
		if (!pa->nr_parts)
			t = place_machine_tables(nr_runs, nr_segments,
						 ps.nr_sections, t);
		t = place_part_tables(part, pages, t);
		if (tables_static)
			tables = t;
		pa->nr_parts++;
	}
	pa->nr_segments = 0;
	pa->nr_sections = 0;
	pa->nr_map = 0;
	for_each_present_section(add_section, &ps);
	/* Exactly: the map, the machine's tables, five bytes a chunk. */
	pa->metadata_bytes = ps.nr_map * sizeof(struct page) + machine_bytes +
			     (ps.nr_map >> MAP_CHUNK_SHIFT) *
				     (sizeof(uint32_t) + sizeof(uint8_t));
	pa->metadata_alloc = alloc_bytes;
	pa->metadata_pages = pages_used;
	return 0;
}

struct page *pfn_to_page_piece(unsigned long pfn, unsigned long *end)
{
	const struct page_allocator *pa = &page_allocator;
	unsigned long section = pfn >> PFN_SECTION_SHIFT;
	unsigned long off = pfn & (PAGES_PER_SECTION - 1);
	unsigned long lo = 0, hi = pa->nr_sections;

	/* Pieces ascend by section, then (two nodes in one) by page. */
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct mem_section *ms = &pa->sections[mid];

		if (ms->section < section || (ms->section == section &&
					      ms->hi <= off))
			lo = mid + 1;
		else if (ms->section > section || off < ms->lo)
			hi = mid;
		else {
			if (end)
				*end = (section << PFN_SECTION_SHIFT) + ms->hi;
			return &pa->parts[ms->part].map[ms->start +
							(off - ms->lo)];
		}
	}
	return NULL;
}

const struct page *node_page_map(int nid, unsigned long *nr_pages)
{
	const struct page_allocator *pa = &page_allocator;

	for (unsigned int k = 0; k < pa->nr_parts; k++)
		if (pa->parts[k].nid == nid) {
			*nr_pages = pa->parts[k].nr;
			return pa->parts[k].map;
		}
	*nr_pages = 0;
	return NULL;
}

struct page *__pfn_to_page(unsigned long pfn)
{
	return pfn_to_page_piece(pfn, NULL);
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
