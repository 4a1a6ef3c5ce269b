/*
 * fuzz_fdt.c - libFuzzer target for the device-tree readers: the memory
 * reader, and the CPU reader (boot/fdt_cpus.c) on the same input, whose
 * list must hold the boot CPU first and no more than NR_CPUS CPUs however
 * the input is malformed, the /distance-map reader
 * (boot/fdt_numa.c), whose matrix must be valid whenever it is taken, the
 * memory nodes' ranges by node (fdt_numa_memory(), the same file), each
 * in a node and not empty, none on a refusal, and
 * the console lookup (boot/fdt_path.c): stdout-path, aliases, ranges,
 * compatible, which must answer 0 or an error and never read outside
 * the blob, and the GIC reader (boot/fdt_gic.c), whose GIC, when taken,
 * must be one a driver can map.
 */
#include <boot/bootmem.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include <boot/gic.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include "fuzz_reader.h"
#include "host.h"

static int read_fdt(const uint8_t *data, size_t size, struct boot_memmap *map)
{
	return fdt_memory_parse(data, size, map);
}

static void read_cpus(const uint8_t *data, size_t size)
{
	static struct boot_cpus cpus;
	/*
	 * The boot hwid from the input too, so that it is sometimes listed;
	 * and whether CPUs are held in the kernel's pen (FDT_CPUS_HELD).
	 */
	unsigned long boot = size ? data[size - 1] : 0;
	unsigned int flags = size > 1 && (data[size - 2] & 1) ? FDT_CPUS_HELD : 0;
	int err;

	host_console_set_quiet(true);	/* the CPU reader's messages */
	err = fdt_read_cpus(data, size, boot, flags, &cpus);

	if (cpus.nr < 1 || cpus.nr > NR_CPUS || cpus.cpu[0].hwid != boot)
		abort();
	if (err && err != -EINVAL && err != -ENOENT)
		abort();
	for (unsigned int i = 1; !err && i < cpus.nr; i++) {
		if (cpus.cpu[i].hwid == boot)
			abort();	/* the boot CPU twice */
		if (!flags && cpus.cpu[i].method == CPU_ENABLE_HELD)
			abort();	/* held, with no pen to hold it */
	}
}

static void find_console(const uint8_t *data, size_t size)
{
	static char error[BOOT_ERROR_LEN];
	struct fdt_node_path np;
	struct fdt fdt;
	uint64_t addr, len;

	if (fdt_open(&fdt, data, size, error))
		return;
	if (!fdt_stdout_node(&fdt, &np, NULL)) {
		if (np.depth < 0 || np.depth > FDT_MAX_DEPTH)
			abort();
		(void)fdt_reg_translate(&fdt, &np, 0, &addr, &len);
	}
	if (!fdt_find_compatible(&fdt, "sifive,test0", &np))
		(void)fdt_reg_translate(&fdt, &np, 0, &addr, &len);
}

static void read_distances(const uint8_t *data, size_t size)
{
	static struct boot_numa numa;

	boot_numa_init(&numa, "device tree");
	if (fdt_numa_distances(data, size, &numa)) {
		if (!numa.error[0] || numa.dist_nodes)
			abort();	/* silent, or taken in part */
		return;
	}
	if (numa.dist_nodes > MAX_NUMNODES)
		abort();
	for (unsigned int i = 0; i < numa.dist_nodes; i++)
		for (unsigned int j = 0; j < numa.dist_nodes; j++)
			if (numa.dist[i][j] && (i == j ?
			    numa.dist[i][j] != LOCAL_DISTANCE :
			    numa.dist[i][j] <= LOCAL_DISTANCE))
				abort();
}

static void read_node_ranges(const uint8_t *data, size_t size)
{
	static struct boot_range ranges[64];
	static struct boot_numa numa;
	struct boot_memmap scratch;

	boot_numa_init(&numa, "device tree");
	bootmem_init(&scratch, ranges, ARRAY_SIZE(ranges));
	if (fdt_numa_memory(data, size, &numa, &scratch)) {
		if (!numa.error[0] || numa.nr_mem)
			abort();	/* silent, or taken in part */
		return;
	}
	if (numa.nr_mem > BOOT_NUMA_MAX_MEM)
		abort();
	for (unsigned int i = 0; i < numa.nr_mem; i++)
		if (numa.mem[i].nid < 0 || numa.mem[i].nid >= BOOT_MAX_NUMNODES ||
		    !numa.mem[i].size)
			abort();
}

/*
 * A refusal says why and a tree with no GIC does not; a GIC taken is a
 * GICv2 with its CPU interface or a GICv3 with 1 to GIC_MAX_REDIST_REGIONS
 * regions, none empty or wrapping, and a virtual timer that is a PPI or 0;
 * a BCM2836 local controller has neither, and its virtual timer is its
 * input 3 or 0.
 */
static void read_gic(const uint8_t *data, size_t size)
{
	static char error[BOOT_ERROR_LEN];
	static struct boot_gic gic;
	int err = fdt_read_gic(data, size, &gic, error);

	if (err) {
		if (gic.version || (err != -EINVAL && err != -ENOENT) ||
		    (err == -EINVAL) != (error[0] != '\0'))
			abort();
		return;
	}
	if (gic.version == GIC_BCM2836_LOCAL) {
		if (!gic.dist || gic.cpu_if || gic.nr_redist ||
		    (gic.vtimer_intid && gic.vtimer_intid != 3))
			abort();
		return;
	}
	if (!gic.dist || (gic.version == 2 ? !gic.cpu_if || gic.nr_redist :
	    gic.version != 3 || gic.cpu_if || !gic.nr_redist ||
	    gic.nr_redist > GIC_MAX_REDIST_REGIONS))
		abort();
	for (unsigned int i = 0; i < gic.nr_redist; i++)
		if (!gic.redist[i].base || !gic.redist[i].size ||
		    gic.redist[i].base + gic.redist[i].size < gic.redist[i].base)
			abort();
	if (gic.vtimer_intid && (gic.vtimer_intid < 16 || gic.vtimer_intid > 31))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_cpus(data, size);
	read_gic(data, size);
	find_console(data, size);
	read_distances(data, size);
	read_node_ranges(data, size);
	return fuzz_reader(read_fdt, data, size);
}
