/*
 * cpu.h - the CPU service the generic code uses: stopping a CPU for good
 * (smp/smp.c parks a secondary CPU that checked in after it was given up).
 * Counters and firmware queries serve only tests: arch/test_services.h.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <lib/compiler.h>

/* arch_halt - stop this CPU for good, without touching any device. */
void arch_halt(void) __noreturn;

#endif /* ARCH_CPU_H */
