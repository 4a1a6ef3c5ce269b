/*
 * smp.c - CPUs on the host: every thread that calls in is one.
 *
 * A thread becomes a CPU on its first per-CPU access (arch_percpu_offset()
 * calls host_cpu_enter()): it takes the lowest free number, the per-CPU
 * area of that number (allocated zeroed the first time the number is used,
 * kept afterwards), and is online until it exits. At exit, the hooks of
 * smp_register_cpu_dead() run on the exiting thread, then the number goes
 * back. The first thread to call in is CPU 0, whose area is the per-CPU
 * section itself.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lib/atomic.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include <arch/smp.h>

__thread unsigned long host_percpu_offset_plus1;

DEFINE_PER_CPU(unsigned int, cpu_number);
unsigned long __per_cpu_offset[NR_CPUS];

extern char __start_bb_percpu[], __stop_bb_percpu[];

static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* Written under cpus_lock with atomics: readers take no lock. */
static unsigned long online[(NR_CPUS + 63) / 64];
static char *areas[NR_CPUS];			/* under cpus_lock; kept */
#define MAX_DEAD_HOOKS	8
static void (*dead_hooks[MAX_DEAD_HOOKS])(unsigned int cpu);
static unsigned int nr_dead_hooks;		/* under cpus_lock */

size_t percpu_area_size(void)
{
	return (size_t)(__stop_bb_percpu - __start_bb_percpu);
}

static void cpu_exit(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg - 1;
	unsigned int n;

	pthread_mutex_lock(&cpus_lock);
	n = nr_dead_hooks;
	pthread_mutex_unlock(&cpus_lock);
	for (unsigned int i = 0; i < n; i++)
		dead_hooks[i](cpu);
	pthread_mutex_lock(&cpus_lock);
	__atomic_fetch_and(&online[cpu / 64], ~(1UL << (cpu % 64)),
			   __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cpus_lock);
	host_percpu_offset_plus1 = 0;
}

static void make_exit_key(void)
{
	if (pthread_key_create(&exit_key, cpu_exit))
		panic("host smp: no thread-exit key");
}

unsigned long host_cpu_enter(void)
{
	size_t size = ALIGN_UP(percpu_area_size(), PERCPU_AREA_ALIGN);
	unsigned int cpu;
	unsigned long off;

	pthread_once(&exit_key_once, make_exit_key);
	pthread_mutex_lock(&cpus_lock);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (!(__atomic_load_n(&online[cpu / 64], __ATOMIC_RELAXED) &
		      (1UL << (cpu % 64))))
			break;
	if (cpu == NR_CPUS)
		panic("host smp: more than %d threads at once", NR_CPUS);
	if (cpu && !areas[cpu]) {
		char *area = aligned_alloc(PERCPU_AREA_ALIGN, size ? size : 64);

		if (!area)
			panic("host smp: no memory for a per-CPU area");
		memset(area, 0, size);
		areas[cpu] = area;
		__per_cpu_offset[cpu] = (unsigned long)(area - __start_bb_percpu);
	}
	off = __per_cpu_offset[cpu];
	*(unsigned int *)((uintptr_t)&cpu_number + off) = cpu;
	__atomic_fetch_or(&online[cpu / 64], 1UL << (cpu % 64),
			  __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cpus_lock);
	host_percpu_offset_plus1 = off + 1;
	pthread_setspecific(exit_key, (void *)(uintptr_t)(cpu + 1));
	return off + 1;
}

unsigned int smp_processor_id(void)
{
	return *this_cpu_ptr(&cpu_number);
}

bool cpu_online(unsigned int cpu)
{
	return cpu < NR_CPUS &&
	       (__atomic_load_n(&online[cpu / 64], __ATOMIC_ACQUIRE) &
		(1UL << (cpu % 64)));
}

unsigned int cpumask_next_online(unsigned int cpu)
{
	for (; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			return cpu;
	return NR_CPUS;
}

unsigned int num_online_cpus(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < (NR_CPUS + 63) / 64; i++)
		n += (unsigned int)__builtin_popcountl(
			__atomic_load_n(&online[i], __ATOMIC_ACQUIRE));
	return n;
}

unsigned long cpu_hwid(unsigned int cpu)
{
	return cpu;
}

void smp_register_cpu_dead(void (*fn)(unsigned int cpu))
{
	pthread_mutex_lock(&cpus_lock);
	if (nr_dead_hooks == MAX_DEAD_HOOKS)
		panic("host smp: too many cpu-dead hooks");
	dead_hooks[nr_dead_hooks++] = fn;
	pthread_mutex_unlock(&cpus_lock);
}

uint64_t arch_clock_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#if CONFIG_DEBUG_SPINLOCK
void spin_debug_before_lock(spinlock_t *lock)
{
	int me = (int)smp_processor_id();

	if (spin_is_locked(lock) && READ_ONCE(lock->holder) == me)
		panic("spinlock %p: CPU %d takes it again", (void *)lock, me);
}

void spin_debug_after_lock(spinlock_t *lock)
{
	WRITE_ONCE(lock->holder, (int)smp_processor_id());
}

void spin_debug_unlock(spinlock_t *lock)
{
	int me = (int)smp_processor_id(), holder = READ_ONCE(lock->holder);

	if (!spin_is_locked(lock) || holder != me)
		panic("spinlock %p: CPU %d releases it, held by CPU %d",
		      (void *)lock, me, holder);
	WRITE_ONCE(lock->holder, -1);
}
#endif
