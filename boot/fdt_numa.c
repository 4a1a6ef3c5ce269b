/*
 * fdt_numa.c - the device tree's NUMA distances: the root's child with
 * compatible "numa-distance-map-v1" (Linux's
 * Documentation/devicetree/bindings/numa.txt; QEMU's virt writes it as
 * /distance-map when given -numa dist).
 *
 *   distance-matrix = <from to distance>, ...;  one cell each
 *
 * A node to itself is 10; between nodes more than 10. A pair given once
 * stands for both directions (the binding's "(b, a) defaults to (a, b)");
 * given both ways, the two may differ. Memory and CPU nodes'
 * numa-node-id are read with the memory (fdt_memory.c) and the CPUs
 * (fdt_cpus.c); fdt_numa_memory() turns the memory nodes' into ranges for
 * boot information whose RAM the tree does not give (EFI).
 *
 * Policy: the whole matrix is read into a scratch matrix and checked
 * before anything is written to the caller's, so a refused matrix leaves
 * every distance at its default.
 */
#include <boot/fdt.h>
#include <boot/numa.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define DISTANCE_MAP_COMPATIBLE	"numa-distance-map-v1"

static int dist_error(struct boot_numa *numa, const char *fmt, ...)
	__printf(2, 3);

static int dist_error(struct boot_numa *numa, const char *fmt, ...)
{
	va_list ap;
	int n = ksnprintf(numa->error, sizeof(numa->error), "fdt: "
			  "distance-map: ");

	va_start(ap, fmt);
	kvsnprintf(numa->error + n, sizeof(numa->error) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int find_distance_map(const struct fdt *fdt)
{
	for (int c = fdt_first_child(fdt, fdt->root); c >= 0;
	     c = fdt_next_child(fdt, c))
		if (fdt_prop_is_string(fdt, c, "compatible",
				       DISTANCE_MAP_COMPATIBLE) &&
		    fdt_node_is_available(fdt, c))
			return c;
	return -1;
}

int fdt_numa_distances(const void *blob, size_t size, struct boot_numa *numa)
{
	uint8_t dist[MAX_NUMNODES][MAX_NUMNODES];
	unsigned int nodes = 0;
	const uint8_t *p;
	struct fdt fdt;
	uint32_t len;
	int map;

	if (fdt_open(&fdt, blob, size, numa->error))
		return -EINVAL;
	map = find_distance_map(&fdt);
	if (map < 0)
		return 0;
	p = fdt_getprop(&fdt, map, "distance-matrix", &len);
	if (!p)
		return dist_error(numa, "no distance-matrix");
	if (!len || len % 12)
		return dist_error(numa, "distance-matrix is %u bytes, not a "
				  "whole number of (from, to, distance) "
				  "triplets", len);
	memset(dist, 0, sizeof(dist));
	for (uint32_t off = 0; off < len; off += 12) {
		uint32_t from = (uint32_t)fdt_read_cells(p + off, 1);
		uint32_t to = (uint32_t)fdt_read_cells(p + off + 4, 1);
		uint32_t d = (uint32_t)fdt_read_cells(p + off + 8, 1);

		if (from >= MAX_NUMNODES || to >= MAX_NUMNODES)
			return dist_error(numa, "entry %u: node %u to node %u:"
					  " beyond MAX_NUMNODES=%d", off / 12,
					  from, to, MAX_NUMNODES);
		if (from == to ? d != LOCAL_DISTANCE :
		    d <= LOCAL_DISTANCE || d > DISTANCE_MAX)
			return dist_error(numa, "entry %u: distance %u from "
					  "node %u to node %u is invalid "
					  "(itself: %d; others: %d..%d)",
					  off / 12, d, from, to,
					  LOCAL_DISTANCE, LOCAL_DISTANCE + 1,
					  DISTANCE_MAX);
		if (dist[from][to] && dist[from][to] != d)
			return dist_error(numa, "entry %u: distance %u from "
					  "node %u to node %u, given before "
					  "as %u", off / 12, d, from, to,
					  dist[from][to]);
		dist[from][to] = (uint8_t)d;
		if (from >= nodes || to >= nodes)
			nodes = (from > to ? from : to) + 1;
	}
	for (unsigned int i = 0; i < nodes; i++)
		for (unsigned int j = 0; j < nodes; j++)
			if (!dist[i][j] && dist[j][i])
				dist[i][j] = dist[j][i];
	memcpy(numa->dist, dist, sizeof(dist));
	numa->dist_nodes = nodes;
	return 0;
}

int fdt_numa_memory(const void *blob, size_t size, struct boot_numa *numa,
		    struct boot_memmap *scratch)
{
	unsigned int n = 0;
	int err;

	bootmem_init(scratch, scratch->ranges, scratch->max);
	err = fdt_memory_parse(blob, size, scratch);
	/* -ENOMEM: no memory node, which firmware may leave out under EFI. */
	if (err && err != -ENOMEM) {
		ksnprintf(numa->error, sizeof(numa->error), "%s",
			  scratch->error);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < scratch->cnt; i++)
		if (scratch->ranges[i].kind == BOOT_RANGE_MEMORY &&
		    scratch->ranges[i].nid >= 0)
			n++;
	if (numa->nr_mem + n > BOOT_NUMA_MAX_MEM) {
		ksnprintf(numa->error, sizeof(numa->error), "fdt: %u memory "
			  "ranges in nodes, more than %u", numa->nr_mem + n,
			  BOOT_NUMA_MAX_MEM);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < scratch->cnt; i++) {
		const struct boot_range *r = &scratch->ranges[i];

		if (r->kind == BOOT_RANGE_MEMORY && r->nid >= 0)
			numa->mem[numa->nr_mem++] = (struct boot_numa_mem){
				.base = r->base, .size = r->size,
				.nid = r->nid };
	}
	return 0;
}
