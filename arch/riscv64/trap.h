/*
 * trap.h - the register frame vectors.S saves and trap.c reads.
 *
 * Offsets are shared by the assembly and C; trap.c checks them against the
 * struct at compile time.
 */
#ifndef RISCV64_TRAP_H
#define RISCV64_TRAP_H

#define TF_REGS		0		/* x0..x31; x0 unused, x2 = sp at trap */
#define TF_SEPC		(32 * 8)
#define TF_SSTATUS	(33 * 8)
#define TF_SCAUSE	(34 * 8)
#define TF_STVAL	(35 * 8)
#define TF_SIZE		(36 * 8)	/* a multiple of 16: sp stays aligned */

#ifndef __ASSEMBLY__

struct riscv_trap_frame {
	unsigned long regs[32];
	unsigned long sepc;
	unsigned long sstatus;
	unsigned long scause;
	unsigned long stval;
};

void riscv_trap(struct riscv_trap_frame *tf);

#endif /* !__ASSEMBLY__ */
#endif /* RISCV64_TRAP_H */
