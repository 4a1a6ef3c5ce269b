/*
 * arch_checks.c - the arch contract's CPU services, checked on every boot
 * of every target: the counter the benchmarks read and the firmware the
 * poweroff path may fall back on.
 */
#include <arch/test_services.h>
#include <lib/errno.h>
#include <lib/ktap.h>
#include <selftest/selftest.h>

SELFTEST(arch_counter_advances, STAGE_BOOT)
{
	uint64_t before = arch_counter(), after;

	for (volatile int i = 0; i < 100; i++)
		;
	after = arch_counter();
	SELFTEST_EXPECT(after > before, "counter went from %llu to %llu",
			(unsigned long long)before, (unsigned long long)after);
	return true;
}

/* SBI or PSCI answers with a version; -ENOENT where there is none. */
SELFTEST(arch_firmware_answers, STAGE_BOOT)
{
	uint32_t version = 0;
	int ret = arch_firmware_version(&version);

	if (ret == -ENOENT)
		return selftest_skip("no firmware to ask on %s",
				     CONFIG_ARCH_NAME);
	SELFTEST_EXPECT(ret == 0, "arch_firmware_version() returned %d", ret);
	/* Raw: SBI puts the major version at bit 24, PSCI at bit 16. */
	ktap_diag("firmware version %#x", version);
	SELFTEST_EXPECT(version != 0, "firmware version 0");
	return true;
}
