/*
 * trap.h - the register frame vectors.S saves and trap.c reads.
 *
 * Offsets are shared by the assembly and C; trap.c checks them against the
 * struct at compile time.
 */
#ifndef AARCH64_TRAP_H
#define AARCH64_TRAP_H

#define TF_REGS		0		/* x0..x30 */
#define TF_SP		(31 * 8)	/* SP_EL0: the kernel's sp at the trap */
#define TF_ELR		(32 * 8)
#define TF_SPSR		(33 * 8)
#define TF_ESR		(34 * 8)
#define TF_FAR		(35 * 8)
#define TF_SIZE		(36 * 8)	/* a multiple of 16: sp stays aligned */

/*
 * The kind vectors.S passes: the entry's index in the vector table.
 * Bits 1:0 the type, bits 3:2 where it came from.
 */
#define TRAP_SYNC		0
#define TRAP_IRQ		1
#define TRAP_FIQ		2
#define TRAP_SERROR		3
#define TRAP_FROM_KERNEL	(0 << 2)	/* EL1 on SP_EL0 */
#define TRAP_FROM_EL0_A64	(2 << 2)
#define TRAP_FROM_EL0_A32	(3 << 2)

#ifndef __ASSEMBLY__

struct aarch64_trap_frame {
	unsigned long regs[31];
	unsigned long sp;
	unsigned long elr;
	unsigned long spsr;
	unsigned long esr;
	unsigned long far;
};

void aarch64_trap(struct aarch64_trap_frame *tf, unsigned long kind);

#endif /* !__ASSEMBLY__ */
#endif /* AARCH64_TRAP_H */
