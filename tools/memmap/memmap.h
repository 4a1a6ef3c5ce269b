/*
 * memmap.h - the memmap tool's command line and input formats.
 */
#ifndef TOOLS_MEMMAP_H
#define TOOLS_MEMMAP_H

#include <boot/bootmem.h>

enum memmap_format {
	MEMMAP_DETECT,
	MEMMAP_FDT,
	MEMMAP_MULTIBOOT2,
	MEMMAP_PVH,
	MEMMAP_EFI,
};

struct memmap_options {
	const char *file;
	bool regions;
	enum memmap_format format;
	bool have_info_addr;
	phys_addr_t info_addr;
};

/* Return: 0, 1 for --help, or -1 for a usage error (message printed). */
int memmap_parse_options(int argc, char **argv, struct memmap_options *opt);

/*
 * memmap_read - detect the format of @data (unless opt->format is set,
 * which is then updated) and run its reader. Return: as the readers.
 */
int memmap_read(struct memmap_options *opt, const void *data, size_t len,
		struct boot_memmap *map);

const char *memmap_format_name(enum memmap_format format);

#endif /* TOOLS_MEMMAP_H */
