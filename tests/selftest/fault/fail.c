/*
 * fail.c - FAULT=fail, for `make check-runner`: two cases fail, everything
 * else is normal: one plainly, one that fails and then says it skips (a
 * recorded failure is a failure whatever follows). The runner must report a
 * failure with its own reason.
 */
#include <selftest/selftest.h>

SELFTEST(fault_fails_on_purpose, STAGE_BOOT)
{
	return selftest_fail(__FILE__, __LINE__, "FAULT=fail image");
}

SELFTEST(fault_fails_then_skips, STAGE_BOOT)
{
	selftest_fail(__FILE__, __LINE__, "FAULT=fail image, then a skip");
	return selftest_skip("a skip after a failure must not hide it");
}
