/*
 * test_services.h - what each arch provides for the selftests and the
 * bench only. No product code calls these (make check-paths); each port
 * implements them in arch/<arch>/test_services.c.
 */
#ifndef ARCH_TEST_SERVICES_H
#define ARCH_TEST_SERVICES_H

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

#endif /* ARCH_TEST_SERVICES_H */
