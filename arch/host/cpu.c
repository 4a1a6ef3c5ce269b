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

void arch_halt(void)
{
	abort();
}

void arch_poweroff(enum poweroff_status status)
{
	fflush(stdout);
	exit(status == POWEROFF_PASS ? 0 : 1);
}
