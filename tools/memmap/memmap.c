/*
 * memmap - see what a board will give the allocator.
 *
 * Reads a DTB, a saved multiboot2 information structure, a saved PVH
 * start_info or an EFI memory map dump (formats in tools/memmap/README.md), runs the kernel's own
 * readers and memblock over it, and prints the memory map the allocator
 * would start from. Exit status: 0 on success, 1 with a message for
 * malformed input or a bad command line, 2 with a message when there is
 * no usable memory (no whole free page: everything reserved, or less than
 * a page), 3 with a message when the map has more regions than fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <boot/bootmem.h>
#include <boot/readers.h>
#include <boot/reserve.h>
#include <mm/memblock.h>
#include <mm/page_order.h>
#include "memmap.h"

#define MEMMAP_MAX_RANGES	1024
#define MEMMAP_MAX_FILE		(64u << 20)

static const char usage[] =
"usage: memmap [--regions] [--format fdt|multiboot2|pvh|efi]\n"
"              [--info-addr ADDR] FILE\n"
"\n"
"Read FILE (a device tree blob, a saved multiboot2 information structure,\n"
"a saved PVH hvm_start_info or an EFI memory map dump with its \"EMAP\"\n"
"header; the format is detected from its magic unless --format says) and\n"
"print the memory map the allocator would start from.\n"
"\n"
"  --regions          one line per memblock region, sorted by base:\n"
"                       memory 0x<base> 0x<size>\n"
"                       reserved 0x<base> 0x<size>\n"
"                     exactly as memblock holds them after merging. A no-map\n"
"                     range is reserved, so it is a \"reserved\" line; memory\n"
"                     regions split where the no-map flag starts and ends.\n"
"  --format F         skip detection: fdt, multiboot2, pvh or efi\n"
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

		printf("%s 0x%llx 0x%llx\n", mem ? "memory" : "reserved",
		       (unsigned long long)reg->base,
		       (unsigned long long)reg->size);
	}
	return 0;
}

static void print_ranges(const struct boot_memmap *map)
{
	printf("the boot info lists %u ranges:\n", map->cnt);
	for (unsigned int i = 0; i < map->cnt; i++) {
		const struct boot_range *r = &map->ranges[i];

		printf("  %-9s [%#llx-%#llx) %s\n", bootmem_kind_name(r->kind),
		       (unsigned long long)r->base,
		       (unsigned long long)(r->base + r->size), r->reason);
	}
	printf("\nmemblock, as the allocator would start from it:\n");
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
	data = read_file(opt.file, &len);
	if (!data)
		return fail(1, opt.file, strerror(errno));

	bootmem_init(&map, ranges, MEMMAP_MAX_RANGES);
	err = memmap_read(&opt, data, len, &map);
	if (err) {
		char msg[BOOT_ERROR_LEN + 32];

		free(data);
		snprintf(msg, sizeof(msg), "%s%s", err == -ENOSPC ?
			 "too many regions: " : "", map.error);
		return fail(status_of(err), opt.file, msg);
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
	if (err)
		return fail(EXIT_MALFORMED, opt.file,
			    "memblock refused the map (see above)");
	if (opt.regions)
		print_regions();
	else
		boot_memory_report(printf);
	if (!usable_page())
		return fail(EXIT_NO_MEMORY, opt.file, "no usable memory: not one "
			    "whole page of memory is left free");
	return 0;
}
