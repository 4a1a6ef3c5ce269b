/*
 * numa.c - the NUMA topology table (include/mm/numa.h): online nodes,
 * distances and each CPU's node.
 *
 * Distances are kept in one byte each (SLIT's own width). An entry of 0
 * means "never set": node_distance() then answers with the default, so
 * a firmware table that names only some pairs still gives a full matrix.
 */
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/numa.h>
#include "page_pcp.h"

nodemask_t node_online_map = { .bits = { 1 } };
int nr_node_ids = 1;

/* Written on the boot CPU before secondaries start; read-only after. */
static uint8_t numa_distance[MAX_NUMNODES][MAX_NUMNODES];
int16_t __cpu_numa_node[NR_CPUS];

static bool nid_valid(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES;
}

int num_online_nodes(void)
{
	int nid, n = 0;

	for_each_online_node(nid)
		n++;
	return n;
}

int node_set_online(int nid)
{
	if (!nid_valid(nid)) {
		pr_err("numa: node %d is out of range (at most %d nodes)\n",
		       nid, MAX_NUMNODES);
		return -EINVAL;
	}
	node_set(nid, &node_online_map);
	if (nid >= nr_node_ids)
		nr_node_ids = nid + 1;
	return 0;
}

int node_distance(int from, int to)
{
	if (nid_valid(from) && nid_valid(to) && numa_distance[from][to])
		return numa_distance[from][to];
	return from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;
}

int numa_set_distance(int from, int to, int distance)
{
	if (!nid_valid(from) || !nid_valid(to)) {
		pr_err("numa: distance from node %d to node %d: node out of "
		       "range (at most %d nodes)\n", from, to, MAX_NUMNODES);
		return -EINVAL;
	}
	if (from == to ? distance != LOCAL_DISTANCE :
	    distance <= LOCAL_DISTANCE || distance > DISTANCE_MAX) {
		pr_err("numa: distance %d from node %d to node %d is invalid "
		       "(itself: %d; others: %d..%d)\n", distance, from, to,
		       LOCAL_DISTANCE, LOCAL_DISTANCE + 1, DISTANCE_MAX);
		return -EINVAL;
	}
	numa_distance[from][to] = (uint8_t)distance;
	return 0;
}

int set_cpu_numa_node(unsigned int cpu, int nid)
{
	if (cpu >= NR_CPUS || !nid_valid(nid)) {
		pr_err("numa: cpu %u in node %d: out of range\n", cpu, nid);
		return -EINVAL;
	}
	__cpu_numa_node[cpu] = (int16_t)nid;
	pcp_home_forget(cpu);
	return 0;
}

void numa_reset(void)
{
	nodes_clear(&node_online_map);
	node_set(0, &node_online_map);
	nr_node_ids = 1;
	for (int i = 0; i < MAX_NUMNODES; i++)
		for (int j = 0; j < MAX_NUMNODES; j++)
			numa_distance[i][j] = 0;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		__cpu_numa_node[cpu] = 0;
		pcp_home_forget(cpu);
	}
}
