/*
 * gic.h - the Arm Generic Interrupt Controller the boot information
 * describes, and the interrupt of the EL1 virtual timer on it: what the
 * aarch64 port needs to let idle CPUs sleep in wfi until a wake-up (an
 * SGI) or a timer tick (arch/aarch64/gic.c).
 *
 * Read by pure readers, like the CPU list: fdt_read_gic() from the
 * device tree's GIC node ("arm,gic-v3", or a GICv2: "arm,gic-400",
 * "arm,cortex-a15-gic", ...) and its "arm,armv8-timer" node;
 * acpi_madt_gic() from the MADT's GICD, GICR and GICC entries and the
 * GTDT. Only addresses and numbers are read here; whether the controller
 * answers is the driver's to find out.
 */
#ifndef BOOT_GIC_H
#define BOOT_GIC_H

#include <boot/bootmem.h>	/* BOOT_ERROR_LEN */
#include <lib/types.h>
#include <smp/nr_cpus.h>

/*
 * Redistributor regions kept. QEMU's virt has one or two, servers a few;
 * a MADT that gives each CPU's frame in its GICC instead needs one per
 * CPU, so there is room for NR_CPUS of them.
 */
#define GIC_MAX_REDIST_REGIONS	(NR_CPUS < 8 ? 8 : NR_CPUS)

/* The Arm Base System Architecture's EL1 virtual timer: PPI 11, INTID 27. */
#define GIC_VTIMER_INTID_DEFAULT	27u

/* A GICv3 redistributor's frames: RD and SGI, 64 KiB each. */
#define GICR_FRAME_SIZE		0x20000u

struct gic_region {
	phys_addr_t base;
	uint64_t size;
};

/*
 * Not a GIC: the BCM2836/7 per-core local interrupt controller
 * ("brcm,bcm2836-l1-intc", the Raspberry Pi 2 and 3), on which each
 * core's timers and four mailboxes raise that core's IRQ line directly.
 * Its registers are at @dist; @vtimer_intid is its input number for the
 * virtual timer (3, CNTVIRQ).
 */
#define GIC_BCM2836_LOCAL	0x2836

struct boot_gic {
	/* 2 or 3 (a GICv4 is a 3), GIC_BCM2836_LOCAL; 0: none */
	unsigned int version;
	phys_addr_t dist;		/* the distributor, GICD */
	phys_addr_t cpu_if;		/* GICv2: the CPU interface, GICC */
	unsigned int nr_redist;		/* GICv3: regions in redist[] */
	struct gic_region redist[GIC_MAX_REDIST_REGIONS];
	/*
	 * The EL1 virtual timer's INTID on this GIC: GIC_VTIMER_INTID_DEFAULT
	 * when the boot information does not say; 0 when it says the timer
	 * signals another controller, or something this port cannot use (an
	 * SPI, an extended PPI), so it cannot end an idle wfi.
	 */
	unsigned int vtimer_intid;
	const char *source;		/* "device tree", "MADT": for messages */
};

/*
 * fdt_read_gic - fill @out from the device tree at @blob (@size bytes at
 * most): the first available GICv3 node, else GICv2, else a BCM2836
 * local interrupt controller (reg: its registers), its reg (GICv3:
 * the distributor, then #redistributor-regions regions; GICv2: the
 * distributor, then the CPU interface) translated to CPU addresses, and
 * the virtual timer's interrupt (the third of "arm,armv8-timer"'s, a PPI,
 * when the timer's interrupt-parent, or its interrupts-extended entry,
 * is that GIC).
 * Return: 0; -ENOENT with no GIC node (@out->version 0, no message);
 * -EINVAL for a tree that does not open or a GIC node whose reg or
 * #redistributor-regions cannot be used, with a message in @error (a
 * BOOT_ERROR_LEN buffer) and @out->version 0.
 */
int fdt_read_gic(const void *blob, size_t size, struct boot_gic *out,
		 char *error);

struct acpi_tables;

/*
 * acpi_madt_gic - fill @out from the MADT (GICD, GICR and enabled GICC
 * entries) and the GTDT (the virtual timer's GSIV, when a PPI) that @t
 * leads to (boot/acpi_gic.c says which MADTs are refused).
 * Return: 0; -ENOENT with no MADT or no GICD in it (@out->version 0;
 * acpi_read_gic() prints nothing); -EINVAL (message in t->error,
 * @out->version 0).
 */
int acpi_madt_gic(struct acpi_tables *t, struct boot_gic *out);

/*
 * acpi_read_gic - kernel only (boot/acpi_phys.c): acpi_madt_gic() on the
 * tables the RSDP at @rsdp leads to; a refusal is printed.
 */
int acpi_read_gic(phys_addr_t rsdp, struct boot_gic *out);

#endif /* BOOT_GIC_H */
