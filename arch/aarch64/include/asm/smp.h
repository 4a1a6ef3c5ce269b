/*
 * asm/smp.h - aarch64's per-CPU register and spin hints (see
 * include/arch/smp.h).
 *
 * The per-CPU offset lives in TPIDR_EL1, which EL0 cannot read and the
 * compiler never uses (EL1 thread pointer; no TLS in buddyboot). entry.S
 * zeroes it at the boot CPU's entry; a secondary CPU's entry loads its own.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

/*
 * Idle CPUs sleep in wfi until a wake-up SGI or their virtual timer,
 * where the boot information gives a GIC that answers (gic.c); without
 * one they spin.
 */
#define ARCH_HAS_IDLE_WAKEUP	1
void arch_cpu_idle(void);
void arch_smp_send_wakeup(unsigned int cpu);
bool arch_cpu_idle_sleeps(unsigned int cpu);

/* Entered at EL3 with no firmware, every CPU runs the entry (entry.S). */
#define ARCH_HAS_CPUS_HELD_AT_ENTRY	1

static inline unsigned long arch_percpu_offset(void)
{
	unsigned long off;

	/* Not volatile: it does not change under a CPU's feet. */
	__asm__("mrs %0, tpidr_el1" : "=r"(off));
	return off;
}

static inline void arch_set_percpu_offset(unsigned long off)
{
	__asm__ volatile("msr tpidr_el1, %0" : : "r"(off) : "memory");
}

static inline void arch_cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

/* DAIF: mask I and F (and the rest), return the old DAIF. */
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #3"
			 : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__asm__ volatile("msr daif, %0" : : "r"(flags) : "memory");
}

#endif /* ASM_SMP_H */
