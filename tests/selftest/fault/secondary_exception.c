/*
 * secondary_exception.c - FAULT=secondary-exception, for `make
 * check-runner`: CPU 1 takes an unexpected exception while the boot CPU
 * waits for it in on_each_cpu(): the report must name CPU 1 (boot with
 * SMP=2 at least). The runner must report a failure with its own reason.
 */
#include <selftest/selftest.h>
#include <smp/smp.h>

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
