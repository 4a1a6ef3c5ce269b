/*
 * fuzz_acpi.c - libFuzzer target for the ACPI reader. The input is an
 * ACPI snapshot (tests/fixtures/acpi/, seeds the QEMU captures); inputs of
 * odd size get every checksum made right first, so that mutations reach
 * the table walks behind them. Any input is read or refused with a
 * message, never read outside the snapshot's records (ASan: each is its
 * own allocation) or misbehaving (UBSan).
 */
#include <stdlib.h>
#include <boot/cpus.h>
#include "acpi_snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct boot_cpus cpus;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_snapshot s;
	struct acpi_tables t;
	const uint8_t *table;
	uint32_t len;
	int err;

	if (acpi_snapshot_load(&s, data, size))
		return 0;
	if (size & 1)
		acpi_snapshot_fix_checksums(&s);
	err = acpi_open(&t, &s.src, s.rsdp);
	if (!err) {
		err = acpi_madt_cpus(&t, data[size - 1], &cpus);
		if (!err && (cpus.nr < 1 || cpus.nr > NR_CPUS ||
			     cpus.cpu[0].hwid != data[size - 1]))
			abort();
		if (!err)
			err = acpi_find_table(&t, "FACP", 0, &table, &len);
		if (!err && len < ACPI_HEADER_SIZE)
			abort();
	}
	if (err && !t.error[0])
		abort();	/* every refusal must say why */
	acpi_snapshot_free(&s);
	return 0;
}
