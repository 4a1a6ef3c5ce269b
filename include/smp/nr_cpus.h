/*
 * nr_cpus.h - NR_CPUS alone: what the boot-info readers (boot/cpus.h)
 * need, without the per-CPU register inlines of <asm/smp.h>, so that the
 * readers build on the host and for the fuzzers like the others.
 */
#ifndef SMP_NR_CPUS_H
#define SMP_NR_CPUS_H

#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS	64
#endif
#define NR_CPUS		CONFIG_NR_CPUS

_Static_assert(NR_CPUS >= 1 && NR_CPUS <= 1024,
	       "NR_CPUS must be between 1 and 1024.");

#endif /* SMP_NR_CPUS_H */
