/*
 * early_poweroff.c - FAULT=early-poweroff, for `make check-runner`: the
 * guest powers off with the PASS status before it prints any plan line,
 * which the runner must report as a failure.
 */
#include <arch/poweroff.h>
#include <boot/selftests.h>

bool boot_selftests(const struct boot_facts *facts)
{
	arch_poweroff(POWEROFF_PASS);
}
