/*
 * numa.h - where the NUMA topology comes from: the readers that find it
 * in the boot information, and the one step that applies it.
 *
 *   device tree  memory nodes' numa-node-id (boot/fdt_memory.c, already in
 *                memblock as each region's nid; under EFI, whose map gave
 *                the RAM, as ranges: fdt_numa_memory()), CPU nodes' numa-node-id
 *                (boot/fdt_cpus.c, in struct cpu_desc.node), /distance-map
 *                (fdt_numa_distances() here)
 *   ACPI         SRAT memory affinity (ranges -> nodes) and processor,
 *                x2APIC and GICC affinity (APIC ids, MPIDRs -> nodes):
 *                acpi_srat_read();
 *                SLIT (distances): acpi_slit_read()
 *
 * The readers are pure (host-tested, fuzzed): they validate everything
 * and fill a struct boot_numa, or refuse with one line in ->error and
 * leave nothing half-read. boot_numa_apply() then puts it into memblock
 * (memblock_set_node), the CPU list and mm/numa.c (node_set_online,
 * numa_set_distance, set_cpu_numa_node) - before the page allocator's
 * hand-off and before secondary CPUs start.
 *
 * Node ids. The device tree's numa-node-id is the node id. ACPI's
 * proximity domains (32-bit) become node ids in ascending order of the
 * domains the SRAT names (enabled entries only): domains 0..n-1, what
 * QEMU's -numa nodeid gives, keep their numbers; sparse ones are packed.
 *
 * Placement when the firmware says too little (one message each):
 *   - memory in no node while other memory or CPUs are in nodes: the
 *     lowest-numbered node that has memory takes it;
 *   - a CPU in no node: the boot CPU's node if it has one, else the same
 *     lowest node with memory;
 *   - a node with CPUs but no memory stays online with its CPUs (they
 *     allocate from the nearest node, by distance), as in Linux;
 *   - a node with memory and no CPUs is online (a message says so);
 *   - a node only named by hot-pluggable SRAT ranges, or only by the
 *     distance matrix, is not online;
 *   - a node id at or above MAX_NUMNODES (device tree), or an SRAT the
 *     reader refuses: the topology is not used at all - every range and
 *     CPU is node 0, and one line says why;
 *   - a distance matrix (SLIT, /distance-map) the reader refuses: the
 *     nodes stand, every distance is the default (10 to itself, 20
 *     otherwise), and one line says why.
 * With no NUMA information at all there is one node, node 0.
 */
#ifndef BOOT_NUMA_H
#define BOOT_NUMA_H

#include <boot/bootmem.h>
#include <lib/types.h>
#include <mm/numa.h>

struct acpi_tables;
struct boot_cpus;

#define BOOT_NUMA_MAX_MEM	128	/* SRAT memory ranges read */
#define BOOT_NUMA_MAX_CPUS	1024	/* SRAT CPU entries read */

struct boot_numa_mem {
	phys_addr_t base, size;
	int nid;
	bool hotplug;		/* SRAT: hot-pluggable (may be empty now) */
};

struct boot_numa_cpu {
	unsigned long hwid;	/* APIC or x2APIC id */
	int nid;
};

/*
 * struct boot_numa - what the readers found.
 * @pxm:      ACPI: the proximity domain of node id i is pxm[i], i < nr_pxm.
 * @dist:     @dist[i][j], the distance from node i to node j; 0: not said.
 * @dist_nodes: the matrix covers node ids below this (0: no matrix).
 * @nr_disabled: SRAT entries not enabled (skipped), @nr_cpu_over: CPU
 *            entries beyond BOOT_NUMA_MAX_CPUS (their CPUs get no node).
 */
struct boot_numa {
	const char *source;		/* "SRAT", "device tree" */
	unsigned int nr_mem, nr_cpu;
	struct boot_numa_mem mem[BOOT_NUMA_MAX_MEM];
	struct boot_numa_cpu cpu[BOOT_NUMA_MAX_CPUS];
	unsigned int nr_pxm;
	uint32_t pxm[MAX_NUMNODES];
	unsigned int dist_nodes;
	uint8_t dist[MAX_NUMNODES][MAX_NUMNODES];
	unsigned int nr_disabled, nr_hotplug, nr_cpu_over;
	char error[BOOT_ERROR_LEN];
};

void boot_numa_init(struct boot_numa *numa, const char *source);

/*
 * acpi_srat_read - the SRAT's Memory Affinity (type 1), Processor Local
 * APIC/SAPIC Affinity (type 0), Processor Local x2APIC Affinity (type 2)
 * and GICC Affinity (type 3: the CPU is the MADT's GICC of that ACPI
 * processor UID, by MPIDR; skipped when no GICC has it) entries into
 * @numa (others skipped). Entries whose enabled
 * flag is clear are skipped (counted). Refused: a table shorter than its
 * 48-byte header, an entry shorter than 2 bytes, running past the table
 * or shorter than its type; a memory range that wraps; more than
 * MAX_NUMNODES proximity domains; more than BOOT_NUMA_MAX_MEM ranges.
 * Return: 0; -ENOENT no SRAT; -EINVAL malformed (t->error says why,
 * @numa unchanged but for ->error).
 */
int acpi_srat_read(struct acpi_tables *t, struct boot_numa *numa);

/*
 * acpi_srat_parse - the same on the SRAT at @srat, @len bytes whose
 * header the caller has checked (acpi_find_table(), or memmap on a table
 * dump). A lone table (@t not opened, t->src NULL) has no MADT: its GICC
 * Affinity entries are skipped. Otherwise only t->error is used.
 */
int acpi_srat_parse(struct acpi_tables *t, const uint8_t *srat, uint32_t len,
		    struct boot_numa *numa);

/*
 * acpi_slit_read - the SLIT's matrix for the proximity domains that
 * acpi_srat_read() found. Refused: a length other than 44 + n*n, an
 * entry to itself other than 10, one between two domains of 10 or less
 * or of 255 ("unreachable": buddyboot's nodes all reach each other), a
 * domain the SRAT names that the SLIT does not cover.
 * Return: 0; -ENOENT no SLIT; -EINVAL (t->error), nothing taken.
 */
int acpi_slit_read(struct acpi_tables *t, struct boot_numa *numa);

/* acpi_slit_parse - the same on a checked SLIT, as acpi_srat_parse(). */
int acpi_slit_parse(struct acpi_tables *t, const uint8_t *slit, uint32_t len,
		    struct boot_numa *numa);

/*
 * fdt_numa_distances - /distance-map (compatible "numa-distance-map-v1"):
 * its distance-matrix, (from, to, distance) triplets of one cell each.
 * Refused (-EINVAL, numa->error, nothing taken): a length not a whole
 * number of triplets, a node id at or above BOOT_MAX_NUMNODES, a distance
 * to itself other than 10, between nodes 10 or less or above 254, two
 * triplets for one pair that disagree, and a node at or above
 * MAX_NUMNODES. As the binding says, a missing (b, a) takes (a, b)'s.
 * Return: 0 (also when there is no distance-map), -EINVAL.
 */
int fdt_numa_distances(const void *blob, size_t size, struct boot_numa *numa);

/*
 * fdt_numa_memory - the memory nodes' numa-node-id as ranges in
 * numa->mem[], for boot information whose RAM comes from elsewhere: under
 * EFI the memory map says what is RAM and the tree's memory nodes where
 * it is, as Linux's of_numa reads them whatever gave the RAM. A memory
 * node without numa-node-id gives no range; a tree without memory nodes
 * gives none. @scratch (emptied here) holds what fdt_memory_parse()
 * reads. Refused (-EINVAL, numa->error, numa->mem[] untouched): a tree
 * fdt_memory_parse() refuses, one with more ranges than @scratch holds,
 * more node ranges than BOOT_NUMA_MAX_MEM.
 * Return: 0 or -EINVAL.
 */
int fdt_numa_memory(const void *blob, size_t size, struct boot_numa *numa,
		    struct boot_memmap *scratch);

/*
 * boot_numa_apply - put @numa and what memblock and @cpus already say into
 * effect, with the placements above: memblock_set_node() for the SRAT's
 * ranges and for memory in no node, cpus->cpu[i].node for every listed
 * CPU, then node_set_online(), numa_set_distance() and
 * set_cpu_numa_node(). Prints one line per placement it had to make.
 * Return: the number of online nodes.
 */
int boot_numa_apply(const struct boot_numa *numa, struct boot_cpus *cpus);

/* boot_numa_print - the summary: nodes, their memory, CPUs, distances. */
void boot_numa_print(const struct boot_cpus *cpus);

#endif /* BOOT_NUMA_H */
