/*
 * acpi.c - memmap's raw ACPI table dumps (what /sys/firmware/acpi/tables/
 * holds, or `acpidump -b` writes as apic.dat, srat.dat, slit.dat): each
 * file's own checks (signature, length, checksum), then the kernel's
 * readers.
 *
 * A MADT (--madt) is put behind an RSDP and an XSDT of memmap's own, in a
 * buffer, so that the kernel's readers find it through acpi_open() and
 * acpi_find_table() as they do at boot: acpi_madt_cpus() lists the CPUs,
 * and acpi_srat_parse() looks up the processor UID of each SRAT GICC
 * Affinity entry in it (without a MADT those CPUs are skipped, as the
 * kernel skips a UID the MADT does not list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/cpus.h>
#include <lib/errno.h>
#include "host.h"
#include "memmap.h"

/*
 * The image: RSDP (revision 2, 36 bytes), XSDT (one entry), MADT, each
 * 8-byte aligned, as if at IMAGE_PHYS: an address no table names, so a
 * table entry pointing elsewhere is not readable, as on a machine.
 */
#define IMAGE_PHYS	0x10000u
#define IMAGE_RSDP	0u
#define IMAGE_XSDT	40u
#define IMAGE_MADT	(IMAGE_XSDT + ACPI_HEADER_SIZE + 8u)

static uint8_t *image;
static struct acpi_source image_src;
static struct acpi_tables image_tables;
static bool have_madt;

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* The byte that makes @p[0..@len) sum to 0 when stored at @p[@at]. */
static void fix_checksum(uint8_t *p, size_t len, size_t at)
{
	uint8_t sum = 0;

	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		sum += p[i];
	p[at] = (uint8_t)-sum;
}

int memmap_acpi_check(const void *data, size_t len, const char *sig,
		      char *error)
{
	const uint8_t *p = data;
	uint8_t sum = 0;
	uint32_t n;

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
	return 0;
}

int memmap_madt(const void *data, size_t len, char *error)
{
	const uint8_t *madt;
	uint32_t n, madt_len;
	int err = memmap_acpi_check(data, len, "APIC", error);

	if (err)
		return err;
	n = load_le32((const uint8_t *)data + 4);
	free(image);
	image = calloc(1, IMAGE_MADT + n);
	if (!image) {
		snprintf(error, BOOT_ERROR_LEN, "no memory for the MADT");
		return -ENOMEM;
	}
	memcpy(image + IMAGE_RSDP, "RSD PTR ", 8);
	memcpy(image + IMAGE_RSDP + 9, "MEMMAP", 6);
	image[IMAGE_RSDP + 15] = 2;			/* revision: XSDT */
	put_le32(image + IMAGE_RSDP + 20, ACPI_RSDP_V2_SIZE);
	put_le64(image + IMAGE_RSDP + 24, IMAGE_PHYS + IMAGE_XSDT);
	fix_checksum(image + IMAGE_RSDP, ACPI_RSDP_V1_SIZE, 8);
	fix_checksum(image + IMAGE_RSDP, ACPI_RSDP_V2_SIZE, 32);
	memcpy(image + IMAGE_XSDT, "XSDT", 4);
	put_le32(image + IMAGE_XSDT + 4, ACPI_HEADER_SIZE + 8);
	image[IMAGE_XSDT + 8] = 1;
	memcpy(image + IMAGE_XSDT + 10, "MEMMAP", 6);
	put_le64(image + IMAGE_XSDT + ACPI_HEADER_SIZE,
		 IMAGE_PHYS + IMAGE_MADT);
	fix_checksum(image + IMAGE_XSDT, ACPI_HEADER_SIZE + 8, 9);
	memcpy(image + IMAGE_MADT, data, n);
	image_src = (struct acpi_source){ .map = acpi_buffer_map,
					  .base = image,
					  .size = IMAGE_MADT + n,
					  .phys = IMAGE_PHYS };
	/* The kernel's own opening and entry checks, with its messages. */
	err = acpi_open(&image_tables, &image_src, IMAGE_PHYS + IMAGE_RSDP);
	err = err ?: acpi_madt_open(&image_tables, &madt, &madt_len);
	if (err) {
		snprintf(error, BOOT_ERROR_LEN, "%s", image_tables.error);
		return -EBADMSG;
	}
	have_madt = true;
	return 0;
}

int memmap_acpi_table(const void *data, size_t len, const char *sig,
		      struct boot_numa *numa, char *error)
{
	/* Without a MADT, no tables: GICC Affinity entries are skipped. */
	struct acpi_tables none = { 0 }, *t = have_madt ? &image_tables : &none;
	const uint8_t *p = data;
	int err = memmap_acpi_check(data, len, sig, error);

	if (err)
		return err;
	err = !strcmp(sig, "SRAT") ?
	      acpi_srat_parse(t, p, load_le32(p + 4), numa) :
	      acpi_slit_parse(t, p, load_le32(p + 4), numa);
	if (err) {
		snprintf(error, BOOT_ERROR_LEN, "%s", t->error);
		return -EBADMSG;
	}
	return 0;
}

bool memmap_madt_cpus(struct boot_cpus *cpus)
{
	unsigned long boot = ~0UL;	/* no CPU's id: every one is listed */
	int err;

	if (!have_madt)
		return false;
	/*
	 * A file does not say which CPU boots: the first usable one the
	 * MADT lists (where ACPI asks firmware to put the boot processor)
	 * is taken for it, and the list made again as the kernel would make
	 * it on that CPU.
	 */
	host_console_set_quiet(true);	/* the kernel's "no FADT" note */
	if (acpi_madt_cpus(&image_tables, boot, cpus) == 0 && cpus->nr > 1)
		boot = cpus->cpu[1].hwid;
	err = acpi_madt_cpus(&image_tables, boot, cpus);
	host_console_set_quiet(false);
	if (err) {	/* not reached: memmap_madt() checked the entries */
		cpus->nr = 0;
		return false;
	}
	if (!cpus->boot_cpu_found)
		cpus->nr = 0;	/* no usable CPU at all */
	return true;
}

static const char *method_name(enum cpu_enable_method m)
{
	switch (m) {
	case CPU_ENABLE_NONE:		return "the boot CPU";
	case CPU_ENABLE_PSCI:		return "PSCI CPU_ON";
	case CPU_ENABLE_INIT_SIPI:	return "INIT-SIPI-SIPI";
	default:			return "?";
	}
}

void memmap_madt_report(const struct boot_cpus *cpus)
{
	printf("\nCPUs (from the MADT), as the kernel would start them:\n");
	printf("acpi: MADT revision %u: %u CPUs usable, %u not, %u beyond "
	       "NR_CPUS=%u\n", image[IMAGE_MADT + 8], cpus->nr,
	       cpus->nr_unusable, cpus->nr_over, NR_CPUS);
	for (unsigned int i = 0; i < cpus->nr; i++)
		printf("cpu %u: hwid 0x%lx, %s\n", i, cpus->cpu[i].hwid,
		       method_name(cpus->cpu[i].method));
}
