/*
 * smp.c - threads as CPUs: the host's smp_processor_id(), per-CPU areas,
 * on_each_cpu() and CPU-dead hooks, so that mm/ code written for several
 * CPUs runs, unchanged, on host threads (under ThreadSanitizer too).
 *
 * A thread becomes a CPU on its first smp_processor_id() or this_cpu_ptr():
 * it takes the lowest free number, that number's per-CPU area (allocated
 * on the number's first use, zeroed, cache-line aligned) and its online
 * bit. The section itself is no CPU's: it is what a thread reads before
 * it calls in (offset 0, arch_percpu_offset_nocall()), so nobody writes
 * it and it stays zero, and the inline fast paths, which do not number a
 * thread, find no slab and empty lists there and go their general way.
 * When it exits, a thread-specific key's destructor runs the
 * smp_register_cpu_dead() hooks on that thread, still as that CPU, then
 * gives the number back. A number given out again
 * finds its per-CPU area as the hooks left it, as a CPU that comes back
 * does in Linux. More threads than NR_CPUS at once is a panic: the
 * numbers are what per-CPU arrays are indexed by.
 *
 * on_each_cpu() runs the function on the calling thread only: another
 * thread cannot be interrupted to run it. smp.h says so. Per-CPU requests
 * (smp/call.c) work as on bare metal: a thread answers them at its poll
 * points, and one blocked outside the allocator (a barrier, a join) is
 * served by its senders, away if it said so with smp_cpu_away(), else
 * held once found asleep outside buddyboot's code (cpu_hold.c; under
 * ThreadSanitizer, outside by the library's own count). An
 * exiting thread is away from its CPU-dead hooks on.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arch/poweroff.h>
#include <arch/smp.h>
#include <smp/smp.h>
#include "../../smp/internal.h"
#include "cpu_hold.h"

#define MAX_CPU_DEAD_HOOKS	8

HOST_TLS unsigned long host_percpu_offset;
HOST_TLS unsigned int host_relax_turns;
static __thread unsigned int host_cpu_id;
static __thread bool host_cpu_numbered;	/* host_cpu_id is this thread's */

/* Everything below is under cpus_lock. */
static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;
static bool cpu_taken[NR_CPUS];
static char *cpu_area[NR_CPUS];		/* CPU n's copy, or NULL */
static void (*cpu_dead_hooks[MAX_CPU_DEAD_HOOKS])(unsigned int cpu);
static unsigned int nr_cpu_dead_hooks;

static pthread_key_t cpu_exit_key;
static pthread_once_t cpu_exit_key_once = PTHREAD_ONCE_INIT;

static void cpu_exit(void *value);

static void make_cpu_exit_key(void)
{
	if (pthread_key_create(&cpu_exit_key, cpu_exit))
		abort();
}

/* The panic for one thread too many: printk would number this thread. */
static void too_many_threads(void)
{
	fprintf(stderr, "PANIC: more than NR_CPUS=%d threads call in at "
		"once: thread %ld gets no CPU number\n", NR_CPUS,
		(long)gettid());
	arch_poweroff(POWEROFF_FAIL);
}

/* cpus_lock, as a blocking call of buddyboot's (cpu_hold.h). */
static void lock_cpus(void)
{
	host_blocking_begin();
	pthread_mutex_lock(&cpus_lock);
}

static void unlock_cpus(void)
{
	pthread_mutex_unlock(&cpus_lock);
	host_blocking_end();
}

unsigned long host_cpu_register(void)
{
	size_t size = percpu_area_size();
	unsigned int cpu;

	if (host_cpu_numbered) {
		/* Held while it blocked (cpu_hold.c): wait, take it back. */
		smp_cpu_wait_unheld(host_cpu_id);
		arch_set_percpu_offset(__per_cpu_offset[host_cpu_id]);
		return __per_cpu_offset[host_cpu_id];
	}
	pthread_once(&cpu_exit_key_once, make_cpu_exit_key);
	pthread_mutex_lock(&cpus_lock);
	for (cpu = 0; cpu < NR_CPUS && cpu_taken[cpu]; cpu++)
		;
	if (cpu == NR_CPUS) {
		pthread_mutex_unlock(&cpus_lock);
		too_many_threads();
	}
	cpu_taken[cpu] = true;
	if (!cpu_area[cpu]) {
		cpu_area[cpu] = aligned_alloc(PERCPU_AREA_ALIGN, size);
		if (!cpu_area[cpu])
			abort();
		memset(cpu_area[cpu], 0, size);
	}
	__per_cpu_offset[cpu] = (uintptr_t)cpu_area[cpu] -
				(uintptr_t)__per_cpu_start;
	pthread_mutex_unlock(&cpus_lock);

	host_cpu_id = cpu;
	host_cpu_numbered = true;
	arch_set_percpu_offset(__per_cpu_offset[cpu]);
	smp_set_hwid(cpu, (unsigned long)gettid());
	host_cpu_hold_register(cpu);
	*this_cpu_ptr(&cpu_number) = cpu;
	/* A number given out again: its last thread left it away. */
	smp_cpu_back();
	smp_set_online(cpu, true);
	/* Not counted by a stop in progress: wait it out (smp.h). */
	smp_stop_wait();
	/* Any non-NULL value: the destructor runs only for those. */
	pthread_setspecific(cpu_exit_key, (void *)1);
	return __per_cpu_offset[cpu];
}

bool host_percpu_section_untouched(void)
{
	for (const char *p = __per_cpu_start; p < __per_cpu_end; p++)
		if (*p)
			return false;
	return true;
}

/* The exiting thread, still CPU host_cpu_id: hooks, then the number back. */
static void cpu_exit(void *value)
{
	unsigned int cpu = host_cpu_id, n;
	void (*hooks[MAX_CPU_DEAD_HOOKS])(unsigned int cpu);

	(void)value;
	lock_cpus();
	n = nr_cpu_dead_hooks;
	memcpy(hooks, cpu_dead_hooks, sizeof(hooks));
	unlock_cpus();
	for (unsigned int i = 0; i < n; i++)
		hooks[i](cpu);

	/* Its data is at rest for good: requests to it are served by their
	 * senders until it is offline (smp.h). */
	smp_cpu_away();
	smp_set_online(cpu, false);
	/* Away: no sender holds it any more (cpu_hold.c). */
	host_cpu_hold_forget(cpu);
	pthread_mutex_lock(&cpus_lock);
	cpu_taken[cpu] = false;
	pthread_mutex_unlock(&cpus_lock);
	host_cpu_numbered = false;
	arch_set_percpu_offset(0);	/* not numbered, no CPU's area again */
}

int host_cpu_of_thread(void)
{
	return host_cpu_numbered ? (int)host_cpu_id : -1;
}

unsigned int smp_processor_id(void)
{
	arch_percpu_offset();	/* numbers this thread, or waits out a hold */
	return host_cpu_id;
}

void smp_prepare_boot_cpu(unsigned long hwid)
{
	(void)hwid;
	smp_processor_id();
}

void smp_register_cpu_dead(void (*fn)(unsigned int cpu))
{
	lock_cpus();
	if (nr_cpu_dead_hooks == MAX_CPU_DEAD_HOOKS) {
		unlock_cpus();
		fprintf(stderr, "PANIC: more than %d cpu-dead hooks\n",
			MAX_CPU_DEAD_HOOKS);
		arch_poweroff(POWEROFF_FAIL);
	}
	cpu_dead_hooks[nr_cpu_dead_hooks++] = fn;
	unlock_cpus();
}

void on_each_cpu(void (*fn)(void *arg), void *arg, bool wait)
{
	(void)wait;
	smp_processor_id();
	fn(arg);
}

uint64_t arch_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
