/*
 * test_numa.c - where the NUMA topology comes from, past the ACPI tables
 * (test_acpi.c reads SRAT and SLIT): the device tree's /distance-map
 * (boot/fdt_numa.c) with a named refusal for each malformed matrix, the
 * memory nodes' numa-node-id as ranges for RAM an EFI map gave
 * (fdt_numa_memory(), the same file), and
 * boot_numa_apply() (boot/numa.c) over the host's memblock - the SRAT's
 * ranges and CPUs, and every placement include/boot/numa.h promises
 * (memory or a CPU in no node, a node without memory or without CPUs, a
 * node only hot-pluggable memory names, a node id beyond MAX_NUMNODES,
 * no NUMA information at all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <boot/bytes.h>
#include <boot/cpus.h>
#include <boot/numa.h>
#include <mm/memblock.h>
#include "boot_test.h"
#include "fdt_builder.h"

static struct fdtb b;
static struct boot_numa numa;
static struct boot_cpus cpus;

/* / { #address-cells = <2>; #size-cells = <2>; ... */
static void tree_begin(void)
{
	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	fdtb_prop_cells(&b, "#size-cells", 1, 2);
}

/*
 * ... }; the blob in a buffer of its own size (the readers must not read
 * past it: ASan watches), and @numa emptied for the reader. Free it.
 */
static void *tree_end(void)
{
	void *copy;

	fdtb_end(&b);
	fdtb_finish(&b, 1);
	copy = malloc(b.len);
	memcpy(copy, b.blob, b.len);
	boot_numa_init(&numa, "device tree");
	return copy;
}

/* ---- /distance-map ------------------------------------------------------ */

/*
 * / { distance-map { compatible; distance-matrix = <@n triplets>; }; },
 * the matrix @len bytes long (-1: no matrix; 12 * @n: all of it).
 */
static int read_map_len(const uint32_t *triplets, unsigned int n, int len)
{
	uint8_t cells[64 * 12];
	void *copy;
	int err;

	for (unsigned int i = 0; i < 3 * n; i++)
		store_be32(cells + 4 * i, triplets[i]);
	tree_begin();
	fdtb_begin(&b, "distance-map");
	fdtb_prop_str(&b, "compatible", "numa-distance-map-v1");
	if (len >= 0)
		fdtb_prop(&b, "distance-matrix", cells, (uint32_t)len);
	fdtb_end(&b);
	copy = tree_end();
	err = fdt_numa_distances(copy, b.len, &numa);
	free(copy);
	return err;
}

static int read_map(const uint32_t *triplets, unsigned int n, bool matrix)
{
	return read_map_len(triplets, n, matrix ? 12 * (int)n : -1);
}

#define EXPECT_NUMA_ERROR(err, needle)					\
	EXPECT((err) == -EINVAL && strstr(numa.error, needle) &&	\
	       !numa.dist_nodes, "error %d \"%s\", expected \"%s\"",	\
	       err, numa.error, needle)

/* QEMU's shape (every pair both ways), one way only, and asymmetric. */
static bool distance_map_read(void)
{
	static const uint32_t qemu[] = {
		0, 0, 10, 0, 1, 21, 1, 0, 21, 1, 1, 10,
	};
	static const uint32_t one_way[] = {
		0, 1, 15, 0, 2, 20, 1, 2, 25,
	};
	static const uint32_t asym[] = { 0, 1, 15, 1, 0, 30 };

	EXPECT(read_map(qemu, 4, true) == 0, "%s", numa.error);
	EXPECT(numa.dist_nodes == 2 && numa.dist[0][1] == 21 &&
	       numa.dist[1][0] == 21 && numa.dist[1][1] == 10, "qemu");
	EXPECT(read_map(one_way, 3, true) == 0, "%s", numa.error);
	EXPECT(numa.dist_nodes == 3 && numa.dist[2][0] == 20 &&
	       numa.dist[2][1] == 25 && numa.dist[1][0] == 15 &&
	       numa.dist[0][0] == 0, "one way: (b, a) takes (a, b)");
	EXPECT(read_map(asym, 2, true) == 0, "%s", numa.error);
	EXPECT(numa.dist[0][1] == 15 && numa.dist[1][0] == 30, "asymmetric");
	/* No distance-map at all: nothing, and no error. */
	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	boot_numa_init(&numa, "device tree");
	EXPECT(fdt_numa_distances(b.blob, b.len, &numa) == 0 &&
	       !numa.dist_nodes, "%s", numa.error);
	return true;
}

static bool distance_map_refusals(void)
{
	static const struct {
		uint32_t t[6];
		unsigned int n;
		const char *needle;
	} bad[] = {
		{ { 0, 0, 11 }, 1, "distance 11 from node 0 to node 0" },
		{ { 0, 1, 10 }, 1, "distance 10 from node 0 to node 1" },
		{ { 0, 1, 255 }, 1, "distance 255 from node 0 to node 1" },
		{ { 0, MAX_NUMNODES, 20 }, 1, "beyond MAX_NUMNODES" },
		{ { 0, 1, 20, 0, 1, 21 }, 2, "given before as 20" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_NUMA_ERROR(read_map(bad[i].t, bad[i].n, true),
				  bad[i].needle);
	EXPECT_NUMA_ERROR(read_map(bad[0].t, 0, true), "0 bytes");
	EXPECT_NUMA_ERROR(read_map(bad[0].t, 1, false), "no distance-matrix");
	/* Not whole triplets. */
	EXPECT_NUMA_ERROR(read_map_len(bad[4].t, 2, 20),
			  "not a whole number of");
	return true;
}

/* ---- the CPU list, and memblock's nodes -------------------------------- */

static void cpus_list(unsigned int n, const int *nodes)
{
	memset(&cpus, 0, sizeof(cpus));
	cpus.nr = n;
	for (unsigned int i = 0; i < n; i++)
		cpus.cpu[i] = (struct cpu_desc){ .hwid = i, .node = nodes[i] };
}

/* The node memblock gives @addr, or -2 when no region holds it. */
static int node_at(phys_addr_t addr)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return r->nid;
	}
	return -2;
}

/* ---- memory nodes' numa-node-id, for RAM an EFI map gave ---------------- */

/* One memory node at @base, @size (two cells each), in @nid (-1: none). */
static void memory_node(const char *name, uint64_t base, uint64_t size,
			int nid)
{
	fdtb_begin(&b, name);
	fdtb_prop_str(&b, "device_type", "memory");
	fdtb_prop_cells(&b, "reg", 4, (uint32_t)(base >> 32), (uint32_t)base,
			(uint32_t)(size >> 32), (uint32_t)size);
	if (nid >= 0)
		fdtb_prop_cells(&b, "numa-node-id", 1, (uint32_t)nid);
	fdtb_end(&b);
}

/*
 * One memory node with @n reg entries of 16 MiB from 0x40000000, in node
 * 1 (@with_nid) or in none, then with @bad_nid one more memory node whose
 * numa-node-id is two bytes long.
 */
static int read_node_ranges(unsigned int n, bool with_nid, bool bad_nid)
{
	static struct boot_range ranges[256];
	static uint8_t reg[(BOOT_NUMA_MAX_MEM + 1) * 16];
	struct boot_memmap scratch;
	void *copy;
	int err;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t base = 0x40000000 + (uint64_t)i * 0x1000000;

		store_be32(reg + 16 * i, (uint32_t)(base >> 32));
		store_be32(reg + 16 * i + 4, (uint32_t)base);
		store_be32(reg + 16 * i + 8, 0);
		store_be32(reg + 16 * i + 12, 0x1000000);
	}
	tree_begin();
	if (n) {
		fdtb_begin(&b, "memory@40000000");
		fdtb_prop_str(&b, "device_type", "memory");
		fdtb_prop(&b, "reg", reg, 16 * n);
		if (with_nid)
			fdtb_prop_cells(&b, "numa-node-id", 1, 1);
		fdtb_end(&b);
	}
	if (bad_nid) {
		fdtb_begin(&b, "memory@f0000000");
		fdtb_prop_str(&b, "device_type", "memory");
		fdtb_prop_cells(&b, "reg", 4, 0, 0xf0000000, 0, 0x1000000);
		fdtb_prop(&b, "numa-node-id", "\0\1", 2);
		fdtb_end(&b);
	}
	copy = tree_end();
	bootmem_init(&scratch, ranges, ARRAY_SIZE(ranges));
	err = fdt_numa_memory(copy, b.len, &numa, &scratch);
	free(copy);
	return err;
}

/*
 * What AAVMF hands over with -numa and acpi=off: the tree keeps QEMU's
 * memory nodes (node 0 at 0x40000000, node 1 at 0x50000000, 256 MiB
 * each), while the EFI map's RAM has the firmware's holes. Each RAM range
 * goes to the node whose memory node holds it; without numa-node-id, or
 * without memory nodes, nothing is taken.
 */
static bool memory_nodes_under_efi(void)
{
	static struct boot_range ranges[8];
	struct boot_memmap scratch;
	void *copy;
	int err;

	tree_begin();
	memory_node("memory@50000000", 0x50000000, 0x10000000, 1);
	memory_node("memory@40000000", 0x40000000, 0x10000000, 0);
	copy = tree_end();
	bootmem_init(&scratch, ranges, ARRAY_SIZE(ranges));
	err = fdt_numa_memory(copy, b.len, &numa, &scratch);
	free(copy);
	EXPECT(!err && numa.nr_mem == 2, "%u ranges: %s", numa.nr_mem,
	       numa.error);

	memblock_add(0x40000000, 0x4c440000 - 0x40000000);
	memblock_add(0x4c730000, 0x4fc00000 - 0x4c730000);
	memblock_add(0x4ffe0000, 0x60000000 - 0x4ffe0000);
	cpus_list(2, (const int[]){ 0, 1 });
	EXPECT(boot_numa_apply(&numa, &cpus) == 2, "%d nodes",
	       num_online_nodes());
	EXPECT(node_at(0x40000000) == 0 && node_at(0x4fbff000) == 0 &&
	       node_at(0x4ffe0000) == 0 && node_at(0x4ffff000) == 0 &&
	       node_at(0x50000000) == 1 && node_at(0x5ffff000) == 1,
	       "nodes %d %d %d %d", node_at(0x40000000), node_at(0x4ffe0000),
	       node_at(0x50000000), node_at(0x5ffff000));
	EXPECT(!console_says("no node"), "a range was said to be in no node");

	/* No numa-node-id, or no memory node at all: nothing, no error. */
	EXPECT(!read_node_ranges(3, false, false) && !numa.nr_mem,
	       "%u ranges from nodes without numa-node-id", numa.nr_mem);
	EXPECT(!read_node_ranges(0, false, false) && !numa.nr_mem,
	       "%u ranges from no memory node", numa.nr_mem);
	return true;
}

/* A malformed numa-node-id, or more ranges than BOOT_NUMA_MAX_MEM. */
static bool memory_nodes_refused(void)
{
	EXPECT(read_node_ranges(2, true, true) == -EINVAL && !numa.nr_mem &&
	       strstr(numa.error, "numa-node-id is 2 bytes"), "%s",
	       numa.error);
	EXPECT(!read_node_ranges(BOOT_NUMA_MAX_MEM, true, false) &&
	       numa.nr_mem == BOOT_NUMA_MAX_MEM && numa.mem[5].nid == 1 &&
	       numa.mem[5].base == 0x45000000 && numa.mem[5].size == 0x1000000,
	       "%u of %u ranges: %s", numa.nr_mem, BOOT_NUMA_MAX_MEM,
	       numa.error);
	EXPECT(read_node_ranges(BOOT_NUMA_MAX_MEM + 1, true, false) == -EINVAL &&
	       !numa.nr_mem && strstr(numa.error, "more than"), "%s",
	       numa.error);
	return true;
}

/* ---- boot_numa_apply() ----------------------------------------------- */

/*
 * What the kernel sees on q35 with two nodes (acpi-q35-numa2.bin): e820
 * RAM around the 640K-1M hole, SRAT ranges that split it at 98 MiB, a
 * hot-pluggable range above 4 GiB that holds no RAM yet.
 */
static bool apply_srat(void)
{
	static const int none[2] = { -1, -1 };

	memblock_add(0, 0x9fc00);
	memblock_add(0x100000, 0xffdf000 - 0x100000);
	boot_numa_init(&numa, "SRAT");
	numa.nr_pxm = 2;
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){ 0, 0xa0000, 0, false };
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){ 0x100000, 0x6100000, 0, false };
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){ 0x6200000, 0x9e00000, 1, false };
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){
		0x100000000ull, 0xb0000000ull, 1, true };
	numa.cpu[numa.nr_cpu++] = (struct boot_numa_cpu){ 1, 1 };
	numa.cpu[numa.nr_cpu++] = (struct boot_numa_cpu){ 0, 0 };
	numa.dist_nodes = 2;
	numa.dist[0][0] = numa.dist[1][1] = 10;
	numa.dist[0][1] = numa.dist[1][0] = 21;
	cpus_list(2, none);
	EXPECT(boot_numa_apply(&numa, &cpus) == 2, "%d nodes",
	       num_online_nodes());
	EXPECT(node_at(0) == 0 && node_at(0x61fffff) == 0 &&
	       node_at(0x6200000) == 1 && node_at(0xffde000) == 1,
	       "nodes %d %d %d %d", node_at(0), node_at(0x61fffff),
	       node_at(0x6200000), node_at(0xffde000));
	EXPECT(memblock.memory.cnt == 3, "%lu regions", memblock.memory.cnt);
	EXPECT(cpus.cpu[0].node == 0 && cpus.cpu[1].node == 1 &&
	       cpu_to_node(0) == 0 && cpu_to_node(1) == 1, "cpu nodes");
	EXPECT(node_distance(0, 1) == 21 && node_distance(1, 0) == 21 &&
	       node_distance(1, 1) == 10, "distance %d", node_distance(0, 1));
	EXPECT(!console_says("no node") && !console_says("error"),
	       "a placement was reported");
	console_clear();
	boot_numa_print(&cpus);
	EXPECT(console_says("numa: 2 nodes online") &&
	       console_says("numa: node 0: 99967 KiB memory, cpus 0\n") &&
	       console_says("numa: node 1: 161660 KiB memory, cpus 1\n") &&
	       console_says("numa: cpu 1 (hwid 0x1): node 1") &&
	       console_says("numa: distances from node 1: 21 10"),
	       "summary");
	return true;
}

/* Memory and a CPU the device tree puts in no node, when others are. */
static bool apply_places_the_unnamed(void)
{
	static const int nodes[3] = { 2, -1, 3 };

	memblock_add(0x40000000, 0x1000000);		/* no node */
	memblock_add_node(0x50000000, 0x1000000, 2, MEMBLOCK_NONE);
	memblock_add_node(0x60000000, 0x1000000, 5, MEMBLOCK_NONE);
	boot_numa_init(&numa, "device tree");
	cpus_list(3, nodes);
	EXPECT(boot_numa_apply(&numa, &cpus) == 3, "%d nodes",
	       num_online_nodes());
	EXPECT(node_at(0x40000000) == 2 && node_at(0x60000000) == 5,
	       "placed in %d", node_at(0x40000000));
	EXPECT(console_says("[mem 0x40000000-0x40ffffff] is in no node (the "
			    "device tree names others): placed in node 2"),
	       "no message for the memory");
	/* The CPU goes to the boot CPU's node. */
	EXPECT(cpu_to_node(1) == 2 && console_says("cpu 1 (hwid 0x1) is in "
						   "no node"), "cpu 1 in %d",
	       cpu_to_node(1));
	/* Node 3: CPUs, no memory; node 5: memory, no CPUs. */
	EXPECT(node_online(3) && cpu_to_node(2) == 3 &&
	       console_says("node 3 has CPUs but no memory") &&
	       console_says("node 5 has memory but no CPUs"), "messages");
	EXPECT(!node_online(0) && nr_node_ids == 6, "node 0 online %d, "
	       "nr_node_ids %d", node_online(0), nr_node_ids);
	/* No distance-map: the defaults. */
	EXPECT(node_distance(2, 5) == REMOTE_DISTANCE, "%d",
	       node_distance(2, 5));
	return true;
}

/*
 * A node only hot-pluggable memory names is not online; a node id
 * beyond MAX_NUMNODES puts everything in node 0; no information at all
 * is one node, quietly.
 */
static bool apply_refusals_and_one_node(void)
{
	static const int none[2] = { -1, -1 }, far[2] = { 0, MAX_NUMNODES };

	memblock_add(0x80000000, 0x1000000);
	boot_numa_init(&numa, "SRAT");
	numa.nr_pxm = 2;
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){ 0x80000000,
							  0x1000000, 0, false };
	numa.mem[numa.nr_mem++] = (struct boot_numa_mem){
		0x100000000ull, 0x10000000, 1, true };
	numa.cpu[numa.nr_cpu++] = (struct boot_numa_cpu){ 0, 0 };
	cpus_list(2, none);
	EXPECT(boot_numa_apply(&numa, &cpus) == 1 && !node_online(1),
	       "hot-pluggable only node online");
	/* CPU 1 has no SRAT entry: the boot CPU's node. */
	EXPECT(cpu_to_node(1) == 0 && console_says("cpu 1 (hwid 0x1) is in "
						   "no node (the SRAT"), "cpu 1");

	memblock_reset_for_test();
	console_clear();
	memblock_add_node(0x80000000, 0x1000000, 1, MEMBLOCK_NONE);
	memblock_add_node(0x90000000, 0x1000000, 2, MEMBLOCK_NONE);
	boot_numa_init(&numa, "device tree");
	cpus_list(2, far);
	EXPECT(boot_numa_apply(&numa, &cpus) == 1 && node_online(0) &&
	       node_at(0x80000000) == 0 && node_at(0x90000000) == 0 &&
	       cpu_to_node(1) == 0 && cpus.cpu[1].node == 0 &&
	       memblock.memory.cnt == 2, "not all in node 0");
	EXPECT(console_says("cpu 1 (hwid 0x1) is in node 16, beyond "
			    "MAX_NUMNODES=16: NUMA information not used"),
	       "no message");

	memblock_reset_for_test();
	console_clear();
	memblock_add(0x80000000, 0x1000000);
	boot_numa_init(&numa, "device tree");
	cpus_list(2, none);
	EXPECT(boot_numa_apply(&numa, &cpus) == 1 && node_online(0) &&
	       node_at(0x80000000) == 0 && cpu_to_node(1) == 0 &&
	       nr_node_ids == 1, "one node");
	EXPECT(!console_says("numa:"), "no information, yet a message");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(distance_map_read),
	HOST_TEST(distance_map_refusals),
	HOST_TEST(memory_nodes_under_efi),
	HOST_TEST(memory_nodes_refused),
	HOST_TEST(apply_srat),
	HOST_TEST(apply_places_the_unnamed),
	HOST_TEST(apply_refusals_and_one_node),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
