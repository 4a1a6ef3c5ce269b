/*
 * selftest_spin.S - a stand-in for spin-table firmware, for the
 * aarch64_spin_table_start selftest (selftest_smp.c).
 *
 * What a board's firmware (or Raspberry Pi's armstub) does with a
 * secondary CPU: MMU and caches off, wait in wfe until the CPU's
 * cpu-release-addr holds a non-zero address, then branch there with
 * x0-x3 = 0 (Linux's arm64 boot protocol). Started with PSCI CPU_ON,
 * x0 = struct spin_firmware (selftest_smp.c):
 *   +0   the release address's 64-bit word, written by the boot CPU
 *   +64  set to 1 here once waiting (a cache line of its own, written
 *        with the MMU off: the boot CPU invalidates before reading it)
 * Its reads see RAM, never the boot CPU's cache: a release that is not
 * cleaned to the point of coherency would, on hardware, never arrive.
 */
	.text
	.globl	aarch64_selftest_spin_firmware
aarch64_selftest_spin_firmware:
	msr	daifset, #0xf
	mov	x5, x0
	mov	x1, #1
	str	x1, [x5, #64]
	/* The flag is written before the first look at the release word. */
	dsb	sy
1:	wfe
	ldr	x4, [x5]
	cbz	x4, 1b
	mov	x0, xzr
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	br	x4
