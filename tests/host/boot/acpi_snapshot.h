/*
 * acpi_snapshot.h - ACPI tables as a file: the RSDP's address and the
 * physical memory ranges that hold the tables (captured from QEMU by
 * tests/fixtures/acpi/capture-qemu.py, whose docstring gives the format),
 * read back as a struct acpi_source for the ACPI reader.
 */
#ifndef TESTS_HOST_BOOT_ACPI_SNAPSHOT_H
#define TESTS_HOST_BOOT_ACPI_SNAPSHOT_H

#include <boot/acpi.h>

#define ACPI_SNAPSHOT_MAX_RECORDS 64

struct acpi_snapshot {
	struct acpi_source src;		/* first: map() finds the rest */
	uint64_t rsdp;
	unsigned int nr;
	struct {
		uint64_t addr;
		uint64_t len;
		uint8_t *bytes;		/* a heap copy: ASan sees its ends */
	} rec[ACPI_SNAPSHOT_MAX_RECORDS];
};

/*
 * acpi_snapshot_load - read the @size bytes at @data. Records that
 * overlap, wrap or run past @size are refused.
 * Return: 0, or -1 for a malformed file.
 */
int acpi_snapshot_load(struct acpi_snapshot *s, const uint8_t *data,
		       size_t size);

/* acpi_snapshot_file - the same from a file. Return: as above. */
int acpi_snapshot_file(struct acpi_snapshot *s, const char *path);

/*
 * acpi_snapshot_fix_checksums - make every checksum right again (the RSDP
 * and each record that starts with a table header), so that a fuzzer's
 * mutations reach the code behind the checksums.
 */
void acpi_snapshot_fix_checksums(struct acpi_snapshot *s);

void acpi_snapshot_free(struct acpi_snapshot *s);

#endif /* TESTS_HOST_BOOT_ACPI_SNAPSHOT_H */
