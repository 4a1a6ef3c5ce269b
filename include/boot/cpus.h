/*
 * cpus.h - the CPUs the boot information describes.
 *
 * Read from the device tree's /cpus (riscv64, aarch64) or the ACPI MADT
 * (x86_64; aarch64 under UEFI with ACPI) by pure readers in boot/, which run on the host and are fuzzed
 * like the memory readers. smp_init() starts every usable CPU in the list.
 */
#ifndef BOOT_CPUS_H
#define BOOT_CPUS_H

#include <arch/entry.h>
#include <boot/gic.h>
#include <lib/types.h>
#include <smp/nr_cpus.h>

enum cpu_enable_method {
	CPU_ENABLE_NONE = 0,		/* the boot CPU, or nothing to start it with */
	CPU_ENABLE_SBI_HSM,		/* riscv64: SBI HSM hart_start */
	CPU_ENABLE_PSCI,		/* aarch64: PSCI CPU_ON */
	CPU_ENABLE_SPIN_TABLE,		/* aarch64: write cpu-release-addr, sev */
	CPU_ENABLE_INIT_SIPI,		/* x86_64: local APIC INIT-SIPI-SIPI */
	/*
	 * Entered the image with the boot CPU and waits in the kernel's own
	 * holding pen (FDT_CPUS_HELD): aarch64 entered at EL3 with no
	 * firmware, where every CPU starts at the image's entry.
	 */
	CPU_ENABLE_HELD,
};

enum psci_conduit {
	PSCI_CONDUIT_NONE = 0,
	PSCI_CONDUIT_HVC,
	PSCI_CONDUIT_SMC,
};

/* One CPU, as the boot information describes it. */
struct cpu_desc {
	unsigned long hwid;		/* hart id, MPIDR affinity bits, APIC id */
	enum cpu_enable_method method;
	phys_addr_t release_addr;	/* spin table: cpu-release-addr */
	int node;			/* NUMA node, or -1 (NUMA_NO_NODE) */
};

/*
 * The whole list. cpu[0] is always the boot CPU (the readers move it
 * there, by the hwid boot_main() was given); logical CPU n is cpu[n].
 * CPUs beyond NR_CPUS are counted in @nr_over, never started.
 * CPUs the firmware marks unusable (status = "disabled" with no way to
 * start them, a riscv64 hart without S-mode, an APIC neither enabled nor
 * online-capable) are counted in @nr_unusable, and not listed.
 */
struct boot_cpus {
	unsigned int nr;		/* entries in cpu[] */
	unsigned int nr_over;		/* described beyond NR_CPUS */
	unsigned int nr_unusable;	/* described but not startable */
	bool boot_cpu_found;		/* the boot hwid was in the list */
	enum psci_conduit psci;		/* aarch64: the /psci method */
	/*
	 * What in the boot information says the CPUs are virtual (a
	 * hypervisor's, which it may stop at any instruction), or NULL:
	 * a device tree of a virtual machine (read_virtual_machine() in
	 * boot/fdt_cpus.c), a FADT with a hypervisor's identity
	 * (acpi_fadt_cpus()). smp_init() chooses how CPUs wait for
	 * a spinlock by it. A string constant.
	 */
	const char *virtual_machine;
	uint64_t timebase_hz;		/* riscv64: /cpus timebase-frequency */
	struct boot_gic gic;		/* aarch64: for idle wake-ups */
	struct cpu_desc cpu[NR_CPUS];
};

/*
 * FDT_CPUS_HELD: every CPU entered the image with the boot CPU and waits
 * in the kernel's holding pen (arch_cpus_held_at_entry()), so a CPU
 * whose own enable-method cannot start it (psci without /psci, none at
 * all) is usable, as CPU_ENABLE_HELD. One with a spin table or a usable
 * PSCI keeps that method; a RISC-V hart is never held.
 */
#define FDT_CPUS_HELD	(1U << 0)

/*
 * fdt_read_cpus - fill @out from the device tree at @fdt (@size bytes at
 * most); @boot_hwid is the CPU that booted; @flags: 0 or FDT_CPUS_HELD.
 * Return: 0, or a negative errno with a message printed: -EINVAL for a
 * malformed tree, -ENOENT for no /cpus or no CPU node in it.
 */
int fdt_read_cpus(const void *fdt, size_t size, unsigned long boot_hwid,
		  unsigned int flags, struct boot_cpus *out);

/*
 * fdt_read_psci - the conduit the device tree's /psci names (@size bytes
 * at most), before anything else is read: what firmware calls may be made
 * through. PSCI_CONDUIT_NONE for no /psci, no method, or a tree that does
 * not open (whose reader reports it later).
 */
enum psci_conduit fdt_read_psci(const void *fdt, size_t size);

/*
 * acpi_read_cpus - fill @out from the MADT that the RSDP at @rsdp leads
 * to. Return: as fdt_read_cpus(); -ENOENT for no RSDP or no MADT.
 */
int acpi_read_cpus(phys_addr_t rsdp, unsigned long boot_hwid,
		   struct boot_cpus *out);

/*
 * boot_cpus_init - the CPU list from what the loader handed over, with
 * the reader its boot protocol calls for (boot/cpus.c; kernel only): the
 * device tree for BOOT_PROTO_FDT, ACPI for PVH and multiboot2. With no
 * way to find the others, @out lists the boot CPU alone and one line
 * says why. @out->gic is then read by the same protocol's reader
 * (fdt_read_gic(), acpi_read_gic()): version 0 when there is none or it
 * cannot be used (printed), which only costs idle CPUs their sleep.
 * Return: 0, or the reader's negative errno (message printed) when the
 * list it found cannot be read: the boot stops there.
 */
int boot_cpus_init(enum boot_protocol proto, phys_addr_t info,
		   unsigned long boot_hwid, struct boot_cpus *out);

/*
 * boot_numa_init_topology - the NUMA topology from the boot information
 * (include/boot/numa.h: device tree or ACPI SRAT/SLIT), applied to
 * memblock, @cpus and mm/numa.c, and the summary printed (boot/cpus.c;
 * kernel only). Call after boot_cpus_init() and before the page
 * allocator's hand-off. Return: the number of online nodes.
 */
int boot_numa_init_topology(enum boot_protocol proto, phys_addr_t info,
			    struct boot_cpus *cpus);

#endif /* BOOT_CPUS_H */
