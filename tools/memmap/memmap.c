/*
 * memmap - see what a board will give the allocator.
 *
 * Reads a DTB, a saved multiboot2 information structure, a saved PVH
 * start_info, an EFI memory map dump or an ACPI SRAT dump (formats in
 * tools/memmap/README.md), runs the kernel's own readers and memblock over
 * it, and prints the memory map the allocator would start from, the CPUs
 * of a MADT (tools/memmap/acpi.c), and the NUMA topology the kernel would
 * apply (tools/memmap/numa.c). Exit status: 0 on success, 1 with a message for
 * malformed input or a bad command line, 2 with a message when there is
 * no usable memory (no whole free page: everything reserved, or less than
 * a page), 3 with a message when the map has more regions than fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <boot/bootmem.h>
#include <boot/cpus.h>
#include <boot/readers.h>
#include <boot/reserve.h>
#include <mm/memblock.h>
#include <mm/page_order.h>
#include "memmap.h"

#define MEMMAP_MAX_RANGES	1024
#define MEMMAP_MAX_FILE		(64u << 20)

static const char usage[] =
"usage: memmap [--regions] [--format fdt|multiboot2|pvh|efi|srat]\n"
"              [--info-addr ADDR] [--srat SRAT] [--slit SLIT] [--madt APIC]\n"
"              FILE\n"
"\n"
"Read FILE (a device tree blob, a saved multiboot2 information structure,\n"
"a saved PVH hvm_start_info, an EFI memory map dump with its \"EMAP\"\n"
"header, or an ACPI SRAT table dump; the format is detected from its magic\n"
"unless --format says) and print the memory map the allocator would start\n"
"from, with the NUMA node of each range when the input names nodes.\n"
"\n"
"  --regions          one line per memblock region, sorted by base:\n"
"                       memory 0x<base> 0x<size>\n"
"                       reserved 0x<base> 0x<size>\n"
"                     exactly as memblock holds them after merging. A no-map\n"
"                     range is reserved, so it is a \"reserved\" line; memory\n"
"                     regions split where the no-map flag starts and ends.\n"
"  --format F         skip detection: fdt, multiboot2, pvh, efi or srat\n"
"  --srat SRAT        an ACPI SRAT dump (/sys/firmware/acpi/tables/SRAT,\n"
"                     acpidump -b): the nodes of FILE's memory and CPUs\n"
"  --slit SLIT        an ACPI SLIT dump: the distances between the nodes\n"
"  --madt APIC        an ACPI MADT dump (/sys/firmware/acpi/tables/APIC,\n"
"                     acpidump -b's apic.dat): the CPUs the kernel would\n"
"                     start, and the CPUs of an SRAT's GICC entries\n"
"  --info-addr ADDR   (also --dtb-addr) the address the blob was loaded at:\n"
"                     reserve [ADDR, ADDR + its size) as the boot loader's\n"
"                     blob. Without it the blob itself is not reserved, nor\n"
"                     are the kernel image and boot stack: a file has no\n"
"                     load address.\n"
"\n"
"Exit status: 0 success; 1 malformed input (the message names the problem)\n"
"or a bad command line; 2 no usable memory (not one whole page of memory is\n"
"left free); 3 too many regions (more than memblock or the reader holds).\n"
"Warnings (overlapping reservations, reservations outside memory) go to\n"
"standard error and do not change the status.\n";

enum { EXIT_MALFORMED = 1, EXIT_NO_MEMORY = 2, EXIT_TOO_MANY = 3 };

static int fail(int status, const char *file, const char *msg)
{
	fprintf(stderr, "memmap: %s: %s\n", file, msg);
	return status;
}

/* Whether one whole, aligned page of memory is left free. */
static bool usable_page(void)
{
	phys_addr_t start, end;
	uint64_t i;

	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &start, &end,
				NULL)
		/* The first whole page starts at start rounded up. */
		if (start <= PHYS_ADDR_MAX - (PAGE_SIZE - 1) &&
		    PHYS_PFN(start + PAGE_SIZE - 1) < PHYS_PFN(end))
			return true;
	return false;
}

/* The exit status for a reader's or memblock's error. */
static int status_of(int err)
{
	switch (err) {
	case -ENOMEM:	return EXIT_NO_MEMORY;
	case -ENOSPC:	return EXIT_TOO_MANY;
	default:	return EXIT_MALFORMED;
	}
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(MEMMAP_MAX_FILE + 1);
	n = buf ? fread(buf, 1, MEMMAP_MAX_FILE + 1, f) : 0;
	if (buf && ferror(f)) {
		int err = errno;	/* EISDIR for a directory, EIO, ... */

		fclose(f);
		free(buf);
		errno = err;
		return NULL;
	}
	fclose(f);
	if (!buf || n > MEMMAP_MAX_FILE) {
		free(buf);
		errno = buf ? EFBIG : ENOMEM;
		return NULL;
	}
	*len = n;
	return buf;
}

static int print_regions(void)
{
	const struct memblock_type *m = &memblock.memory, *r = &memblock.reserved;
	unsigned long i = 0, j = 0;

	/* Both arrays are sorted: merge them, memory first on a tie. */
	while (i < m->cnt || j < r->cnt) {
		bool mem = j >= r->cnt ||
			   (i < m->cnt && m->regions[i].base <= r->regions[j].base);
		const struct memblock_region *reg = mem ? &m->regions[i++] :
							  &r->regions[j++];

		printf("%s 0x%llx 0x%llx", mem ? "memory" : "reserved",
		       (unsigned long long)reg->base,
		       (unsigned long long)reg->size);
		/* A node only where the boot info named one. */
		if (reg->nid != NUMA_NO_NODE)
			printf(" node %d", reg->nid);
		putchar('\n');
	}
	return 0;
}

static void print_ranges(const struct boot_memmap *map)
{
	printf("the boot info lists %u ranges:\n", map->cnt);
	for (unsigned int i = 0; i < map->cnt; i++) {
		const struct boot_range *r = &map->ranges[i];

		printf("  %-9s [%#llx-%#llx) %s", bootmem_kind_name(r->kind),
		       (unsigned long long)r->base,
		       (unsigned long long)(r->base + r->size), r->reason);
		if (r->nid >= 0)
			printf(", node %d", r->nid);
		putchar('\n');
	}
	printf("\nmemblock, as the allocator would start from it:\n");
}

static struct boot_numa numa;
static bool has_numa;
static struct boot_cpus madt_cpus;

/*
 * A table file given with --srat or --slit, read into @numa, or with
 * --madt (@sig "APIC"), kept for the readers.
 */
static int read_table(const char *path, const char *sig)
{
	char error[BOOT_ERROR_LEN];
	unsigned char *data;
	size_t len;
	int err;

	data = read_file(path, &len);
	if (!data)
		return fail(EXIT_MALFORMED, path, strerror(errno));
	err = !strcmp(sig, "APIC") ? memmap_madt(data, len, error) :
	      memmap_acpi_table(data, len, sig, &numa, error);
	free(data);
	return err ? fail(EXIT_MALFORMED, path, error) : 0;
}

/*
 * The NUMA topology besides the memory: --srat's, --slit's, the device
 * tree's /distance-map, and the CPUs.
 */
static int read_numa(const struct memmap_options *opt, const void *data,
		     size_t len)
{
	int err = 0;

	if (opt->srat_file && opt->format == MEMMAP_SRAT)
		return fail(EXIT_MALFORMED, opt->file, "--srat with an SRAT "
			    "as FILE: one SRAT at a time");
	if (opt->srat_file)
		err = read_table(opt->srat_file, "SRAT");
	if (!err && opt->slit_file && !numa.nr_pxm)
		return fail(EXIT_MALFORMED, opt->slit_file, "--slit needs "
			    "an SRAT that names nodes (--srat, or FILE)");
	if (!err && opt->slit_file)
		err = read_table(opt->slit_file, "SLIT");
	if (!err && opt->format == MEMMAP_FDT &&
	    fdt_numa_distances(data, len, &numa))
		return fail(EXIT_MALFORMED, opt->file, numa.error);
	has_numa = opt->format == MEMMAP_FDT || numa.nr_pxm;
	if (!err && has_numa)
		memmap_numa_cpus(opt, data, len, &numa);
	return err;
}

int main(int argc, char **argv)
{
	static struct boot_range ranges[MEMMAP_MAX_RANGES];
	struct memmap_options opt;
	struct boot_memmap map;
	unsigned char *data;
	size_t len;
	int err;

	err = memmap_parse_options(argc, argv, &opt);
	if (err) {
		fputs(usage, err > 0 ? stdout : stderr);
		return err > 0 ? 0 : 1;
	}
	/* First: an SRAT's GICC entries, FILE's included, need the MADT. */
	if (opt.madt_file) {
		err = read_table(opt.madt_file, "APIC");
		if (err)
			return err;
		memmap_madt_cpus(&madt_cpus);
	}
	data = read_file(opt.file, &len);
	if (!data)
		return fail(1, opt.file, strerror(errno));

	bootmem_init(&map, ranges, MEMMAP_MAX_RANGES);
	boot_numa_init(&numa, "device tree");
	err = memmap_read(&opt, data, len, &map, &numa);
	if (err) {
		char msg[BOOT_ERROR_LEN + 32];

		free(data);
		snprintf(msg, sizeof(msg), "%s%s", err == -ENOSPC ?
			 "too many regions: " : "", map.error);
		return fail(status_of(err), opt.file, msg);
	}
	err = read_numa(&opt, data, len);
	if (err) {
		free(data);
		return err;
	}
	free(data);
	/* As every range: the exclusive end must be at most 2^64 - 1. */
	if (opt.have_info_addr &&
	    map.info_size > PHYS_ADDR_MAX - opt.info_addr) {
		char msg[128];

		snprintf(msg, sizeof(msg), "--info-addr %#llx: the %llu bytes "
			 "of the blob run past the top of the address space",
			 (unsigned long long)opt.info_addr,
			 (unsigned long long)map.info_size);
		return fail(EXIT_MALFORMED, opt.file, msg);
	}
	if (!opt.regions)
		print_ranges(&map);
	err = bootmem_apply(&map);
	if (!err && opt.have_info_addr)
		err = boot_reserve(opt.info_addr, map.info_size,
				   memmap_format_name(opt.format));
	/* memblock's arrays cannot grow here: they hold board addresses. */
	if (err == -ENOMEM) {
		char msg[128];

		snprintf(msg, sizeof(msg), "too many regions: memblock holds "
			 "%d memory and %d reserved regions",
			 INIT_MEMBLOCK_REGIONS, INIT_MEMBLOCK_REGIONS);
		return fail(EXIT_TOO_MANY, opt.file, msg);
	}
	/* The SRAT's ranges are what it says: nodes even in --regions. */
	for (unsigned int i = 0; !err && i < numa.nr_mem; i++)
		err = memblock_set_node(numa.mem[i].base, numa.mem[i].size,
					&memblock.memory, numa.mem[i].nid);
	if (err)
		return fail(EXIT_MALFORMED, opt.file,
			    "memblock refused the map (see above)");
	if (opt.regions) {
		print_regions();
	} else {
		boot_memory_report(printf);
		if (opt.madt_file)
			memmap_madt_report(&madt_cpus);
		if (has_numa)
			memmap_numa_report(&numa);
	}
	if (!usable_page())
		return fail(EXIT_NO_MEMORY, opt.file, "no usable memory: not one "
			    "whole page of memory is left free");
	return 0;
}
