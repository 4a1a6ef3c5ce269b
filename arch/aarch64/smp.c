/*
 * smp.c - aarch64's part of bringing CPUs up (include/arch/smp.h).
 *
 * The clock is the generic timer's virtual count at its frequency. The
 * bring-up itself (PSCI CPU_ON, spin tables) is not written yet:
 * arch_cpu_start() says so, and the boot CPU runs alone.
 */
#include <arch/smp.h>
#include <boot/cpus.h>
#include <lib/errno.h>
#include "sysreg.h"

int arch_smp_prepare_cpus(const struct boot_cpus *cpus)
{
	(void)cpus;
	return 0;
}

int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot)
{
	(void)desc;
	(void)boot;
	return -EOPNOTSUPP;
}

/* CNTVCT_EL0 ticks at CNTFRQ_EL0 Hz (62.5 MHz on QEMU's virt). */
uint64_t arch_clock_ns(void)
{
	uint64_t freq = read_sysreg(cntfrq_el0), count;

	isb();
	count = read_sysreg(cntvct_el0);
	if (!freq)
		return 0;
	/* Split so that nothing overflows: the remainder is below freq. */
	return count / freq * 1000000000ULL +
	       count % freq * 1000000000ULL / freq;
}
