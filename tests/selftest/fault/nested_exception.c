/*
 * nested_exception.c - FAULT=nested-exception, for `make check-runner`:
 * an exception that the trap entry takes for one inside the exception
 * handler, whose report is the stackless writer's fixed line
 * (<platform/emergency.h>) on whatever console the platform layer chose,
 * a UART's registers or the firmware's calls. The runner must report a
 * failure that quotes that line. riscv64 and aarch64 only: x86_64 has no
 * stackless path.
 */
#include <selftest/selftest.h>

SELFTEST(fault_traps_inside_the_handler, STAGE_BOOT)
{
#if defined(__riscv)
	/* sscratch 0 is the handler's own mark: the entry sees sp = 0. */
	__asm__ volatile("csrw sscratch, zero\n\tebreak" ::: "memory");
#elif defined(__aarch64__)
	/* On SP_EL1 the kernel is the handler: the "SP_ELx" entries. */
	__asm__ volatile("msr spsel, #1\n\tbrk #0" ::: "memory");
#else
#error "FAULT=nested-exception: only riscv64 and aarch64 have a stackless exception path"
#endif
	return selftest_fail(__FILE__, __LINE__, "came back from an exception "
			     "inside the handler");
}
