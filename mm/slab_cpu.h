/*
 * slab_cpu.h - what the slab allocator needs from the SMP layer: per-CPU
 * variables, the CPU number, spinlocks, the cpu-dead hook.
 *
 * Until an architecture provides <asm/smp.h> (include/arch/smp.h), the
 * build has one CPU, and the same names mean it: this_cpu_ptr() is the
 * variable itself, locks are no-ops, no CPU ever goes away.
 */
#ifndef MM_SLAB_CPU_H
#define MM_SLAB_CPU_H

#include <lib/atomic.h>

#if __has_include(<asm/smp.h>)
#include <smp/percpu.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#else
#define NR_CPUS			1
#define DEFINE_PER_CPU(type, name)	__typeof__(type) name
#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define this_cpu_ptr(ptr)	(ptr)
#define per_cpu_ptr(ptr, cpu)	((void)(cpu), (ptr))
#define for_each_online_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)

static inline unsigned int smp_processor_id(void)
{
	return 0;
}

static inline void smp_register_cpu_dead(void (*fn)(unsigned int cpu))
{
	(void)fn;
}

typedef struct { int unused; } spinlock_t;
#define DEFINE_SPINLOCK(name)	spinlock_t name = { 0 }
static inline void spin_lock_init(spinlock_t *lock) { (void)lock; }
static inline void spin_lock(spinlock_t *lock) { (void)lock; }
static inline void spin_unlock(spinlock_t *lock) { (void)lock; }
#endif

#endif /* MM_SLAB_CPU_H */
