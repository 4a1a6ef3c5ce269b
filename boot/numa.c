/*
 * numa.c - the one step that puts what the NUMA readers found into
 * effect (include/boot/numa.h has the sources and the placements), and
 * the boot summary.
 *
 * Runs on the boot CPU after memblock knows all memory and before the
 * page allocator's hand-off and smp_init(): memblock regions must carry
 * their node when the page allocator builds its per-node lists, and every
 * CPU must know its node before it allocates. It changes memblock's
 * node ids, the CPU list's nodes and mm/numa.c's table, nothing else, so
 * the host tests run it over their own memblock.
 */
#include <boot/cpus.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>

void boot_numa_init(struct boot_numa *numa, const char *source)
{
	memset(numa, 0, sizeof(*numa));
	numa->source = source;
}

static int set_node(phys_addr_t base, phys_addr_t size, int nid)
{
	int err = memblock_set_node(base, size, &memblock.memory, nid);

	if (err)
		pr_err("numa: cannot put [mem %#llx-%#llx] in node %d (error "
		       "%d)\n", (unsigned long long)base,
		       (unsigned long long)(base + size - 1), nid, err);
	return err;
}

/* Every memory region in node @nid: the topology is not used. */
static void all_in_node(int nid, struct boot_cpus *cpus)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++)
		memblock.memory.regions[i].nid = nid;
	/* Regions that now share a node and touch merge again. */
	if (memblock.memory.cnt)
		set_node(memblock.memory.regions[0].base,
			 memblock.memory.regions[0].size, nid);
	for (unsigned int i = 0; i < cpus->nr; i++)
		cpus->cpu[i].node = nid;
}

static int srat_cpu_node(const struct boot_numa *numa, unsigned long hwid)
{
	for (unsigned int i = 0; i < numa->nr_cpu; i++)
		if (numa->cpu[i].hwid == hwid)
			return numa->cpu[i].nid;
	return NUMA_NO_NODE;
}

/* A node id the boot information gave that mm/numa.c cannot hold. */
static bool node_too_big(const struct boot_cpus *cpus)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++)
		if (memblock.memory.regions[i].nid >= MAX_NUMNODES) {
			pr_err("numa: [mem %#llx-%#llx] is in node %d, beyond "
			       "MAX_NUMNODES=%d: NUMA information not used, "
			       "one node\n",
			       (unsigned long long)memblock.memory.regions[i].base,
			       (unsigned long long)(memblock.memory.regions[i].base +
						    memblock.memory.regions[i].size - 1),
			       memblock.memory.regions[i].nid, MAX_NUMNODES);
			return true;
		}
	for (unsigned int i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i].node >= MAX_NUMNODES) {
			pr_err("numa: cpu %u (hwid %#lx) is in node %d, beyond "
			       "MAX_NUMNODES=%d: NUMA information not used, "
			       "one node\n", i, cpus->cpu[i].hwid,
			       cpus->cpu[i].node, MAX_NUMNODES);
			return true;
		}
	return false;
}

static int lowest(const nodemask_t *mask)
{
	int nid = next_node(-1, mask);

	return nid < MAX_NUMNODES ? nid : NUMA_NO_NODE;
}

/* The CPUs' nodes: the SRAT's by APIC id, else what the list has. */
static void cpus_from_srat(const struct boot_numa *numa,
			   struct boot_cpus *cpus)
{
	if (!numa->nr_cpu)
		return;
	for (unsigned int i = 0; i < cpus->nr; i++)
		cpus->cpu[i].node = srat_cpu_node(numa, cpus->cpu[i].hwid);
}

int boot_numa_apply(const struct boot_numa *numa, struct boot_cpus *cpus)
{
	nodemask_t with_mem = { 0 }, with_cpu = { 0 }, named;
	int fallback, nid;

	numa_reset();
	for (unsigned int i = 0; i < numa->nr_mem; i++)
		if (set_node(numa->mem[i].base, numa->mem[i].size,
			     numa->mem[i].nid)) {
			all_in_node(0, cpus);
			return 1;
		}
	cpus_from_srat(numa, cpus);
	if (node_too_big(cpus)) {
		all_in_node(0, cpus);
		return 1;
	}

	for (unsigned long i = 0; i < memblock.memory.cnt; i++)
		if (memblock.memory.regions[i].nid != NUMA_NO_NODE)
			node_set(memblock.memory.regions[i].nid, &with_mem);
	for (unsigned int i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i].node != NUMA_NO_NODE)
			node_set(cpus->cpu[i].node, &with_cpu);
	named = with_mem;
	for (unsigned int i = 0; i < ARRAY_SIZE(named.bits); i++)
		named.bits[i] |= with_cpu.bits[i];
	if (lowest(&named) == NUMA_NO_NODE) {
		/* No NUMA information: node 0 holds everything, quietly. */
		all_in_node(0, cpus);
		return 1;
	}

	/* Memory in no node: the lowest node with memory takes it. */
	fallback = lowest(&with_mem);
	if (fallback == NUMA_NO_NODE)
		fallback = lowest(&named);
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		struct memblock_region *r = &memblock.memory.regions[i];

		if (r->nid != NUMA_NO_NODE)
			continue;
		pr_warn("numa: [mem %#llx-%#llx] is in no node (the %s names "
			"others): placed in node %d\n",
			(unsigned long long)r->base,
			(unsigned long long)(r->base + r->size - 1),
			numa->source, fallback);
		if (set_node(r->base, r->size, fallback)) {
			all_in_node(0, cpus);
			return 1;
		}
		node_set(fallback, &with_mem);
		i = (unsigned long)-1;	/* regions merged: from the start */
	}
	/* A CPU in no node: the boot CPU's node, else the fallback's. */
	if (cpus->nr && cpus->cpu[0].node != NUMA_NO_NODE)
		fallback = cpus->cpu[0].node;
	for (unsigned int i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i].node == NUMA_NO_NODE) {
			pr_warn("numa: cpu %u (hwid %#lx) is in no node (the "
				"%s names others): placed in node %d\n", i,
				cpus->cpu[i].hwid, numa->source, fallback);
			cpus->cpu[i].node = fallback;
			node_set(fallback, &with_cpu);
		}

	nodes_clear(&node_online_map);
	nr_node_ids = 0;
	for_each_node_mask(nid, named)
		node_set_online(nid);
	for (unsigned int i = 0; i < numa->dist_nodes; i++)
		for (unsigned int j = 0; j < numa->dist_nodes; j++)
			if (node_online(i) && node_online(j) &&
			    numa->dist[i][j])
				numa_set_distance(i, j, numa->dist[i][j]);
	for (unsigned int i = 0; i < cpus->nr; i++)
		set_cpu_numa_node(i, cpus->cpu[i].node);

	for_each_online_node(nid) {
		if (!node_isset(nid, &with_mem))
			pr_info("numa: node %d has CPUs but no memory: its "
				"CPUs allocate from the nearest node with "
				"memory\n", nid);
		else if (!node_isset(nid, &with_cpu))
			pr_info("numa: node %d has memory but no CPUs\n", nid);
	}
	return num_online_nodes();
}

static unsigned long long node_kib(int nid)
{
	unsigned long long bytes = 0;

	for (unsigned long i = 0; i < memblock.memory.cnt; i++)
		if (memblock.memory.regions[i].nid == nid)
			bytes += memblock.memory.regions[i].size;
	return bytes >> 10;
}

void boot_numa_print(const struct boot_cpus *cpus)
{
	int nid, to;

	printk("numa: %d nodes online\n", num_online_nodes());
	for_each_online_node(nid) {
		unsigned int n = 0;

		printk("numa: node %d: %llu KiB memory, cpus", nid,
		       node_kib(nid));
		for (unsigned int i = 0; i < cpus->nr; i++)
			if (cpu_to_node(i) == nid) {
				printk(" %u", i);
				n++;
			}
		printk("%s\n", n ? "" : " none");
	}
	for (unsigned int i = 0; i < cpus->nr; i++)
		printk("numa: cpu %u (hwid %#lx): node %d\n", i,
		       cpus->cpu[i].hwid, cpu_to_node(i));
	for_each_online_node(nid) {
		printk("numa: distances from node %d:", nid);
		for_each_online_node(to)
			printk(" %d", node_distance(nid, to));
		printk("\n");
	}
}
