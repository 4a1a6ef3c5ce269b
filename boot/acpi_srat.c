/*
 * acpi_srat.c - the System Resource Affinity Table (signature "SRAT",
 * ACPI 6.5, 5.2.16): which proximity domain each memory range and each
 * CPU is in.
 *
 *   header (36 bytes)  36 u32 reserved (1)  40 u64 reserved
 *   48 entries: u8 type, u8 length, payload ...
 *     type 0, Processor Local APIC/SAPIC Affinity (16 bytes):
 *             2 u8 proximity domain [7:0]  3 u8 APIC id  4 u32 flags
 *             8 u8 SAPIC EID  9 u8[3] proximity domain [31:8]
 *     type 1, Memory Affinity (40 bytes): 2 u32 proximity domain
 *             8 u64 base  16 u64 length  28 u32 flags
 *     type 2, Processor Local x2APIC Affinity (24 bytes):
 *             4 u32 proximity domain  8 u32 x2APIC id  12 u32 flags
 *     type 3, GICC Affinity (18 bytes): 2 u32 proximity domain
 *             6 u32 ACPI processor UID  10 u32 flags  14 u32 clock domain
 *             (the CPU is the MADT's GICC of that UID: its MPIDR
 *             affinity is the hwid; a UID the MADT does not list is
 *             skipped, as Linux does)
 *   flags: bit 0 enabled; memory also bit 1 hot-pluggable.
 *   SRAT revision 1 (ACPI 2.0, what QEMU writes) has 8-bit domains: the
 *   upper bytes are read from revision 2 on, as Linux does.
 *
 * Policy: every entry is walked and checked, and the domains collected,
 * before anything is written to the caller's struct; a malformed SRAT
 * leaves it empty. Entries that are not enabled are skipped (QEMU writes
 * a disabled, empty range after the last node), as are other types (GIC
 * ITS, generic initiators: not buddyboot's). Proximity domains become
 * node ids in ascending order (include/boot/numa.h).
 */
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include <lib/string.h>

#define SRAT_ENTRIES		48u
#define SRAT_CPU_APIC		0
#define SRAT_MEMORY		1
#define SRAT_CPU_X2APIC		2
#define SRAT_CPU_GICC		3
#define SRAT_CPU_APIC_LEN	16u
#define SRAT_MEMORY_LEN		40u
#define SRAT_CPU_X2APIC_LEN	24u
#define SRAT_CPU_GICC_LEN	18u
#define SRAT_ENABLED		(1u << 0)
#define SRAT_HOTPLUGGABLE	(1u << 1)

/* One entry, decoded. */
struct srat_entry {
	enum { SRAT_NONE, SRAT_CPU, SRAT_MEM } kind;
	bool enabled, hotplug;
	uint32_t pxm;
	unsigned long hwid;
	uint64_t base, size;
};

/* The MADT, for GICC Affinity entries' UIDs; @madt NULL without one. */
struct srat_madt {
	const uint8_t *madt;
	uint32_t len;
};

static void srat_decode(const uint8_t *e, uint8_t rev,
			const struct srat_madt *m, struct srat_entry *d)
{
	uint32_t flags = 0;

	memset(d, 0, sizeof(*d));
	switch (e[0]) {
	case SRAT_CPU_APIC:
		d->kind = SRAT_CPU;
		d->pxm = e[2];
		if (rev >= 2)
			d->pxm |= (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 |
				  (uint32_t)e[11] << 24;
		d->hwid = e[3];
		flags = load_le32(e + 4);
		break;
	case SRAT_MEMORY:
		d->kind = SRAT_MEM;
		d->pxm = load_le32(e + 2);
		if (rev < 2)
			d->pxm &= 0xff;
		d->base = load_le64(e + 8);
		d->size = load_le64(e + 16);
		flags = load_le32(e + 28);
		d->hotplug = flags & SRAT_HOTPLUGGABLE;
		break;
	case SRAT_CPU_X2APIC:
		d->kind = SRAT_CPU;
		d->pxm = load_le32(e + 4);
		d->hwid = load_le32(e + 8);
		flags = load_le32(e + 12);
		break;
	case SRAT_CPU_GICC:
		if (!m->madt || !acpi_madt_gicc_hwid(m->madt, m->len,
						     load_le32(e + 6),
						     &d->hwid))
			return;		/* SRAT_NONE: no such CPU */
		d->kind = SRAT_CPU;
		d->pxm = load_le32(e + 2);
		flags = load_le32(e + 10);
		break;
	}
	d->enabled = flags & SRAT_ENABLED;
}

/* The payload each entry type buddyboot reads needs. */
static uint8_t srat_min_len(uint8_t type)
{
	switch (type) {
	case SRAT_CPU_APIC:	return SRAT_CPU_APIC_LEN;
	case SRAT_MEMORY:	return SRAT_MEMORY_LEN;
	case SRAT_CPU_X2APIC:	return SRAT_CPU_X2APIC_LEN;
	case SRAT_CPU_GICC:	return SRAT_CPU_GICC_LEN;
	default:		return 2;
	}
}

/* Insert @pxm into the sorted @pxm[*@nr]. Return: false when full. */
static bool pxm_add(uint32_t *pxm, unsigned int *nr, uint32_t v)
{
	unsigned int i = 0;

	while (i < *nr && pxm[i] < v)
		i++;
	if (i < *nr && pxm[i] == v)
		return true;
	if (*nr == MAX_NUMNODES)
		return false;
	memmove(pxm + i + 1, pxm + i, (*nr - i) * sizeof(*pxm));
	pxm[i] = v;
	(*nr)++;
	return true;
}

static int pxm_to_nid(const uint32_t *pxm, unsigned int nr, uint32_t v)
{
	for (unsigned int i = 0; i < nr; i++)
		if (pxm[i] == v)
			return (int)i;
	return NUMA_NO_NODE;	/* not reached: every domain was added */
}

/* Walk and check every entry; collect the enabled entries' domains. */
static int srat_check(struct acpi_tables *t, const uint8_t *srat,
		      uint32_t len, const struct srat_madt *m, uint32_t *pxm,
		      unsigned int *nr_pxm, unsigned int *nr_mem)
{
	int err = acpi_check_entries(t, srat, len, SRAT_ENTRIES, srat_min_len);
	uint8_t rev = srat[8];
	struct srat_entry d;

	if (err)
		return err;
	for (uint32_t at = SRAT_ENTRIES; at < len; at += srat[at + 1]) {
		srat_decode(srat + at, rev, m, &d);
		if (d.kind == SRAT_NONE || !d.enabled)
			continue;
		if (d.kind == SRAT_MEM && d.base + d.size < d.base)
			return acpi_error(t, -EINVAL, "acpi: SRAT entry at "
					  "offset %u: memory range %#llx + "
					  "%#llx wraps past 2^64", at,
					  (unsigned long long)d.base,
					  (unsigned long long)d.size);
		if (d.kind == SRAT_MEM && !d.size)
			continue;
		if (d.kind == SRAT_MEM && ++*nr_mem > BOOT_NUMA_MAX_MEM)
			return acpi_error(t, -EINVAL, "acpi: SRAT has more "
					  "than %u memory ranges",
					  BOOT_NUMA_MAX_MEM);
		if (!pxm_add(pxm, nr_pxm, d.pxm))
			return acpi_error(t, -EINVAL, "acpi: SRAT names more "
					  "than MAX_NUMNODES=%d proximity "
					  "domains (domain %u at offset %u)",
					  MAX_NUMNODES, d.pxm, at);
	}
	return 0;
}

/* Overlapping ranges, or one CPU in two domains: refused. */
static int srat_conflicts(struct acpi_tables *t, const struct boot_numa *n)
{
	for (unsigned int i = 0; i < n->nr_mem; i++)
		for (unsigned int j = i + 1; j < n->nr_mem; j++) {
			const struct boot_numa_mem *a = &n->mem[i],
						   *b = &n->mem[j];

			if (a->base < b->base + b->size &&
			    b->base < a->base + a->size)
				return acpi_error(t, -EINVAL, "acpi: SRAT "
					"memory ranges [%#llx-%#llx] (node "
					"%d) and [%#llx-%#llx] (node %d) "
					"overlap",
					(unsigned long long)a->base,
					(unsigned long long)(a->base + a->size - 1),
					a->nid, (unsigned long long)b->base,
					(unsigned long long)(b->base + b->size - 1),
					b->nid);
		}
	for (unsigned int i = 0; i < n->nr_cpu; i++)
		for (unsigned int j = i + 1; j < n->nr_cpu; j++)
			if (n->cpu[i].hwid == n->cpu[j].hwid &&
			    n->cpu[i].nid != n->cpu[j].nid)
				return acpi_error(t, -EINVAL, "acpi: SRAT puts "
					"CPU %#lx in two proximity "
					"domains (%u and %u)", n->cpu[i].hwid,
					n->pxm[n->cpu[i].nid],
					n->pxm[n->cpu[j].nid]);
	return 0;
}

int acpi_srat_read(struct acpi_tables *t, struct boot_numa *numa)
{
	const uint8_t *srat;
	uint32_t len;
	int err = acpi_find_table(t, "SRAT", 0, &srat, &len);

	return err ?: acpi_srat_parse(t, srat, len, numa);
}

int acpi_srat_parse(struct acpi_tables *t, const uint8_t *srat, uint32_t len,
		    struct boot_numa *numa)
{
	uint32_t pxm[MAX_NUMNODES];
	unsigned int nr_pxm = 0, nr_mem = 0;
	struct srat_madt m = { 0 };
	struct srat_entry d;
	int err;

	/*
	 * Only Arm CPUs need it, and a missing or malformed MADT only
	 * leaves their entries out: look it up through @t when the SRAT
	 * came through an opened root (not a lone table, tools/memmap), and
	 * let its error not stand for the SRAT's.
	 */
	if (!t->src || acpi_madt_open(t, &m.madt, &m.len)) {
		m.madt = NULL;
		t->error[0] = '\0';
	}
	err = srat_check(t, srat, len, &m, pxm, &nr_pxm, &nr_mem);
	if (err)
		return err;

	boot_numa_init(numa, "SRAT");
	memcpy(numa->pxm, pxm, sizeof(pxm));
	numa->nr_pxm = nr_pxm;
	for (uint32_t at = SRAT_ENTRIES; at < len; at += srat[at + 1]) {
		srat_decode(srat + at, srat[8], &m, &d);
		if (d.kind != SRAT_NONE && !d.enabled) {
			numa->nr_disabled++;
			continue;
		}
		if (d.kind == SRAT_MEM && d.size) {
			numa->mem[numa->nr_mem++] = (struct boot_numa_mem){
				.base = d.base, .size = d.size,
				.nid = pxm_to_nid(pxm, nr_pxm, d.pxm),
				.hotplug = d.hotplug,
			};
			numa->nr_hotplug += d.hotplug;
		} else if (d.kind == SRAT_CPU &&
			   numa->nr_cpu == BOOT_NUMA_MAX_CPUS) {
			numa->nr_cpu_over++;
		} else if (d.kind == SRAT_CPU) {
			numa->cpu[numa->nr_cpu++] = (struct boot_numa_cpu){
				.hwid = d.hwid,
				.nid = pxm_to_nid(pxm, nr_pxm, d.pxm),
			};
		}
	}
	err = srat_conflicts(t, numa);
	if (err)
		boot_numa_init(numa, "SRAT");
	return err;
}
