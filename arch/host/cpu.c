/*
 * cpu.c - the host fake arch's CPU services and poweroff.
 *
 * arch_poweroff() exits the process: 0 for a pass, 1 for a failure, so a
 * host test that panics fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <arch/cpu.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <lib/errno.h>
#include "host.h"

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

void arch_halt(void)
{
	abort();
}

void arch_poweroff(enum poweroff_status status)
{
	fflush(stdout);
	exit(status == POWEROFF_PASS ? 0 : 1);
}

void arch_reserve_memory(void)
{
}
