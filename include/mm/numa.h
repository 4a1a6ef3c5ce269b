/*
 * numa.h - the machine's NUMA topology: which nodes exist, how far apart
 * they are, and which node each CPU sits in. Names and meanings follow
 * Linux (<linux/numa.h>, <linux/nodemask.h>, <linux/topology.h>).
 *
 * The boot-info readers fill it (device tree numa-node-id and
 * distance-map, ACPI SRAT and SLIT); the page allocator reads it to
 * order its fallback. Until a reader says otherwise there is one node,
 * node 0, and every CPU is in it. It is written on the boot CPU before
 * secondary CPUs start and only read afterwards, so it needs no lock.
 */
#ifndef MM_NUMA_H
#define MM_NUMA_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <smp/nr_cpus.h>

#ifndef CONFIG_NODES_SHIFT
#define CONFIG_NODES_SHIFT	4
#endif
#define NODES_SHIFT		CONFIG_NODES_SHIFT
#define MAX_NUMNODES		(1 << NODES_SHIFT)

#ifndef NUMA_NO_NODE
#define NUMA_NO_NODE		(-1)
#endif

_Static_assert(NODES_SHIFT >= 0 && NODES_SHIFT <= 10,
	       "NODES_SHIFT must be between 0 and 10.");

/* ACPI SLIT's and the device tree's distances: 10 to itself. */
#define LOCAL_DISTANCE		10
#define REMOTE_DISTANCE		20
#define DISTANCE_MAX		254	/* 255 means unreachable in SLIT */

/* A set of nodes. */
typedef struct {
	unsigned long bits[(MAX_NUMNODES + 63) / 64];
} nodemask_t;

static inline void node_set(int nid, nodemask_t *mask)
{
	mask->bits[nid / 64] |= 1ul << (nid % 64);
}

static inline void node_clear(int nid, nodemask_t *mask)
{
	mask->bits[nid / 64] &= ~(1ul << (nid % 64));
}

static inline bool node_isset(int nid, const nodemask_t *mask)
{
	return nid >= 0 && nid < MAX_NUMNODES &&
	       (mask->bits[nid / 64] >> (nid % 64)) & 1;
}

static inline void nodes_clear(nodemask_t *mask)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(mask->bits); i++)
		mask->bits[i] = 0;
}

/* next_node - the first node of @mask above @nid, or MAX_NUMNODES. */
static inline int next_node(int nid, const nodemask_t *mask)
{
	for (nid++; nid < MAX_NUMNODES; nid++)
		if (node_isset(nid, mask))
			return nid;
	return MAX_NUMNODES;
}

#define for_each_node_mask(nid, mask)					\
	for ((nid) = next_node(-1, &(mask)); (nid) < MAX_NUMNODES;	\
	     (nid) = next_node((nid), &(mask)))

/* The nodes the boot information names (with memory, CPUs, or both). */
extern nodemask_t node_online_map;
/* nr_node_ids - one more than the highest online node id. */
extern int nr_node_ids;

#define node_online(nid)	node_isset((nid), &node_online_map)
#define for_each_online_node(nid) for_each_node_mask((nid), node_online_map)
int num_online_nodes(void);

/* node_set_online - a reader found node @nid. -EINVAL when out of range. */
int node_set_online(int nid);

/*
 * node_distance - the distance from node @from to node @to: what the
 * firmware said, else LOCAL_DISTANCE for a node to itself and
 * REMOTE_DISTANCE otherwise (also for ids out of range).
 */
int node_distance(int from, int to);

/*
 * numa_set_distance - record one entry of SLIT or distance-map.
 * Return: 0, or -EINVAL (a message printed, nothing changed) for a node
 * out of range, a distance to itself other than LOCAL_DISTANCE, or a
 * distance between nodes below or equal to LOCAL_DISTANCE or above
 * DISTANCE_MAX.
 */
int numa_set_distance(int from, int to, int distance);

/*
 * cpu_to_node - the node of logical CPU @cpu: 0 until set. Inline: every
 * alloc_pages() asks it for the calling CPU.
 */
extern int16_t __cpu_numa_node[NR_CPUS];

static inline int cpu_to_node(unsigned int cpu)
{
	return cpu < NR_CPUS ? __cpu_numa_node[cpu] : 0;
}
/* set_cpu_numa_node - -EINVAL for a CPU or node out of range. */
int set_cpu_numa_node(unsigned int cpu, int nid);

/* numa_reset - back to one node, node 0, every distance default. */
void numa_reset(void);

#endif /* MM_NUMA_H */
