/*
 * gic.c - idle CPUs that sleep on aarch64: the Generic Interrupt
 * Controller (GICv2 or GICv3, as the boot information describes it:
 * include/boot/gic.h) and the EL1 virtual timer, just enough for
 * arch_cpu_idle() to wfi until another CPU's wake-up (SGI 0) or the
 * timer, a millisecond ahead.
 *
 * The Raspberry Pi 2 and 3 have no GIC: their BCM2836 local interrupt
 * controller routes each core's virtual timer and mailbox 0 straight to
 * that core's IRQ, and a mailbox write is the wake-up (version
 * GIC_BCM2836_LOCAL in the boot information).
 *
 * Neither interrupt is ever taken. Every CPU runs with PSTATE.I set, and
 * a pending IRQ ends a wfi whatever PSTATE's masks say (Arm ARM, "Wait
 * for Interrupt"); arch_cpu_idle() then stops the timer and acknowledges
 * what is pending (IAR, then EOIR: priority drop and deactivation at
 * once) with the IRQ still masked, so no vector is involved.
 *
 * Set-up, only when there is a second CPU to wake (arch_smp_prepare_cpus()):
 *   gic_init()      boot CPU: the distributor; every SPI off, both groups
 *                   on (GICv3: affinity routing too).
 *   gic_init_cpu()  every CPU: its SGIs and PPIs off but SGI 0 and the
 *                   timer's PPI, both group 1 where it can say so and at
 *                   a middle priority; its CPU interface (GICv2: GICC
 *                   MMIO; GICv3: its redistributor, found by MPIDR, woken,
 *                   and the ICC_* system registers) with the priority mask
 *                   open; on a BCM2836, its virtual timer and mailbox 0
 *                   routed to its IRQ. Then the check: an SGI sent to
 *                   itself (as any other CPU would send it) and the timer
 *                   must both reach its interface within 10 ms. A CPU
 *                   where either does not (a GIC whose secure half no
 *                   firmware set up, under QEMU's secure=on) says so and
 *                   spins in idle, as every CPU did before this file.
 *
 * Interrupts of other devices stay off: buddyboot drives none.
 */
#include <arch/fixup.h>
#include <arch/smp.h>
#include <boot/cpus.h>
#include <boot/gic.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include <smp/smp.h>
#include "gic.h"
#include "sysreg.h"

#define SGI_WAKEUP		0u
#define GIC_PRIORITY		0xa0u	/* below the mask, any implemented bits */
#define GIC_PMR_OPEN		0xf0u	/* every priority above 0xf0 signals */
#define INTID_SPECIAL		1020u	/* 1020..1023: nothing to acknowledge */
#define ACK_MAX			32u	/* a storm cannot hold idle forever */
#define CHECK_NS		(10ULL * 1000 * 1000)
#define IDLE_TICKS_DIVISOR	1000u	/* the timer, 1 ms ahead */

/* Distributor registers (both versions; GICD_TYPER.ITLinesNumber too). */
#define GICD_CTLR		0x000
#define GICD_TYPER		0x004
#define GICD_IGROUPR		0x080
#define GICD_ISENABLER		0x100
#define GICD_ICENABLER		0x180
#define GICD_IPRIORITYR		0x400
#define GICD_ITARGETSR		0x800
#define GICD_SGIR		0xf00
#define GICD_CTLR_RWP		(1u << 31)
#define GICD_CTLR_GRP0_GRP1	0x3u	/* non-secure view: Grp1 and Grp1A */
#define GICD_CTLR_ARE		(1u << 4)	/* ARE, or ARE_NS */

/* GICv2 CPU interface. */
#define GICC_CTLR		0x000
#define GICC_PMR		0x004
#define GICC_IAR		0x00c
#define GICC_EOIR		0x010
#define GICC_CTLR_ENABLE	0x3u	/* both groups; group 0 as IRQ (FIQEn 0) */

/* GICv3 redistributor: the RD frame, then the SGI frame 64 KiB on. */
#define GICR_CTLR		0x0000
#define GICR_TYPER		0x0008
#define GICR_WAKER		0x0014
#define GICR_PIDR2		0xffe8
#define GICR_SGI		0x10000
#define GICR_TYPER_VLPIS	(1u << 1)
#define GICR_TYPER_LAST		(1u << 4)
#define GICR_CTLR_RWP		(1u << 3)
#define GICR_WAKER_SLEEP	(1u << 1)
#define GICR_WAKER_ASLEEP	(1u << 2)
#define GIC_PIDR2_ARCH(v)	(((v) >> 4) & 0xf)

/* GICv3 CPU interface system registers (Arm IHI 0069). */
#define ICC_PMR_EL1		s3_0_c4_c6_0
#define ICC_IAR1_EL1		s3_0_c12_c12_0
#define ICC_EOIR1_EL1		s3_0_c12_c12_1
#define ICC_SGI1R_EL1		s3_0_c12_c11_5
#define ICC_CTLR_EL1		s3_0_c12_c12_4
#define ICC_SRE_EL1		s3_0_c12_c12_5
#define ICC_IGRPEN1_EL1		s3_0_c12_c12_7
#define ICC_SRE_SRE		(1u << 0)

/*
 * The BCM2836 local interrupt controller (the Raspberry Pi 2 and 3): per
 * core c (MPIDR Aff0, 0 to 3), which timer and mailbox inputs raise its
 * IRQ, which are pending, and mailbox 0's write-to-set and
 * write-to-clear words (BCM2836 "ARM Quad A7 core" document).
 */
#define BCM_TIMER_CTL(c)	(0x40 + 4 * (c))
#define BCM_MBOX_CTL(c)		(0x50 + 4 * (c))
#define BCM_IRQ_SRC(c)		(0x60 + 4 * (c))
#define BCM_MBOX0_SET(c)	(0x80 + 0x10 * (c))
#define BCM_MBOX0_CLR(c)	(0xc0 + 0x10 * (c))
#define BCM_CORES		4u
#define BCM_MBOX0		(1u << 4)	/* IRQ source and control: mailbox 0 */

#define CNTV_CTL_ENABLE		(1u << 0)

/* What the boot CPU read in gic_init(); read-only after it. */
static struct boot_gic gic;
static uint64_t ticks_per_ms;

/*
 * Each CPU's own state. ready is written once by the CPU itself, with a
 * release after the fields a sender reads (v2_target, core); senders
 * read it with an acquire.
 */
struct gic_cpu {
	bool ready;
	uint8_t v2_target;		/* GICv2: its CPU interface's bit */
	uint8_t core;			/* BCM2836: its core number */
};
static struct gic_cpu gic_cpus[NR_CPUS];

static uint32_t mmio_read32(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static uint64_t mmio_read64(uintptr_t a)
{
	return *(volatile uint64_t *)a;
}

static void mmio_write32(uintptr_t a, uint32_t v)
{
	*(volatile uint32_t *)a = v;
}

/*
 * A first read at an address only the boot information vouches for:
 * where nothing answers, the bus aborts it, and the fixup resumes with
 * *@v untouched. Return: whether the read completed.
 */
static bool mmio_probe32(uintptr_t a, uint32_t *v)
{
	unsigned long done = 0;
	uint32_t val = 0;

	__asm__ volatile("1:	ldr	%w0, [%2]\n"
			 "	mov	%1, #1\n"
			 "2:\n" FIXUP("1b", "2b")
			 : "+r"(val), "+r"(done) : "r"(a) : "memory");
	*v = val;
	return done;
}

/* GICD_IPRIORITYR and GICD_ITARGETSR are byte-accessible; use words. */
static void set_priority(uintptr_t base, unsigned int intid)
{
	uintptr_t reg = base + GICD_IPRIORITYR + (intid & ~3u);
	unsigned int shift = (intid & 3) * 8;
	uint32_t v = mmio_read32(reg);

	mmio_write32(reg, (v & ~(0xffu << shift)) | GIC_PRIORITY << shift);
}

/* Wait for a register-write-pending bit to clear; false after 10 ms. */
static bool wait_rwp(uintptr_t reg, uint32_t bit)
{
	uint64_t start = arch_clock_ns();

	while (mmio_read32(reg) & bit)
		if (arch_clock_ns() - start > CHECK_NS)
			return false;
	return true;
}

static uint32_t read_iar(void)
{
	if (gic.version == 3)
		return (uint32_t)read_sysreg(ICC_IAR1_EL1);
	return mmio_read32(gic.cpu_if + GICC_IAR);
}

static void write_eoir(uint32_t iar)
{
	if (gic.version == 3)
		write_sysreg(iar, ICC_EOIR1_EL1);
	else
		mmio_write32(gic.cpu_if + GICC_EOIR, iar);
}

static unsigned int iar_intid(uint32_t iar)
{
	/* GICv2's bits 12:10 name an SGI's source CPU. */
	return gic.version == 3 ? iar & 0xffffff : iar & 0x3ff;
}

/*
 * The BCM2836 local controller acknowledges nothing: mailbox 0 is
 * cleared here, and the timer's input drops when the timer stops.
 */
static uint32_t ack_pending_bcm2836(struct gic_cpu *me)
{
	uint32_t src = mmio_read32(gic.dist + BCM_IRQ_SRC(me->core));
	uint32_t seen = src & 1u << gic.vtimer_intid, mbox;

	if (src & BCM_MBOX0) {
		mbox = mmio_read32(gic.dist + BCM_MBOX0_CLR(me->core));
		mmio_write32(gic.dist + BCM_MBOX0_CLR(me->core), mbox);
		smp_note_wakeup();
		seen |= 1u << SGI_WAKEUP;
	}
	return seen;
}

static uint32_t ack_pending_gic(struct gic_cpu *me)
{
	uint32_t seen = 0;

	for (unsigned int i = 0; i < ACK_MAX; i++) {
		uint32_t iar = read_iar();
		unsigned int intid = iar_intid(iar);

		if (intid >= INTID_SPECIAL && intid <= INTID_SPECIAL + 3)
			break;
		if (intid < 32)
			seen |= 1u << intid;
		if (intid == SGI_WAKEUP)
			smp_note_wakeup();
		write_eoir(iar);
	}
	return seen;
}

/*
 * Acknowledge and end every pending interrupt; count wake-ups. Returns
 * the INTIDs seen as a mask of those below 32 (for the check).
 */
static uint32_t ack_pending(struct gic_cpu *me)
{
	uint32_t seen = gic.version == GIC_BCM2836_LOCAL ?
				ack_pending_bcm2836(me) : ack_pending_gic(me);

	/*
	 * The acknowledgements (device reads and writes) are complete
	 * before the caller's next look at memory: a wake-up seen here was
	 * sent after what it announces was written (arch_smp_send_wakeup()).
	 */
	__asm__ volatile("dsb sy" ::: "memory");
	return seen;
}

/*
 * SGI 0 (the BCM2836's mailbox 0) to CPU @cpu, by what its own set-up
 * recorded or, for GICv3, its MPIDR: the same way whether @cpu is this
 * CPU (the check) or another (a wake-up).
 */
static void send_sgi(unsigned int cpu)
{
	if (gic.version == GIC_BCM2836_LOCAL) {
		mmio_write32(gic.dist + BCM_MBOX0_SET(gic_cpus[cpu].core), 1);
		return;
	}
	if (gic.version == 3) {
		unsigned long mpidr = cpu_hwid(cpu);
		unsigned long aff0 = mpidr & 0xff;

		/* Aff3, Aff2, Aff1; RS and the target list from Aff0. */
		write_sysreg(((mpidr >> 32) & 0xff) << 48 |
				     ((mpidr >> 16) & 0xff) << 32 |
				     (aff0 >> 4) << 44 |
				     ((mpidr >> 8) & 0xff) << 16 |
				     (unsigned long)SGI_WAKEUP << 24 |
				     1UL << (aff0 & 0xf),
			     ICC_SGI1R_EL1);
		/* The system register write takes effect now, not later. */
		isb();
		return;
	}
	mmio_write32(gic.dist + GICD_SGIR,
		     (uint32_t)gic_cpus[cpu].v2_target << 16 | SGI_WAKEUP);
}

/* GICv3: the redistributor whose GICR_TYPER names this CPU's affinity. */
static uintptr_t find_redistributor(void)
{
	unsigned long mpidr = read_sysreg(mpidr_el1);
	uint32_t aff = (uint32_t)(((mpidr >> 32) & 0xff) << 24 |
				  (mpidr & 0xffffff));

	for (unsigned int i = 0; i < gic.nr_redist; i++) {
		const struct gic_region *r = &gic.redist[i];

		for (uint64_t off = 0; off + GICR_FRAME_SIZE <= r->size;) {
			uintptr_t rd = r->base + off;
			uint32_t pidr2 = 0;
			uint64_t typer;

			if (!mmio_probe32(rd + GICR_PIDR2, &pidr2) ||
			    (GIC_PIDR2_ARCH(pidr2) != 3 &&
			     GIC_PIDR2_ARCH(pidr2) != 4))
				break;		/* not a redistributor */
			typer = mmio_read64(rd + GICR_TYPER);
			if ((uint32_t)(typer >> 32) == aff)
				return rd;
			if (typer & GICR_TYPER_LAST)
				break;
			off += typer & GICR_TYPER_VLPIS ? 2 * GICR_FRAME_SIZE :
							  GICR_FRAME_SIZE;
		}
	}
	return 0;
}

/*
 * This CPU's SGIs and PPIs: SGI 0 and the timer on, the rest off, in
 * @group: GICv2 group 0, which GICC_IAR acknowledges and (FIQEn clear)
 * signals as IRQ; GICv3 group 1, the non-secure IRQ that ICC_IAR1_EL1
 * acknowledges. Where the GIC has a secure side that no firmware set up,
 * the group cannot be written from here and the check catches it.
 */
static void enable_banked(uintptr_t base, uint32_t group, uintptr_t rwp_reg,
			  uint32_t rwp)
{
	uint32_t ours = 1u << SGI_WAKEUP | 1u << gic.vtimer_intid;

	mmio_write32(base + GICD_ICENABLER, ~ours);
	wait_rwp(rwp_reg, rwp);
	mmio_write32(base + GICD_IGROUPR, group);
	set_priority(base, SGI_WAKEUP);
	set_priority(base, gic.vtimer_intid);
	mmio_write32(base + GICD_ISENABLER, ours);
}

static int cpu_interface_init(struct gic_cpu *me, unsigned int cpu)
{
	uintptr_t rd;

	if (gic.version == GIC_BCM2836_LOCAL) {
		unsigned long core = read_sysreg(mpidr_el1) & 0xff;

		if (core >= BCM_CORES) {
			pr_err("gic: cpu %u: core %lu of a BCM2836 local "
			       "controller, which has %u\n", cpu, core,
			       BCM_CORES);
			return -ENODEV;
		}
		me->core = (uint8_t)core;
		/* The virtual timer and mailbox 0 raise this core's IRQ. */
		mmio_write32(gic.dist + BCM_MBOX0_CLR(core), ~0u);
		mmio_write32(gic.dist + BCM_TIMER_CTL(core),
			     1u << gic.vtimer_intid);
		mmio_write32(gic.dist + BCM_MBOX_CTL(core), 1u);
		return 0;
	}
	if (gic.version == 2) {
		/* GICD_ITARGETSR0..7 read back this CPU's own bit. */
		me->v2_target = (uint8_t)mmio_read32(gic.dist + GICD_ITARGETSR);
		enable_banked(gic.dist, 0, gic.dist + GICD_CTLR, GICD_CTLR_RWP);
		mmio_write32(gic.cpu_if + GICC_PMR, GIC_PMR_OPEN);
		mmio_write32(gic.cpu_if + GICC_CTLR, GICC_CTLR_ENABLE);
		return 0;
	}
	rd = find_redistributor();
	if (!rd) {
		pr_err("gic: cpu %u (MPIDR %#lx): no redistributor in the %u "
		       "region(s) the %s gives\n", cpu,
		       read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK,
		       gic.nr_redist, gic.source);
		return -ENODEV;
	}
	mmio_write32(rd + GICR_WAKER,
		     mmio_read32(rd + GICR_WAKER) & ~GICR_WAKER_SLEEP);
	if (!wait_rwp(rd + GICR_WAKER, GICR_WAKER_ASLEEP)) {
		pr_err("gic: cpu %u: its redistributor does not wake\n", cpu);
		return -EIO;
	}
	enable_banked(rd + GICR_SGI, ~0u, rd + GICR_CTLR,
		      GICR_CTLR_RWP);
	write_sysreg(read_sysreg(ICC_SRE_EL1) | ICC_SRE_SRE, ICC_SRE_EL1);
	/* SRE is in effect before the other ICC_* accesses. */
	isb();
	if (!(read_sysreg(ICC_SRE_EL1) & ICC_SRE_SRE)) {
		pr_err("gic: cpu %u: the GICv3 system register interface "
		       "cannot be enabled\n", cpu);
		return -EIO;
	}
	write_sysreg(GIC_PMR_OPEN, ICC_PMR_EL1);
	write_sysreg(0, ICC_CTLR_EL1);		/* EOImode 0: EOIR ends it */
	write_sysreg(1, ICC_IGRPEN1_EL1);
	isb();
	return 0;
}

/* Wait up to 10 ms for INTID @intid to be acknowledged on this CPU. */
static bool arrives(struct gic_cpu *me, unsigned int intid)
{
	uint64_t start = arch_clock_ns();

	do {
		if (ack_pending(me) & 1u << intid)
			return true;
	} while (arch_clock_ns() - start < CHECK_NS);
	return false;
}

void gic_init_cpu(void)
{
	unsigned int cpu = smp_processor_id();
	struct gic_cpu *me = &gic_cpus[cpu];
	bool sgi, timer;

	if (!gic.version || cpu_interface_init(me, cpu))
		return;
	ack_pending(me);		/* whatever firmware left pending */
	send_sgi(cpu);
	sgi = arrives(me, SGI_WAKEUP);
	write_sysreg(0, cntv_tval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	isb();
	timer = arrives(me, gic.vtimer_intid);
	write_sysreg(0, cntv_ctl_el0);
	isb();
	ack_pending(me);
	if (!sgi || !timer) {
		pr_warn("gic: cpu %u: %s does not reach this CPU's interface: "
			"it spins when idle\n", cpu,
			!sgi ? "an SGI to itself" : "the virtual timer");
		return;
	}
	/* Release: v2_target and core before a sender sees it ready. */
	smp_store_release(&me->ready, true);
}

/*
 * The boot information's addresses, before they are used: none in RAM
 * (the identity map has it Normal, and it is the allocator's), and a
 * device that answers at the distributor and the GICv2 CPU interface.
 * A GICv3 redistributor is probed by each CPU as it looks for its own.
 */
static bool gic_addresses_usable(const struct boot_gic *boot)
{
	const struct {
		const char *what;
		phys_addr_t base;
		uint32_t probe;		/* offset of a register without side effects */
	} regs[] = {
		{ boot->version == GIC_BCM2836_LOCAL ? "local controller" :
						       "distributor",
		  boot->dist, boot->version == GIC_BCM2836_LOCAL ?
					  BCM_IRQ_SRC(0) : GICD_TYPER },
		{ "CPU interface", boot->version == 2 ? boot->cpu_if : 0,
		  GICC_PMR },
		{ "redistributor", boot->version == 3 ? boot->redist[0].base : 0,
		  0 },
	};
	uint32_t v;

	for (unsigned int i = 0; i < ARRAY_SIZE(regs); i++) {
		if (!regs[i].base)
			continue;
		if (memblock_is_memory(regs[i].base)) {
			pr_err("gic: the %s's GIC %s at %#llx is in RAM: idle "
			       "CPUs spin\n", boot->source, regs[i].what,
			       (unsigned long long)regs[i].base);
			return false;
		}
		if (regs[i].probe &&
		    !mmio_probe32(regs[i].base + regs[i].probe, &v)) {
			pr_err("gic: nothing answers at the %s's GIC %s, "
			       "%#llx: idle CPUs spin\n", boot->source,
			       regs[i].what, (unsigned long long)regs[i].base);
			return false;
		}
	}
	return true;
}

int gic_init(const struct boot_gic *boot)
{
	uint32_t lines;

	if (!boot->version) {
		printk("gic: none in the boot information: idle CPUs spin\n");
		return -ENODEV;
	}
	if (!boot->vtimer_intid) {
		printk("gic: the virtual timer's interrupt is not a PPI of the "
		       "%s's GIC: idle CPUs spin\n", boot->source);
		return -ENODEV;
	}
	if (!read_sysreg(cntfrq_el0)) {
		printk("gic: CNTFRQ_EL0 is 0, no timer tick: idle CPUs spin\n");
		return -ENODEV;
	}
	/* Without them every ICC_* access below would be undefined. */
	if (boot->version == 3 &&
	    !(read_sysreg(id_aa64pfr0_el1) >> ID_AA64PFR0_GIC_SHIFT & 0xf)) {
		pr_err("gic: the %s gives a GICv3, but this CPU has no GICv3 "
		       "system registers (ID_AA64PFR0_EL1.GIC is 0): idle CPUs "
		       "spin\n", boot->source);
		return -ENODEV;
	}
	if (!gic_addresses_usable(boot))
		return -ENODEV;
	gic = *boot;
	ticks_per_ms = read_sysreg(cntfrq_el0) / IDLE_TICKS_DIVISOR;

	if (gic.version == GIC_BCM2836_LOCAL) {
		printk("gic: none; a BCM2836 local interrupt controller at "
		       "%#llx (%s), virtual timer input %u\n",
		       (unsigned long long)gic.dist, gic.source,
		       gic.vtimer_intid);
		gic_init_cpu();
		return 0;
	}
	/* Off while it is set up; then both groups (and GICv3 ARE) on. */
	mmio_write32(gic.dist + GICD_CTLR, 0);
	wait_rwp(gic.dist + GICD_CTLR, GICD_CTLR_RWP);
	lines = 32 * ((mmio_read32(gic.dist + GICD_TYPER) & 0x1f) + 1);
	for (uint32_t n = 32; n < lines; n += 32)
		mmio_write32(gic.dist + GICD_ICENABLER + n / 8, ~0u);
	wait_rwp(gic.dist + GICD_CTLR, GICD_CTLR_RWP);
	mmio_write32(gic.dist + GICD_CTLR,
		     GICD_CTLR_GRP0_GRP1 | (gic.version == 3 ? GICD_CTLR_ARE : 0));
	wait_rwp(gic.dist + GICD_CTLR, GICD_CTLR_RWP);
	if (gic.version == 3)
		printk("gic: GICv3, distributor %#llx, %u redistributor "
		       "region(s) from %#llx (%s); virtual timer INTID %u\n",
		       (unsigned long long)gic.dist, gic.nr_redist,
		       (unsigned long long)gic.redist[0].base, gic.source,
		       gic.vtimer_intid);
	else
		printk("gic: GICv2, distributor %#llx, CPU interface %#llx "
		       "(%s); virtual timer INTID %u\n",
		       (unsigned long long)gic.dist,
		       (unsigned long long)gic.cpu_if, gic.source,
		       gic.vtimer_intid);
	gic_init_cpu();
	return 0;
}

bool arch_cpu_idle_sleeps(unsigned int cpu)
{
	return cpu < NR_CPUS && smp_load_acquire(&gic_cpus[cpu].ready);
}

/*
 * arch_cpu_idle - wfi until SGI 0 or the timer, then stop the timer and
 * acknowledge. wfi returns at once if a wake-up is already pending, so
 * one sent between the caller's last look and the wfi is not lost; one
 * sent after the acknowledgement stays pending for the next wfi and is
 * also seen at the caller's next look. A CPU whose interface failed its
 * check spins.
 */
void arch_cpu_idle(void)
{
	struct gic_cpu *me = &gic_cpus[smp_processor_id()];

	if (!me->ready) {
		arch_cpu_relax();
		return;
	}
	write_sysreg(ticks_per_ms, cntv_tval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	/* The timer is running before the wfi waits for it. */
	isb();
	__asm__ volatile("wfi" ::: "memory");
	write_sysreg(0, cntv_ctl_el0);
	/* The timer's output is down before its interrupt is acknowledged. */
	isb();
	ack_pending(me);
}

void arch_smp_send_wakeup(unsigned int cpu)
{
	/*
	 * What the wake-up announces (the caller's stores to normal memory)
	 * is visible to every CPU before the SGI is sent, by a device write
	 * (GICv2) or a system register write (GICv3), which a dmb would not
	 * order; and before ready is read below. A CPU that is not ready
	 * yet spins, or will see the request at its first look: it sets
	 * ready, then checks in with a full barrier before it looks.
	 */
	__asm__ volatile("dsb ish" ::: "memory");
	if (!arch_cpu_idle_sleeps(cpu))
		return;
	send_sgi(cpu);
}
