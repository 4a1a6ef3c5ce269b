/*
 * vectors.S - the entry stubs of exception vectors 0-31, and of the
 * interrupts that end an idle CPU's hlt.
 *
 * Each exception stub makes the frame uniform (a zero error code where
 * the CPU pushes none, then the vector number), saves the general
 * registers and calls x86_exception() (trap.c), which reports and powers
 * off: no exception is recoverable in buddyboot, so nothing there
 * returns. Interrupt gates keep IF clear; the double fault runs on its
 * own stack (IST, see desc.c).
 *
 * Interrupts (vectors 32-255) arrive only across arch_cpu_idle()'s
 * sti; hlt (smp.c): x86_interrupt_stub saves the registers a C call may
 * change, acknowledges the interrupt (x86_interrupt()) and returns to the
 * instruction after the hlt. The spurious vector takes no acknowledgement.
 */

	.text
	.code64

	.pushsection .rodata
	.balign 8
	.globl x86_exception_stubs
x86_exception_stubs:
	.popsection

/* EXCEPTION_STUB vector, has_error_code: a stub and its table entry. */
.macro EXCEPTION_STUB vector, has_error_code
	.balign 16
x86_exception_stub_\vector:
	.if \has_error_code == 0
	pushq	$0
	.endif
	pushq	$\vector
	jmp	exception_common
	.pushsection .rodata
	.quad	x86_exception_stub_\vector
	.popsection
.endm

	/* Vectors with an error code: 8, 10-14, 17, 21, 29, 30 (SDM vol. 3, 6.3.1). */
	EXCEPTION_STUB  0, 0	/* divide error */
	EXCEPTION_STUB  1, 0	/* debug */
	EXCEPTION_STUB  2, 0	/* NMI */
	EXCEPTION_STUB  3, 0	/* breakpoint */
	EXCEPTION_STUB  4, 0	/* overflow */
	EXCEPTION_STUB  5, 0	/* BOUND range exceeded */
	EXCEPTION_STUB  6, 0	/* invalid opcode */
	EXCEPTION_STUB  7, 0	/* device not available */
	EXCEPTION_STUB  8, 1	/* double fault */
	EXCEPTION_STUB  9, 0	/* coprocessor segment overrun */
	EXCEPTION_STUB 10, 1	/* invalid TSS */
	EXCEPTION_STUB 11, 1	/* segment not present */
	EXCEPTION_STUB 12, 1	/* stack-segment fault */
	EXCEPTION_STUB 13, 1	/* general protection */
	EXCEPTION_STUB 14, 1	/* page fault */
	EXCEPTION_STUB 15, 0	/* reserved */
	EXCEPTION_STUB 16, 0	/* x87 floating-point */
	EXCEPTION_STUB 17, 1	/* alignment check */
	EXCEPTION_STUB 18, 0	/* machine check */
	EXCEPTION_STUB 19, 0	/* SIMD floating-point */
	EXCEPTION_STUB 20, 0	/* virtualization */
	EXCEPTION_STUB 21, 1	/* control protection */
	EXCEPTION_STUB 22, 0
	EXCEPTION_STUB 23, 0
	EXCEPTION_STUB 24, 0
	EXCEPTION_STUB 25, 0
	EXCEPTION_STUB 26, 0
	EXCEPTION_STUB 27, 0
	EXCEPTION_STUB 28, 0	/* hypervisor injection */
	EXCEPTION_STUB 29, 1	/* VMM communication */
	EXCEPTION_STUB 30, 1	/* security */
	EXCEPTION_STUB 31, 0

/* Push the registers in the order of struct x86_exception_frame (x86_64.h). */
exception_common:
	push	%r15
	push	%r14
	push	%r13
	push	%r12
	push	%r11
	push	%r10
	push	%r9
	push	%r8
	push	%rbp
	push	%rdi
	push	%rsi
	push	%rdx
	push	%rcx
	push	%rbx
	push	%rax
	cld
	mov	%rsp, %rdi
	and	$-16, %rsp		/* the C ABI's call alignment */
	call	x86_exception
	ud2

/* Vectors 32-254: the caller-saved registers around x86_interrupt(). */
	.balign 16
	.globl x86_interrupt_stub
x86_interrupt_stub:
	push	%rax
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%rbp
	mov	%rsp, %rbp
	and	$-16, %rsp		/* the C ABI's call alignment */
	cld
	call	x86_interrupt
	mov	%rbp, %rsp
	pop	%rbp
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%rax
	iretq

/* Vector 255, the APIC's spurious interrupt: no EOI (SDM vol. 3, 11.9). */
	.balign 16
	.globl x86_spurious_stub
x86_spurious_stub:
	iretq
