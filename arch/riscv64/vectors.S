/*
 * vectors.S - riscv64 trap entry: save the frame, call riscv_trap().
 *
 * Every trap is unexpected (buddyboot never enables an interrupt) except
 * the ones fixup.h lists. sscratch holds the top of the exception stack
 * while the kernel runs and 0 while the handler runs:
 *
 *   kernel faults:   swap sp <-> sscratch: sp = exception stack. Save the
 *                    frame, set sscratch = 0, call riscv_trap(). It either
 *                    powers off or asks to resume at a fixup; then restore
 *                    every register, re-arm sscratch, sret.
 *   handler faults:  the swap yields sp = 0: a fault inside the handler.
 *                    Swap back (sscratch stays 0), then resume at a fixup
 *                    if there is one (t0-t3 clobbered), else print a
 *                    fixed line and power off through riscv_poweroff()
 *                    without using any stack.
 *
 * So a broken boot stack cannot stop the report, and a fault while
 * reporting ends the machine instead of looping.
 */
#include <arch/poweroff.h>
#include "csr.h"
#include <arch/fixup.h>
#include <platform/emergency.h>
#include "trap.h"

	.text
	.balign	4
	.globl	riscv_trap_entry
riscv_trap_entry:
	csrrw	sp, sscratch, sp
	beqz	sp, trap_in_handler

	addi	sp, sp, -TF_SIZE
	.irp	n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	sd	x\n, (TF_REGS + \n * 8)(sp)
	.endr
	csrrw	t0, sscratch, zero
	sd	t0, (TF_REGS + 2 * 8)(sp)
	csrr	t0, sepc
	sd	t0, TF_SEPC(sp)
	csrr	t0, sstatus
	sd	t0, TF_SSTATUS(sp)
	csrr	t0, scause
	sd	t0, TF_SCAUSE(sp)
	csrr	t0, stval
	sd	t0, TF_STVAL(sp)

	mv	a0, sp
	call	riscv_trap

	/* riscv_trap() returned: resume at tf->sepc (a fixup). */
	ld	t0, TF_SEPC(sp)
	csrw	sepc, t0
	ld	t0, TF_SSTATUS(sp)
	csrw	sstatus, t0
	addi	t0, sp, TF_SIZE
	csrw	sscratch, t0
	.irp	n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	ld	x\n, (TF_REGS + \n * 8)(sp)
	.endr
	ld	sp, (TF_REGS + 2 * 8)(sp)
	sret

/* A trap while riscv_trap() ran: sp = 0, sscratch = the handler's sp. */
trap_in_handler:
	csrrw	sp, sscratch, sp
	csrr	t0, sepc
	lla	t1, __fixup_start
	lla	t2, __fixup_end
1:	bgeu	t1, t2, 3f
	ld	t3, 0(t1)
	beq	t3, t0, 2f
	addi	t1, t1, 16
	j	1b
2:	ld	t3, 8(t1)
	csrw	sepc, t3
	sret
3:	lla	a0, nested_msg
	call	riscv_emergency_puts
	li	a0, QEMU_EXIT_FAIL
	li	a1, SBI_SRST_REASON_SYSFAIL
	j	riscv_poweroff

/*
 * riscv_emergency_puts - write a string to the console with no stack and
 * no C: a0 = NUL-terminated string; clobbers t0-t4, and a0, a1, a6 and a7
 * on a firmware console. The console is the one the platform layer chose
 * (<platform/emergency.h>: the early console, then the device tree's);
 * with none yet, nothing is written. The wait for room is bounded and a
 * faulting access skips the rest of the string. A console only the
 * firmware reaches (the SBI's) takes an ecall per byte: the SBI keeps
 * every register but a0 and a1, and uses no stack of ours.
 */
	.globl	riscv_emergency_puts
riscv_emergency_puts:
	lla	t0, console_emergency
	ld	t1, CONSOLE_EMERG_TX(t0)
	beqz	t1, 10f
1:	lbu	t1, 0(a0)
	beqz	t1, 4f
	addi	a0, a0, 1
	li	t2, 0x10000
2:	ld	t3, CONSOLE_EMERG_STATUS(t0)
	ld	t4, CONSOLE_EMERG_WIDTH(t0)
	addi	t4, t4, -4
	beqz	t4, 5f
8:	lbu	t3, 0(t3)		/* status, 8-bit */
	fixup	8b, 4f
	j	6f
5:	lwu	t3, 0(t3)		/* status, 32-bit */
	fixup	5b, 4f
6:	ld	t4, CONSOLE_EMERG_MASK(t0)
	and	t3, t3, t4
	ld	t4, CONSOLE_EMERG_READY(t0)
	beq	t3, t4, 3f		/* room in the transmitter */
	addi	t2, t2, -1
	bnez	t2, 2b
3:	ld	t3, CONSOLE_EMERG_TX(t0)
	ld	t4, CONSOLE_EMERG_WIDTH(t0)
	addi	t4, t4, -4
	beqz	t4, 7f
9:	sb	t1, 0(t3)
	fixup	9b, 4f
	j	1b
7:	sw	t1, 0(t3)
	fixup	7b, 4f
	j	1b
4:	ret

10:	ld	t1, CONSOLE_EMERG_FW_EXT(t0)
	beqz	t1, 4b
	mv	t2, a0
11:	lbu	a0, 0(t2)
	beqz	a0, 4b
	addi	t2, t2, 1
	ld	a7, CONSOLE_EMERG_FW_EXT(t0)
	ld	a6, CONSOLE_EMERG_FW_FID(t0)
	ecall
	j	11b

	.section .rodata
nested_msg:
	.asciz	"\r\nEXCEPTION: fault inside the exception handler, powering off\r\n"
