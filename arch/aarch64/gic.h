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

/*
 * arch_cpu_idle_sleeps() (<asm/smp.h>) is true for a CPU that passed its
 * check; each wake-up SGI it acknowledges goes to smp_note_wakeup().
 */

#endif /* AARCH64_GIC_H */
