/*
 * test_acpi.c - the ACPI reader: QEMU's real tables (q35 and pc, -smp 8,
 * captured by tests/fixtures/acpi/capture-qemu.py), tables built here for
 * what QEMU does not produce (RSDP revision 2 and the XSDT, x2APIC
 * entries, online-capable CPUs, more CPUs than NR_CPUS), Arm's tables
 * (GICC entries, the FADT's PSCI flags, SRAT GICC affinity, the GIC that
 * the MADT's GICD, GICR and GICC entries and the GTDT's virtual timer
 * give: boot/acpi_gic.c), and a named refusal for each malformed input.
 *
 * usage: test-acpi FIXTURE_DIR
 *
 * Built tables live in one buffer standing for physical memory at
 * PHYS_BASE; each is exactly as long as it says, so ASan catches a read
 * past a table that its bounds checks let through only where the buffer
 * ends (the tests that need that put the table at the end).
 */
#include <stdlib.h>
#include <boot/acpi.h>
#include <boot/cpus.h>
#include <boot/gic.h>
#include <boot/numa.h>
#include <boot/readers.h>
#include "acpi_snapshot.h"
#include "boot_test.h"

#define PHYS_BASE	0x100000ULL
#define MEM_SIZE	0x10000u

static const char *fixture_dir;
static uint8_t mem[MEM_SIZE];
static size_t used;
static struct acpi_source src;
static struct acpi_tables t;
static struct boot_cpus cpus;

/* ---- Building tables ------------------------------------------------- */

static void reset(void)
{
	memset(mem, 0, sizeof(mem));
	used = 0;
	src = (struct acpi_source){ .map = acpi_buffer_map, .base = mem,
				    .size = MEM_SIZE, .phys = PHYS_BASE };
}

static uint64_t phys(size_t off)
{
	return PHYS_BASE + off;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* A table with @sig, @rev and @body; checksum right. Return: its offset. */
static size_t table(const char *sig, uint8_t rev, const void *body,
		    size_t body_len)
{
	size_t off = ALIGN_UP(used, 16);
	uint8_t *h = mem + off;

	memcpy(h, sig, 4);
	put32(h + 4, 36 + body_len);
	h[8] = rev;
	memcpy(h + 10, "BBTEST", 6);
	memcpy(h + 36, body, body_len);
	h[9] = -sum(h, 36 + body_len);
	used = off + 36 + body_len;
	return off;
}

static void fix_table(size_t off)
{
	uint32_t len;

	memcpy(&len, mem + off + 4, 4);
	mem[off + 9] = 0;
	mem[off + 9] = -sum(mem + off, len);
}

/* A root table (RSDT or XSDT) of @n entries at the given offsets. */
static size_t root(const char *sig, const size_t *offs, unsigned int n)
{
	uint8_t body[8 * 16] = { 0 };
	size_t esz = sig[0] == 'X' ? 8 : 4;

	for (unsigned int i = 0; i < n; i++) {
		if (esz == 8)
			put64(body + 8 * i, offs[i] ? phys(offs[i]) : 0);
		else
			put32(body + 4 * i, offs[i] ? phys(offs[i]) : 0);
	}
	return table(sig, 1, body, esz * n);
}

/* The RSDP: revision @rev, at offset @off (16-byte aligned). */
static void rsdp_at(size_t off, uint8_t rev, uint64_t rsdt, uint64_t xsdt)
{
	uint8_t *p = mem + off;

	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "BBTEST", 6);
	p[15] = rev;
	put32(p + 16, rsdt);
	if (rev >= 2) {
		put32(p + 20, 36);
		put64(p + 24, xsdt);
	}
	p[8] = -sum(p, 20);
	if (rev >= 2)
		p[32] = -sum(p, 36);
	if (used < off + 36)
		used = off + 36;
}

#define RSDP_OFF	0x0

/* MADT bodies: the local APIC address and flags, then entries. */
static uint8_t madt_body[4096];
static size_t madt_len;

static void madt_begin(void)
{
	memset(madt_body, 0, sizeof(madt_body));
	put32(madt_body, 0xfee00000);
	put32(madt_body + 4, 1);
	madt_len = 8;
}

/* A zeroed entry of @type and @len bytes at the end of @body (*@end). */
static uint8_t *entry_add(uint8_t *body, size_t *end, uint8_t type,
			  uint8_t len)
{
	uint8_t *e = body + *end;

	memset(e, 0, len);
	e[0] = type;
	e[1] = len;
	*end += len;
	return e;
}

static uint8_t *madt_add(uint8_t type, uint8_t len)
{
	return entry_add(madt_body, &madt_len, type, len);
}

static void lapic(uint8_t id, uint32_t flags)
{
	uint8_t *e = madt_add(0, 8);

	e[2] = id;
	e[3] = id;
	put32(e + 4, flags);
}

static void x2apic(uint32_t id, uint32_t flags)
{
	uint8_t *e = madt_add(9, 16);

	put32(e + 4, id);
	put32(e + 8, flags);
	put32(e + 12, id);
}

static void io_apic(void)
{
	put32(madt_add(1, 12) + 4, 0xfec00000);
}

/* RSDP revision 2 -> XSDT -> the MADT built (revision @rev). */
static size_t build_v2(uint8_t rev)
{
	size_t madt, xsdt;

	reset();
	used = 64;
	madt = table("APIC", rev, madt_body, madt_len);
	xsdt = root("XSDT", &madt, 1);
	rsdp_at(RSDP_OFF, 2, 0, phys(xsdt));
	return madt;
}

static int read_cpus(unsigned long boot)
{
	int err = acpi_open(&t, &src, phys(RSDP_OFF));

	return err ?: acpi_madt_cpus(&t, boot, &cpus);
}

#define EXPECT_ACPI_ERROR(err, want, needle)				\
	EXPECT((err) == (want) && strstr(t.error, needle),		\
	       "error %d \"%s\", expected %d with \"%s\"", err,		\
	       t.error, want, needle)

/* ---- QEMU's own tables ------------------------------------------------ */

static bool read_fixture(const char *name, struct acpi_snapshot *s)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
	return acpi_snapshot_file(s, path) == 0;
}

static bool qemu_cpus(const char *name)
{
	struct acpi_snapshot s;
	const uint8_t *facp;
	uint32_t len;
	int err;

	EXPECT(read_fixture(name, &s), "cannot read %s", name);
	err = acpi_open(&t, &s.src, s.rsdp);
	EXPECT(err == 0, "%s", t.error);
	EXPECT(t.rsdp_revision == 0 && !t.xsdt && !strcmp(t.oem_id, "BOCHS "),
	       "revision %u, xsdt %d, OEM '%s'", t.rsdp_revision, t.xsdt,
	       t.oem_id);
	EXPECT(acpi_find_table(&t, "FACP", 0, &facp, &len) == 0 && len >= 116,
	       "%s", t.error);
	EXPECT(acpi_find_table(&t, "SRAT", 0, &facp, &len) == -ENOENT,
	       "%s", t.error);
	for (unsigned long boot = 0; boot < 8; boot += 3) {
		err = acpi_madt_cpus(&t, boot, &cpus);
		EXPECT(err == 0, "%s", t.error);
		EXPECT(cpus.nr == 8 && cpus.boot_cpu_found &&
		       !cpus.nr_unusable && !cpus.nr_over,
		       "nr %u found %d unusable %u over %u", cpus.nr,
		       cpus.boot_cpu_found, cpus.nr_unusable, cpus.nr_over);
		EXPECT(cpus.cpu[0].hwid == boot &&
		       cpus.cpu[0].method == CPU_ENABLE_NONE,
		       "cpu[0] = %lu", cpus.cpu[0].hwid);
		for (unsigned int i = 1, id = 0; i < 8; i++, id++) {
			id += id == boot;
			EXPECT(cpus.cpu[i].hwid == id &&
			       cpus.cpu[i].method == CPU_ENABLE_INIT_SIPI &&
			       cpus.cpu[i].node == -1, "cpu[%u] = %lu", i,
			       cpus.cpu[i].hwid);
		}
	}
	acpi_snapshot_free(&s);
	return true;
}

static bool qemu_q35_smp8(void)
{
	return qemu_cpus("acpi-q35-smp8.bin");
}

static bool qemu_pc_smp8(void)
{
	return qemu_cpus("acpi-pc-smp8.bin");
}

/*
 * QEMU's aarch64 virt under AAVMF, GICv2 with 2 CPUs and GICv3 with 4
 * (capture-qemu.py). The expected values are `iasl -d`'s reading of the
 * fixtures' APIC, GTDT and FACP: GICD base 0x8000000, version 2 or 3;
 * the GICv2's GICC base address 0x8010000; the GICv3's GICR 0x80a0000
 * of length 0xf60000; GICCs enabled, ARM MPIDR 0 to n - 1; the GTDT's
 * virtual timer interrupt 0x1b; the FADT's ARM flags "PSCI compliant,
 * must use HVC".
 */
static bool qemu_virt_arm(void)
{
	static const struct {
		const char *name;
		unsigned int nr, version;
		uint64_t cpu_if, redist, redist_size;
	} fixtures[] = {
		{ "acpi-virt-gicv2-smp2.bin", 2, 2, 0x8010000, 0, 0 },
		{ "acpi-virt-gicv3-smp4.bin", 4, 3, 0, 0x80a0000, 0xf60000 },
	};

	for (unsigned int f = 0; f < ARRAY_SIZE(fixtures); f++) {
		struct acpi_snapshot s;
		struct boot_gic gic;
		int err;

		EXPECT(read_fixture(fixtures[f].name, &s), "cannot read %s",
		       fixtures[f].name);
		err = acpi_open(&t, &s.src, s.rsdp);
		EXPECT(err == 0 && t.rsdp_revision == 2 && t.xsdt, "%s: %s",
		       fixtures[f].name, t.error);
		err = acpi_madt_cpus(&t, 0, &cpus);
		EXPECT(err == 0 && cpus.nr == fixtures[f].nr &&
		       cpus.boot_cpu_found && !cpus.nr_unusable &&
		       cpus.psci == PSCI_CONDUIT_HVC, "%s: %d nr %u psci %d",
		       fixtures[f].name, err, cpus.nr, cpus.psci);
		/* QEMU's FADT (revision 6) names it: "QEMU". */
		EXPECT(cpus.virtual_machine, "%s: not a virtual machine",
		       fixtures[f].name);
		for (unsigned int i = 1; i < cpus.nr; i++)
			EXPECT(cpus.cpu[i].hwid == i &&
			       cpus.cpu[i].method == CPU_ENABLE_PSCI,
			       "%s: cpu[%u] = %#lx", fixtures[f].name, i,
			       cpus.cpu[i].hwid);
		err = acpi_madt_gic(&t, &gic);
		EXPECT(err == 0 && gic.version == fixtures[f].version &&
		       gic.dist == 0x8000000 &&
		       gic.cpu_if == fixtures[f].cpu_if &&
		       gic.nr_redist == (fixtures[f].redist ? 1u : 0u) &&
		       gic.vtimer_intid == 27, "%s: %d \"%s\" version %u dist "
		       "%#llx cpu_if %#llx nr_redist %u vtimer %u",
		       fixtures[f].name, err, t.error, gic.version,
		       (unsigned long long)gic.dist,
		       (unsigned long long)gic.cpu_if, gic.nr_redist,
		       gic.vtimer_intid);
		if (fixtures[f].redist)
			EXPECT(gic.redist[0].base == fixtures[f].redist &&
			       gic.redist[0].size == fixtures[f].redist_size,
			       "%s: redistributor %#llx + %#llx",
			       fixtures[f].name,
			       (unsigned long long)gic.redist[0].base,
			       (unsigned long long)gic.redist[0].size);
		acpi_snapshot_free(&s);
	}
	return true;
}

/* The kernel's BIOS-area scan finds QEMU's RSDP where SeaBIOS put it. */
static bool scan_finds_qemu_rsdp(void)
{
	struct acpi_snapshot s;
	uint8_t *area = calloc(1, 0x20000);

	EXPECT(read_fixture("acpi-q35-smp8.bin", &s), "no fixture");
	EXPECT(s.rsdp >= 0xe0000 && s.rsdp < 0x100000, "rsdp %#llx",
	       (unsigned long long)s.rsdp);
	memcpy(area + s.rsdp - 0xe0000, s.src.map(&s.src, s.rsdp, 20), 20);
	EXPECT(acpi_rsdp_scan(area, 0x20000, 0xe0000) == s.rsdp, "not found");
	/* One byte off: the checksum fails, nothing else is found. */
	area[s.rsdp - 0xe0000 + 10] ^= 1;
	EXPECT(acpi_rsdp_scan(area, 0x20000, 0xe0000) == 0, "found a bad one");
	free(area);
	acpi_snapshot_free(&s);
	return true;
}

/* ---- Built tables ------------------------------------------------------ */

static bool xsdt_preferred_over_rsdt(void)
{
	size_t m_old, m_new, rsdt, xsdt;

	reset();
	used = 64;
	madt_begin();
	lapic(0, 1);
	lapic(1, 1);
	m_old = table("APIC", 3, madt_body, madt_len);
	lapic(2, 1);
	lapic(3, 1);
	m_new = table("APIC", 3, madt_body, madt_len);
	rsdt = root("RSDT", &m_old, 1);
	xsdt = root("XSDT", &m_new, 1);
	rsdp_at(RSDP_OFF, 2, phys(rsdt), phys(xsdt));
	EXPECT(read_cpus(0) == 0, "%s", t.error);
	EXPECT(t.xsdt && t.root == phys(xsdt) && cpus.nr == 4, "xsdt %d nr %u",
	       t.xsdt, cpus.nr);
	/* Revision 0 ignores what would be the XSDT field. */
	rsdp_at(RSDP_OFF, 0, phys(rsdt), 0);
	EXPECT(read_cpus(0) == 0, "%s", t.error);
	EXPECT(!t.xsdt && cpus.nr == 2, "xsdt %d nr %u", t.xsdt, cpus.nr);
	/* Revision 2 without an XSDT: the RSDT. */
	rsdp_at(RSDP_OFF, 2, phys(rsdt), 0);
	EXPECT(read_cpus(0) == 0 && !t.xsdt && cpus.nr == 2, "%s", t.error);
	return true;
}

static bool find_table_instances_and_null_entries(void)
{
	size_t offs[4], root_off;
	const uint8_t *tab;
	uint32_t len;

	reset();
	used = 64;
	offs[0] = 0;
	offs[1] = table("SSDT", 1, "one", 3);
	offs[2] = table("SSDT", 1, "two", 3);
	offs[3] = table("FACP", 1, "x", 1);
	root_off = root("XSDT", offs, 4);
	rsdp_at(RSDP_OFF, 2, 0, phys(root_off));
	EXPECT(acpi_open(&t, &src, phys(RSDP_OFF)) == 0, "%s", t.error);
	EXPECT(t.nr_entries == 4, "%u entries", t.nr_entries);
	EXPECT(acpi_find_table(&t, "SSDT", 1, &tab, &len) == 0 && len == 39 &&
	       !memcmp(tab + 36, "two", 3), "%s", t.error);
	EXPECT_ACPI_ERROR(acpi_find_table(&t, "SSDT", 2, &tab, &len), -ENOENT,
			  "no SSDT table in the XSDT");
	EXPECT_ACPI_ERROR(acpi_madt_cpus(&t, 0, &cpus), -ENOENT,
			  "no APIC table");
	return true;
}

static bool madt_flags_x2apic_and_online_capable(void)
{
	madt_begin();
	lapic(0, 1);		/* enabled */
	lapic(1, 0);		/* disabled */
	lapic(2, 2);		/* online-capable: revision 5 only */
	lapic(0xff, 1);		/* the invalid id */
	io_apic();
	x2apic(300, 1);		/* beyond 8 bits */
	x2apic(0xffffffff, 1);	/* the invalid id */
	x2apic(301, 2);		/* online-capable */
	lapic(2, 1);		/* a second entry for id 2 */
	build_v2(5);
	EXPECT(read_cpus(300) == 0, "%s", t.error);
	EXPECT(cpus.nr == 4 && cpus.boot_cpu_found && cpus.nr_unusable == 4,
	       "nr %u found %d unusable %u", cpus.nr, cpus.boot_cpu_found,
	       cpus.nr_unusable);
	EXPECT(cpus.cpu[0].hwid == 300 && cpus.cpu[1].hwid == 0 &&
	       cpus.cpu[2].hwid == 2 && cpus.cpu[3].hwid == 301,
	       "%lu %lu %lu %lu", cpus.cpu[0].hwid, cpus.cpu[1].hwid,
	       cpus.cpu[2].hwid, cpus.cpu[3].hwid);
	/* Revision 4: bit 1 is reserved, so 2 and 301 are not usable. */
	build_v2(4);
	EXPECT(read_cpus(300) == 0, "%s", t.error);
	EXPECT(cpus.nr == 3 && cpus.nr_unusable == 5, "nr %u unusable %u",
	       cpus.nr, cpus.nr_unusable);
	EXPECT(cpus.cpu[2].hwid == 2, "%lu", cpus.cpu[2].hwid);
	return true;
}

/* SRAT bodies: the reserved fields, then entries (srat_begin()). */
static uint8_t srat_body[8192];
static size_t srat_len;

/* A GICC entry of @len bytes (76: ACPI 5.1, 80: 6.0, 82: 6.5). */
static void gicc(uint32_t uid, uint64_t mpidr, uint32_t flags, uint8_t len)
{
	uint8_t *e = madt_add(11, len);

	put32(e + 4, uid);		/* CPU interface number */
	put32(e + 8, uid);
	put32(e + 12, flags);
	put64(e + 68, mpidr);
}

/* The FADT's Hypervisor Vendor Identity build_arm() writes, or NULL. */
static const char *fadt_hypervisor_id;

/*
 * RSDP 2 -> XSDT -> the MADT built, a FADT of @fadt_len bytes (0: none)
 * with ARM boot flags @arm_flags, and the SRAT built when @srat.
 */
static void build_arm(uint32_t fadt_len, uint16_t arm_flags, bool srat)
{
	static uint8_t fadt[276 - 36];
	size_t offs[3] = { 0 }, xsdt;

	reset();
	used = 64;
	offs[0] = table("APIC", 5, madt_body, madt_len);
	if (fadt_len) {
		memset(fadt, 0, sizeof(fadt));
		if (fadt_len >= 131) {
			fadt[129 - 36] = arm_flags & 0xff;
			fadt[130 - 36] = arm_flags >> 8;
		}
		if (fadt_hypervisor_id)
			memcpy(&fadt[268 - 36], fadt_hypervisor_id,
			       strnlen(fadt_hypervisor_id, 8));
		offs[1] = table("FACP", 6, fadt, fadt_len - 36);
	}
	if (srat)
		offs[2] = table("SRAT", 3, srat_body, srat_len);
	xsdt = root("XSDT", offs, 3);
	rsdp_at(RSDP_OFF, 2, 0, phys(xsdt));
}

/*
 * Arm: GICC entries, by their MPIDR's affinity bits (Aff3 and Aff2..0;
 * the rest masked), usable when enabled (an online-capable one, bit 3,
 * is for hot-add: not started); PSCI through the FADT's conduit.
 */
static bool madt_gicc_and_fadt_psci(void)
{
	static const struct {
		uint32_t fadt_len;
		uint16_t flags;
		enum psci_conduit want;
	} fadts[] = {
		{ 276, 3, PSCI_CONDUIT_HVC },	/* PSCI compliant, use HVC */
		{ 276, 1, PSCI_CONDUIT_SMC },
		{ 276, 0, PSCI_CONDUIT_NONE },	/* not PSCI: the parking protocol */
		{ 131, 3, PSCI_CONDUIT_HVC },	/* ACPI 5.1's, just long enough */
		{ 130, 3, PSCI_CONDUIT_NONE },	/* too old to have the field */
		{ 0, 0, PSCI_CONDUIT_NONE },	/* no FADT */
	};

	madt_begin();
	gicc(0, 0x80000000ull, 1, 80);		/* bit 31 (RES1) masked */
	gicc(1, 0x0000000100ull, 1, 76);	/* Aff1 1 */
	gicc(2, 0x3f00010203ull, 1, 82);	/* Aff3, Aff2..Aff0 */
	gicc(3, 0x0000000001ull, 0, 80);	/* disabled */
	gicc(4, 0x0000000002ull, 8, 80);	/* online-capable only */
	gicc(5, 0x0000000100ull, 1, 80);	/* a second entry for 0x100 */
	for (size_t i = 0; i < ARRAY_SIZE(fadts); i++) {
		build_arm(fadts[i].fadt_len, fadts[i].flags, false);
		EXPECT(read_cpus(0x3f00010203ul) == 0, "%s", t.error);
		EXPECT(cpus.nr == 3 && cpus.boot_cpu_found &&
		       cpus.nr_unusable == 3, "nr %u found %d unusable %u",
		       cpus.nr, cpus.boot_cpu_found, cpus.nr_unusable);
		EXPECT(cpus.cpu[0].hwid == 0x3f00010203ul &&
		       cpus.cpu[1].hwid == 0 && cpus.cpu[2].hwid == 0x100 &&
		       cpus.cpu[1].method == CPU_ENABLE_PSCI &&
		       cpus.cpu[2].method == CPU_ENABLE_PSCI,
		       "%#lx %#lx %#lx", cpus.cpu[0].hwid, cpus.cpu[1].hwid,
		       cpus.cpu[2].hwid);
		EXPECT(cpus.psci == fadts[i].want, "FADT of %u bytes, flags "
		       "%u: conduit %d, expected %d", fadts[i].fadt_len,
		       fadts[i].flags, cpus.psci, fadts[i].want);
	}
	/* A GICC too short to hold the MPIDR: the MADT is refused. */
	madt_begin();
	gicc(0, 0, 1, 80);
	madt_body[8 + 1] = 72;
	madt_len -= 8;
	build_arm(276, 3, false);
	memset(&cpus, 0xa5, sizeof(cpus));
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "too short for its type");
	EXPECT(cpus.nr == 0xa5a5a5a5, "the list was written");
	/* x86's MADT leaves the conduit alone: no GICC, no FADT read. */
	madt_begin();
	lapic(0, 1);
	lapic(1, 1);
	build_arm(276, 3, false);
	EXPECT(read_cpus(0) == 0 && cpus.psci == PSCI_CONDUIT_NONE &&
	       cpus.cpu[1].method == CPU_ENABLE_INIT_SIPI, "conduit %d",
	       cpus.psci);
	return true;
}

/*
 * A FADT of ACPI 6.0 or later with a Hypervisor Vendor Identity says the
 * machine is virtual; none, zeros, or a FADT too short to hold the field
 * say nothing. On x86's MADT too.
 */
static bool fadt_hypervisor_identity(void)
{
	static const struct {
		const char *id;
		uint32_t fadt_len;
		bool lapics;
		bool want;
	} cases[] = {
		{ NULL, 276, false, false },
		{ "KVMKVMKV", 276, false, true },
		{ "QEMU", 276, true, true },
		{ "QEMU", 275, false, false },	/* the field cut short */
		{ "QEMU", 0, false, false },	/* no FADT */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		madt_begin();
		if (cases[i].lapics) {
			lapic(0, 1);
			lapic(1, 1);
		} else {
			gicc(0, 0, 1, 80);
			gicc(1, 1, 1, 80);
		}
		fadt_hypervisor_id = cases[i].id;
		build_arm(cases[i].fadt_len, 3, false);
		fadt_hypervisor_id = NULL;
		EXPECT(read_cpus(0) == 0 && cpus.nr == 2, "%s", t.error);
		EXPECT(!cpus.virtual_machine == !cases[i].want,
		       "identity \"%s\" in a FADT of %u bytes: %s",
		       cases[i].id ? cases[i].id : "", cases[i].fadt_len,
		       cpus.virtual_machine ? cpus.virtual_machine : "nothing");
	}
	return true;
}

/* ---- The GIC: MADT GICD, GICR and GICC entries, the GTDT -------------- */

static struct boot_gic gic;

static void gicd(uint64_t base, uint8_t version)
{
	uint8_t *e = madt_add(12, 24);

	put64(e + 8, base);
	e[20] = version;
}

static void gicr(uint64_t base, uint32_t length)
{
	uint8_t *e = madt_add(14, 16);

	put64(e + 4, base);
	put32(e + 12, length);
}

/* A GICC of ACPI 6.0 (80 bytes): its GICv2 CPU interface, its GICR frame. */
static void gicc_gic(uint32_t uid, uint32_t flags, uint64_t cpu_if,
		     uint64_t frame)
{
	gicc(uid, uid, flags, 80);
	put64(madt_body + madt_len - 80 + 32, cpu_if);
	put64(madt_body + madt_len - 80 + 60, frame);
}

/*
 * RSDP 2 -> XSDT -> the MADT built and, unless @gtdt_len is 0, a GTDT of
 * @gtdt_len bytes whose virtual EL1 timer GSIV (offset 64) is @vtimer.
 */
static void build_gic(uint32_t gtdt_len, uint32_t vtimer)
{
	static uint8_t gtdt[104 - 36];
	size_t offs[2] = { 0 }, xsdt;

	memset(gtdt, 0, sizeof(gtdt));
	put32(gtdt + 64 - 36, vtimer);
	reset();
	used = 64;
	offs[0] = table("APIC", 5, madt_body, madt_len);
	if (gtdt_len)
		offs[1] = table("GTDT", 3, gtdt, gtdt_len - 36);
	xsdt = root("XSDT", offs, 2);
	rsdp_at(RSDP_OFF, 2, 0, phys(xsdt));
}

static int read_gic(void)
{
	int err = acpi_open(&t, &src, phys(RSDP_OFF));

	memset(&gic, 0xa5, sizeof(gic));	/* what is left is the reader's */
	return err ?: acpi_madt_gic(&t, &gic);
}

/* The MADT built and a GTDT (build_gic()'s arguments), read without fault. */
#define EXPECT_GIC_READ(gtdt_len, gsiv)					\
	do {								\
		build_gic(gtdt_len, gsiv);				\
		EXPECT(read_gic() == 0, "%s", t.error);			\
	} while (0)

/* What acpi_madt_gic() gave, against what it should have. */
static bool gic_is(unsigned int version, uint64_t dist, uint64_t cpu_if,
		   unsigned int nr_redist, unsigned int vtimer)
{
	bool same = gic.version == version && gic.dist == dist &&
		    gic.cpu_if == cpu_if && gic.nr_redist == nr_redist &&
		    gic.vtimer_intid == vtimer && !strcmp(gic.source, "MADT");

	if (!same)
		printf("# GICv%u, GICD %#llx, GICC %#llx, %u GICR, vtimer %u "
		       "from %s; expected GICv%u, %#llx, %#llx, %u, %u\n",
		       gic.version, (unsigned long long)gic.dist,
		       (unsigned long long)gic.cpu_if, gic.nr_redist,
		       gic.vtimer_intid, gic.source, version,
		       (unsigned long long)dist, (unsigned long long)cpu_if,
		       nr_redist, vtimer);
	return same;
}

/* Redistributor region @i, and that it is one of those read. */
static bool gicr_is(unsigned int i, uint64_t base, uint64_t size)
{
	bool same = i < gic.nr_redist && gic.redist[i].base == base &&
		    gic.redist[i].size == size;

	if (!same)
		printf("# GICR %u (of %u): %#llx, %#llx bytes; expected %#llx, "
		       "%#llx\n", i, gic.nr_redist,
		       (unsigned long long)gic.redist[i].base,
		       (unsigned long long)gic.redist[i].size,
		       (unsigned long long)base, (unsigned long long)size);
	return same;
}

/* A GICR frame as a GICC gives it: RD and SGI, 64 KiB each. */
#define GICC_FRAME	0x20000u

/*
 * GICv2 (a Juno's shape): the GICD's base, the CPU interface of the first
 * enabled GICC (a disabled one before it names another, not to be
 * taken), no redistributors; the GTDT's virtual timer.
 */
static bool madt_gic_v2(void)
{
	madt_begin();
	gicc_gic(0, 0, 0x7f000000, 0);		/* disabled */
	gicc_gic(1, 1, 0x2c02f000, 0);
	gicc_gic(2, 1, 0x2c02f000, 0);
	gicd(0x2c010000, 2);
	EXPECT_GIC_READ(104, 27);
	EXPECT(gic_is(2, 0x2c010000, 0x2c02f000, 0, 27), "GICv2");
	return true;
}

/*
 * GICv3 with GICR entries (discovery ranges): they are the regions, the
 * GICCs' frames and CPU interfaces are not used (a GICv3's CPU interface
 * is system registers).
 */
static bool madt_gic_v3_gicr_entries(void)
{
	madt_begin();
	gicd(0x2f000000, 3);
	gicc_gic(0, 1, 0x2c000000, 0x2f100000);
	gicr(0x2f100000, 0x200000);
	gicc_gic(1, 1, 0x2c000000, 0x2f120000);
	gicr(0x4000000000ull, 0x400000);
	EXPECT_GIC_READ(104, 27);
	EXPECT(gic_is(3, 0x2f000000, 0, 2, 27), "GICv3");
	EXPECT(gicr_is(0, 0x2f100000, 0x200000) &&
	       gicr_is(1, 0x4000000000ull, 0x400000), "regions");
	return true;
}

/*
 * GICv3 with no GICR entry: each enabled GICC's frame is a region of
 * GICC_FRAME bytes; a disabled GICC's frame is not.
 */
static bool madt_gic_v3_gicc_frames(void)
{
	madt_begin();
	gicd(0x8000000, 3);
	for (uint32_t i = 0; i < 4; i++)
		gicc_gic(i, i == 2 ? 0 : 1, 0, 0x80a0000 + i * GICC_FRAME);
	EXPECT_GIC_READ(104, 27);
	EXPECT(gic_is(3, 0x8000000, 0, 3, 27), "GICv3");
	EXPECT(gicr_is(0, 0x80a0000, GICC_FRAME) &&
	       gicr_is(1, 0x80c0000, GICC_FRAME) &&
	       gicr_is(2, 0x8100000, GICC_FRAME), "frames");
	return true;
}

/*
 * GICD version 0 (firmware leaves it to the hardware): a GICv3 when the
 * MADT gives redistributors, GICR entries or GICC frames, else a GICv2.
 * Version 4, a GICv4, is driven as a GICv3.
 */
static bool madt_gic_version(void)
{
	static const struct {
		uint8_t version;	/* the GICD's */
		bool gicr;		/* a GICR entry */
		uint64_t cpu_if, frame;	/* two enabled GICCs' (frame: the first's) */
		unsigned int want, nr_redist;
	} cases[] = {
		{ 0, true, 0x8010000, 0, 3, 1 },
		{ 0, false, 0, 0x80a0000, 3, 2 },
		{ 0, false, 0x8010000, 0, 2, 0 },
		{ 4, true, 0, 0, 3, 1 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		madt_begin();
		gicd(0x8000000, cases[i].version);
		if (cases[i].gicr)
			gicr(0x80a0000, 0xf60000);
		for (uint32_t cpu = 0; cpu < 2; cpu++)
			gicc_gic(cpu, 1, cases[i].cpu_if, cases[i].frame ?
				 cases[i].frame + cpu * GICC_FRAME : 0);
		EXPECT_GIC_READ(0, 0);
		EXPECT(gic_is(cases[i].want, 0x8000000, cases[i].want == 2 ?
			      cases[i].cpu_if : 0, cases[i].nr_redist, 27),
		       "case %u", i);
		EXPECT(cases[i].gicr ? gicr_is(0, 0x80a0000, 0xf60000) :
		       !cases[i].frame || gicr_is(1, 0x80c0000, GICC_FRAME),
		       "case %u", i);
	}
	return true;
}

/*
 * The GTDT's virtual EL1 timer GSIV: taken when a PPI (16 to 31), else 0
 * (an SGI cannot be a timer, an SPI cannot wake every CPU); the default
 * 27 with no GTDT or one too short to hold the field (68 bytes).
 */
static bool gtdt_virtual_timer(void)
{
	static const struct {
		uint32_t gtdt_len, gsiv;
		unsigned int want;
	} cases[] = {
		{ 104, 27, 27 }, { 104, 20, 20 }, { 104, 16, 16 },
		{ 104, 31, 31 }, { 104, 15, 0 }, { 104, 32, 0 },
		{ 104, 0x10000 + 27, 0 }, { 68, 20, 20 }, { 67, 20, 27 },
		{ 0, 20, 27 },
	};

	madt_begin();
	gicd(0x2c010000, 2);
	gicc_gic(0, 1, 0x2c02f000, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_GIC_READ(cases[i].gtdt_len, cases[i].gsiv);
		EXPECT(gic_is(2, 0x2c010000, 0x2c02f000, 0, cases[i].want),
		       "a GTDT of %u bytes, GSIV %u", cases[i].gtdt_len,
		       cases[i].gsiv);
	}
	return true;
}

#define EXPECT_GIC_REFUSED(needle)					\
	do {								\
		int e_;							\
									\
		build_gic(104, 27);					\
		e_ = read_gic();					\
		EXPECT_ACPI_ERROR(e_, -EINVAL, needle);			\
		EXPECT(gic.version == 0, "version %u", gic.version);	\
	} while (0)

/* Each MADT this port cannot drive a GIC from: -EINVAL, and why. */
static bool madt_gic_refusals(void)
{
	madt_begin();
	gicd(0x2c010000, 2);
	gicd(0x2c010000, 2);
	gicc_gic(0, 1, 0x2c02f000, 0);
	EXPECT_GIC_REFUSED("a second GICD (entry at offset 68)");

	madt_begin();
	gicd(0x2c010000, 2);
	madt_body[madt_len - 24 + 1] = 23;
	madt_len--;
	gicc_gic(0, 1, 0x2c02f000, 0);
	EXPECT_GIC_REFUSED("GICD entry shorter than 24 bytes");

	madt_begin();
	gicd(0x2f000000, 3);
	gicr(0x2f100000, 0x200000);
	madt_body[madt_len - 16 + 1] = 15;
	madt_len--;
	EXPECT_GIC_REFUSED("GICR entry shorter than 16 bytes");

	madt_begin();
	gicd(0, 2);
	gicc_gic(0, 1, 0x2c02f000, 0);
	EXPECT_GIC_REFUSED("the GICD's base is 0");

	madt_begin();
	gicd(0x2c010000, 1);
	gicc_gic(0, 1, 0x2c02f000, 0);
	EXPECT_GIC_REFUSED("a GICv1");

	madt_begin();
	gicd(0x2c010000, 5);
	gicr(0x2f100000, 0x200000);
	EXPECT_GIC_REFUSED("a GICD version above 4");

	/* A GICv2 whose only CPU interface is a disabled GICC's. */
	madt_begin();
	gicd(0x2c010000, 2);
	gicc_gic(0, 1, 0, 0);
	gicc_gic(1, 0, 0x2c02f000, 0);
	EXPECT_GIC_REFUSED("a GICv2 and no enabled GICC with its CPU "
			   "interface");

	/* A GICv3 whose only frame is a disabled GICC's. */
	madt_begin();
	gicd(0x2f000000, 3);
	gicc_gic(0, 1, 0, 0);
	gicc_gic(1, 0, 0, 0x2f100000);
	EXPECT_GIC_REFUSED("a GICv3 and no redistributor");
	return true;
}

/* Redistributor ranges: empty, at 0, wrapping, or more than are kept. */
static bool madt_gic_redistributor_refusals(void)
{
	static const uint64_t bad[][2] = {
		{ 0xffffffffffff0000ull, 0x20000 },
		{ 0x2f100000, 0 },
		{ 0, 0x200000 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		madt_begin();
		gicd(0x2f000000, 3);
		gicr(bad[i][0], bad[i][1]);
		EXPECT_GIC_REFUSED("a redistributor range is empty, at 0, or "
				   "wraps");
	}
	/* A GICC frame whose 128 KiB wrap. */
	madt_begin();
	gicd(0x2f000000, 3);
	gicc_gic(0, 1, 0, 0xfffffffffffff000ull);
	EXPECT_GIC_REFUSED("a redistributor range is empty, at 0, or wraps");

	/* As many ranges as are kept, then one more. */
	madt_begin();
	gicd(0x2f000000, 3);
	for (uint32_t i = 0; i < GIC_MAX_REDIST_REGIONS; i++)
		gicr(0x2f100000 + i * 0x200000ull, 0x200000);
	EXPECT_GIC_READ(0, 0);
	EXPECT(gic.nr_redist == GIC_MAX_REDIST_REGIONS &&
	       gicr_is(GIC_MAX_REDIST_REGIONS - 1, 0x2f100000 +
		       (GIC_MAX_REDIST_REGIONS - 1) * 0x200000ull, 0x200000),
	       "%u regions", gic.nr_redist);
	gicr(0x2f100000 + GIC_MAX_REDIST_REGIONS * 0x200000ull, 0x200000);
	EXPECT_GIC_REFUSED("more redistributor ranges than "
			   "GIC_MAX_REDIST_REGIONS");
	return true;
}

/* No GIC: -ENOENT, version 0 and, nothing being wrong, no message. */
#define EXPECT_NO_GIC(err, what)					\
	do {								\
		int e_ = (err);						\
		EXPECT(e_ == -ENOENT && gic.version == 0 && !t.error[0], \
		       "%s: error %d \"%s\", version %u", what, e_,	\
		       t.error, gic.version);				\
	} while (0)

/*
 * No GIC: QEMU's q35 tables and a built MADT of local APICs only (x86),
 * and no MADT at all; -ENOENT, version 0. With a MADT and no GICD there
 * is nothing wrong to say.
 */
static bool madt_without_gic(void)
{
	struct acpi_snapshot s;
	int err;

	EXPECT(read_fixture("acpi-q35-smp8.bin", &s), "no fixture");
	err = acpi_open(&t, &s.src, s.rsdp);
	EXPECT(err == 0, "%s", t.error);
	err = acpi_madt_gic(&t, &gic);
	acpi_snapshot_free(&s);
	EXPECT_NO_GIC(err, "q35");

	madt_begin();
	lapic(0, 1);
	lapic(1, 1);
	io_apic();
	build_gic(104, 27);
	EXPECT_NO_GIC(read_gic(), "local APICs");

	/* The GTDT alone: build_gic()'s MADT, its signature changed. */
	madt_begin();
	gicd(0x2c010000, 2);
	gicc_gic(0, 1, 0x2c02f000, 0);
	build_gic(104, 27);
	memcpy(mem + 64, "APIX", 4);
	fix_table(64);
	EXPECT(read_gic() == -ENOENT && gic.version == 0, "no MADT: %s",
	       t.error);
	return true;
}

static bool madt_boot_cpu_missing_or_disabled(void)
{
	madt_begin();
	lapic(0, 1);
	lapic(1, 0);
	build_v2(3);
	/* Listed but disabled: it runs, so it is cpu[0] all the same. */
	EXPECT(read_cpus(1) == 0, "%s", t.error);
	EXPECT(cpus.nr == 2 && cpus.boot_cpu_found && cpus.cpu[0].hwid == 1 &&
	       cpus.cpu[1].hwid == 0, "nr %u", cpus.nr);
	EXPECT(read_cpus(7) == 0, "%s", t.error);
	EXPECT(cpus.nr == 2 && !cpus.boot_cpu_found && cpus.cpu[0].hwid == 7 &&
	       cpus.nr_unusable == 1, "nr %u found %d", cpus.nr,
	       cpus.boot_cpu_found);
	return true;
}

static bool madt_more_cpus_than_nr_cpus(void)
{
	madt_begin();
	for (unsigned int i = 0; i < NR_CPUS + 5; i++)
		x2apic(1000 - i, 1);
	build_v2(5);
	EXPECT(read_cpus(1000 - NR_CPUS - 4) == 0, "%s", t.error);
	EXPECT(cpus.nr == NR_CPUS && cpus.nr_over == 5 &&
	       cpus.boot_cpu_found && cpus.cpu[0].hwid == 1000 - NR_CPUS - 4,
	       "nr %u over %u", cpus.nr, cpus.nr_over);
	return true;
}

/* A refused MADT leaves the caller's list as it was. */
static bool madt_refusals(void)
{
	static const struct {
		uint8_t type, len;
		const char *needle;
	} bad[] = {
		{ 0, 0, "shorter than its own type and length" },
		{ 0, 1, "shorter than its own type and length" },
		{ 0, 6, "too short for its type" },
		{ 9, 12, "too short for its type" },
		{ 0, 40, "runs past the end of the table" },
	};
	size_t madt;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		madt_begin();
		lapic(0, 1);
		lapic(1, 1);
		lapic(2, 1);
		madt_body[16] = bad[i].type;
		madt_body[17] = bad[i].len;
		madt = build_v2(3);
		memset(&cpus, 0xa5, sizeof(cpus));
		EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, bad[i].needle);
		EXPECT(cpus.nr == 0xa5a5a5a5, "the list was written");
		(void)madt;
	}
	/* One byte of an entry header left at the end. */
	madt_begin();
	lapic(0, 1);
	madt_len++;
	build_v2(3);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "no room for its type");
	/* A MADT shorter than its fixed fields. */
	reset();
	used = 64;
	madt = table("APIC", 3, "abcd", 4);
	madt = root("XSDT", &madt, 1);
	rsdp_at(RSDP_OFF, 2, 0, phys(madt));
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "smaller than its 44-byte");
	return true;
}

static bool rsdp_refusals(void)
{
	size_t madt;

	madt_begin();
	lapic(0, 1);
	madt = build_v2(3);

	EXPECT_ACPI_ERROR(acpi_open(&t, &src, 0), -ENOENT, "no RSDP");
	EXPECT_ACPI_ERROR(acpi_open(&t, &src, phys(MEM_SIZE - 8)), -EINVAL,
			  "RSDP at 0x10fff8 is not readable");
	EXPECT_ACPI_ERROR(acpi_open(&t, &src, phys(16)), -EINVAL,
			  "no \"RSD PTR \" signature");
	mem[RSDP_OFF + 9] ^= 1;
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "bad checksum over its first");
	mem[RSDP_OFF + 9] ^= 1;
	mem[RSDP_OFF + 33] ^= 1;
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "bad extended checksum");
	mem[RSDP_OFF + 33] ^= 1;
	put32(mem + RSDP_OFF + 20, 30);
	mem[RSDP_OFF + 32] += 6;	/* keep the extended sum, break length */
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "length 30 is not between");
	/* Revision 2 whose length runs past the end of memory. */
	reset();
	rsdp_at(MEM_SIZE - 36, 2, 0, phys(0));
	put32(mem + MEM_SIZE - 36 + 20, 40);
	mem[MEM_SIZE - 36 + 32] -= 4;
	EXPECT_ACPI_ERROR(acpi_open(&t, &src, phys(MEM_SIZE - 36)), -EINVAL,
			  "length 40 runs past what is readable");
	/* Neither root. */
	rsdp_at(RSDP_OFF, 0, 0, 0);
	EXPECT_ACPI_ERROR(acpi_open(&t, &src, phys(RSDP_OFF)), -EINVAL,
			  "names no RSDT and no XSDT");
	(void)madt;
	return true;
}

static bool table_refusals(void)
{
	size_t madt, xsdt;
	uint32_t len;

	madt_begin();
	lapic(0, 1);
	madt = build_v2(3);
	xsdt = ALIGN_UP(madt + 36 + madt_len, 16);

	/* The MADT: length below its header, checksum, past the end. */
	put32(mem + madt + 4, 20);
	fix_table(madt);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL,
			  "length 20 is smaller than its 36-byte header");
	put32(mem + madt + 4, 36 + madt_len);
	mem[madt + 40] ^= 1;
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "APIC at 0x100040: bad "
			  "checksum");
	mem[madt + 40] ^= 1;
	put32(mem + madt + 4, MEM_SIZE);	/* checked before the sum */
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "runs past what is readable");
	put32(mem + madt + 4, 0xffffffff);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "is absurd");
	put32(mem + madt + 4, 36 + madt_len);
	fix_table(madt);
	EXPECT(read_cpus(0) == 0, "%s", t.error);

	/* The XSDT: signature, an entry cut short, an entry past memory. */
	memcpy(mem + xsdt, "RSDT", 4);
	fix_table(xsdt);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "has signature \"RSDT\"");
	memcpy(mem + xsdt, "XSDT", 4);
	memcpy(&len, mem + xsdt + 4, 4);
	put32(mem + xsdt + 4, len - 3);
	fix_table(xsdt);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "its last entry runs past");
	put32(mem + xsdt + 4, len);
	put64(mem + xsdt + 36, 0xfffffffffffffffeULL);
	fix_table(xsdt);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL,
			  "table at 0xfffffffffffffffe is not readable");
	/* A header address that wraps when its 36 bytes are added. */
	put64(mem + RSDP_OFF + 24, 0xfffffffffffffff0ULL);
	mem[RSDP_OFF + 32] = 0;
	mem[RSDP_OFF + 32] = -sum(mem + RSDP_OFF, 36);
	EXPECT_ACPI_ERROR(read_cpus(0), -EINVAL, "its header is not readable");
	return true;
}

/* ---- Where the RSDP comes from ---------------------------------------- */

static bool scan_alignment_and_revision_2(void)
{
	reset();
	rsdp_at(0x40, 2, 0x1000, 0x2000);
	EXPECT(acpi_rsdp_scan(mem, 0x100, 0xe0000) == 0xe0040, "not found");
	/* The extended checksum counts in a scan too. */
	mem[0x40 + 33] ^= 1;
	EXPECT(acpi_rsdp_scan(mem, 0x100, 0xe0000) == 0, "bad one found");
	/* Off a 16-byte boundary it is not looked for. */
	reset();
	rsdp_at(0x48, 0, 0x1000, 0);
	EXPECT(acpi_rsdp_scan(mem, 0x100, 0xe0000) == 0, "misaligned found");
	/* An RSDP cut by the end of the area is not read past it. */
	reset();
	rsdp_at(0x40, 0, 0x1000, 0);
	EXPECT(acpi_rsdp_scan(mem, 0x50, 0xe0000) == 0, "read past the end");
	EXPECT(acpi_rsdp_scan(mem, 0x54, 0xe0000) == 0xe0040, "not found");
	return true;
}

static bool rsdp_from_boot_info(void)
{
	uint8_t mbi[128] = { 0 };
	uint8_t si[56] = { 0 };
	struct pvh_source pvh = { .map = pvh_buffer_map, .base = si,
				  .size = sizeof(si) };
	uint64_t rsdp;

	put32(si, 0x336ec578);
	put64(si + 32, 0xf59e0);
	EXPECT(pvh_rsdp(&pvh, 0, &rsdp) == 0 && rsdp == 0xf59e0, "pvh");
	si[0] ^= 1;
	EXPECT(pvh_rsdp(&pvh, 0, &rsdp) == -EBADMSG, "bad magic read");

	/* total, reserved, tag 14 (8 + 20, padded to 32), tag 15 (8 + 36). */
	put32(mbi + 8, 14);
	put32(mbi + 12, 28);
	put32(mbi + 40, 15);
	put32(mbi + 44, 44);
	put32(mbi + 88, 0);
	put32(mbi + 92, 8);
	put32(mbi, 96);
	EXPECT(multiboot2_rsdp(mbi, 96, &rsdp) == 0 && rsdp == 48,
	       "new tag not preferred: %llu", (unsigned long long)rsdp);
	put32(mbi + 40, 99);
	EXPECT(multiboot2_rsdp(mbi, 96, &rsdp) == 0 && rsdp == 16, "old tag");
	put32(mbi + 12, 20);	/* too short for an RSDP */
	EXPECT(multiboot2_rsdp(mbi, 96, &rsdp) == -ENOENT && rsdp == 0,
	       "short tag taken");
	put32(mbi, 200);
	EXPECT(multiboot2_rsdp(mbi, 96, &rsdp) == -EBADMSG, "truncated read");
	return true;
}

/* ---- SRAT and SLIT ------------------------------------------------------ */

static struct boot_numa numa;

static bool mem_is(unsigned int i, uint64_t base, uint64_t size, int nid,
		   bool hotplug)
{
	const struct boot_numa_mem *m = &numa.mem[i];

	if (i < numa.nr_mem && m->base == base && m->size == size &&
	    m->nid == nid && m->hotplug == hotplug)
		return true;
	printf("# mem[%u] of %u: %#llx + %#llx node %d%s\n", i, numa.nr_mem,
	       (unsigned long long)m->base, (unsigned long long)m->size,
	       m->nid, m->hotplug ? " hot-pluggable" : "");
	return false;
}

static int read_numa(const char *name, struct acpi_snapshot *s)
{
	int err;

	if (!read_fixture(name, s))
		return -EIO;
	err = acpi_open(&t, &s->src, s->rsdp);
	boot_numa_init(&numa, "SRAT");
	err = err ?: acpi_srat_read(&t, &numa);
	return err ?: acpi_slit_read(&t, &numa);
}

/*
 * QEMU q35, -m 256M,slots=2,maxmem=1G, two nodes of 98M and 158M (the
 * boundary at 98 MiB is not aligned to the top order), one CPU each,
 * -numa dist 21 (acpi-q35-numa2.bin; tests/fixtures/README.md).
 */
static bool qemu_q35_numa2(void)
{
	struct acpi_snapshot s;

	EXPECT(read_numa("acpi-q35-numa2.bin", &s) == 0, "%s", t.error);
	EXPECT(numa.nr_pxm == 2 && numa.pxm[0] == 0 && numa.pxm[1] == 1,
	       "%u domains", numa.nr_pxm);
	EXPECT(numa.nr_mem == 4 && numa.nr_hotplug == 1 &&
	       numa.nr_disabled == 1, "mem %u hotplug %u disabled %u",
	       numa.nr_mem, numa.nr_hotplug, numa.nr_disabled);
	EXPECT(mem_is(0, 0, 0xa0000, 0, false) &&
	       mem_is(1, 0x100000, 0x6100000, 0, false) &&
	       mem_is(2, 0x6200000, 0x9e00000, 1, false) &&
	       mem_is(3, 0x100000000ull, 0xb0000000ull, 1, true), "ranges");
	EXPECT(numa.nr_cpu == 2 && numa.cpu[0].hwid == 0 &&
	       numa.cpu[0].nid == 0 && numa.cpu[1].hwid == 1 &&
	       numa.cpu[1].nid == 1, "cpus %u", numa.nr_cpu);
	EXPECT(numa.dist_nodes == 2 && numa.dist[0][0] == 10 &&
	       numa.dist[0][1] == 21 && numa.dist[1][0] == 21 &&
	       numa.dist[1][1] == 10, "distances");
	acpi_snapshot_free(&s);
	return true;
}

/*
 * Four nodes of 130M, 126M, 100M and 156M; CPUs 0, 1, 2 in nodes 0, 1
 * and 3, node 2 without CPUs; an asymmetric-looking but symmetric matrix.
 */
static bool qemu_q35_numa4(void)
{
	static const uint8_t want[4][4] = {
		{ 10, 15, 20, 25 }, { 15, 10, 25, 20 },
		{ 20, 25, 10, 15 }, { 25, 20, 15, 10 },
	};
	struct acpi_snapshot s;

	EXPECT(read_numa("acpi-q35-numa4.bin", &s) == 0, "%s", t.error);
	EXPECT(numa.nr_pxm == 4 && numa.nr_mem == 5 && !numa.nr_hotplug,
	       "domains %u mem %u", numa.nr_pxm, numa.nr_mem);
	EXPECT(mem_is(1, 0x100000, 0x8100000, 0, false) &&
	       mem_is(2, 0x8200000, 0x7e00000, 1, false) &&
	       mem_is(3, 0x10000000, 0x6400000, 2, false) &&
	       mem_is(4, 0x16400000, 0x9c00000, 3, false), "ranges");
	EXPECT(numa.nr_cpu == 3 && numa.cpu[2].hwid == 2 &&
	       numa.cpu[2].nid == 3, "cpu 2 in node %d", numa.cpu[2].nid);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			EXPECT(numa.dist[i][j] == want[i][j], "%d to %d: %u",
			       i, j, numa.dist[i][j]);
	acpi_snapshot_free(&s);
	/* Without -numa there is neither table. */
	EXPECT(read_numa("acpi-q35-smp8.bin", &s) == -ENOENT &&
	       strstr(t.error, "no SRAT"), "%s", t.error);
	acpi_snapshot_free(&s);
	return true;
}

static size_t slit_off;

static void srat_begin(void)
{
	memset(srat_body, 0, sizeof(srat_body));
	put32(srat_body, 1);	/* reserved, 1 for compatibility */
	srat_len = 12;
}

static uint8_t *srat_add(uint8_t type, uint8_t len)
{
	return entry_add(srat_body, &srat_len, type, len);
}

static void srat_cpu(uint32_t pxm, uint8_t apic, uint32_t flags)
{
	uint8_t *e = srat_add(0, 16);

	e[2] = pxm & 0xff;
	e[3] = apic;
	put32(e + 4, flags);
	e[9] = pxm >> 8;
	e[10] = pxm >> 16;
	e[11] = pxm >> 24;
}

static void srat_x2apic(uint32_t pxm, uint32_t id, uint32_t flags)
{
	uint8_t *e = srat_add(2, 24);

	put32(e + 4, pxm);
	put32(e + 8, id);
	put32(e + 12, flags);
}

/* GICC Affinity: an Arm CPU by its ACPI processor UID. */
static void srat_gicc(uint32_t pxm, uint32_t uid, uint32_t flags)
{
	uint8_t *e = srat_add(3, 18);

	put32(e + 2, pxm);
	put32(e + 6, uid);
	put32(e + 10, flags);
}

static void srat_mem(uint32_t pxm, uint64_t base, uint64_t size,
		     uint32_t flags)
{
	uint8_t *e = srat_add(1, 40);

	put32(e + 2, pxm);
	put64(e + 8, base);
	put64(e + 16, size);
	put32(e + 28, flags);
}

/* RSDP 2 -> XSDT -> SRAT (revision @rev) and, if @slit_n, a SLIT. */
static void build_numa(uint8_t rev, const uint8_t *slit, uint64_t slit_n)
{
	uint8_t body[8 + 16 * 16];
	size_t offs[2], xsdt;

	reset();
	used = 64;
	offs[0] = table("SRAT", rev, srat_body, srat_len);
	offs[1] = 0;
	if (slit_n) {
		put64(body, slit_n);
		memcpy(body + 8, slit, slit_n * slit_n);
		offs[1] = table("SLIT", 1, body, 8 + slit_n * slit_n);
		slit_off = offs[1];
	}
	xsdt = root("XSDT", offs, 2);
	rsdp_at(RSDP_OFF, 2, 0, phys(xsdt));
}

static int srat_read(void)
{
	int err = acpi_open(&t, &src, phys(RSDP_OFF));

	boot_numa_init(&numa, "SRAT");
	return err ?: acpi_srat_read(&t, &numa);
}

/*
 * Sparse domains are packed in ascending order; the upper domain bytes
 * of type 0 count from revision 2 on; x2APIC entries; disabled entries
 * and empty ranges skipped; the SLIT is indexed by domain.
 */
static bool srat_domains_flags_and_slit(void)
{
	uint8_t slit[10 * 10];

	memset(slit, 30, sizeof(slit));
	for (int i = 0; i < 10; i++)
		slit[i * 10 + i] = 10;
	slit[9 * 10 + 5] = 17;
	slit[5 * 10 + 9] = 19;
	srat_begin();
	srat_mem(9, 0x80000000, 0x40000000, 1);
	srat_mem(5, 0x40000000, 0x40000000, 1);
	srat_mem(7, 0xc0000000, 0x40000000, 0);		/* disabled */
	srat_mem(5, 0x100000000ull, 0, 1);		/* empty */
	srat_mem(9, 0x200000000ull, 0x100000000ull, 3);	/* hot-pluggable */
	srat_cpu(5, 0, 1);
	srat_cpu(0x109, 1, 1);	/* domain 9 from revision 2 on, else 9 too */
	srat_cpu(3, 2, 0);	/* disabled: domain 3 is not named */
	srat_x2apic(9, 300, 1);
	build_numa(2, slit, 10);
	/* Revision 2: a third domain, 0x109, which the SLIT does not cover. */
	EXPECT(srat_read() == 0, "%s", t.error);
	EXPECT(numa.nr_pxm == 3 && numa.pxm[2] == 0x109 &&
	       numa.cpu[1].nid == 2, "%u domains", numa.nr_pxm);
	EXPECT_ACPI_ERROR(acpi_slit_read(&t, &numa), -EINVAL,
			  "none for proximity domain 265");
	/* Revision 1: type 0 domains are 8 bits, 0x109 is 9. */
	build_numa(1, slit, 10);
	EXPECT(srat_read() == 0, "%s", t.error);
	EXPECT(numa.nr_pxm == 2 && numa.pxm[0] == 5 && numa.pxm[1] == 9,
	       "%u domains: %u %u", numa.nr_pxm, numa.pxm[0], numa.pxm[1]);
	EXPECT(numa.nr_mem == 3 && numa.nr_disabled == 2 &&
	       numa.nr_hotplug == 1, "mem %u disabled %u hotplug %u",
	       numa.nr_mem, numa.nr_disabled, numa.nr_hotplug);
	EXPECT(mem_is(0, 0x80000000, 0x40000000, 1, false) &&
	       mem_is(1, 0x40000000, 0x40000000, 0, false) &&
	       mem_is(2, 0x200000000ull, 0x100000000ull, 1, true), "ranges");
	EXPECT(numa.nr_cpu == 3 && numa.cpu[0].nid == 0 &&
	       numa.cpu[1].hwid == 1 && numa.cpu[1].nid == 1 &&
	       numa.cpu[2].hwid == 300 && numa.cpu[2].nid == 1, "cpus");
	EXPECT(acpi_slit_read(&t, &numa) == 0, "%s", t.error);
	EXPECT(numa.dist_nodes == 2 && numa.dist[0][1] == 19 &&
	       numa.dist[1][0] == 17 && numa.dist[1][1] == 10, "distances");
	return true;
}

/*
 * Arm CPUs in the SRAT: GICC Affinity names a CPU by ACPI processor UID,
 * which the MADT's GICC of that UID turns into its MPIDR affinity; a UID
 * the MADT does not list is skipped, and without a MADT all are.
 */
static bool srat_gicc_affinity(void)
{
	madt_begin();
	gicc(10, 0x000, 1, 80);
	gicc(11, 0x001, 1, 80);
	gicc(12, 0x100, 1, 80);
	srat_begin();
	srat_mem(0, 0x40000000, 0x10000000, 1);
	srat_mem(1, 0x50000000, 0x10000000, 1);
	srat_gicc(0, 10, 1);
	srat_gicc(1, 11, 1);
	srat_gicc(1, 12, 1);
	srat_gicc(2, 99, 1);	/* no such UID: domain 2 is not named */
	srat_gicc(1, 10, 0);	/* disabled */
	build_arm(276, 3, true);
	EXPECT(srat_read() == 0, "%s", t.error);
	EXPECT(numa.nr_pxm == 2 && numa.nr_mem == 2 && numa.nr_cpu == 3 &&
	       numa.nr_disabled == 1, "%u domains, %u ranges, %u cpus, %u "
	       "disabled", numa.nr_pxm, numa.nr_mem, numa.nr_cpu,
	       numa.nr_disabled);
	EXPECT(numa.cpu[0].hwid == 0 && numa.cpu[0].nid == 0 &&
	       numa.cpu[1].hwid == 1 && numa.cpu[1].nid == 1 &&
	       numa.cpu[2].hwid == 0x100 && numa.cpu[2].nid == 1, "cpus");
	/* One MPIDR in two domains is refused like one APIC id. */
	srat_gicc(0, 12, 1);
	build_arm(276, 3, true);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "CPU 0x100 in two proximity");
	/* No MADT: the memory ranges still count, the CPUs are skipped. */
	reset();
	used = 64;
	{
		size_t offs[1], xsdt;

		offs[0] = table("SRAT", 3, srat_body, srat_len);
		xsdt = root("XSDT", offs, 1);
		rsdp_at(RSDP_OFF, 2, 0, phys(xsdt));
	}
	EXPECT(srat_read() == 0 && numa.nr_mem == 2 && numa.nr_cpu == 0,
	       "%s: %u ranges %u cpus", t.error, numa.nr_mem, numa.nr_cpu);
	/* A short GICC Affinity entry is refused. */
	srat_begin();
	srat_gicc(0, 10, 1);
	srat_body[12 + 1] = 14;
	srat_len -= 4;
	build_arm(276, 3, true);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "too short for its type");
	return true;
}

/* Each malformed SRAT: refused with its reason, nothing taken. */
static bool srat_refusals(void)
{
	srat_begin();
	srat_mem(0, 0, 0x1000, 1);
	srat_body[12 + 1] = 1;
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "shorter than its own type");
	srat_body[12 + 1] = 20;
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "too short for its type");
	srat_body[12 + 1] = 60;
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "runs past the end of the table");

	srat_begin();
	srat_mem(0, ~0ull - 0xfff, 0x2000, 1);
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "wraps past 2^64");

	srat_begin();
	srat_mem(0, 0, 0x100000, 1);
	srat_mem(1, 0xff000, 0x100000, 1);
	srat_cpu(0, 0, 1);
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "overlap");
	EXPECT(numa.nr_mem == 0 && numa.nr_cpu == 0 && numa.nr_pxm == 0,
	       "taken: %u ranges", numa.nr_mem);

	srat_begin();
	srat_cpu(0, 4, 1);
	srat_x2apic(1, 4, 1);
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "CPU 0x4 in two");

	srat_begin();
	for (uint32_t d = 0; d <= MAX_NUMNODES; d++)
		srat_x2apic(d * 3, d, 1);
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "more than MAX_NUMNODES");

	srat_begin();
	for (uint32_t i = 0; i <= BOOT_NUMA_MAX_MEM; i++)
		srat_mem(0, i * 0x1000ull, 0x1000, 1);
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL, "memory ranges");

	/* Shorter than the SRAT's own 48-byte header. */
	srat_len = 4;
	build_numa(1, NULL, 0);
	EXPECT_ACPI_ERROR(srat_read(), -EINVAL,
			  "SRAT length 40 is smaller than its 48-byte");
	return true;
}

/* Each malformed SLIT: refused, every distance left unset. */
static bool slit_refusals(void)
{
	static const struct {
		uint8_t d00, d01;
		const char *needle;
	} bad[] = {
		{ 11, 20, "distance 11 from domain 0 to domain 0" },
		{ 10, 10, "distance 10 from domain 0 to domain 1" },
		{ 10, 255, "distance 255 from domain 0 to domain 1" },
	};
	uint8_t slit[4] = { 10, 20, 20, 10 };

	srat_begin();
	srat_cpu(0, 0, 1);
	srat_cpu(1, 1, 1);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		slit[0] = bad[i].d00;
		slit[1] = bad[i].d01;
		build_numa(1, slit, 2);
		EXPECT(srat_read() == 0, "%s", t.error);
		EXPECT_ACPI_ERROR(acpi_slit_read(&t, &numa), -EINVAL,
				  bad[i].needle);
		EXPECT(numa.dist_nodes == 0 && !numa.dist[0][1], "taken");
	}
	/* Domain 1 is named; a one-locality SLIT does not cover it. */
	slit[0] = 10;
	build_numa(1, slit, 1);
	EXPECT(srat_read() == 0, "%s", t.error);
	EXPECT_ACPI_ERROR(acpi_slit_read(&t, &numa), -EINVAL,
			  "none for proximity domain 1");
	/* A locality count that does not match the length. */
	build_numa(1, slit, 2);
	put64(mem + slit_off + 36, 3);
	fix_table(slit_off);
	EXPECT(srat_read() == 0, "%s", t.error);
	EXPECT_ACPI_ERROR(acpi_slit_read(&t, &numa), -EINVAL,
			  "SLIT of 3 localities has length 48");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(qemu_q35_smp8),
	HOST_TEST(qemu_pc_smp8),
	HOST_TEST(qemu_virt_arm),
	HOST_TEST(scan_finds_qemu_rsdp),
	HOST_TEST(xsdt_preferred_over_rsdt),
	HOST_TEST(find_table_instances_and_null_entries),
	HOST_TEST(madt_flags_x2apic_and_online_capable),
	HOST_TEST(madt_boot_cpu_missing_or_disabled),
	HOST_TEST(madt_more_cpus_than_nr_cpus),
	HOST_TEST(madt_refusals),
	HOST_TEST(madt_gicc_and_fadt_psci),
	HOST_TEST(fadt_hypervisor_identity),
	HOST_TEST(madt_gic_v2),
	HOST_TEST(madt_gic_v3_gicr_entries),
	HOST_TEST(madt_gic_v3_gicc_frames),
	HOST_TEST(madt_gic_version),
	HOST_TEST(gtdt_virtual_timer),
	HOST_TEST(madt_gic_refusals),
	HOST_TEST(madt_gic_redistributor_refusals),
	HOST_TEST(madt_without_gic),
	HOST_TEST(rsdp_refusals),
	HOST_TEST(table_refusals),
	HOST_TEST(scan_alignment_and_revision_2),
	HOST_TEST(rsdp_from_boot_info),
	HOST_TEST(qemu_q35_numa2),
	HOST_TEST(qemu_q35_numa4),
	HOST_TEST(srat_domains_flags_and_slit),
	HOST_TEST(srat_gicc_affinity),
	HOST_TEST(srat_refusals),
	HOST_TEST(slit_refusals),
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	fixture_dir = argv[1];
	return host_test_main(tests, ARRAY_SIZE(tests));
}
