/*
 * asm/smp.h - riscv64's per-CPU register and spin hints (see
 * include/arch/smp.h).
 *
 * The per-CPU offset lives in tp: buddyboot has no thread-local storage,
 * so the ABI's thread pointer is free, and the compiler never touches it.
 * entry.S zeroes it at the boot hart's entry; a secondary hart's entry
 * (secondary.S) loads its own before any C.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

/*
 * Idle harts sleep in wfi (arch/riscv64/smp.c): the supervisor software
 * and timer interrupts are enabled in sie but never taken (sstatus.SIE
 * stays 0), so an SBI IPI or the timer only ends the wfi.
 */
#define ARCH_HAS_IDLE_WAKEUP	1
void arch_cpu_idle(void);
void arch_smp_send_wakeup(unsigned int cpu);
bool arch_cpu_idle_sleeps(unsigned int cpu);

static inline unsigned long arch_percpu_offset(void)
{
	unsigned long off;

	__asm__("mv %0, tp" : "=r"(off));
	return off;
}

static inline void arch_set_percpu_offset(unsigned long off)
{
	__asm__ volatile("mv tp, %0" : : "r"(off) : "memory");
}

/* Zihintpause's pause where the CPU has it, a no-op (a hint) elsewhere. */
static inline void arch_cpu_relax(void)
{
	__asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010" ::: "memory");
}

/* sstatus.SIE (bit 1): clear it, return the old sstatus. */
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("csrrci %0, sstatus, 2" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__asm__ volatile("csrs sstatus, %0" : : "r"(flags & 2) : "memory");
}

#endif /* ASM_SMP_H */
