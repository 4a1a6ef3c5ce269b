/*
 * selftest_gic.c - idle wake-ups through the GIC (arch/aarch64/gic.c),
 * checked on the SMP lines:
 *
 *   aarch64_gic_wakes_idle_cpus   with a GIC in the boot information,
 *                                 every online CPU passed its check and
 *                                 sleeps when idle; a wake-up sent to
 *                                 each one is acknowledged by that CPU
 *                                 (its count of wake-up SGIs moves),
 *                                 and one sent to this CPU is taken by
 *                                 its next arch_cpu_idle()
 *
 * smp_idle_returns (tests/selftest/smp.c) checks the other promise, that
 * arch_cpu_idle() returns within a millisecond or so with no wake-up.
 */
#include <arch/smp.h>
#include <boot/cpus.h>
#include <lib/atomic.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include "gic.h"
#include "sysreg.h"

/* Far beyond an SGI's delivery, even on a host with fewer cores than vCPUs. */
#define WAKEUP_WAIT_NS		(1000ULL * 1000 * 1000)

static bool wakeup_acknowledged(unsigned int cpu, unsigned long before)
{
	uint64_t start = arch_clock_ns();

	while (gic_cpu_wakeups(cpu) == before)
		if (arch_clock_ns() - start > WAKEUP_WAIT_NS)
			return false;
	return true;
}

SELFTEST(aarch64_gic_wakes_idle_cpus, STAGE_BOOT + 3)
{
	const struct boot_cpus *cpus = selftest_boot_facts.cpus;
	unsigned int me = smp_processor_id(), cpu;
	unsigned long before;

	if (num_online_cpus() < 2)
		return selftest_skip("one CPU online: idle is not set up");
	if (!cpus || !cpus->gic.version)
		return selftest_skip("no GIC in the boot information: idle "
				     "CPUs spin");
	if (aarch64_entry_el == 3 && !gic_cpu_sleeps(me))
		return selftest_skip("entered at EL3 with no firmware, which "
				     "would set up the GIC's secure side: idle "
				     "CPUs spin");
	for_each_online_cpu(cpu)
		SELFTEST_EXPECT(gic_cpu_sleeps(cpu), "cpu %u failed its GIC "
				"check at boot: it spins when idle", cpu);

	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		before = gic_cpu_wakeups(cpu);
		arch_smp_send_wakeup(cpu);
		SELFTEST_EXPECT(wakeup_acknowledged(cpu, before), "cpu %u did "
				"not acknowledge a wake-up within %llu ms", cpu,
				WAKEUP_WAIT_NS / 1000000);
	}

	/*
	 * Pending before the wfi: that wfi ends on it and takes it (another
	 * CPU may send one too, so at least one).
	 */
	before = gic_cpu_wakeups(me);
	arch_smp_send_wakeup(me);
	arch_cpu_idle();
	SELFTEST_EXPECT(gic_cpu_wakeups(me) != before, "the boot CPU's "
			"arch_cpu_idle() did not acknowledge the wake-up it was "
			"sent before it");
	return true;
}
