/*
 * test_services.c - what aarch64 provides only for the tests and the
 * bench (<arch/test_services.h>): the cycle counter and the PSCI version.
 */
#include <arch/test_services.h>
#include <lib/errno.h>
#include "psci.h"
#include "sysreg.h"

/*
 * The cycle counter PMCCNTR_EL0 when the CPU has a PMU, else the virtual
 * counter CNTVCT_EL0. QEMU runs PMCCNTR at 1 GHz of virtual time, so under
 * -icount shift=0 it advances by one per instruction, deterministically;
 * CNTVCT runs at 62.5 MHz, 16 times coarser. entry.S already reset and
 * started PMCCNTR at the boot CPU's entry; the set-up here is idempotent.
 */
static bool pmu_start_cycle_counter(void)
{
	unsigned long pmuver = read_sysreg(id_aa64dfr0_el1) >>
				       ID_AA64DFR0_PMUVER_SHIFT & 0xf;

	if (pmuver == 0 || pmuver == 0xf)
		return false;
	write_sysreg(0, pmccfiltr_el0);	/* count at EL1 and EL0 */
	write_sysreg(PMCNTEN_C, pmcntenset_el0);
	write_sysreg(read_sysreg(pmcr_el0) | PMCR_E | PMCR_LC, pmcr_el0);
	isb();
	return true;
}

uint64_t arch_counter(void)
{
	/* Not in BSS: nothing may write BSS before boot_main() checks it. */
	static int use_pmu = -1;

	if (use_pmu < 0)
		use_pmu = pmu_start_cycle_counter();
	isb();
	return use_pmu ? read_sysreg(pmccntr_el0) : read_sysreg(cntvct_el0);
}

/*
 * PSCI_VERSION, through the conduit aarch64_psci_call() picks (psci.h):
 * before smp_init() read /psci, hvc when entered at EL1 and smc when
 * entered at EL2 (QEMU's conduit with virtualization=on).
 */
int arch_firmware_version(uint32_t *version)
{
	int ret = aarch64_psci_call(PSCI_VERSION, 0, 0, 0);

	if (ret < 0)
		return -ENOENT;
	*version = (uint32_t)ret;
	return 0;
}
