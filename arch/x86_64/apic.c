/*
 * apic.c - the local APICs: mode, sending the INIT and STARTUP IPIs that
 * start other CPUs, and the wake-ups of idle CPUs (SDM vol. 3, chapter 11).
 *
 * Policy:
 *  - The base address is the CPU's own (IA32_APIC_BASE), not the MADT's:
 *    it is where the registers are. The APIC must be enabled there (the
 *    firmware leaves it so); a disabled one is refused with a message.
 *  - xAPIC registers are MMIO at that base. entry.S maps it as RAM
 *    (write-back, 2 MiB pages over [0, 4 GiB)); the 2 MiB page holding
 *    it is made uncached (PCD, PWT) here before the first access, as
 *    registers need. Firmware MTRRs usually say uncached too; the page
 *    tables no longer rely on it.
 *  - x2APIC: when the firmware left the CPU in x2APIC mode, or when a
 *    CPU to start has an id of more than 8 bits (xAPIC's ICR cannot name
 *    it); switched on then if CPUID says the CPU has it.
 *  - Idle wake-ups (apic_init_cpu(), on every CPU): the APIC is
 *    software-enabled with spurious vector 0xff, LINT0 is masked (the
 *    8259's ExtINT: the 8259 is masked too, from x86_start() on), and
 *    the timer is one-shot on X86_VECTOR_TIMER, stopped. buddyboot runs
 *    with interrupts masked except across arch_cpu_idle()'s sti; hlt,
 *    where another CPU's IPI (X86_VECTOR_WAKE) or the timer a
 *    millisecond on ends the hlt. The timer's rate is measured once
 *    against arch_clock_ns(). The handler counts the IPIs (the
 *    in-service register says which vector it is ending) with
 *    smp_note_wakeup().
 */
#include <arch/smp.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include <lib/errno.h>
#include <lib/atomic.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include "apic.h"
#include "pgtable.h"
#include "x86_64.h"

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_ENABLE	(1ULL << 11)
#define APIC_BASE_X2APIC	(1ULL << 10)
#define APIC_BASE_ADDR		0xffffff000ULL
#define CPUID1_ECX_X2APIC	(1u << 21)

#define APIC_TPR		0x080	/* xAPIC MMIO offsets; x2APIC: MSR */
#define APIC_EOI		0x0b0	/* 0x800 + offset / 16 */
#define APIC_ISR		0x100	/* 8 registers, 0x100 to 0x170 */
#define APIC_SVR		0x0f0
#define APIC_ICR_LOW		0x300
#define APIC_ICR_HIGH		0x310
#define APIC_LVT_TIMER		0x320
#define APIC_LVT_LINT0		0x350
#define APIC_TIMER_INITIAL	0x380
#define APIC_TIMER_CURRENT	0x390
#define APIC_TIMER_DIVIDE	0x3e0
#define APIC_ICR_PENDING	(1u << 12)
#define APIC_SVR_ENABLE		(1u << 8)
#define APIC_LVT_MASKED		(1u << 16)
#define APIC_TIMER_DIVIDE_16	0x3
#define X2APIC_MSR_ICR		0x830
#define X2APIC_MSR(reg)		(0x800 + (reg) / 16)

/* The timer measured over this long, and set this far ahead in idle. */
#define TIMER_CALIBRATE_NS	(1000ULL * 1000)

#define PTE_PWT			(1ULL << 3)
#define PTE_PCD			(1ULL << 4)
#define IPI_SEND_TIMEOUT_NS	(100ULL * 1000 * 1000)

/* Set by the boot CPU in apic_init(), before any other CPU starts. */
static volatile uint32_t *xapic;	/* MMIO, when !x2apic */
static bool x2apic;
/* Timer ticks in TIMER_CALIBRATE_NS; 0: no timer, idle CPUs spin. */
static uint32_t timer_ticks;

/* This CPU's APIC register @reg (an xAPIC offset), either interface. */
static uint32_t apic_read(unsigned int reg)
{
	if (x2apic)
		return (uint32_t)rdmsr(X2APIC_MSR(reg));
	return xapic[reg / 4];
}

static void apic_write(unsigned int reg, uint32_t value)
{
	if (x2apic)
		wrmsr(X2APIC_MSR(reg), value);
	else
		xapic[reg / 4] = value;
}

bool apic_x2apic(void)
{
	return x2apic;
}

/* Make the 2 MiB page at @pa uncached; false if it is not mapped so. */
static bool map_uncached(phys_addr_t pa)
{
	pte_t *pde = x86_pd_entry(pa, NULL);

	if (!pde || (*pde & (PTE_PRESENT | PTE_PSE)) !=
		    (PTE_PRESENT | PTE_PSE))
		return false;
	*pde |= PTE_PCD | PTE_PWT;
	flush_tlb_all();
	return true;
}

int apic_init(unsigned long max_id)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);
	bool has_x2apic = cpuid(1, 0).ecx & CPUID1_ECX_X2APIC;

	if (!(base & APIC_BASE_ENABLE)) {
		pr_err("x86_64: the local APIC is disabled (IA32_APIC_BASE "
		       "%#llx)\n", (unsigned long long)base);
		return -EOPNOTSUPP;
	}
	x2apic = base & APIC_BASE_X2APIC;
	if (!x2apic && max_id > 0xfe) {
		if (!has_x2apic) {
			pr_err("x86_64: APIC id %#lx needs x2APIC, which this "
			       "CPU does not have\n", max_id);
			return -EOPNOTSUPP;
		}
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_X2APIC);
		x2apic = true;
	}
	if (!x2apic) {
		phys_addr_t pa = base & APIC_BASE_ADDR;

		if (pa >= BOOT_MAP_SIZE || !map_uncached(pa)) {
			pr_err("x86_64: the local APIC at %#llx is not in the "
			       "boot map\n", (unsigned long long)pa);
			return -EOPNOTSUPP;
		}
		xapic = (volatile uint32_t *)(uintptr_t)pa;
	}
	pr_info("x86_64: local APIC in %s mode%s, base %#llx\n",
		x2apic ? "x2APIC" : "xAPIC",
		x2apic && !(base & APIC_BASE_X2APIC) ? " (switched on)" : "",
		(unsigned long long)(base & APIC_BASE_ADDR));
	return 0;
}

int apic_send_ipi(unsigned long dest, uint32_t icr_low)
{
	uint64_t deadline;

	if (x2apic) {
		/*
		 * x2APIC MSR writes are not serialising: a full barrier first,
		 * so that what the target reads (x86_secondary_boots[]) is
		 * visible before the IPI (Linux's weak_wrmsr_fence()).
		 */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(X2APIC_MSR_ICR, (uint64_t)dest << 32 | icr_low);
		return 0;
	}
	/* The high half first: writing the low half sends. */
	xapic[APIC_ICR_HIGH / 4] = (uint32_t)dest << 24;
	xapic[APIC_ICR_LOW / 4] = icr_low;
	deadline = arch_clock_ns() + IPI_SEND_TIMEOUT_NS;
	while (xapic[APIC_ICR_LOW / 4] & APIC_ICR_PENDING) {
		if (arch_clock_ns() > deadline)
			return -ETIMEDOUT;
		arch_cpu_relax();
	}
	return 0;
}

void apic_init_cpu(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	/* Every CPU's APIC in the boot CPU's mode, to be named by its id. */
	if (x2apic && !(base & APIC_BASE_X2APIC))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_X2APIC);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | X86_VECTOR_SPURIOUS);
	apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_DIVIDE, APIC_TIMER_DIVIDE_16);
	apic_write(APIC_TIMER_INITIAL, 0);
	apic_write(APIC_LVT_TIMER, X86_VECTOR_TIMER);	/* one-shot */
}

void apic_init_wakeup(void)
{
	uint32_t left;

	/* The 8259's lines are masked since x86_start(): none ends a hlt. */
	apic_init_cpu();
	/* Count down with the interrupt masked while the clock runs 1 ms. */
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | X86_VECTOR_TIMER);
	apic_write(APIC_TIMER_INITIAL, UINT32_MAX);
	x86_delay_ns(TIMER_CALIBRATE_NS);
	left = apic_read(APIC_TIMER_CURRENT);
	apic_write(APIC_TIMER_INITIAL, 0);
	apic_write(APIC_LVT_TIMER, X86_VECTOR_TIMER);
	/* Not counting, or past zero: no rate to trust. */
	timer_ticks = left && left != UINT32_MAX ? UINT32_MAX - left : 0;
	if (!timer_ticks)
		pr_warn("x86_64: the local APIC timer does not count: idle "
			"CPUs spin\n");
}

bool apic_timer_start(void)
{
	if (!timer_ticks)
		return false;
	apic_write(APIC_TIMER_INITIAL, timer_ticks);
	return true;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

void x86_interrupt(void)
{
	/* In service until the EOI: 8 registers of 32 vectors, 16 bytes apart. */
	if (apic_read(APIC_ISR + X86_VECTOR_WAKE / 32 * 0x10) &
	    1u << X86_VECTOR_WAKE % 32)
		smp_note_wakeup();
	apic_eoi();
}

bool arch_cpu_idle_sleeps(unsigned int cpu)
{
	(void)cpu;
	return timer_ticks != 0;
}
