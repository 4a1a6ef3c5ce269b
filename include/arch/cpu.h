/*
 * cpu.h - the few CPU services the generic code uses.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <lib/compiler.h>
#include <lib/types.h>

/*
 * arch_counter - a monotonically increasing count of retired instructions
 * where the CPU has one (rdinstret, PMCCNTR/cycles, TSC), for cost
 * measurements. Under QEMU with -icount shift=0 it is repeatable run to run.
 */
uint64_t arch_counter(void);

/*
 * arch_firmware_version - ask the firmware for its version: the SBI spec
 * version on riscv64, the PSCI version on aarch64. Proves the firmware
 * still answers after the allocator has handed out all memory.
 * Return: 0 and *version set, or -ENOENT when the target has no firmware
 * to ask (x86_64 under PVH or multiboot2).
 */
int arch_firmware_version(uint32_t *version);

/* arch_halt - stop this CPU for good, without touching any device. */
void arch_halt(void) __noreturn;

#endif /* ARCH_CPU_H */
