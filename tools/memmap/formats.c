/*
 * formats.c - memmap's command line, and which reader a file goes to.
 *
 * Detection: big-endian 0xd00dfeed at offset 0 is a DTB; little-endian
 * 0x336ec578 at offset 0 is a PVH start_info; anything else is read as a
 * multiboot2 information structure (whose reader refuses it cleanly if it
 * is not one). "EMAP" (0x50414d45 little-endian) at offset 0 is an EFI
 * boot information blob: a raw EFI memory map behind a small header. In a saved PVH file, memmap_paddr and modlist_paddr are
 * offsets inside the file (see README.md).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <boot/abi.h>
#include <boot/bytes.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/readers.h>
#include "memmap.h"


const char *memmap_format_name(enum memmap_format format)
{
	switch (format) {
	case MEMMAP_FDT:	return "device tree blob";
	case MEMMAP_MULTIBOOT2:	return "multiboot2 information";
	case MEMMAP_PVH:	return "PVH start info";
	case MEMMAP_EFI:	return "EFI memory map";
	case MEMMAP_SRAT:	return "ACPI SRAT";
	default:		return "unknown";
	}
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "memmap: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return -1;
}

int memmap_parse_options(int argc, char **argv, struct memmap_options *opt)
{
	static const char *const names[] = { "", "fdt", "multiboot2", "pvh",
					     "efi", "srat" };
	char *end;

	memset(opt, 0, sizeof(*opt));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--regions")) {
			opt->regions = true;
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			a = argv[++i];
			for (unsigned int f = MEMMAP_FDT; f <= MEMMAP_SRAT; f++)
				if (!strcmp(a, names[f]))
					opt->format = f;
			if (opt->format == MEMMAP_DETECT)
				return usage_error("unknown format '%s' (fdt, "
						   "multiboot2, pvh, efi or "
						   "srat)", a);
		} else if ((!strcmp(a, "--info-addr") ||
			    !strcmp(a, "--dtb-addr")) && i + 1 < argc) {
			a = argv[++i];
			errno = 0;
			opt->info_addr = strtoull(a, &end, 0);
			/* strtoull takes "-1" and " 1": an address is digits. */
			if (errno || *end || !isdigit((unsigned char)*a))
				return usage_error("bad address '%s'", a);
			opt->have_info_addr = true;
		} else if (!strcmp(a, "--srat") && i + 1 < argc) {
			opt->srat_file = argv[++i];
		} else if (!strcmp(a, "--slit") && i + 1 < argc) {
			opt->slit_file = argv[++i];
		} else if (!strcmp(a, "--madt") && i + 1 < argc) {
			opt->madt_file = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown or incomplete option '%s'",
					   a);
		} else if (opt->file) {
			return usage_error("more than one file ('%s')", a);
		} else {
			opt->file = a;
		}
	}
	if (!opt->file)
		return usage_error("%s", "no FILE given");
	return 0;
}

int memmap_read(struct memmap_options *opt, const void *data, size_t len,
		struct boot_memmap *map, struct boot_numa *numa)
{
	struct pvh_source pvh = {
		.map = pvh_buffer_map, .base = data, .size = len, .physical = false,
	};
	bool guessed = opt->format == MEMMAP_DETECT;
	char why[BOOT_ERROR_LEN];
	int err;

	if (guessed) {
		if (len >= 4 && load_be32(data) == FDT_MAGIC)
			opt->format = MEMMAP_FDT;
		else if (len >= 4 && load_le32(data) == PVH_MAGIC)
			opt->format = MEMMAP_PVH;
		else if (len >= 4 && load_le32(data) == EFI_BOOT_INFO_MAGIC)
			opt->format = MEMMAP_EFI;
		else if (len >= 4 && !memcmp(data, "SRAT", 4))
			opt->format = MEMMAP_SRAT;
		else
			opt->format = MEMMAP_MULTIBOOT2;
	}
	switch (opt->format) {
	case MEMMAP_FDT:
		return fdt_memory_parse(data, len, map);
	case MEMMAP_PVH:
		return pvh_memory_parse(&pvh, 0, map);
	case MEMMAP_EFI:
		return efi_memmap_parse(data, len, map);
	case MEMMAP_SRAT:
		err = memmap_acpi_table(data, len, "SRAT", numa, map->error);
		return err ?: memmap_srat_ranges(numa, map);
	default:
		err = multiboot2_memory_parse(data, len, map);
		if (err == -EBADMSG && guessed) {
			memcpy(why, map->error, sizeof(why));
			bootmem_error(map, err, "not a device tree (magic "
				      "0xd00dfeed), a PVH start_info (magic "
				      "0x336ec578) nor an EFI map (\"EMAP\"); "
				      "as multiboot2: %s", why);
		}
		return err;
	}
}
