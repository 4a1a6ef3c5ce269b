/*
 * smp_local.h - what smp.c shares with the rest of the aarch64 port (the
 * selftests, trap.c).
 */
#ifndef AARCH64_SMP_LOCAL_H
#define AARCH64_SMP_LOCAL_H

#include <arch/smp.h>
#include <boot/cpus.h>
#include "secondary.h"

extern struct aarch64_secondary aarch64_secondary_data[NR_CPUS];

void aarch64_clean_dcache_poc(const void *p, size_t size);

/*
 * aarch64_cpu_start - arch_cpu_start() with the struct @sec the CPU reads
 * and the function it calls at the end of secondary.S (secondary_start,
 * or a selftest's probe that must never return either).
 */
int aarch64_cpu_start(const struct cpu_desc *desc,
		      struct secondary_boot *boot, struct aarch64_secondary *sec,
		      void (*fn)(struct secondary_boot *boot));

/*
 * aarch64_psci_cpu_on - PSCI CPU_ON of MPIDR @hwid (logical CPU @cpu, for
 * the message) at physical @entry with x0 = @context.
 * Return: 0, or the errno of the PSCI error, which is printed by name.
 */
int aarch64_psci_cpu_on(unsigned int cpu, unsigned long hwid,
			phys_addr_t entry, phys_addr_t context);

/* A PSCI return code's name, and the errno it is returned as. */
const char *aarch64_psci_name(int ret);
int aarch64_psci_to_errno(int ret);

#endif /* AARCH64_SMP_LOCAL_H */
