/*
 * selftests.c - the default image's verdict: every registered case
 * (lib/selftest/selftest.c runs them and prints KTAP), then the slab
 * caches as the cases left them.
 */
#include <boot/selftests.h>
#include <mm/mm.h>
#include <selftest/selftest.h>

bool boot_selftests(const struct boot_facts *facts)
{
	bool ok = selftest_run_all();

	show_slabinfo();
	return ok;
}
