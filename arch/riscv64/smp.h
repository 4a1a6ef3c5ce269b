/*
 * smp.h - what riscv64's secondary entry (secondary.S, entry.S) and
 * smp.c share: offsets into struct secondary_boot and the release table,
 * usable from assembly. smp.c checks them against the structs.
 */
#ifndef RISCV64_SMP_H
#define RISCV64_SMP_H

#define SB_STACK_TOP		16	/* struct secondary_boot */
#define SB_PERCPU_OFFSET	32

/* The top of each secondary stack is that hart's exception stack. */
#define RISCV_EXCEPTION_STACK	8192

/* struct riscv_release: {hartid, boot}, 16 bytes an entry. */
#define RELEASE_HARTID		0
#define RELEASE_BOOT		8
#define RELEASE_SIZE		16

#endif /* RISCV64_SMP_H */
