/*
 * smp.h - every CPU of the machine: numbering, the online set, and running
 * a function everywhere. Linux's names and meanings.
 *
 * CPUs are numbered 0..NR_CPUS-1 in the order smp_init() found them; the
 * boot CPU is 0. A CPU is online from the moment it checks in (secondary
 * CPUs) and stays online: buddyboot never takes a CPU down.
 *
 * On the host (arch/host) every thread that calls in is a CPU of its own,
 * numbered on its first call, with no registration; a thread's number is
 * given back when it exits, after the hooks of smp_register_cpu_dead() ran.
 */
#ifndef SMP_SMP_H
#define SMP_SMP_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <smp/nr_cpus.h>
#include <smp/percpu.h>

DECLARE_PER_CPU(unsigned int, cpu_number);

/* smp_processor_id - this CPU's number: one per-CPU load. */
#ifdef CONFIG_HOST
unsigned int smp_processor_id(void);
#else
static inline unsigned int smp_processor_id(void)
{
	return *this_cpu_ptr(&cpu_number);
}
#endif

/* The online CPUs: a bitmap written only by each CPU as it checks in. */
bool cpu_online(unsigned int cpu);
unsigned int num_online_cpus(void);
/* The first online CPU at or after @cpu, or NR_CPUS. */
unsigned int cpumask_next_online(unsigned int cpu);

#define for_each_online_cpu(cpu)					\
	for ((cpu) = cpumask_next_online(0); (cpu) < NR_CPUS;		\
	     (cpu) = cpumask_next_online((cpu) + 1))

/* The hwid (hart id, MPIDR, APIC id) of logical CPU @cpu. */
unsigned long cpu_hwid(unsigned int cpu);

/*
 * on_each_cpu - run @fn(@arg) on every online CPU, this one included, at
 * once, and return when all have returned. @wait is accepted for Linux's
 * signature and must be true. Callers are serialised; @fn must not call
 * on_each_cpu() itself (that panics). A CPU runs @fn when it polls, in
 * its idle loop: secondary CPUs only idle, so only the boot CPU may call.
 *
 * On the host, @fn runs on the calling thread only: another thread
 * cannot be interrupted to run it. Code that must reach every CPU's data
 * there uses per_cpu_ptr() under the lock that data's owner names.
 */
void on_each_cpu(void (*fn)(void *arg), void *arg, bool wait);

/*
 * smp_prepare_boot_cpu - record the boot CPU's hwid as CPU 0's and mark it
 * online. boot_main() calls it first, so that an exception or a panic
 * from then on can name the CPU it happened on.
 */
void smp_prepare_boot_cpu(unsigned long hwid);

/*
 * smp_init - find the CPUs in the boot information and start them all;
 * each that does not check in within a timeout is reported by its id and
 * the others go on. Called by boot_main() after the hand-off (stacks and
 * per-CPU areas come from the page allocator).
 * Return: the number of CPUs online.
 */
struct boot_cpus;
unsigned int smp_init(const struct boot_cpus *cpus);

/*
 * smp_bringup_error - why smp_init() started no secondary CPU at all: 0,
 * or the arch's negative errno (-EOPNOTSUPP: this port or its firmware
 * cannot start CPUs). Selftests skip, naming it, rather than fail.
 */
int smp_bringup_error(void);

/*
 * smp_register_cpu_dead - @fn(cpu) runs when CPU @cpu goes away: on the
 * host, when a thread that called in exits (mm/ drains that CPU's caches
 * there). Never on a bare-metal target, where CPUs stay online.
 */
void smp_register_cpu_dead(void (*fn)(unsigned int cpu));

#endif /* SMP_SMP_H */
