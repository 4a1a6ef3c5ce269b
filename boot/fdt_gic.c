/*
 * fdt_gic.c - the GIC and the virtual timer's interrupt in a device tree
 * (the bindings arm,gic-v3.yaml, arm,gic.yaml and arm,arch_timer.yaml):
 *
 *   intc@8000000 { compatible = "arm,gic-v3"; #interrupt-cells = <3>;
 *       reg = <GICD> <GICR region> ... (#redistributor-regions, default 1)
 *             [<GICC> <GICH> <GICV>]; phandle = <1>; }
 *   intc@8000000 { compatible = "arm,cortex-a15-gic"; (a GICv2)
 *       reg = <GICD> <GICC> [<GICH> <GICV>]; }
 *   timer { compatible = "arm,armv8-timer"; interrupt-parent = <1>;
 *       interrupts = <secure phys> <phys> <virt> <hyp> [<hyp virt>]; }
 *
 * Each interrupt is #interrupt-cells cells: type (0 SPI, 1 PPI), number,
 * flags, and with ppi-partitions a fourth (a partition's phandle, which
 * changes nothing here). A PPI's INTID is 16 + its number. With no GIC,
 * a Raspberry Pi 2 or 3 has the BCM2836 local interrupt controller:
 *
 *   local_intc@40000000 { compatible = "brcm,bcm2836-l1-intc";
 *       reg = <0x40000000 0x100>; #interrupt-cells = <2>; }
 *
 * whose interrupts are one number (0 secure physical timer, 1 physical,
 * 2 hypervisor, 3 virtual, 8 the GPU, 9 the PMU) and flags; the timer's
 * third must be 3. The timer's
 * interrupt-parent may be its own or an ancestor's, as the specification
 * says, or each interrupt may name its own in "interrupts-extended"; a
 * timer wired to another controller (a Raspberry Pi 3's local interrupt
 * controller, beside no GIC at all) gives no INTID. A
 * #redistributor-regions that is not one cell is refused, as 0 is.
 */
#include <boot/fdt.h>
#include <boot/gic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define GIC_PPI_TYPE		1u
#define BCM2836_CNTVIRQ		3u
#define GIC_PPI_BASE		16u
#define GIC_PPI_COUNT		16u
#define TIMER_VIRT_INDEX	2u	/* the third interrupt of the timer */

/* GICv2 implementations whose binding is arm,gic.yaml's. */
static const char *const gic_v2_compatible[] = {
	"arm,gic-400", "arm,cortex-a15-gic", "arm,cortex-a9-gic",
	"arm,cortex-a7-gic", "arm,pl390", "qcom,msm-qgic2",
};

static int gic_fail(struct boot_gic *out, char *error, int err,
		    const char *fmt, ...) __printf(4, 5);
static int gic_fail(struct boot_gic *out, char *error, int err,
		    const char *fmt, ...)
{
	va_list ap;

	out->version = 0;
	va_start(ap, fmt);
	kvsnprintf(error, BOOT_ERROR_LEN, fmt, ap);
	va_end(ap);
	return err;
}

/* The phandle of the interrupt parent of np's node: its own or an ancestor's. */
static bool interrupt_parent(const struct fdt *fdt,
			     const struct fdt_node_path *np, uint32_t *phandle)
{
	for (int level = np->depth; level >= 0; level--) {
		uint32_t len;
		const void *p = fdt_getprop(fdt, np->node[level],
					    "interrupt-parent", &len);

		if (p && len == 4) {
			*phandle = (uint32_t)fdt_read_cells(p, 1);
			return true;
		}
	}
	return false;
}

static uint32_t node_phandle(const struct fdt *fdt, int node)
{
	uint32_t ph = fdt_getprop_u32(fdt, node, "phandle", 0);

	return ph ? ph : fdt_getprop_u32(fdt, node, "linux,phandle", 0);
}

/*
 * The virtual timer's interrupt specifier in "interrupts-extended": each
 * entry is a controller's phandle and that controller's cells. Only
 * entries on the GIC (@cells each) are walked: one on another controller
 * before or at the virtual timer's makes it unusable here (NULL).
 */
static const uint8_t *extended_vtimer(const uint8_t *p, uint32_t len,
				      uint32_t gic_phandle, uint32_t cells)
{
	uint32_t entry = 4 * (1 + cells);

	for (uint32_t i = 0; i <= TIMER_VIRT_INDEX; i++, p += entry, len -= entry)
		if (len < entry || fdt_read_cells(p, 1) != gic_phandle)
			return NULL;
	return p - entry + 4;
}

/*
 * The virtual timer's INTID on the GIC at @gic: GIC_VTIMER_INTID_DEFAULT
 * with no timer node or no interrupts in it; 0 when the timer's
 * interrupts go elsewhere or its virtual timer is not a PPI. On a
 * BCM2836 local controller (@bcm2836), its input number, which must be
 * CNTVIRQ's, and nothing by default: the default is a GIC's PPI.
 */
static unsigned int vtimer_intid(const struct fdt *fdt, int gic,
				 bool bcm2836)
{
	const unsigned int unsaid = bcm2836 ? 0 : GIC_VTIMER_INTID_DEFAULT;
	struct fdt_node_path np;
	uint32_t len, parent, cells, type, number;
	uint32_t phandle = node_phandle(fdt, gic);
	const uint8_t *irqs;
	int timer;

	if (fdt_find_compatible(fdt, "arm,armv8-timer", &np) &&
	    fdt_find_compatible(fdt, "arm,armv7-timer", &np))
		return unsaid;
	timer = np.node[np.depth];
	cells = fdt_getprop_u32(fdt, gic, "#interrupt-cells", 0);
	if (bcm2836 ? cells != 2 : (cells < 3 || cells > 4))
		return 0;
	irqs = fdt_getprop(fdt, timer, "interrupts-extended", &len);
	if (irqs) {
		irqs = extended_vtimer(irqs, len, phandle, cells);
		if (!irqs)
			return 0;
	} else {
		irqs = fdt_getprop(fdt, timer, "interrupts", &len);
		if (!irqs || !len)
			return unsaid;
		if (!interrupt_parent(fdt, &np, &parent) || parent != phandle ||
		    len < (TIMER_VIRT_INDEX + 1) * cells * 4)
			return 0;
		irqs += TIMER_VIRT_INDEX * cells * 4;
	}
	if (bcm2836)
		return fdt_read_cells(irqs, 1) == BCM2836_CNTVIRQ ?
			       BCM2836_CNTVIRQ : 0;
	type = (uint32_t)fdt_read_cells(irqs, 1);
	number = (uint32_t)fdt_read_cells(irqs + 4, 1);
	if (type != GIC_PPI_TYPE || number >= GIC_PPI_COUNT)
		return 0;
	return GIC_PPI_BASE + number;
}

static int read_reg(const struct fdt *fdt, const struct fdt_node_path *np,
		    unsigned int index, const char *what, struct boot_gic *out,
		    char *error, struct gic_region *r)
{
	char why[BOOT_ERROR_LEN];
	int err;

	error[0] = '\0';
	err = fdt_reg_translate(fdt, np, index, &r->base, &r->size);
	if (err) {
		/* @error is fdt->error: keep its reason before reusing it. */
		memcpy(why, error, sizeof(why));
		return gic_fail(out, error, -EINVAL, "fdt: %s: reg entry %u "
				"(%s) cannot be used (%s)",
				fdt_node_name(fdt, np->node[np->depth]), index,
				what, why[0] ? why : "missing");
	}
	if (!r->base || !r->size || r->base + r->size < r->base)
		return gic_fail(out, error, -EINVAL, "fdt: %s: reg entry %u "
				"(%s) is empty, at 0, or wraps",
				fdt_node_name(fdt, np->node[np->depth]), index,
				what);
	return 0;
}

int fdt_read_gic(const void *blob, size_t size, struct boot_gic *out,
		 char *error)
{
	struct fdt_node_path np;
	struct gic_region r;
	struct fdt fdt;
	uint32_t nr, len;
	int err, node;

	memset(out, 0, sizeof(*out));
	out->source = "device tree";
	error[0] = '\0';
	if (fdt_open(&fdt, blob, size, error))
		return -EINVAL;
	if (!fdt_find_compatible(&fdt, "arm,gic-v3", &np)) {
		out->version = 3;
	} else {
		for (unsigned int i = 0; i < ARRAY_SIZE(gic_v2_compatible); i++)
			if (!fdt_find_compatible(&fdt, gic_v2_compatible[i],
						 &np)) {
				out->version = 2;
				break;
			}
	}
	if (!out->version &&
	    !fdt_find_compatible(&fdt, "brcm,bcm2836-l1-intc", &np))
		out->version = GIC_BCM2836_LOCAL;
	error[0] = '\0';	/* fdt_find_compatible()'s misses */
	if (!out->version)
		return -ENOENT;
	node = np.node[np.depth];

	err = read_reg(&fdt, &np, 0, "distributor", out, error, &r);
	if (err)
		return err;
	out->dist = r.base;
	if (out->version == GIC_BCM2836_LOCAL) {
		out->vtimer_intid = vtimer_intid(&fdt, node, true);
		error[0] = '\0';
		return 0;
	}
	if (out->version == 2) {
		err = read_reg(&fdt, &np, 1, "CPU interface", out, error, &r);
		if (err)
			return err;
		out->cpu_if = r.base;
	} else {
		nr = fdt_getprop_u32(&fdt, node, "#redistributor-regions", 0);
		if (!nr && !fdt_getprop(&fdt, node, "#redistributor-regions",
					&len))
			nr = 1;		/* the binding's default */
		if (!nr || nr > GIC_MAX_REDIST_REGIONS)
			return gic_fail(out, error, -EINVAL, "fdt: %s: "
					"#redistributor-regions is %u (1 to "
					"%u can be used)",
					fdt_node_name(&fdt, node), nr,
					(unsigned int)GIC_MAX_REDIST_REGIONS);
		for (uint32_t i = 0; i < nr; i++) {
			err = read_reg(&fdt, &np, 1 + i, "redistributor",
				       out, error, &out->redist[i]);
			if (err)
				return err;
		}
		out->nr_redist = nr;
	}
	out->vtimer_intid = vtimer_intid(&fdt, node, false);
	error[0] = '\0';
	return 0;
}
