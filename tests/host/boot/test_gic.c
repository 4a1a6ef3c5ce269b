/*
 * test_gic.c - the device tree's GIC reader (boot/fdt_gic.c): GICv2 and
 * GICv3 nodes, #redistributor-regions, reg translated through a bus's
 * ranges, disabled nodes skipped, GICv3 preferred; the EL1 virtual timer's
 * INTID with 3 and 4 interrupt cells, an interrupt-parent of its own or
 * an ancestor's, a timer wired elsewhere or to an SPI; a named refusal for
 * each unusable GIC node; and real boards' trees (tests/fixtures/),
 * whose expected values come from dtc's reading of them. Trees are read
 * from exact-size heap copies, so ASan catches any read outside.
 *
 * The MADT/GTDT reader (boot/acpi_gic.c) is tested in test_acpi.c, beside
 * the ACPI table builders it needs.
 */
#include <stdlib.h>
#include <boot/bytes.h>
#include <boot/fdt.h>
#include <boot/gic.h>
#include "boot_test.h"
#include "fdt_builder.h"

#define GIC_PHANDLE	1u
#define OTHER_PHANDLE	2u	/* another interrupt controller */

static struct fdtb b;
static struct boot_gic gic;
static char error[BOOT_ERROR_LEN];

static int read_gic_blob(const void *data, size_t len)
{
	void *copy = malloc(len ? len : 1);
	int err;

	memcpy(copy, data, len);
	/* Garbage first: whatever the reader leaves must be its own. */
	memset(&gic, 0xa5, sizeof(gic));
	strcpy(error, "stale");
	err = fdt_read_gic(copy, len, &gic, error);
	free(copy);
	return err;
}

static int finish_and_read(void)
{
	fdtb_end(&b);			/* the root */
	fdtb_finish(&b, 1);
	return read_gic_blob(b.blob, b.len);
}

/* / { #address-cells = <2>; #size-cells = <2>; [interrupt-parent] */
static void begin_root(uint32_t interrupt_parent)
{
	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	fdtb_prop_cells(&b, "#size-cells", 1, 2);
	if (interrupt_parent)
		fdtb_prop_cells(&b, "interrupt-parent", 1, interrupt_parent);
}

/* An interrupt controller node, left open for its reg. */
static void intc(const char *name, const char *compatible, uint32_t phandle,
		 uint32_t interrupt_cells)
{
	fdtb_begin(&b, name);
	fdtb_prop_str(&b, "compatible", compatible);
	fdtb_prop(&b, "interrupt-controller", NULL, 0);
	fdtb_prop_cells(&b, "#interrupt-cells", 1, interrupt_cells);
	fdtb_prop_cells(&b, "phandle", 1, phandle);
}

/* reg of 2-cell addresses and sizes: @n (base, size) pairs. */
static void reg64(unsigned int n, const uint64_t (*r)[2])
{
	uint8_t val[16 * (GIC_MAX_REDIST_REGIONS + 1)];

	for (unsigned int i = 0; i < n; i++) {
		store_be32(val + 16 * i, r[i][0] >> 32);
		store_be32(val + 16 * i + 4, (uint32_t)r[i][0]);
		store_be32(val + 16 * i + 8, r[i][1] >> 32);
		store_be32(val + 16 * i + 12, (uint32_t)r[i][1]);
	}
	fdtb_prop(&b, "reg", val, 16 * n);
}

/* QEMU virt's GICv2: intc@8000000 { GICD, GICC }, closed. */
static void gic_v2(const char *compatible)
{
	static const uint64_t r[2][2] = {
		{ 0x8000000, 0x10000 }, { 0x8010000, 0x10000 },
	};

	intc("intc@8000000", compatible, GIC_PHANDLE, 3);
	reg64(2, r);
	fdtb_end(&b);
}

/*
 * A timer node, left open: compatible @compatible, interrupt-parent
 * @parent (0: none), and the four interrupts Linux's bindings list
 * (secure PPI 13, non-secure PPI 14, virtual, hypervisor PPI 10) with
 * @cells cells each (a fourth, the ppi-partition, 0), the virtual one
 * being (@type, @number). @nr_irqs of them are written.
 */
static void timer_irqs(const char *compatible, uint32_t parent,
		       uint32_t cells, uint32_t type, uint32_t number,
		       unsigned int nr_irqs)
{
	const uint32_t irq[4][2] = { { 1, 13 }, { 1, 14 }, { type, number },
				     { 1, 10 } };
	uint8_t val[4 * 4 * 4] = { 0 };

	fdtb_begin(&b, "timer");
	fdtb_prop_str(&b, "compatible", compatible);
	if (parent)
		fdtb_prop_cells(&b, "interrupt-parent", 1, parent);
	for (unsigned int i = 0; i < nr_irqs; i++) {
		store_be32(val + 4 * cells * i, irq[i][0]);
		store_be32(val + 4 * cells * i + 4, irq[i][1]);
		store_be32(val + 4 * cells * i + 8, 0xf08); /* level-low, 4 CPUs */
	}
	fdtb_prop(&b, "interrupts", val, 4 * cells * nr_irqs);
}

/* The usual: an armv8 timer, 3 cells, virtual (@type, @number); closed. */
static void timer(uint32_t parent, uint32_t type, uint32_t number)
{
	timer_irqs("arm,armv8-timer", parent, 3, type, number, 4);
	fdtb_end(&b);
}

/* An interrupt controller of @compatible at 0x40000000, 2 cells. */
static void intc2(const char *compatible, uint32_t phandle)
{
	fdtb_begin(&b, "interrupt-controller@40000000");
	fdtb_prop_str(&b, "compatible", compatible);
	fdtb_prop(&b, "interrupt-controller", NULL, 0);
	fdtb_prop_cells(&b, "#interrupt-cells", 1, 2);
	fdtb_prop_cells(&b, "phandle", 1, phandle);
	fdtb_prop_cells(&b, "reg", 4, 0, 0x40000000, 0, 0x100);
	fdtb_end(&b);
}

/* Another interrupt controller (a Raspberry Pi 1's, which is not read). */
static void other_intc(void)
{
	intc2("brcm,bcm2835-armctrl-ic", OTHER_PHANDLE);
}

static bool gic_is(unsigned int version, uint64_t dist, uint64_t cpu_if,
		   unsigned int nr_redist, unsigned int vtimer)
{
	if (gic.version == version && gic.dist == dist &&
	    gic.cpu_if == cpu_if && gic.nr_redist == nr_redist &&
	    gic.vtimer_intid == vtimer && !strcmp(gic.source, "device tree"))
		return true;
	printf("# version %u dist %#llx cpu_if %#llx nr_redist %u vtimer %u "
	       "source %s, expected %u %#llx %#llx %u %u\n", gic.version,
	       (unsigned long long)gic.dist, (unsigned long long)gic.cpu_if,
	       gic.nr_redist, gic.vtimer_intid, gic.source, version,
	       (unsigned long long)dist, (unsigned long long)cpu_if,
	       nr_redist, vtimer);
	return false;
}

static bool redist_is(unsigned int i, uint64_t base, uint64_t size)
{
	if (i < gic.nr_redist && gic.redist[i].base == base &&
	    gic.redist[i].size == size)
		return true;
	printf("# redist[%u] of %u = %#llx + %#llx, expected %#llx + %#llx\n",
	       i, gic.nr_redist, (unsigned long long)gic.redist[i].base,
	       (unsigned long long)gic.redist[i].size,
	       (unsigned long long)base, (unsigned long long)size);
	return false;
}

#define EXPECT_GIC(v, dist, cpu_if, nr_redist, vtimer)			\
	EXPECT(gic_is(v, dist, cpu_if, nr_redist, vtimer), "gic")

/* No GIC: -ENOENT, version 0 and, nothing being wrong, no message. */
#define EXPECT_NO_GIC(err)						\
	do {								\
		int e_ = (err);						\
		EXPECT(e_ == -ENOENT && gic.version == 0 && !error[0],	\
		       "error %d \"%s\", version %u", e_, error,	\
		       gic.version);					\
	} while (0)

#define EXPECT_READ()							\
	do {								\
		int e_ = finish_and_read();				\
		EXPECT(e_ == 0 && !error[0], "error %d \"%s\"", e_,	\
		       error);						\
	} while (0)

/*
 * Every GICv2 binding this port reads, a timer on it: the distributor and
 * the CPU interface from reg, the virtual timer's PPI taken from the tree
 * (a different one each time, so that a default would not pass), and
 * "arm,armv7-timer" as good as "arm,armv8-timer".
 */
static bool gic_v2_with_timer(void)
{
	static const char *const compatible[] = {
		"arm,gic-400", "arm,cortex-a15-gic", "arm,cortex-a9-gic",
		"arm,cortex-a7-gic", "arm,pl390", "qcom,msm-qgic2",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(compatible); i++) {
		begin_root(GIC_PHANDLE);
		gic_v2(compatible[i]);
		timer_irqs(i & 1 ? "arm,armv7-timer" : "arm,armv8-timer", 0,
			   3, 1, 11 - i, 4);
		fdtb_end(&b);
		EXPECT_READ();
		EXPECT(gic_is(2, 0x8000000, 0x8010000, 0, 27 - i),
		       "%s", compatible[i]);
	}
	return true;
}

/*
 * GICv3: the distributor, then #redistributor-regions regions (default 1);
 * the GICC/GICH/GICV entries after them are not redistributors.
 */
static bool gic_v3_redistributor_regions(void)
{
	static const uint64_t r[6][2] = {
		{ 0x2f000000, 0x10000 },		/* GICD */
		{ 0x2f100000, 0x200000 },		/* GICR region 0 */
		{ 0x4000000000ull, 0x400000 },	/* GICR region 1 */
		{ 0x2c000000, 0x2000 },		/* GICC */
		{ 0x2c010000, 0x2000 },		/* GICH */
		{ 0x2c02f000, 0x2000 },		/* GICV */
	};

	for (uint32_t regions = 0; regions <= 2; regions++) {
		begin_root(GIC_PHANDLE);
		intc("interrupt-controller@2f000000", "arm,gic-v3",
		     GIC_PHANDLE, 3);
		if (regions)
			fdtb_prop_cells(&b, "#redistributor-regions", 1,
					regions);
		reg64(6, r);
		fdtb_end(&b);
		timer(0, 1, 11);
		EXPECT_READ();
		EXPECT(gic_is(3, 0x2f000000, 0, regions ? regions : 1, 27),
		       "#redistributor-regions %u", regions);
		EXPECT(redist_is(0, 0x2f100000, 0x200000), "region 0");
		if (regions == 2)
			EXPECT(redist_is(1, 0x4000000000ull, 0x400000),
			       "region 1");
	}
	return true;
}

/* As many regions as are kept: taken, the last one too. */
static bool gic_v3_most_redistributor_regions(void)
{
	static uint64_t r[GIC_MAX_REDIST_REGIONS + 1][2];
	const unsigned int last = GIC_MAX_REDIST_REGIONS;

	r[0][0] = 0x2f000000;
	r[0][1] = 0x10000;
	for (unsigned int i = 1; i <= last; i++) {
		r[i][0] = 0x100000000ull * i;
		r[i][1] = 0x20000;
	}
	begin_root(GIC_PHANDLE);
	intc("interrupt-controller@2f000000", "arm,gic-v3", GIC_PHANDLE, 3);
	fdtb_prop_cells(&b, "#redistributor-regions", 1, last);
	reg64(last + 1, r);
	fdtb_end(&b);
	EXPECT_READ();
	EXPECT_GIC(3, 0x2f000000, 0, last, 27);
	EXPECT(redist_is(last - 1, 0x100000000ull * last, 0x20000), "last");
	return true;
}

/*
 * #interrupt-cells = <4> (the RK3399's GICv3, with ppi-partitions): each
 * timer interrupt is 16 bytes, so the virtual one is at byte 32; read
 * with 3 cells' stride it would land on a flags cell and be refused.
 */
static bool four_interrupt_cells(void)
{
	static const uint64_t r[2][2] = {
		{ 0xfee00000, 0x10000 }, { 0xfef00000, 0xc0000 },
	};
	static const uint32_t ppis[] = { 11, 4 };

	for (unsigned int i = 0; i < ARRAY_SIZE(ppis); i++) {
		begin_root(GIC_PHANDLE);
		intc("interrupt-controller@fee00000", "arm,gic-v3",
		     GIC_PHANDLE, 4);
		reg64(2, r);
		fdtb_begin(&b, "ppi-partitions");
		fdtb_begin(&b, "interrupt-partition-0");
		fdtb_prop_cells(&b, "affinity", 2, 2, 3);
		fdtb_prop_cells(&b, "phandle", 1, 0x13);
		fdtb_end(&b);
		fdtb_end(&b);
		fdtb_end(&b);
		timer_irqs("arm,armv8-timer", 0, 4, 1, ppis[i], 4);
		fdtb_end(&b);
		EXPECT_READ();
		EXPECT_GIC(3, 0xfee00000, 0, 1, 16 + ppis[i]);
		EXPECT(redist_is(0, 0xfef00000, 0xc0000), "region");
	}
	/* 4 cells but only 2 interrupts: no virtual timer to read. */
	begin_root(GIC_PHANDLE);
	intc("interrupt-controller@fee00000", "arm,gic-v3", GIC_PHANDLE, 4);
	reg64(2, r);
	fdtb_end(&b);
	timer_irqs("arm,armv8-timer", 0, 4, 1, 11, 2);
	fdtb_end(&b);
	EXPECT_READ();
	EXPECT(gic.vtimer_intid == 0, "vtimer %u", gic.vtimer_intid);
	return true;
}

/*
 * The timer's interrupt-parent is the nearest one on the way to the root:
 * its own, its bus's, the root's. The GIC is phandle 1, the other
 * controller phandle 2.
 */
static bool timer_interrupt_parent_inherited(void)
{
	static const struct {
		uint32_t root, bus, own;
		unsigned int want;
	} cases[] = {
		{ GIC_PHANDLE, 0, 0, 27 },		/* the root's */
		{ OTHER_PHANDLE, GIC_PHANDLE, 0, 27 },	/* the bus's wins */
		{ GIC_PHANDLE, OTHER_PHANDLE, 0, 0 },
		{ OTHER_PHANDLE, 0, GIC_PHANDLE, 27 },	/* its own wins */
		{ GIC_PHANDLE, GIC_PHANDLE, OTHER_PHANDLE, 0 },
		{ 0, 0, 0, 0 },	/* none: its tree parent, not a GIC */
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		begin_root(cases[i].root);
		gic_v2("arm,gic-400");
		other_intc();
		fdtb_begin(&b, "bus");
		fdtb_prop_cells(&b, "#address-cells", 1, 1);
		fdtb_prop_cells(&b, "#size-cells", 1, 1);
		fdtb_prop(&b, "ranges", NULL, 0);
		if (cases[i].bus)
			fdtb_prop_cells(&b, "interrupt-parent", 1,
					cases[i].bus);
		timer(cases[i].own, 1, 11);
		fdtb_end(&b);
		EXPECT_READ();
		EXPECT(gic_is(2, 0x8000000, 0x8010000, 0, cases[i].want),
		       "case %u", i);
	}
	return true;
}

/* A GIC named by "linux,phandle" (old trees) is the timer's parent too. */
static bool linux_phandle(void)
{
	static const uint64_t r[2][2] = {
		{ 0x8000000, 0x10000 }, { 0x8010000, 0x10000 },
	};

	begin_root(0x8002);
	fdtb_begin(&b, "intc@8000000");
	fdtb_prop_str(&b, "compatible", "arm,cortex-a15-gic");
	fdtb_prop_cells(&b, "#interrupt-cells", 1, 3);
	fdtb_prop_cells(&b, "linux,phandle", 1, 0x8002);
	reg64(2, r);
	fdtb_end(&b);
	timer(0, 1, 11);
	EXPECT_READ();
	EXPECT_GIC(2, 0x8000000, 0x8010000, 0, 27);
	return true;
}

/*
 * A virtual timer the idle loop cannot wait for: wired to another
 * controller, an SPI, a PPI number past 15, interrupts too short to have
 * a third; each gives 0 while the GIC itself is read.
 */
static bool unusable_virtual_timer(void)
{
	static const struct {
		uint32_t parent, type, number;
		unsigned int nr_irqs;
		const char *what;
	} cases[] = {
		{ OTHER_PHANDLE, 1, 11, 4, "another controller" },
		{ GIC_PHANDLE, 0, 11, 4, "an SPI" },
		{ GIC_PHANDLE, 2, 11, 4, "type 2" },
		{ GIC_PHANDLE, 1, 16, 4, "PPI 16" },
		{ GIC_PHANDLE, 1, 11, 2, "two interrupts" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		begin_root(GIC_PHANDLE);
		gic_v2("arm,gic-400");
		other_intc();
		timer_irqs("arm,armv8-timer", cases[i].parent, 3,
			   cases[i].type, cases[i].number, cases[i].nr_irqs);
		fdtb_end(&b);
		EXPECT_READ();
		EXPECT(gic_is(2, 0x8000000, 0x8010000, 0, 0), "%s",
		       cases[i].what);
	}
	/* The highest PPI is taken: the bound is the number, not below it. */
	begin_root(GIC_PHANDLE);
	gic_v2("arm,gic-400");
	timer(0, 1, 15);
	EXPECT_READ();
	EXPECT(gic.vtimer_intid == 31, "PPI 15: vtimer %u", gic.vtimer_intid);
	return true;
}

/*
 * The BCM2836 local controller (a Raspberry Pi 2 or 3's): read when
 * there is no GIC, its timer input 3 (CNTVIRQ) from the timer's third
 * interrupt (one number and its flags), 0 when that is another input,
 * the timer is wired elsewhere, or says nothing (no default: the
 * default is a GIC's PPI).
 */
static bool bcm2836_local_controller(void)
{
	static const struct {
		uint32_t parent, third;
		bool timer;
		unsigned int want;
	} cases[] = {
		{ GIC_PHANDLE, 3, true, 3 },
		{ GIC_PHANDLE, 1, true, 0 },
		{ OTHER_PHANDLE, 3, true, 0 },
		{ GIC_PHANDLE, 3, false, 0 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t val[4 * 8];
		const uint32_t irq[4] = { 0, 1, cases[i].third, 2 };

		for (unsigned int k = 0; k < 4; k++) {
			store_be32(val + 8 * k, irq[k]);
			store_be32(val + 8 * k + 4, 4);	/* level-high */
		}
		begin_root(cases[i].parent);
		intc2("brcm,bcm2836-l1-intc", GIC_PHANDLE);
		other_intc();
		if (cases[i].timer) {
			fdtb_begin(&b, "timer");
			fdtb_prop_str(&b, "compatible", "arm,armv7-timer");
			fdtb_prop(&b, "interrupts", val, sizeof(val));
			fdtb_end(&b);
		}
		EXPECT_READ();
		EXPECT(gic_is(GIC_BCM2836_LOCAL, 0x40000000, 0, 0,
			      cases[i].want), "case %u", i);
	}
	/* Beside a GIC, the GIC is what is read. */
	begin_root(GIC_PHANDLE);
	intc2("brcm,bcm2836-l1-intc", OTHER_PHANDLE);
	gic_v2("arm,gic-400");
	timer(0, 1, 11);
	EXPECT_READ();
	EXPECT_GIC(2, 0x8000000, 0x8010000, 0, 27);
	return true;
}

/*
 * interrupts-extended: each interrupt names its controller. The virtual
 * timer's entry is the third; every entry up to it must be on the GIC (3
 * cells each there), else the reader cannot know where the third starts
 * or where it goes. It wins over an interrupt-parent that says otherwise.
 */
static bool timer_interrupts_extended(void)
{
	static const struct {
		uint32_t first, third, number;
		unsigned int nr;
		unsigned int want;
	} cases[] = {
		{ GIC_PHANDLE, GIC_PHANDLE, 11, 4, 27 },
		{ GIC_PHANDLE, GIC_PHANDLE, 5, 3, 21 },
		{ GIC_PHANDLE, OTHER_PHANDLE, 11, 4, 0 },
		{ OTHER_PHANDLE, GIC_PHANDLE, 11, 4, 0 },
		{ GIC_PHANDLE, GIC_PHANDLE, 11, 2, 0 },	/* no third */
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t val[4 * 4 * 4];
		const uint32_t ph[4] = { cases[i].first, GIC_PHANDLE,
					 cases[i].third, GIC_PHANDLE };
		const uint32_t ppi[4] = { 13, 14, cases[i].number, 10 };

		for (unsigned int k = 0; k < 4; k++) {
			store_be32(val + 16 * k, ph[k]);
			store_be32(val + 16 * k + 4, 1);
			store_be32(val + 16 * k + 8, ppi[k]);
			store_be32(val + 16 * k + 12, 0xf08);
		}
		/* The root's interrupt-parent is the other controller. */
		begin_root(OTHER_PHANDLE);
		gic_v2("arm,gic-400");
		other_intc();
		fdtb_begin(&b, "timer");
		fdtb_prop_str(&b, "compatible", "arm,armv8-timer");
		fdtb_prop(&b, "interrupts-extended", val, 16 * cases[i].nr);
		fdtb_end(&b);
		EXPECT_READ();
		EXPECT(gic_is(2, 0x8000000, 0x8010000, 0, cases[i].want),
		       "case %u", i);
	}
	return true;
}

/*
 * Nothing said about the timer: the architecture's INTID 27. No timer
 * node, a disabled one, one without interrupts (or an empty property).
 * The virtual timer is wired to an SPI in the disabled node, so reading
 * it would give 0.
 */
static bool no_timer_gives_the_default(void)
{
	for (unsigned int i = 0; i < 4; i++) {
		begin_root(GIC_PHANDLE);
		gic_v2("arm,gic-400");
		if (i == 1) {
			timer_irqs("arm,armv8-timer", 0, 3, 0, 11, 4);
			fdtb_prop_str(&b, "status", "disabled");
			fdtb_end(&b);
		} else if (i >= 2) {
			fdtb_begin(&b, "timer");
			fdtb_prop_str(&b, "compatible", "arm,armv8-timer");
			if (i == 3)
				fdtb_prop(&b, "interrupts", NULL, 0);
			fdtb_end(&b);
		}
		EXPECT_READ();
		EXPECT(gic_is(2, 0x8000000, 0x8010000, 0, 27), "case %u", i);
	}
	return true;
}

/*
 * The Raspberry Pi 4's shape: the GIC on /soc, whose ranges map bus
 * address 0x40000000 to CPU address 0xff800000; reg is read with the
 * bus's 1/1 cells and translated. A bus with no ranges is not on the
 * CPU's bus: refused.
 */
static bool gic_on_a_bus_with_ranges(void)
{
	for (unsigned int with_ranges = 0; with_ranges < 2; with_ranges++) {
		int err;

		begin_root(GIC_PHANDLE);
		fdtb_begin(&b, "soc");
		fdtb_prop_cells(&b, "#address-cells", 1, 1);
		fdtb_prop_cells(&b, "#size-cells", 1, 1);
		if (with_ranges)
			fdtb_prop_cells(&b, "ranges", 8,
					0x7e000000, 0, 0xfe000000, 0x1800000,
					0x40000000, 0, 0xff800000, 0x800000);
		intc("interrupt-controller@40041000", "arm,gic-400",
		     GIC_PHANDLE, 3);
		fdtb_prop_cells(&b, "reg", 4, 0x40041000, 0x1000,
				0x40042000, 0x2000);
		fdtb_end(&b);
		fdtb_end(&b);
		timer(0, 1, 11);
		err = finish_and_read();
		if (with_ranges) {
			EXPECT(err == 0, "error %d \"%s\"", err, error);
			EXPECT_GIC(2, 0xff841000, 0xff842000, 0, 27);
		} else {
			EXPECT(err == -EINVAL && gic.version == 0 &&
			       strstr(error, "reg entry 0 (distributor)") &&
			       strstr(error, "soc has no ranges"),
			       "error %d \"%s\" version %u", err, error,
			       gic.version);
		}
	}
	return true;
}

/*
 * Which node: the first available GICv3, else the first available GICv2.
 * A disabled GICv3 before a GICv2 leaves the GICv2; a GICv2 before a
 * GICv3 does not win; of two GICv3s the disabled one is passed over.
 */
static bool which_gic_node(void)
{
	static const uint64_t v3a[2][2] = {
		{ 0x2f000000, 0x10000 }, { 0x2f100000, 0x200000 },
	};
	static const uint64_t v3b[2][2] = {
		{ 0x3f000000, 0x10000 }, { 0x3f100000, 0x200000 },
	};

	/* A disabled GICv3, then a GICv2. */
	begin_root(GIC_PHANDLE);
	intc("interrupt-controller@2f000000", "arm,gic-v3", 5, 3);
	fdtb_prop_str(&b, "status", "disabled");
	reg64(2, v3a);
	fdtb_end(&b);
	gic_v2("arm,gic-400");
	timer(0, 1, 11);
	EXPECT_READ();
	EXPECT_GIC(2, 0x8000000, 0x8010000, 0, 27);

	/* A GICv2 first, then a disabled and an okay GICv3. */
	begin_root(GIC_PHANDLE);
	gic_v2("arm,gic-400");
	intc("interrupt-controller@2f000000", "arm,gic-v3", 5, 3);
	fdtb_prop_str(&b, "status", "disabled");
	reg64(2, v3a);
	fdtb_end(&b);
	intc("interrupt-controller@3f000000", "arm,gic-v3", 6, 3);
	fdtb_prop_str(&b, "status", "okay");
	reg64(2, v3b);
	fdtb_end(&b);
	/* The timer on the GICv2: not the GIC read, so no INTID. */
	timer(0, 1, 11);
	EXPECT_READ();
	EXPECT_GIC(3, 0x3f000000, 0, 1, 0);
	EXPECT(redist_is(0, 0x3f100000, 0x200000), "region");

	/* Only disabled GICs: none. */
	begin_root(GIC_PHANDLE);
	intc("intc@8000000", "arm,gic-400", GIC_PHANDLE, 3);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_end(&b);
	timer(0, 1, 11);
	EXPECT_NO_GIC(finish_and_read());
	return true;
}

#define EXPECT_REFUSED(needle)						\
	do {								\
		int e_ = finish_and_read();				\
		EXPECT(e_ == -EINVAL && gic.version == 0 &&		\
		       strstr(error, needle), "error %d \"%s\" version "\
		       "%u, expected -EINVAL with \"%s\"", e_, error,	\
		       gic.version, needle);				\
	} while (0)

/* A GIC node whose reg or #redistributor-regions cannot be used. */
static bool unusable_gic_nodes_are_refused(void)
{
	static const uint64_t one[1][2] = { { 0x8000000, 0x10000 } };
	static const uint64_t v3[3][2] = {
		{ 0x2f000000, 0x10000 }, { 0x2f100000, 0x200000 },
		{ 0x4000000000ull, 0x400000 },
	};
	static const struct {
		uint64_t dist[2];
		const char *why;
	} bad_dist[] = {
		{ { 0, 0x10000 }, "at 0" },
		{ { 0x8000000, 0 }, "empty" },
		{ { 0xffffffffffff0000ull, 0x20000 }, "wraps" },
	};
	uint64_t r[2][2];

	begin_root(GIC_PHANDLE);
	intc("intc@8000000", "arm,cortex-a15-gic", GIC_PHANDLE, 3);
	fdtb_end(&b);
	EXPECT_REFUSED("intc@8000000: reg entry 0 (distributor) cannot be "
		       "used (intc@8000000 has no reg)");

	begin_root(GIC_PHANDLE);
	intc("intc@8000000", "arm,cortex-a15-gic", GIC_PHANDLE, 3);
	reg64(1, one);
	fdtb_end(&b);
	EXPECT_REFUSED("reg entry 1 (CPU interface) cannot be used");

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_dist); i++) {
		memcpy(r[0], bad_dist[i].dist, sizeof(r[0]));
		r[1][0] = 0x8010000;
		r[1][1] = 0x10000;
		begin_root(GIC_PHANDLE);
		intc("intc@8000000", "arm,gic-400", GIC_PHANDLE, 3);
		reg64(2, r);
		fdtb_end(&b);
		EXPECT_REFUSED("reg entry 0 (distributor) is empty, at 0, or "
			       "wraps");
	}

	/* 0 regions, more than are kept, more than reg has. */
	for (uint32_t regions = 0; regions <= 3; regions += 3) {
		begin_root(GIC_PHANDLE);
		intc("intc@2f000000", "arm,gic-v3", GIC_PHANDLE, 3);
		fdtb_prop_cells(&b, "#redistributor-regions", 1, regions);
		reg64(3, v3);
		fdtb_end(&b);
		EXPECT_REFUSED(regions ? "reg entry 3 (redistributor) cannot "
			       "be used" : "#redistributor-regions is 0");
	}
	begin_root(GIC_PHANDLE);
	intc("intc@2f000000", "arm,gic-v3", GIC_PHANDLE, 3);
	fdtb_prop_cells(&b, "#redistributor-regions", 1,
			GIC_MAX_REDIST_REGIONS + 1);
	reg64(3, v3);
	fdtb_end(&b);
	EXPECT_REFUSED("#redistributor-regions is");

	/* #redistributor-regions not one cell: refused, not taken as 1. */
	begin_root(GIC_PHANDLE);
	intc("intc@2f000000", "arm,gic-v3", GIC_PHANDLE, 3);
	fdtb_prop_cells(&b, "#redistributor-regions", 2, 0, 1);
	reg64(3, v3);
	fdtb_end(&b);
	EXPECT_REFUSED("#redistributor-regions is 0");

	/* A redistributor region at 0. */
	begin_root(GIC_PHANDLE);
	intc("intc@2f000000", "arm,gic-v3", GIC_PHANDLE, 3);
	fdtb_prop_cells(&b, "reg", 8, 0, 0x2f000000, 0, 0x10000,
			0, 0, 0, 0x200000);
	fdtb_end(&b);
	EXPECT_REFUSED("reg entry 1 (redistributor) is empty, at 0, or "
		       "wraps");
	return true;
}

/* No GIC: -ENOENT, version 0, and no message (nothing is wrong). */
static bool no_gic(void)
{
	begin_root(OTHER_PHANDLE);
	other_intc();
	fdtb_begin(&b, "msi-controller@2f020000");
	fdtb_prop_str(&b, "compatible", "arm,gic-v3-its");
	fdtb_end(&b);
	timer(0, 1, 11);
	EXPECT_NO_GIC(finish_and_read());
	return true;
}

/* Every prefix of a good blob and a bad token: refused, never read past. */
static bool damaged_blobs_are_refused(void)
{
	int err;

	begin_root(GIC_PHANDLE);
	gic_v2("arm,gic-400");
	timer(0, 1, 11);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	for (size_t len = 0; len < b.len; len++) {
		err = read_gic_blob(b.blob, len);
		EXPECT(err == -EINVAL && gic.version == 0 && error[0] &&
		       strcmp(error, "stale"), "a %zu-byte prefix gave %d "
		       "\"%s\", version %u", len, err, error, gic.version);
	}
	fdtb_set32(&b, b.off_struct, 0x77);
	err = read_gic_blob(b.blob, b.len);
	EXPECT(err == -EINVAL && gic.version == 0 &&
	       strstr(error, "unknown token"), "a bad token gave %d \"%s\"",
	       err, error);
	return true;
}

/* A fixture file (boot_test.c's fixture_load()). */
static int read_fixture(const char *path)
{
	size_t len;
	void *blob = fixture_load(path, &len);
	int err;

	if (!blob)
		return -EIO;
	err = read_gic_blob(blob, len);
	free(blob);
	return err;
}

#define QEMU	"tests/fixtures/qemu/"
#define BOARDS	"tests/fixtures/boards/"

/*
 * Real trees. Every expected value below is from `dtc -I dtb -O dts` of
 * the fixture (zcat first for QEMU's); the node each comes from is named.
 * In all of them the timer's virtual interrupt is <0x01 0x0b ...>, PPI 11,
 * INTID 27.
 */
static bool firmware_trees_read_as_expected(void)
{
	/*
	 * QEMU virt, GICv2: /intc@8000000 "arm,cortex-a15-gic", reg
	 * <0x00 0x8000000 ...> <0x00 0x8010000 ...>; / interrupt-parent =
	 * <0x8005>, the intc's phandle; /timer interrupts third entry
	 * <0x01 0x0b 0xf04>.
	 */
	EXPECT(read_fixture(QEMU "aarch64-max-smp4.dtb.gz") == 0, "%s", error);
	EXPECT_GIC(2, 0x8000000, 0x8010000, 0, 27);
	/*
	 * QEMU virt at EL2: /intc@8000000 reg has 4 entries (GICD, GICC,
	 * then 0x8030000 GICH and 0x8040000 GICV); the CPU interface is
	 * still the second. phandle and / interrupt-parent <0x8002>.
	 */
	EXPECT(read_fixture(QEMU "aarch64-virt-el2.dtb.gz") == 0, "%s", error);
	EXPECT_GIC(2, 0x8000000, 0x8010000, 0, 27);
	/*
	 * Raspberry Pi 4: /soc/interrupt-controller@40041000 "arm,gic-400",
	 * reg <0x40041000 0x1000 0x40042000 0x2000 ...>, through /soc ranges
	 * <0x40000000 0x00 0xff800000 0x800000>: 0xff841000, 0xff842000.
	 * / interrupt-parent = <0x01>, the GIC's phandle.
	 */
	EXPECT(read_fixture(BOARDS "broadcom-bcm2711-rpi-4-b.dtb") == 0, "%s",
	       error);
	EXPECT_GIC(2, 0xff841000, 0xff842000, 0, 27);
	/*
	 * Raspberry Pi 3: no GIC compatible anywhere, but
	 * /soc/local_intc@40000000 "brcm,bcm2836-l1-intc", reg <0x40000000
	 * 0x100>, #interrupt-cells <0x02>, phandle <0x18>, through /soc
	 * ranges <... 0x40000000 0x40000000 0x1000>; /timer
	 * "arm,armv7-timer", interrupt-parent = <0x18>, interrupts = <0x00
	 * 0x04 0x01 0x04 0x03 0x04 0x02 0x04>: the third is 3, CNTVIRQ.
	 */
	EXPECT(read_fixture(BOARDS "broadcom-bcm2837-rpi-3-b.dtb") == 0, "%s",
	       error);
	EXPECT_GIC(GIC_BCM2836_LOCAL, 0x40000000, 0, 0, 3);
	/*
	 * ZCU102: /axi/interrupt-controller@f9010000 "arm,gic-400", reg
	 * <0x00 0xf9010000 0x00 0x10000 0x00 0xf9020000 0x00 0x20000 ...>,
	 * /axi ranges empty; /timer interrupt-parent = <0x04>, the GIC's
	 * phandle.
	 */
	EXPECT(read_fixture(BOARDS "xilinx-zynqmp-zcu102-rev1.0.dtb") == 0,
	       "%s", error);
	EXPECT_GIC(2, 0xf9010000, 0xf9020000, 0, 27);
	/*
	 * Juno r1: /interrupt-controller@2c010000 "arm,gic-400\0arm,cortex-
	 * a15-gic", reg <0x00 0x2c010000 0x00 0x1000 0x00 0x2c02f000 ...>
	 * (the CPU interface's 4 KiB alias at the end of a 64 KiB frame).
	 */
	EXPECT(read_fixture(BOARDS "arm-juno-r1.dtb") == 0, "%s", error);
	EXPECT_GIC(2, 0x2c010000, 0x2c02f000, 0, 27);
	/*
	 * FVP Base RevC: /interrupt-controller@2f000000 "arm,gic-v3", no
	 * #redistributor-regions, reg <0x00 0x2f000000 0x00 0x10000 0x00
	 * 0x2f100000 0x00 0x200000 ...>; / interrupt-parent = <0x01>.
	 */
	EXPECT(read_fixture(BOARDS "arm-fvp-base-revc.dtb") == 0, "%s", error);
	EXPECT_GIC(3, 0x2f000000, 0, 1, 27);
	EXPECT(redist_is(0, 0x2f100000, 0x200000), "FVP");
	/*
	 * RockPro64 (RK3399): /interrupt-controller@fee00000 "arm,gic-v3",
	 * #interrupt-cells = <0x04>, reg <0x00 0xfee00000 0x00 0x10000 0x00
	 * 0xfef00000 0x00 0xc0000 ...>; /timer interrupts third entry
	 * <0x01 0x0b 0x08 0x00>; / interrupt-parent = <0x01>.
	 */
	EXPECT(read_fixture(BOARDS "rockchip-rk3399-rockpro64.dtb") == 0, "%s",
	       error);
	EXPECT_GIC(3, 0xfee00000, 0, 1, 27);
	EXPECT(redist_is(0, 0xfef00000, 0xc0000), "RK3399");
	/*
	 * DragonBoard 820c: /soc/interrupt-controller@9bc0000
	 * "qcom,msm8996-gic-v3\0arm,gic-v3", #redistributor-regions =
	 * <0x01>, reg <0x9bc0000 0x10000 0x9c00000 0x100000>; /soc ranges
	 * <0x00 0x00 0x00 0xffffffff> (the identity, below 4 GiB).
	 */
	EXPECT(read_fixture(BOARDS "qcom-apq8096-db820c.dtb") == 0, "%s", error);
	EXPECT_GIC(3, 0x9bc0000, 0, 1, 27);
	EXPECT(redist_is(0, 0x9c00000, 0x100000), "DB820c");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(gic_v2_with_timer),
	HOST_TEST(gic_v3_redistributor_regions),
	HOST_TEST(gic_v3_most_redistributor_regions),
	HOST_TEST(four_interrupt_cells),
	HOST_TEST(timer_interrupt_parent_inherited),
	HOST_TEST(linux_phandle),
	HOST_TEST(unusable_virtual_timer),
	HOST_TEST(timer_interrupts_extended),
	HOST_TEST(bcm2836_local_controller),
	HOST_TEST(no_timer_gives_the_default),
	HOST_TEST(gic_on_a_bus_with_ranges),
	HOST_TEST(which_gic_node),
	HOST_TEST(unusable_gic_nodes_are_refused),
	HOST_TEST(no_gic),
	HOST_TEST(damaged_blobs_are_refused),
	HOST_TEST(firmware_trees_read_as_expected),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
