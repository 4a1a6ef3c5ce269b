/*
 * memmap.h - the memmap tool's command line and input formats.
 */
#ifndef TOOLS_MEMMAP_H
#define TOOLS_MEMMAP_H

#include <boot/bootmem.h>
#include <boot/numa.h>

enum memmap_format {
	MEMMAP_DETECT,
	MEMMAP_FDT,
	MEMMAP_MULTIBOOT2,
	MEMMAP_PVH,
	MEMMAP_EFI,
	MEMMAP_SRAT,		/* an ACPI SRAT table dump */
};

struct memmap_options {
	const char *file;
	bool regions;
	enum memmap_format format;
	bool have_info_addr;
	phys_addr_t info_addr;
	const char *srat_file;	/* --srat: nodes for the memory of @file */
	const char *slit_file;	/* --slit: their distances */
	const char *madt_file;	/* --madt: the CPUs */
};

/* Return: 0, 1 for --help, or -1 for a usage error (message printed). */
int memmap_parse_options(int argc, char **argv, struct memmap_options *opt);

/*
 * memmap_read - detect the format of @data (unless opt->format is set,
 * which is then updated) and run its reader; an SRAT also fills @numa.
 * Return: as the readers.
 */
int memmap_read(struct memmap_options *opt, const void *data, size_t len,
		struct boot_memmap *map, struct boot_numa *numa);

const char *memmap_format_name(enum memmap_format format);

/*
 * memmap_acpi_check - the checks of a raw ACPI table file: @sig, a length
 * between the header's and the file's, a zero sum. Return: 0, or
 * -EBADMSG with @error set.
 */
int memmap_acpi_check(const void *data, size_t len, const char *sig,
		      char *error);
/*
 * memmap_madt - check the raw MADT of @len bytes at @data, as
 * memmap_acpi_check() and the kernel's reader do, and keep a copy where
 * the kernel's readers find it (the SRAT's, for GICC Affinity entries).
 * Return: 0, or -EBADMSG (-ENOMEM) with @error set.
 */
int memmap_madt(const void *data, size_t len, char *error);
/*
 * memmap_madt_cpus - the CPUs the kernel would start from the MADT, the
 * first usable one taken for the boot CPU. Return: false without a MADT.
 */
struct boot_cpus;
bool memmap_madt_cpus(struct boot_cpus *cpus);
/* memmap_madt_report - print @cpus (memmap_madt_cpus()'s) and the counts. */
void memmap_madt_report(const struct boot_cpus *cpus);
/*
 * memmap_acpi_table - check the raw ACPI table @sig ("SRAT" or "SLIT") of
 * @len bytes at @data (signature, length, checksum) and read it into
 * @numa (the SRAT first). Return: 0, or -EBADMSG with @error set.
 */
int memmap_acpi_table(const void *data, size_t len, const char *sig,
		      struct boot_numa *numa, char *error);

/* memmap_srat_ranges - an SRAT's ranges as the memory map (memory with
 * its node; hot-pluggable ones listed as not RAM). */
int memmap_srat_ranges(const struct boot_numa *numa, struct boot_memmap *map);

/* memmap_numa_cpus - the CPUs the report lists: the SRAT's, or the device
 * tree's /cpus. Call while @data (the input) is still there. */
void memmap_numa_cpus(const struct memmap_options *opt, const void *data,
		      size_t len, const struct boot_numa *numa);

/* memmap_numa_report - apply the topology to memblock and print the
 * kernel's NUMA summary. */
void memmap_numa_report(const struct boot_numa *numa);

#endif /* TOOLS_MEMMAP_H */
