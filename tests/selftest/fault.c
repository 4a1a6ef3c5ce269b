/*
 * fault.c - images that misbehave on purpose, for `make check-runner`.
 *
 * Built only with FAULT=<kind>; each kind must make the runner report a
 * failure with its own reason:
 *   fail            two cases fail, everything else is normal: one
 *                   plainly, one that fails and then says it skips (a
 *                   recorded failure is a failure whatever follows)
 *   hang            the guest stops making progress after the plan line
 *   exception       the guest takes an unexpected exception
 *   early-poweroff  the guest powers off with the PASS status before it
 *                   prints any plan line
 *   secondary-exception
 *                   CPU 1 takes an unexpected exception while the boot
 *                   CPU waits for it in on_each_cpu(): the report must
 *                   name CPU 1 (boot with SMP=2 at least)
 */
#include <arch/cpu.h>
#include <arch/poweroff.h>
#include <smp/smp.h>
#include "selftest.h"

#if defined(CONFIG_SELFTEST_FAULT_fail)
SELFTEST(fault_fails_on_purpose, STAGE_BOOT)
{
	return selftest_fail(__FILE__, __LINE__, "FAULT=fail image");
}

SELFTEST(fault_fails_then_skips, STAGE_BOOT)
{
	selftest_fail(__FILE__, __LINE__, "FAULT=fail image, then a skip");
	return selftest_skip("a skip after a failure must not hide it");
}
#elif defined(CONFIG_SELFTEST_FAULT_hang)
SELFTEST(fault_hangs_on_purpose, STAGE_BOOT)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
	return true;
}
#elif defined(CONFIG_SELFTEST_FAULT_exception)
SELFTEST(fault_traps_on_purpose, STAGE_BOOT)
{
	__builtin_trap();
	return true;
}
#elif defined(CONFIG_SELFTEST_FAULT_secondary_exception)
static void trap_on_cpu1(void *arg)
{
	(void)arg;
	if (smp_processor_id() == 1)
		__builtin_trap();
}

SELFTEST(fault_traps_on_a_secondary_cpu, STAGE_BOOT)
{
	if (!cpu_online(1))
		return selftest_fail(__FILE__, __LINE__, "no cpu 1 online to "
				     "take the exception");
	on_each_cpu(trap_on_cpu1, NULL, true);
	return selftest_fail(__FILE__, __LINE__, "cpu 1 came back from "
			     "its exception");
}
#elif defined(CONFIG_SELFTEST_FAULT_early_poweroff)
/* Called by boot_main() before selftest_run_all() prints the plan. */
void selftest_fault_early(void)
{
	arch_poweroff(POWEROFF_PASS);
}
#endif
