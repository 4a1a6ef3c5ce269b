/*
 * sparse.h - setting up the per-page metadata (mm/ only).
 */
#ifndef MM_SPARSE_H
#define MM_SPARSE_H

#include <lib/types.h>

/*
 * sparse_init - find the present sections, allocate and reserve their
 * struct pages, the section and chunk tables and room for @nr_runs
 * deferred runs (run_table) and @nr_segments zone segments from memblock.
 * The struct page bytes, chunk zones and segments are left for the
 * hand-off to write (chunk_zone[] starts all CHUNK_NO_ZONE).
 * Return: 0, or a negative errno (reported) with nothing set up.
 */
int sparse_init(unsigned long nr_runs, unsigned long nr_segments);

/*
 * alloc_on_node - @size bytes aligned to @align from memblock for node
 * @nid's metadata (@what, for the console): in a free range of the node
 * that holds many times @size (so a node of a page or two keeps its
 * pages), else (said on the console) on the nearest node with room, else
 * anywhere: Linux's memblock_alloc_try_nid(), with the fallback said.
 * Return: the physical base, or 0 when memblock has no room at all.
 */
phys_addr_t alloc_on_node(size_t size, phys_addr_t align, int nid,
			  const char *what);

/*
 * memory_nid - the node memory that memblock puts in node @nid is placed
 * in: @nid when it is set up, else the default node. Valid once the
 * hand-off has set up the nodes (page_init.c).
 */
int memory_nid(int nid);

#endif /* MM_SPARSE_H */
