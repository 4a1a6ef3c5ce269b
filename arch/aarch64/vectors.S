/*
 * vectors.S - aarch64 exception vectors: save the frame, call
 * aarch64_trap(); the fault-in-handler path; EL2's vectors.
 *
 * The kernel runs at EL1 on SP_EL0, so its exceptions take the "current
 * EL, SP_EL0" entries, which switch to SP_EL1 (the exception stack), save
 * the frame and call aarch64_trap(). That either powers off or asks to
 * resume at a fixup (<arch/fixup.h>); then every register is restored and
 * eret resumes.
 *
 * The handler runs on SP_EL1, so an exception inside it takes the "current
 * EL, SP_ELx" entries: trap_in_handler. It uses no stack: it resumes at a
 * fixup if there is one (x9-x12 clobbered), else prints a fixed line and
 * powers off through aarch64_poweroff(). A fault while reporting thus ends
 * the machine instead of looping.
 *
 * After an EL2 entry, EL2 keeps aarch64_el2_vectors, and after an EL3
 * entry EL3 keeps aarch64_el3_vectors: nothing should ever trap there,
 * and anything that does is reported the same stack-free way (with the
 * MMU off at those levels, the console's identity-mapped address is its
 * physical one).
 */
#include <arch/fixup.h>
#include <arch/poweroff.h>
#include <platform/emergency.h>
#include "sysreg.h"
#include "trap.h"

	/* An entry for the kernel's own exceptions: save x0/x1, pass the kind. */
	.macro	kernel_vector kind
	.balign	0x80
	sub	sp, sp, #TF_SIZE
	stp	x0, x1, [sp, #TF_REGS]
	mov	x0, #(\kind)
	b	trap_save
	.endm

	.macro	handler_vector
	.balign	0x80
	b	trap_in_handler
	.endm

	.macro	el2_vector
	.balign	0x80
	b	trap_at_el2
	.endm

	.macro	el3_vector
	.balign	0x80
	b	trap_at_el3
	.endm

/*
 * fixup_search pc, res, cur, end - res = the fixup's resume address for a
 * fault at pc, or 0. Uses only the four registers it is given.
 */
	.macro	fixup_search pc, res, cur, end
	adr_l	\cur, __fixup_start
	adr_l	\end, __fixup_end
.Lnext\@:
	cmp	\cur, \end
	b.hs	.Lnone\@
	ldr	\res, [\cur], #16
	cmp	\res, \pc
	b.ne	.Lnext\@
	ldur	\res, [\cur, #-8]
	b	.Ldone\@
.Lnone\@:
	mov	\res, xzr
.Ldone\@:
	.endm

/* A stack-free end: resume at a fixup, or print msg and power off FAIL. */
	.macro	stackless_trap elr, msg
	mrs	x9, \elr
	fixup_search x9, x10, x11, x12
	cbz	x10, 1f
	msr	\elr, x10
	eret
1:	adr_l	x0, \msg
	bl	aarch64_emergency_puts
	mov	x0, #QEMU_EXIT_FAIL
	b	aarch64_poweroff
	.endm

	.text
	.balign	0x800
	.globl	aarch64_vectors
aarch64_vectors:
	kernel_vector	TRAP_FROM_KERNEL | TRAP_SYNC
	kernel_vector	TRAP_FROM_KERNEL | TRAP_IRQ
	kernel_vector	TRAP_FROM_KERNEL | TRAP_FIQ
	kernel_vector	TRAP_FROM_KERNEL | TRAP_SERROR
	handler_vector
	handler_vector
	handler_vector
	handler_vector
	kernel_vector	TRAP_FROM_EL0_A64 | TRAP_SYNC
	kernel_vector	TRAP_FROM_EL0_A64 | TRAP_IRQ
	kernel_vector	TRAP_FROM_EL0_A64 | TRAP_FIQ
	kernel_vector	TRAP_FROM_EL0_A64 | TRAP_SERROR
	kernel_vector	TRAP_FROM_EL0_A32 | TRAP_SYNC
	kernel_vector	TRAP_FROM_EL0_A32 | TRAP_IRQ
	kernel_vector	TRAP_FROM_EL0_A32 | TRAP_FIQ
	kernel_vector	TRAP_FROM_EL0_A32 | TRAP_SERROR

trap_save:
	stp	x2, x3, [sp, #TF_REGS + 2 * 8]
	stp	x4, x5, [sp, #TF_REGS + 4 * 8]
	stp	x6, x7, [sp, #TF_REGS + 6 * 8]
	stp	x8, x9, [sp, #TF_REGS + 8 * 8]
	stp	x10, x11, [sp, #TF_REGS + 10 * 8]
	stp	x12, x13, [sp, #TF_REGS + 12 * 8]
	stp	x14, x15, [sp, #TF_REGS + 14 * 8]
	stp	x16, x17, [sp, #TF_REGS + 16 * 8]
	stp	x18, x19, [sp, #TF_REGS + 18 * 8]
	stp	x20, x21, [sp, #TF_REGS + 20 * 8]
	stp	x22, x23, [sp, #TF_REGS + 22 * 8]
	stp	x24, x25, [sp, #TF_REGS + 24 * 8]
	stp	x26, x27, [sp, #TF_REGS + 26 * 8]
	stp	x28, x29, [sp, #TF_REGS + 28 * 8]
	mrs	x1, sp_el0
	stp	x30, x1, [sp, #TF_REGS + 30 * 8]
	mrs	x1, elr_el1
	mrs	x2, spsr_el1
	stp	x1, x2, [sp, #TF_ELR]
	mrs	x1, esr_el1
	mrs	x2, far_el1
	stp	x1, x2, [sp, #TF_ESR]

	mov	x1, x0
	mov	x0, sp
	bl	aarch64_trap

	/* aarch64_trap() returned: resume at tf->elr (a fixup). */
	ldp	x1, x2, [sp, #TF_ELR]
	msr	elr_el1, x1
	msr	spsr_el1, x2
	ldp	x0, x1, [sp, #TF_REGS]
	ldp	x2, x3, [sp, #TF_REGS + 2 * 8]
	ldp	x4, x5, [sp, #TF_REGS + 4 * 8]
	ldp	x6, x7, [sp, #TF_REGS + 6 * 8]
	ldp	x8, x9, [sp, #TF_REGS + 8 * 8]
	ldp	x10, x11, [sp, #TF_REGS + 10 * 8]
	ldp	x12, x13, [sp, #TF_REGS + 12 * 8]
	ldp	x14, x15, [sp, #TF_REGS + 14 * 8]
	ldp	x16, x17, [sp, #TF_REGS + 16 * 8]
	ldp	x18, x19, [sp, #TF_REGS + 18 * 8]
	ldp	x20, x21, [sp, #TF_REGS + 20 * 8]
	ldp	x22, x23, [sp, #TF_REGS + 22 * 8]
	ldp	x24, x25, [sp, #TF_REGS + 24 * 8]
	ldp	x26, x27, [sp, #TF_REGS + 26 * 8]
	ldp	x28, x29, [sp, #TF_REGS + 28 * 8]
	ldr	x30, [sp, #TF_REGS + 30 * 8]
	add	sp, sp, #TF_SIZE
	eret

trap_in_handler:
	stackless_trap elr_el1, nested_msg

	.balign	0x800
	.globl	aarch64_el2_vectors
aarch64_el2_vectors:
	.rept	16
	el2_vector
	.endr

trap_at_el2:
	stackless_trap elr_el2, el2_msg

	.balign	0x800
	.globl	aarch64_el3_vectors
aarch64_el3_vectors:
	.rept	16
	el3_vector
	.endr

trap_at_el3:
	stackless_trap elr_el3, el3_msg

/*
 * aarch64_emergency_puts - write a string to the console with no stack and
 * no C: x0 = NUL-terminated string; clobbers x0-x6. The console is the
 * one the platform layer chose (<platform/emergency.h>: the early console,
 * then the device tree's); with none yet, nothing is written. The wait for
 * room is bounded and a faulting access skips the rest of the string.
 */
	.globl	aarch64_emergency_puts
aarch64_emergency_puts:
	adr_l	x5, console_emergency
	ldr	x1, [x5, #CONSOLE_EMERG_TX]
	cbz	x1, 4f
1:	ldrb	w2, [x0], #1
	cbz	w2, 4f
	mov	x3, #0x10000
2:	ldr	x1, [x5, #CONSOLE_EMERG_STATUS]
	ldr	x6, [x5, #CONSOLE_EMERG_WIDTH]
	cmp	x6, #4
	b.eq	5f
7:	ldrb	w4, [x1]		/* status, 8-bit */
	fixup	7b, 4f
	b	6f
5:	ldr	w4, [x1]		/* status, 32-bit */
	fixup	5b, 4f
6:	ldr	x6, [x5, #CONSOLE_EMERG_MASK]
	and	x4, x4, x6
	ldr	x6, [x5, #CONSOLE_EMERG_READY]
	cmp	x4, x6
	b.eq	3f			/* room in the transmitter */
	subs	x3, x3, #1
	b.ne	2b
3:	ldr	x1, [x5, #CONSOLE_EMERG_TX]
	ldr	x6, [x5, #CONSOLE_EMERG_WIDTH]
	cmp	x6, #4
	b.eq	8f
9:	strb	w2, [x1]
	fixup	9b, 4f
	b	1b
8:	str	w2, [x1]
	fixup	8b, 4f
	b	1b
4:	ret

	.section .rodata
nested_msg:
	.asciz	"\r\nEXCEPTION: fault inside the exception handler, powering off\r\n"
el2_msg:
	.asciz	"\r\nEXCEPTION: unexpected trap to EL2, powering off\r\n"
el3_msg:
	.asciz	"\r\nEXCEPTION: unexpected trap to EL3, powering off\r\n"
