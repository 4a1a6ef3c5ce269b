/*
 * gic.h - the aarch64 port's interrupt controller, for idle wake-ups
 * only (gic.c): what smp.c and the arch selftests call.
 */
#ifndef AARCH64_GIC_H
#define AARCH64_GIC_H

#include <lib/types.h>

struct boot_gic;

/*
 * gic_init - boot CPU, once, before any secondary CPU starts: the
 * distributor, then gic_init_cpu(). Return: 0, or -ENODEV (printed) when
 * there is no GIC or timer interrupt to use: every CPU then spins idle.
 */
int gic_init(const struct boot_gic *gic);

/* gic_init_cpu - this CPU's interface and its check; a secondary's first C. */
void gic_init_cpu(void);

/* gic_cpu_sleeps - CPU @cpu passed its check: it sleeps in arch_cpu_idle(). */
bool gic_cpu_sleeps(unsigned int cpu);

/* gic_cpu_wakeups - the wake-up SGIs CPU @cpu has acknowledged. */
unsigned long gic_cpu_wakeups(unsigned int cpu);

#endif /* AARCH64_GIC_H */
