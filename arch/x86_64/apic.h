/*
 * apic.h - the boot CPU's local APIC, as far as starting other CPUs needs
 * it: its mode, and the interrupt command register.
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

#define APIC_DM_INIT		0x500
#define APIC_DM_STARTUP		0x600
#define APIC_LEVEL_ASSERT	0x4000
#define APIC_TRIGGER_LEVEL	0x8000

#endif /* ARCH_X86_64_APIC_H */
