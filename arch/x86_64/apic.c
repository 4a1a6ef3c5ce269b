/*
 * apic.c - the boot CPU's local APIC: mode, and sending the INIT and
 * STARTUP IPIs that start other CPUs (SDM vol. 3, chapter 11).
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
 *  - Nothing else is touched: no spurious vector, no LVT, no timer;
 *    buddyboot runs with interrupts masked.
 */
#include <arch/smp.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include "apic.h"
#include "pgtable.h"

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_ENABLE	(1ULL << 11)
#define APIC_BASE_X2APIC	(1ULL << 10)
#define APIC_BASE_ADDR		0xffffff000ULL
#define CPUID1_ECX_X2APIC	(1u << 21)

#define APIC_ICR_LOW		0x300	/* xAPIC MMIO offsets */
#define APIC_ICR_HIGH		0x310
#define APIC_ICR_PENDING	(1u << 12)
#define X2APIC_MSR_ICR		0x830

#define PTE_PWT			(1ULL << 3)
#define PTE_PCD			(1ULL << 4)
#define IPI_SEND_TIMEOUT_NS	(100ULL * 1000 * 1000)

static volatile uint32_t *xapic;	/* MMIO, when !x2apic */
static bool x2apic;

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
