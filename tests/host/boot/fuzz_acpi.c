/*
 * fuzz_acpi.c - libFuzzer target for the ACPI reader. The input is an
 * ACPI snapshot (tests/fixtures/acpi/, seeds the QEMU captures, x86 and
 * Arm, the NUMA ones with SRAT and SLIT among them, and the iasl-compiled
 * machines, made snapshots by machine_snapshot.py), read for CPUs, the
 * GIC (MADT and GTDT) and NUMA; inputs of
 * odd size get every checksum made right first, so that mutations reach
 * the table walks behind them. Any input is read or refused with a
 * message, never read outside the snapshot's records (ASan: each is its
 * own allocation) or misbehaving (UBSan).
 */
#include <stdlib.h>
#include <boot/cpus.h>
#include <boot/gic.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include "acpi_snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct boot_cpus cpus;
static struct boot_gic gic;
static struct boot_numa numa;

/*
 * The GIC the MADT gives (on its own, so that a MADT it refuses still
 * reaches the readers after it): none (-ENOENT, an x86 MADT), a refusal
 * that says why, or a distributor with a GICv2 CPU interface or GICv3
 * redistributor ranges that neither wrap nor overflow redist[], and a
 * virtual timer that is a PPI or 0.
 */
static void read_gic(struct acpi_tables *t)
{
	int err = acpi_madt_gic(t, &gic);

	if (err) {
		if (gic.version || (err != -ENOENT && !t->error[0]))
			abort();	/* refused yet taken, or silently */
		return;
	}
	if (!gic.dist || gic.nr_redist > GIC_MAX_REDIST_REGIONS ||
	    (gic.version == 2 && !gic.cpu_if) ||
	    (gic.version == 3 && (!gic.nr_redist || gic.cpu_if)) ||
	    (gic.version != 2 && gic.version != 3))
		abort();
	for (unsigned int i = 0; i < gic.nr_redist; i++)
		if (!gic.redist[i].base || gic.redist[i].base +
		    gic.redist[i].size <= gic.redist[i].base)
			abort();	/* at 0, empty or wrapping */
	if (gic.vtimer_intid && (gic.vtimer_intid < 16 || gic.vtimer_intid > 31))
		abort();
}

/* SRAT, then SLIT: what is taken must be within its bounds. */
static int read_numa(struct acpi_tables *t)
{
	int err;

	boot_numa_init(&numa, "SRAT");
	err = acpi_srat_read(t, &numa);
	if (err) {
		if (numa.nr_mem || numa.nr_cpu || numa.nr_pxm)
			abort();	/* refused, yet taken in part */
		return err == -ENOENT ? 0 : err;
	}
	if (numa.nr_pxm > MAX_NUMNODES || numa.nr_mem > BOOT_NUMA_MAX_MEM ||
	    numa.nr_cpu > BOOT_NUMA_MAX_CPUS)
		abort();
	for (unsigned int i = 0; i < numa.nr_mem; i++)
		if (numa.mem[i].nid < 0 || numa.mem[i].nid >= (int)numa.nr_pxm ||
		    !numa.mem[i].size ||
		    numa.mem[i].base + numa.mem[i].size < numa.mem[i].base)
			abort();
	for (unsigned int i = 0; i < numa.nr_cpu; i++)
		if (numa.cpu[i].nid < 0 || numa.cpu[i].nid >= (int)numa.nr_pxm)
			abort();
	err = acpi_slit_read(t, &numa);
	if (err && numa.dist_nodes)
		abort();
	return err == -ENOENT ? 0 : err;
}

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
		read_gic(&t);
		err = acpi_madt_cpus(&t, data[size - 1], &cpus);
		if (!err && (cpus.nr < 1 || cpus.nr > NR_CPUS ||
			     cpus.cpu[0].hwid != data[size - 1]))
			abort();
		if (!err)
			err = acpi_find_table(&t, "FACP", 0, &table, &len);
		if (!err && len < ACPI_HEADER_SIZE)
			abort();
		if (!err)
			err = read_numa(&t);
	}
	if (err && !t.error[0])
		abort();	/* every refusal must say why */
	acpi_snapshot_free(&s);
	return 0;
}
