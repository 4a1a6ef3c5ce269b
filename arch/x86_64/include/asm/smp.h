/*
 * asm/smp.h - x86_64's per-CPU register, spin hints and idle (see
 * include/arch/smp.h).
 *
 * The GS base points at this CPU's per-CPU area, and the area's first
 * word, the per-CPU variable this_cpu_off (placed first in the section
 * by arch/x86_64/image.lds.S), holds the area's offset from the section. So
 * arch_percpu_offset() is one load, `mov %gs:0`, on every x86_64 CPU:
 * unlike rdgsbase it needs neither CPUID's FSGSBASE nor CR4.FSGSBASE.
 * Setting it writes the word and the GS base MSR (wrmsr, privileged and
 * slow: once per CPU at its entry). entry.S points GS at the section
 * itself (offset 0) at the boot CPU's entry.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#define MSR_GS_BASE		0xc0000101

#ifndef __ASSEMBLY__

#include <lib/types.h>

/* The section name of the per-CPU word that comes first. */
#define PER_CPU_FIRST_SECTION	"bb_percpu.first"

extern char __per_cpu_start[];

static inline unsigned long arch_percpu_offset(void)
{
	unsigned long off;

	/* Not volatile: it does not change under a CPU's feet. */
	__asm__("movq %%gs:0, %0" : "=r"(off));
	return off;
}

static inline void arch_set_percpu_offset(unsigned long off)
{
	uintptr_t base = (uintptr_t)__per_cpu_start + off;

	*(volatile unsigned long *)base = off;
	__asm__ volatile("wrmsr"
			 : : "c"(MSR_GS_BASE), "a"((uint32_t)base),
			     "d"((uint32_t)(base >> 32))
			 : "memory");
}

/* Idle CPUs halt until a wake-up IPI or their APIC timer (smp.c). */
#define ARCH_HAS_IDLE_WAKEUP	1
void arch_cpu_idle(void);
void arch_smp_send_wakeup(unsigned int cpu);
bool arch_cpu_idle_sleeps(unsigned int cpu);

static inline void arch_cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

/* RFLAGS.IF: clear it, return the old RFLAGS. */
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq\n\tpopq %0\n\tcli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & (1UL << 9))
		__asm__ volatile("sti" ::: "memory");
}

#endif /* !__ASSEMBLY__ */
#endif /* ASM_SMP_H */
