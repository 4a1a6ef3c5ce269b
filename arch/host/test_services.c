/*
 * test_services.c - the host fake arch's test services
 * (<arch/test_services.h>): CLOCK_MONOTONIC, and no firmware.
 */
#include <time.h>
#include <arch/test_services.h>
#include <lib/errno.h>

uint64_t arch_counter(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int arch_firmware_version(uint32_t *version)
{
	(void)version;
	return -ENOENT;
}
