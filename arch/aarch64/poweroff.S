/*
 * poweroff.S - ending the machine with a verdict, without a stack.
 *
 * aarch64_poweroff(code) tries, in order:
 *   1. semihosting SYS_EXIT_EXTENDED {ADP_Stopped_ApplicationExit, code}:
 *      QEMU (with -semihosting) exits with status @code at once;
 *   2. PSCI SYSTEM_OFF (aarch64_psci_call() below): a board's way, and
 *      QEMU's exit status 0, which the runner never reads as a pass;
 *   3. arch_halt().
 * A step that faults (no semihosting: hlt is undefined; no PSCI) resumes
 * at the next one through its fixup entry. Nothing here uses the stack or
 * keeps a value in x9-x12, so the exception path may call it in any state.
 */
#include <arch/fixup.h>
#include "sysreg.h"

	.text
	.globl	aarch64_poweroff
aarch64_poweroff:
	msr	daifset, #0xf
	adr_l	x1, semihosting_exit_args
	str	x0, [x1, #8]
	mov	x0, #SEMIHOSTING_SYS_EXIT_EXTENDED
1:	hlt	#0xf000
	fixup	1b, 2f

2:	ldr	w0, =PSCI_SYSTEM_OFF
	bl	aarch64_psci_call
	b	arch_halt

/*
 * aarch64_psci_call - x0 = PSCI function id, x1-x3 its arguments; returns
 * the result in x0, or -1 (NOT_SUPPORTED) when the conduit is missing
 * (the hvc/smc is undefined) or the device tree has no /psci. The
 * conduit is the one the tree's /psci names (aarch64_psci_conduit, psci.h:
 * 1 hvc, 2 smc, enum psci_conduit's values; 3 none); without a tree it
 * follows the EL the stub was entered at: hvc from EL1, smc after an EL2
 * entry (QEMU's choice with virtualization=on; our EL2 is no hypervisor).
 * No stack; clobbers x0-x17 as SMCCC allows.
 */
	.globl	aarch64_psci_call
aarch64_psci_call:
	adr_l	x9, aarch64_psci_conduit
	ldr	w9, [x9]
	cbnz	w9, 0f
	adr_l	x9, aarch64_entry_el
	ldr	w9, [x9]
0:	cmp	w9, #1
	b.eq	1f
	cmp	w9, #2
	b.eq	2f
	b	3f
1:	hvc	#0
	fixup	1b, 3f
	ret
2:	smc	#0
	fixup	2b, 3f
	ret
3:	mov	x0, #-1
	ret

	.data
	.balign	8
semihosting_exit_args:
	.quad	ADP_STOPPED_APPLICATION_EXIT
	.quad	0			/* the exit status, filled in above */

	/* Written by the boot CPU at entry (cpu.c) and before it starts any
	 * other CPU (smp.c); .data: written before BSS is checked. */
	.balign	4
	.globl	aarch64_psci_conduit
aarch64_psci_conduit:
	.word	0
