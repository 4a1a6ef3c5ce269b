/*
 * asm/smp.h - the host's side of include/arch/smp.h: every thread that
 * calls in is a CPU (arch/host/smp.c numbers it on its first call).
 *
 * The per-CPU offset lives in a thread-local word, stored plus one so that
 * zero means "this thread has not called in yet": the first read numbers
 * the thread and gives it a per-CPU area.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#include <lib/compiler.h>
#include <lib/types.h>

extern __thread unsigned long host_percpu_offset_plus1;
unsigned long host_cpu_enter(void);

static inline unsigned long arch_percpu_offset(void)
{
	unsigned long o = host_percpu_offset_plus1;

	if (unlikely(!o))
		o = host_cpu_enter();
	return o - 1;
}

static inline void arch_set_percpu_offset(unsigned long off)
{
	host_percpu_offset_plus1 = off + 1;
}

/*
 * Host "CPUs" are threads, often more than the host's cores: a waiter
 * gives its core away, so that the thread it waits for can run.
 */
int sched_yield(void);
static inline void arch_cpu_relax(void)
{
	sched_yield();
}

static inline unsigned long arch_local_irq_save(void)
{
	return 0;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	(void)flags;
}

#endif /* ASM_SMP_H */
