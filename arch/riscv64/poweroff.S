/*
 * poweroff.S - ending the machine with a verdict, without a stack.
 *
 * riscv_poweroff(code, reason) tries, in order:
 *   1. the sifive_test finisher, when the device tree listed one
 *      (platform_test_finisher, platform/platform.c): QEMU exits with
 *      status @code at once;
 *   2. semihosting SYS_EXIT_EXTENDED {ADP_Stopped_ApplicationExit, code}:
 *      QEMU with -semihosting (a board file's choice, boards/riscv64/
 *      sifive_u.mk: its model has no finisher) exits with status @code;
 *   3. SBI SRST system shutdown with @reason (a board's way; QEMU exits
 *      with status 0 then, which the runner never reads as a pass);
 *   4. arch_halt(): park for good.
 * A step that faults (no finisher on a board; ebreak is a breakpoint
 * exception without semihosting) resumes at the next one through its
 * fixup entry. Nothing here uses the stack or keeps a value in
 * t0-t3, so the trap handler may call it whatever state it found.
 */
#include "csr.h"
#include <arch/fixup.h>

/* The finisher's protocol: (code << 16) | FAIL makes QEMU exit with code
 * (0x5555, "pass", would be status 0: never used here). */
#define SIFIVE_TEST_FAIL	0x3333

/* The RISC-V semihosting specification (the Arm semihosting calls). */
#define SEMIHOSTING_SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

	.text
	.globl	riscv_poweroff
riscv_poweroff:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE
	mv	s1, a1			/* SRST reason */
	mv	s3, a0			/* exit code */
	slli	s2, a0, 16
	li	t0, SIFIVE_TEST_FAIL
	or	s2, s2, t0
	lla	t0, platform_test_finisher
	ld	t0, 0(t0)
	beqz	t0, 2f
1:	sw	s2, 0(t0)
	fixup	1b, 2f
2:	lla	a1, semihosting_exit_args
	sd	s3, 8(a1)
	li	a0, SEMIHOSTING_SYS_EXIT_EXTENDED
	/* The semihosting sequence: three uncompressed instructions in one
	 * page (16-byte aligned), ebreak in the middle. */
	.option	push
	.option	norvc
	.balign	16
	slli	zero, zero, 0x1f
3:	ebreak
	srai	zero, zero, 0x7
	.option	pop
	fixup	3b, 4f
4:	li	a7, SBI_EXT_SRST
	li	a6, SBI_SRST_RESET
	li	a0, SBI_SRST_TYPE_SHUTDOWN
	mv	a1, s1
	ecall
	j	arch_halt

	.data
	.balign	8
semihosting_exit_args:
	.quad	ADP_STOPPED_APPLICATION_EXIT
	.quad	0			/* the exit code, filled in above */
