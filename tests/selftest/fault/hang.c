/*
 * hang.c - FAULT=hang, for `make check-runner`: the guest stops making
 * progress after the plan line. The runner must report a failure with its
 * own reason.
 */
#include <selftest/selftest.h>

SELFTEST(fault_hangs_on_purpose, STAGE_BOOT)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
	return true;
}
