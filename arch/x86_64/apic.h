/*
 * apic.h - the local APICs, as far as starting other CPUs and waking idle
 * ones need them: the mode, the interrupt command register, the timer.
 */
#ifndef ARCH_X86_64_APIC_H
#define ARCH_X86_64_APIC_H

#include <lib/types.h>

/*
 * apic_init - find the boot CPU's local APIC (IA32_APIC_BASE) and choose
 * its interface: x2APIC (MSRs) if the firmware left it in x2APIC mode or
 * if @max_id needs more than 8 bits (then switched on, when the CPU has
 * it), else xAPIC (MMIO at the base, its 2 MiB page made uncached).
 * Return: 0, or a negative errno with the reason printed.
 */
int apic_init(unsigned long max_id);

/* apic_x2apic - the x2APIC interface is in use (ids of 32 bits). */
bool apic_x2apic(void);

/*
 * apic_send_ipi - write the interrupt command register: @icr_low (vector,
 * delivery mode, level, trigger) to the CPU of APIC id @dest, then wait
 * until the APIC has sent it (xAPIC's delivery status; x2APIC writes are
 * sent once written). Return: 0, or -ETIMEDOUT after 100 ms of pending.
 */
int apic_send_ipi(unsigned long dest, uint32_t icr_low);

/*
 * apic_init_wakeup - on the boot CPU, after apic_init() and after the
 * clock's first reading (which measures its own rate): set this CPU's
 * APIC up for idle wake-ups (apic_init_cpu()) and measure
 * the timer against arch_clock_ns(); without a timer that counts, say so
 * (apic_timer_start() then fails and idle CPUs spin).
 */
void apic_init_wakeup(void);

/*
 * apic_init_cpu - this CPU's APIC for idle wake-ups: enabled (spurious
 * vector X86_VECTOR_SPURIOUS), task priority 0, LINT0 masked, the timer
 * one-shot on X86_VECTOR_TIMER and stopped; x2APIC mode if the boot CPU's
 * is. Every CPU, before its first arch_cpu_idle().
 */
void apic_init_cpu(void);

/* apic_timer_start - fire X86_VECTOR_TIMER in about 1 ms; false if no timer. */
bool apic_timer_start(void);

/* apic_eoi - end this CPU's interrupt in service (not for the spurious vector). */
void apic_eoi(void);

#define APIC_DM_FIXED		0x000
#define APIC_DM_INIT		0x500
#define APIC_DM_STARTUP		0x600
#define APIC_LEVEL_ASSERT	0x4000
#define APIC_TRIGGER_LEVEL	0x8000

#endif /* ARCH_X86_64_APIC_H */
