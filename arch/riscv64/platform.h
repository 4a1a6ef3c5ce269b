/*
 * platform.h - the devices of QEMU's riscv64 `virt` machine that buddyboot
 * drives, in one place.
 *
 * Hard-coded for `-M virt`: a board port changes these lines. (A later step
 * may take the UART from the DTB's /chosen stdout-path instead.) Plain
 * numbers, no suffixes: assembly includes this file too.
 */
#ifndef RISCV64_PLATFORM_H
#define RISCV64_PLATFORM_H

/* ns16550a UART, byte-wide registers at a stride of 1. */
#define VIRT_UART0_BASE		0x10000000

/*
 * sifive_test "finisher": a 32-bit write of (code << 16) | 0x3333 makes
 * QEMU exit with status code (0x5555 would be status 0, never used here).
 */
#define VIRT_TEST_BASE		0x100000
#define VIRT_TEST_FAIL		0x3333

#endif /* RISCV64_PLATFORM_H */
