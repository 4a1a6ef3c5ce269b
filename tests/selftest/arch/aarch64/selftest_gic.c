/*
 * selftest_gic.c - idle wake-ups through the GIC (arch/aarch64/gic.c),
 * checked on the SMP lines:
 *
 *   aarch64_gic_idle_sleeps   with a GIC in the boot information, every
 *                             online CPU passed its check at bring-up
 *                             and sleeps when idle; skipped, with the
 *                             reason, where it cannot: one CPU (idle is
 *                             not set up), no interrupt controller,
 *                             entered at EL3 with no firmware (a
 *                             Raspberry Pi 3B's local controller counts
 *                             as a GIC here: its CPUs must sleep). On the
 *                             line whose device tree puts the GIC where
 *                             nothing answers (/chosen
 *                             buddyboot,selftest-gic-unusable), the
 *                             opposite: the boot went on, every CPU
 *                             spins
 *
 * Without it, smp_wakeup_reaches_each_cpu (tests/selftest/smp.c), which
 * checks that each wake-up arrives, would skip on a GIC this port no
 * longer drives, and nothing would fail.
 */
#include <arch/smp.h>
#include <boot/cpus.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include "selftest_local.h"
#include "sysreg.h"

SELFTEST(aarch64_gic_idle_sleeps, STAGE_BOOT + 3)
{
	const struct boot_cpus *cpus = selftest_boot_facts.cpus;
	unsigned int cpu;
	uint32_t len;

	if (num_online_cpus() < 2)
		return selftest_skip("one CPU online: idle is not set up");
	if (aarch64_selftest_chosen("buddyboot,selftest-gic-unusable", &len)) {
		for_each_online_cpu(cpu)
			SELFTEST_EXPECT(!arch_cpu_idle_sleeps(cpu), "cpu %u "
					"sleeps on a GIC where nothing answers",
					cpu);
		return true;
	}
	if (!cpus || !cpus->gic.version)
		return selftest_skip("no GIC or local interrupt controller "
				     "in the boot information: idle CPUs "
				     "spin");
	if (aarch64_entry_el == 3 &&
	    !arch_cpu_idle_sleeps(smp_processor_id()))
		return selftest_skip("entered at EL3 with no firmware, which "
				     "would set up the GIC's secure side: idle "
				     "CPUs spin");
	for_each_online_cpu(cpu)
		SELFTEST_EXPECT(arch_cpu_idle_sleeps(cpu), "cpu %u spins when "
				"idle though the boot information has a GIC "
				"(the boot log says why)", cpu);
	return true;
}
