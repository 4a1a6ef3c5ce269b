/*
 * acpi.h - the one ACPI table reader: RSDP -> XSDT or RSDT -> a table by
 * its signature, and what buddyboot reads from the tables (the MADT's
 * CPUs; the SRAT's and SLIT's NUMA topology, include/boot/numa.h).
 *
 * Pure, like the other boot-info readers: it reads physical memory only
 * through a struct acpi_source, which says what is readable, validates
 * every checksum and bounds every length before it uses it, and writes
 * nothing but its own state and the caller's output. The same code runs
 * in the kernel (boot/acpi_phys.c: physical memory as the arch maps it),
 * on the host under ASan/UBSan (tests, fixtures captured from QEMU) and
 * under libFuzzer.
 *
 * Every refusal returns a negative errno and leaves one line in
 * acpi_tables.error naming the table, the field and the address:
 *   -ENOENT   nothing there: no RSDP, no table with that signature;
 *   -EINVAL   malformed: bad signature or checksum, a length smaller than
 *             its header or past what is readable, entries running past
 *             the end of their table, an address range that wraps.
 */
#ifndef BOOT_ACPI_H
#define BOOT_ACPI_H

#include <arch/entry.h>		/* enum boot_protocol */
#include <boot/bootmem.h>	/* BOOT_ERROR_LEN */
#include <boot/cpus.h>		/* enum psci_conduit */
#include <lib/compiler.h>
#include <lib/types.h>

#define ACPI_RSDP_V1_SIZE	20u	/* ACPI 1.0: checksum covers these */
#define ACPI_RSDP_V2_SIZE	36u	/* ACPI 2.0+: the extended checksum */
#define ACPI_HEADER_SIZE	36u	/* every table's common header */
#define ACPI_TABLE_MAX		(16u << 20) /* larger is refused as absurd */

/*
 * struct acpi_source - how the reader reaches physical memory.
 * @map:  a pointer to [@addr, @addr + @len), or NULL when that range is
 *        not readable (not mapped, outside the dump, or wrapping).
 * @base, @size: for buffer sources (acpi_buffer_map), the bytes that
 *        stand for physical addresses [@phys, @phys + @size).
 */
struct acpi_source {
	const void *(*map)(const struct acpi_source *src, uint64_t addr,
			   size_t len);
	const void *base;
	size_t size;
	uint64_t phys;
};

/* acpi_buffer_map - @map for a buffer standing for [phys, phys + size). */
const void *acpi_buffer_map(const struct acpi_source *src, uint64_t addr,
			    size_t len);

/* The root table acpi_open() found, and the last error. */
struct acpi_tables {
	const struct acpi_source *src;
	uint64_t rsdp;
	uint8_t rsdp_revision;	/* 0: ACPI 1.0 (RSDT only); 2: 2.0+ */
	char oem_id[7];		/* the RSDP's, NUL-terminated */
	uint64_t root;		/* the XSDT's address, or the RSDT's */
	bool xsdt;		/* root is an XSDT (8-byte entries) */
	uint32_t nr_entries;	/* table addresses in the root */
	char error[BOOT_ERROR_LEN];
};

/*
 * acpi_open - validate the RSDP at @rsdp and the root table it names.
 * The RSDP: signature "RSD PTR ", the 20-byte checksum; for revision 2
 * and later a length of at least 36 and the extended checksum over it.
 * The XSDT is taken when the RSDP has one (revision >= 2, a non-zero
 * address), else the RSDT; its signature, checksum and length are checked
 * and its entries must fill it exactly.
 * Return: 0, -ENOENT (@rsdp is 0), -EINVAL.
 */
int acpi_open(struct acpi_tables *t, const struct acpi_source *src,
	      uint64_t rsdp);

/*
 * acpi_find_table - the @instance-th table (0 for the first) whose
 * signature is @sig (4 characters, "APIC", "SRAT", ...), its header and
 * checksum validated. Null entries in the root are skipped, as Linux does.
 * Return: 0 with *@table (all of it readable) and *@len set; -ENOENT when
 * the root lists no such table; -EINVAL for a malformed one.
 */
int acpi_find_table(struct acpi_tables *t, const char *sig,
		    unsigned int instance, const uint8_t **table,
		    uint32_t *len);

/*
 * acpi_rsdp_scan - the first valid RSDP (signature and 20-byte checksum,
 * extended checksum too for revision >= 2) at a 16-byte boundary of the
 * @len bytes at @area, which stand for physical address @phys (a multiple
 * of 16). The arch says which areas (the BIOS's, on a PC).
 * Return: its physical address, or 0.
 */
uint64_t acpi_rsdp_scan(const void *area, size_t len, uint64_t phys);

/*
 * acpi_check_entries - walk the entries (u8 type, u8 length, payload) of
 * the @len-byte @table from offset @start on, as the MADT and the SRAT
 * hold them. Refused (-EINVAL, t->error naming the table, the offset, the
 * type and the length): a @len below @start, an entry with no room for
 * its type and length, shorter than those 2 bytes (it would never
 * advance), running past the table, or shorter than @min_len(type).
 * Return: 0 when every entry may be read.
 */
int acpi_check_entries(struct acpi_tables *t, const uint8_t *table,
		       uint32_t len, uint32_t start,
		       uint8_t (*min_len)(uint8_t type));

/* acpi_error - format t->error. Return: @err, for "return acpi_error(...)". */
int acpi_error(struct acpi_tables *t, int err, const char *fmt, ...)
	__printf(3, 4);

/*
 * acpi_madt_cpus - the CPUs of the MADT ("APIC") that @t leads to:
 * Processor Local APIC (type 0) and Local x2APIC (type 9) entries, usable
 * when enabled (flags bit 0) or, from MADT revision 5 on, online-capable
 * (bit 1), started with INIT-SIPI-SIPI; GIC CPU interface (GICC, type 11)
 * entries, usable when enabled, by their MPIDR's affinity bits, started
 * with PSCI through the conduit the FADT names (acpi_fadt_cpus(), which
 * also sets @out->virtual_machine). The boot CPU, by @boot_hwid (APIC id or
 * MPIDR affinity), goes to cpu[0] whatever
 * its flags; if it is not listed, cpu[0] still names it and
 * boot_cpu_found stays false. The rest: APIC ids not usable, the invalid
 * ids 0xff (type 0) and 0xffffffff (type 9), and a second usable entry
 * of an id, are
 * counted in nr_unusable; beyond NR_CPUS, in nr_over.
 * Return: 0, -ENOENT (no MADT), -EINVAL (malformed), with @out filled
 * only on success.
 */
int acpi_madt_cpus(struct acpi_tables *t, unsigned long boot_hwid,
		   struct boot_cpus *out);

/*
 * acpi_madt_open - the MADT of @t, found and its entries checked (each
 * within the table, at least as long as its type needs).
 * Return: 0 with *@madt and *@len set, -ENOENT, -EINVAL.
 */
int acpi_madt_open(struct acpi_tables *t, const uint8_t **madt,
		   uint32_t *len);

/*
 * acpi_madt_gicc_hwid - the MPIDR affinity of the GICC whose ACPI
 * processor UID is @uid, in the MADT @madt of @len bytes that
 * acpi_madt_open() gave (the SRAT names Arm CPUs by UID).
 * Return: true with *@hwid set; false when no GICC has that UID.
 */
bool acpi_madt_gicc_hwid(const uint8_t *madt, uint32_t len, uint32_t uid,
			 unsigned long *hwid);

/*
 * acpi_fadt_cpus - what the FADT of @t, read once, says of the CPUs, into
 * @out: with @gicc (the MADT lists GICCs), @out->psci, the PSCI conduit
 * its ARM boot flags name (HVC or SMC when PSCI compliant;
 * PSCI_CONDUIT_NONE, said in one line, for no FADT, a malformed one, one
 * older than ACPI 5.1, or no PSCI); and @out->virtual_machine, a string
 * constant when the FADT (ACPI 6.0 and later) has a nonzero Hypervisor
 * Vendor Identity, the tables being a virtual machine's, else NULL
 * without a word.
 */
void acpi_fadt_cpus(struct acpi_tables *t, bool gicc, struct boot_cpus *out);

/*
 * acpi_boot_rsdp - kernel only (boot/acpi_phys.c): the RSDP the boot
 * information of @proto at @info names, else the one the arch finds
 * (arch_acpi_rsdp_scan()), else 0. Prints where it came from.
 */
phys_addr_t acpi_boot_rsdp(enum boot_protocol proto, phys_addr_t info);

struct boot_numa;

/*
 * acpi_read_numa - kernel only: acpi_srat_read() and acpi_slit_read() on
 * the tables the RSDP at @rsdp leads to, each outcome in one line.
 * Return: 0 with @numa filled (a refused SLIT leaves default distances),
 * -ENOENT no SRAT, or the SRAT's error; @numa is then empty.
 */
int acpi_read_numa(phys_addr_t rsdp, struct boot_numa *numa);

#endif /* BOOT_ACPI_H */
