/*
 * test_services.c - what x86_64 provides only for the tests and the bench
 * (<arch/test_services.h>): the TSC; there is no firmware to ask for a
 * version under PVH or multiboot2.
 */
#include <arch/test_services.h>
#include <asm/x86.h>
#include <lib/errno.h>

/* The TSC: deterministic run to run under QEMU's -icount. */
uint64_t arch_counter(void)
{
	return rdtsc();
}

int arch_firmware_version(uint32_t *version)
{
	(void)version;
	return -ENOENT;
}
