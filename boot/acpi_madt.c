/*
 * acpi_madt.c - the CPUs of the MADT (signature "APIC", ACPI 6.5, 5.2.12):
 *
 *   header (36 bytes)  36 u32 local APIC address  40 u32 flags
 *   44 entries: u8 type, u8 length, payload ...
 *     type 0, Processor Local APIC (8 bytes): 2 u8 processor UID,
 *             3 u8 APIC id, 4 u32 flags
 *     type 9, Local x2APIC (16 bytes): 2 u16 reserved, 4 u32 x2APIC id,
 *             8 u32 flags, 12 u32 processor UID
 *     type 11, GIC CPU interface, GICC (76 bytes in ACPI 5.1, 80 from
 *             6.0, 82 in 6.5): 4 u32 CPU interface number, 8 u32
 *             processor UID, 12 u32 flags, ..., 68 u64 MPIDR
 *   flags: bit 0 enabled; for types 0 and 9, bit 1 online-capable, from
 *   MADT revision 5 on (reserved, so ignored, before). A GICC's
 *   online-capable bit (bit 3, ACPI 6.5) marks a CPU that is not there
 *   at boot but may be added later, which buddyboot does not do: only
 *   enabled GICCs are started.
 *
 * A local APIC is started with INIT-SIPI-SIPI (x86_64), a GICC with PSCI
 * CPU_ON (aarch64) by its MPIDR's affinity bits, through the conduit the
 * FADT's ARM boot flags name (acpi_fadt_cpus()). No firmware lists both.
 *
 * Policy: the whole entry list is walked and checked before anything is
 * written to the caller's list, so a malformed MADT changes nothing. An
 * entry shorter than 2 bytes (it would never advance), running past the
 * table, or shorter than its type's payload is refused. Other entry types
 * (I/O APICs, overrides, NMI sources) are skipped: buddyboot only starts
 * CPUs. A CPU that is neither enabled nor online-capable is not started,
 * as in Linux's acpi_is_processor_usable() for revision 5; the same for
 * an id the ACPI specification calls invalid and for a second usable
 * entry of an id.
 */
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/cpus.h>
#include <lib/errno.h>
#include <lib/string.h>

#define MADT_ENTRIES		44u
#define MADT_LOCAL_APIC		0
#define MADT_LOCAL_X2APIC	9
#define MADT_GICC		11
#define MADT_LOCAL_APIC_LEN	8u
#define MADT_LOCAL_X2APIC_LEN	16u
#define MADT_GICC_LEN		76u	/* ACPI 5.1's, which ends with the MPIDR */
#define MADT_GICC_MPIDR		68u
#define MPIDR_AFFINITY_BITS	0xff00ffffffULL	/* Aff3, Aff2..Aff0 */
#define MADT_ENABLED		(1u << 0)
#define MADT_ONLINE_CAPABLE	(1u << 1)
#define MADT_ONLINE_CAPABLE_REV	5	/* bit 1 means something from here */
#define APIC_ID_INVALID		0xffu
#define X2APIC_ID_INVALID	0xffffffffu

struct madt_cpu {
	unsigned long id;
	enum cpu_enable_method method;
	bool usable;
	bool valid;
};

/*
 * madt_entry - the CPU the checked entry at @e describes, in a MADT of
 * revision @rev.
 * Return: true for a CPU entry, with *@cpu set.
 */
static bool madt_entry(const uint8_t *e, uint8_t rev, struct madt_cpu *cpu)
{
	uint32_t flags;

	cpu->method = CPU_ENABLE_INIT_SIPI;
	switch (e[0]) {
	case MADT_LOCAL_APIC:
		cpu->id = e[3];
		cpu->valid = e[3] != APIC_ID_INVALID;
		flags = load_le32(e + 4);
		break;
	case MADT_LOCAL_X2APIC:
		cpu->id = load_le32(e + 4);
		cpu->valid = load_le32(e + 4) != X2APIC_ID_INVALID;
		flags = load_le32(e + 8);
		break;
	case MADT_GICC:
		cpu->id = (unsigned long)(load_le64(e + MADT_GICC_MPIDR) &
					  MPIDR_AFFINITY_BITS);
		cpu->method = CPU_ENABLE_PSCI;
		cpu->valid = true;
		cpu->usable = load_le32(e + 12) & MADT_ENABLED;
		return true;
	default:
		return false;
	}
	cpu->usable = cpu->valid && ((flags & MADT_ENABLED) ||
		      (rev >= MADT_ONLINE_CAPABLE_REV &&
		       (flags & MADT_ONLINE_CAPABLE)));
	return true;
}

/* The payload each CPU entry needs; other types only their header. */
static uint8_t madt_min_len(uint8_t type)
{
	switch (type) {
	case MADT_LOCAL_APIC:	return MADT_LOCAL_APIC_LEN;
	case MADT_LOCAL_X2APIC:	return MADT_LOCAL_X2APIC_LEN;
	case MADT_GICC:		return MADT_GICC_LEN;
	default:		return 2;
	}
}

/* An id usable before entry @upto? (quadratic, but MADTs are short) */
static bool madt_seen(const uint8_t *madt, uint32_t upto, uint8_t rev,
		      unsigned long id)
{
	struct madt_cpu cpu;

	for (uint32_t at = MADT_ENTRIES; at < upto; at += madt[at + 1])
		if (madt_entry(madt + at, rev, &cpu) && cpu.usable &&
		    cpu.id == id)
			return true;
	return false;
}

int acpi_madt_open(struct acpi_tables *t, const uint8_t **madt,
		   uint32_t *len)
{
	int err = acpi_find_table(t, "APIC", 0, madt, len);

	return err ?: acpi_check_entries(t, *madt, *len, MADT_ENTRIES,
					 madt_min_len);
}

bool acpi_madt_gicc_hwid(const uint8_t *madt, uint32_t len, uint32_t uid,
			 unsigned long *hwid)
{
	struct madt_cpu cpu;

	for (uint32_t at = MADT_ENTRIES; at < len; at += madt[at + 1]) {
		if (madt[at] != MADT_GICC || load_le32(madt + at + 8) != uid)
			continue;
		madt_entry(madt + at, madt[8], &cpu);
		*hwid = cpu.id;
		return true;
	}
	return false;
}

int acpi_madt_cpus(struct acpi_tables *t, unsigned long boot_hwid,
		   struct boot_cpus *out)
{
	const uint8_t *madt;
	bool gicc = false;
	struct madt_cpu cpu;
	uint32_t len;
	uint8_t rev;
	int err;

	err = acpi_madt_open(t, &madt, &len);
	if (err)
		return err;
	rev = madt[8];

	/* cpu[0] is the boot CPU, listed or not, usable or not: it runs. */
	memset(out, 0, sizeof(*out));
	out->nr = 1;
	out->cpu[0] = (struct cpu_desc){ .hwid = boot_hwid,
					 .method = CPU_ENABLE_NONE,
					 .node = -1 };
	for (uint32_t at = MADT_ENTRIES; at < len; at += madt[at + 1]) {
		if (!madt_entry(madt + at, rev, &cpu))
			continue;
		gicc |= cpu.method == CPU_ENABLE_PSCI;
		if (cpu.valid && cpu.id == boot_hwid) {
			if (out->boot_cpu_found)
				out->nr_unusable++; /* listed twice */
			out->boot_cpu_found = true;
			continue;
		}
		if (!cpu.usable || madt_seen(madt, at, rev, cpu.id)) {
			out->nr_unusable++;
			continue;
		}
		if (out->nr == NR_CPUS) {
			out->nr_over++;
			continue;
		}
		out->cpu[out->nr++] = (struct cpu_desc){
			.hwid = cpu.id,
			.method = cpu.method,
			.node = -1,
		};
	}
	acpi_fadt_cpus(t, gicc, out);
	return 0;
}
