/*
 * exception.c - FAULT=exception, for `make check-runner`: the guest takes
 * an unexpected exception. The runner must report a failure with its own
 * reason.
 */
#include <selftest/selftest.h>

SELFTEST(fault_traps_on_purpose, STAGE_BOOT)
{
	__builtin_trap();
	return true;
}
