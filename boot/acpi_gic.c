/*
 * acpi_gic.c - the GIC the MADT describes (ACPI 6.5, 5.2.12.14-17) and
 * the virtual timer's interrupt the GTDT names (5.2.25):
 *
 *   MADT type 11, GICC (76 bytes at least): 12 u32 flags (bit 0
 *           enabled), 32 u64 GICv2 CPU interface, 60 u64 GICR frame
 *           (GICv3, when there are no GICR entries)
 *   MADT type 12, GICD (24 bytes): 8 u64 base, 20 u8 GIC version (0:
 *           ask the hardware, 1 to 4)
 *   MADT type 14, GICR (16 bytes): 4 u64 discovery range base, 12 u32
 *           its length
 *   GTDT: 64 u32 the virtual EL1 timer's GSIV
 *
 * A GICD with version 0 is a GICv3 when the MADT gives redistributors
 * (GICR entries or GICC frames), else a GICv2; a GICv4 is driven as a
 * GICv3. Refused, with @out->version 0: no or two GICDs, a GICv1, a GICv2
 * with no CPU interface, a GICv3 with no redistributor, an entry too
 * short for its fields (the whole MADT's shape is acpi_madt_open()'s).
 */
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/gic.h>
#include <lib/errno.h>
#include <lib/string.h>

#define MADT_ENTRIES		44u
#define MADT_GICC		11
#define MADT_GICD		12
#define MADT_GICR		14
#define MADT_GICC_LEN		76u
#define MADT_GICC_FLAGS		12u
#define MADT_GICC_CPU_IF	32u
#define MADT_GICC_GICR		60u
#define MADT_GICD_LEN		24u
#define MADT_GICD_BASE		8u
#define MADT_GICD_VERSION	20u
#define MADT_GICR_LEN		16u
#define MADT_GICR_BASE		4u
#define MADT_GICR_LENGTH	12u
#define MADT_ENABLED		(1u << 0)
#define GTDT_VTIMER_GSIV	64u

static int gic_refuse(struct acpi_tables *t, struct boot_gic *out,
		      const char *why, uint32_t at)
{
	out->version = 0;
	return acpi_error(t, -EINVAL, "acpi: MADT: %s (entry at offset %u)",
			  why, at);
}

static int add_redist(struct acpi_tables *t, struct boot_gic *out,
		      uint64_t base, uint64_t size, uint32_t at)
{
	if (!base || !size || base + size < base)
		return gic_refuse(t, out, "a redistributor range is empty, "
				  "at 0, or wraps", at);
	if (out->nr_redist == GIC_MAX_REDIST_REGIONS)
		return gic_refuse(t, out, "more redistributor ranges than "
				  "GIC_MAX_REDIST_REGIONS", at);
	out->redist[out->nr_redist++] = (struct gic_region){ base, size };
	return 0;
}

/* The virtual timer's INTID: the GTDT's, if a PPI (16 to 31). */
static unsigned int gtdt_vtimer(struct acpi_tables *t)
{
	const uint8_t *gtdt;
	uint32_t len, gsiv;

	if (acpi_find_table(t, "GTDT", 0, &gtdt, &len) ||
	    len < GTDT_VTIMER_GSIV + 4) {
		/* No GTDT, or one not to trust: as if it said nothing. */
		t->error[0] = '\0';
		return GIC_VTIMER_INTID_DEFAULT;
	}
	gsiv = load_le32(gtdt + GTDT_VTIMER_GSIV);
	return gsiv >= 16 && gsiv < 32 ? gsiv : 0;
}

int acpi_madt_gic(struct acpi_tables *t, struct boot_gic *out)
{
	const uint8_t *madt, *e;
	unsigned int gicd = 0, version = 0;
	bool gicr_entries = false;
	uint32_t len;
	int err;

	memset(out, 0, sizeof(*out));
	out->source = "MADT";
	err = acpi_madt_open(t, &madt, &len);
	if (err)
		return err;
	for (uint32_t at = MADT_ENTRIES; at < len; at += madt[at + 1]) {
		e = madt + at;
		if (e[0] == MADT_GICD) {
			if (e[1] < MADT_GICD_LEN)
				return gic_refuse(t, out, "GICD entry shorter "
						  "than 24 bytes", at);
			if (gicd++)
				return gic_refuse(t, out, "a second GICD", at);
			out->dist = load_le64(e + MADT_GICD_BASE);
			version = e[MADT_GICD_VERSION];
		} else if (e[0] == MADT_GICR) {
			if (e[1] < MADT_GICR_LEN)
				return gic_refuse(t, out, "GICR entry shorter "
						  "than 16 bytes", at);
			gicr_entries = true;
			err = add_redist(t, out, load_le64(e + MADT_GICR_BASE),
					 load_le32(e + MADT_GICR_LENGTH), at);
			if (err)
				return err;
		}
	}
	if (!gicd)
		return -ENOENT;		/* no GIC: an x86 MADT */
	if (!out->dist)
		return gic_refuse(t, out, "the GICD's base is 0", MADT_ENTRIES);
	if (version == 1 || version > 4)
		return gic_refuse(t, out, version == 1 ? "a GICv1 (this "
				  "port drives GICv2 and GICv3)" :
				  "a GICD version above 4", MADT_ENTRIES);

	/* Enabled GICCs: the GICv2 CPU interface, or GICv3 frames. */
	for (uint32_t at = MADT_ENTRIES; at < len; at += madt[at + 1]) {
		uint64_t frame;

		e = madt + at;
		if (e[0] != MADT_GICC ||
		    !(load_le32(e + MADT_GICC_FLAGS) & MADT_ENABLED))
			continue;	/* acpi_madt_open() checked its length */
		if (!out->cpu_if)
			out->cpu_if = load_le64(e + MADT_GICC_CPU_IF);
		frame = load_le64(e + MADT_GICC_GICR);
		if (!gicr_entries && frame && version != 2) {
			err = add_redist(t, out, frame, GICR_FRAME_SIZE, at);
			if (err)
				return err;
		}
	}
	out->version = version ? (version == 2 ? 2 : 3) :
				 (out->nr_redist ? 3 : 2);
	if (out->version == 2 && !out->cpu_if)
		return gic_refuse(t, out, "a GICv2 and no enabled GICC with "
				  "its CPU interface", MADT_ENTRIES);
	if (out->version == 3 && !out->nr_redist)
		return gic_refuse(t, out, "a GICv3 and no redistributor (no "
				  "GICR entry, no GICC frame)", MADT_ENTRIES);
	if (out->version == 3)
		out->cpu_if = 0;	/* system registers, not MMIO */
	else
		out->nr_redist = 0;	/* a GICv2 has none */
	out->vtimer_intid = gtdt_vtimer(t);
	return 0;
}
