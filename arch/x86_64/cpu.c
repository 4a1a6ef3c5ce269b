/*
 * cpu.c - the CPU services of the arch contract on x86_64, and poweroff.
 *
 * There is no firmware to ask for a version under PVH or multiboot2, and
 * no portable way to power a PC off without ACPI; under QEMU the
 * isa-debug-exit device (QEMU_MACHINE_ARGS in arch.mk) ends the machine
 * with a status the runner reads.
 */
#include <arch/cpu.h>
#include <arch/poweroff.h>
#include <asm/x86.h>
#include <lib/errno.h>
#include "x86_64.h"

/* -device isa-debug-exit,iobase=0xf4,iosize=0x04 */
#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_PASS 0x10 /* (0x10 << 1) | 1 = 33 */
#define DEBUG_EXIT_FAIL 0x11 /* (0x11 << 1) | 1 = 35 */

_Static_assert(((DEBUG_EXIT_PASS << 1) | 1) == QEMU_EXIT_PASS,
	       "isa-debug-exit must turn a pass into QEMU_EXIT_PASS");
_Static_assert(((DEBUG_EXIT_FAIL << 1) | 1) == QEMU_EXIT_FAIL,
	       "isa-debug-exit must turn a failure into QEMU_EXIT_FAIL");

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

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void x86_debug_exit(uint32_t value)
{
	outl(value, DEBUG_EXIT_PORT);
}

/*
 * Under QEMU the write below ends the process. On a PC without the device
 * the write goes nowhere and the CPU halts: the runner reads a timeout as
 * a failure, and a person reads the console.
 */
void arch_poweroff(enum poweroff_status status)
{
	x86_debug_exit(status == POWEROFF_PASS ? DEBUG_EXIT_PASS
					       : DEBUG_EXIT_FAIL);
	arch_halt();
}
