/*
 * online.c - which CPUs are online, and their hardware ids.
 *
 * The online set is a bitmap. A CPU's bit is set by that CPU when it
 * checks in (the boot CPU's by smp_prepare_boot_cpu(); on the host, by a
 * thread when it registers) and cleared only on the host, when a thread
 * exits. Readers take a snapshot: a bit they see set was set with a
 * release, so they also see everything its CPU did before checking in.
 */
#include <lib/atomic.h>
#include <smp/smp.h>
#include "internal.h"

#define BITS_PER_LONG	(8 * sizeof(unsigned long))

static unsigned long cpu_online_bits[(NR_CPUS + BITS_PER_LONG - 1) /
				     BITS_PER_LONG];

/* Written by the CPU that starts CPU n, before it starts; read-only later. */
static unsigned long cpu_hwids[NR_CPUS];

void smp_set_online(unsigned int cpu, bool online)
{
	unsigned long bit = 1UL << (cpu % BITS_PER_LONG);
	unsigned long *word = &cpu_online_bits[cpu / BITS_PER_LONG];

	/* Release: what the CPU did before checking in is seen with its bit. */
	if (online)
		__atomic_fetch_or(word, bit, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(word, ~bit, __ATOMIC_RELEASE);
}

bool cpu_online(unsigned int cpu)
{
	if (cpu >= NR_CPUS)
		return false;
	return __atomic_load_n(&cpu_online_bits[cpu / BITS_PER_LONG],
			       __ATOMIC_ACQUIRE) >> (cpu % BITS_PER_LONG) & 1;
}

unsigned int num_online_cpus(void)
{
	unsigned int n = 0;

	/* Bit by bit: riscv64's gcc would call libgcc's popcount, which
	 * the soft-float kernel cannot link. */
	for (unsigned int i = 0; i < ARRAY_SIZE(cpu_online_bits); i++)
		for (unsigned long w = __atomic_load_n(&cpu_online_bits[i],
						       __ATOMIC_ACQUIRE);
		     w; w &= w - 1)
			n++;
	return n;
}

unsigned int cpumask_next_online(unsigned int cpu)
{
	for (; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			return cpu;
	return NR_CPUS;
}

void smp_set_hwid(unsigned int cpu, unsigned long hwid)
{
	WRITE_ONCE(cpu_hwids[cpu], hwid);
}

unsigned long cpu_hwid(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(cpu_hwids[cpu]) : ~0UL;
}
