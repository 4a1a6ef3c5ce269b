/*
 * numa.c - memmap's NUMA side: the CPUs the summary lists (the MADT's,
 * the SRAT's or the device tree's), an SRAT's ranges as the memory map,
 * and the summary the kernel prints at boot, from boot_numa_apply(). The
 * ACPI tables themselves are read in acpi.c.
 */
#include <stdio.h>
#include <string.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include "host.h"
#include "memmap.h"

static struct boot_cpus cpus;

int memmap_srat_ranges(const struct boot_numa *numa, struct boot_memmap *map)
{
	for (unsigned int i = 0; i < numa->nr_mem; i++) {
		const struct boot_numa_mem *m = &numa->mem[i];
		unsigned int before = map->cnt;
		int err = bootmem_add_range(map, m->hotplug ?
					    BOOT_RANGE_IGNORED :
					    BOOT_RANGE_MEMORY, m->base,
					    m->size, "SRAT memory affinity%s",
					    m->hotplug ? ", hot-pluggable" : "");

		if (err)
			return err;
		map->ranges[before].nid = m->nid;
	}
	return bootmem_require_memory(map, "SRAT");
}

void memmap_numa_cpus(const struct memmap_options *opt, const void *data,
		      size_t len, const struct boot_numa *numa)
{
	memset(&cpus, 0, sizeof(cpus));
	/* At boot the CPUs are the MADT's, the SRAT only places them. */
	if (memmap_madt_cpus(&cpus))
		return;
	if (numa->nr_cpu) {
		for (unsigned int i = 0; i < numa->nr_cpu && i < NR_CPUS; i++)
			cpus.cpu[cpus.nr++] = (struct cpu_desc){
				.hwid = numa->cpu[i].hwid, .node = -1 };
		return;
	}
	if (opt->format != MEMMAP_FDT)
		return;
	/* A file does not say which CPU boots: the one with hwid 0, else
	 * none of them is moved first. The reader's messages are the
	 * kernel's, not memmap's. */
	host_console_set_quiet(true);
	if (fdt_read_cpus(data, len, 0, 0, &cpus))
		cpus.nr = 0;
	host_console_set_quiet(false);
	if (cpus.nr && !cpus.boot_cpu_found) {
		memmove(cpus.cpu, cpus.cpu + 1, (cpus.nr - 1) * sizeof(cpus.cpu[0]));
		cpus.nr--;
	}
}

void memmap_numa_report(const struct boot_numa *numa)
{
	host_console_to_stdout();
	printf("\nNUMA (from the %s), as the kernel would apply it:\n",
	       numa->source);
	boot_numa_apply(numa, &cpus);
	boot_numa_print(&cpus);
}
