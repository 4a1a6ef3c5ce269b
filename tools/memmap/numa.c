/*
 * numa.c - memmap's NUMA side: ACPI SRAT and SLIT from table dumps (the
 * raw tables as /sys/firmware/acpi/tables/SRAT or `acpidump -b` write
 * them), the device tree's CPU nodes and /distance-map, and the summary
 * the kernel prints at boot, from the kernel's own readers and
 * boot_numa_apply().
 */
#include <stdio.h>
#include <string.h>
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include <lib/errno.h>
#include "host.h"
#include "memmap.h"

static struct boot_cpus cpus;

int memmap_acpi_table(const void *data, size_t len, const char *sig,
		      struct boot_numa *numa, char *error)
{
	struct acpi_tables t = { 0 };
	const uint8_t *p = data;
	uint8_t sum = 0;
	uint32_t n;
	int err;

	if (len < ACPI_HEADER_SIZE || memcmp(p, sig, 4)) {
		snprintf(error, BOOT_ERROR_LEN, "not an ACPI %s table (no "
			 "\"%s\" signature and 36-byte header)", sig, sig);
		return -EBADMSG;
	}
	n = load_le32(p + 4);
	if (n < ACPI_HEADER_SIZE || n > len) {
		snprintf(error, BOOT_ERROR_LEN, "%s length %u is not between "
			 "its header's 36 bytes and the file's %zu", sig, n,
			 len);
		return -EBADMSG;
	}
	for (uint32_t i = 0; i < n; i++)
		sum += p[i];
	if (sum) {
		snprintf(error, BOOT_ERROR_LEN, "%s: bad checksum (bytes sum "
			 "to %#x, not 0)", sig, sum);
		return -EBADMSG;
	}
	err = !strcmp(sig, "SRAT") ? acpi_srat_parse(&t, p, n, numa) :
				     acpi_slit_parse(&t, p, n, numa);
	if (err) {
		snprintf(error, BOOT_ERROR_LEN, "%s", t.error);
		return -EBADMSG;
	}
	return 0;
}

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
