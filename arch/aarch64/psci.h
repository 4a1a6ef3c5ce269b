/*
 * psci.h - calling the Power State Coordination Interface (Arm DEN 0022):
 * the firmware service that powers CPUs on and the machine off.
 *
 * aarch64_psci_call() (poweroff.S) makes the call through the conduit the
 * device tree's /psci names (aarch64_psci_conduit, written at entry by
 * cpu.c and again by smp.c before any other CPU runs), none when it has
 * no /psci, or the one the entry EL implies when there is no tree.
 */
#ifndef AARCH64_PSCI_H
#define AARCH64_PSCI_H

#ifndef __ASSEMBLY__

/*
 * enum psci_conduit's value (<boot/cpus.h>) the device tree's /psci names
 * (read at entry, cpu.c), AARCH64_PSCI_ABSENT when the tree has no /psci,
 * or 0 when no tree said (an ELF boot without one): follow the entry EL.
 */
extern unsigned int aarch64_psci_conduit;

/*
 * aarch64_psci_call - PSCI function @fn with up to three arguments.
 * Return: the firmware's 32-bit result (PSCI_RET_*, or a value such as the
 * version), PSCI_RET_NOT_SUPPORTED when there is no conduit at all.
 */
int aarch64_psci_call(unsigned long fn, unsigned long a1, unsigned long a2,
		      unsigned long a3);

#endif

/* aarch64_psci_conduit: the device tree has no /psci (not 1 or 2). */
#define AARCH64_PSCI_ABSENT		3

/* PSCI's return codes. */
#define PSCI_RET_SUCCESS		0
#define PSCI_RET_NOT_SUPPORTED		(-1)
#define PSCI_RET_INVALID_PARAMETERS	(-2)
#define PSCI_RET_DENIED			(-3)
#define PSCI_RET_ALREADY_ON		(-4)
#define PSCI_RET_ON_PENDING		(-5)
#define PSCI_RET_INTERNAL_FAILURE	(-6)
#define PSCI_RET_NOT_PRESENT		(-7)
#define PSCI_RET_DISABLED		(-8)
#define PSCI_RET_INVALID_ADDRESS	(-9)

#endif /* AARCH64_PSCI_H */
