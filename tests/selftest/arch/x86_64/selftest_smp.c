/*
 * selftest_smp.c - what x86_64's bring-up left behind, checked after
 * every CPU is up:
 *
 *   x86_smp_stack_guards   every secondary CPU's stack has its guard page
 *                          unmapped, the stack itself mapped, and a
 *                          double-fault stack in its own TSS
 *   x86_smp_apic_uncached  the xAPIC registers' 2 MiB page is uncached
 *                          (PCD) in the page tables every CPU shares
 */
#include <arch/smp.h>
#include <asm/processor-flags.h>
#include <lib/ktap.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include "apic.h"
#include "pgtable.h"
#include "x86_64.h"

#define PTE_PCD		(1ULL << 4)
#define XAPIC_DEFAULT	0xfee00000ULL

DECLARE_PER_CPU(uintptr_t, x86_stack_guard);

SELFTEST(x86_smp_stack_guards, STAGE_MEMBLOCK)
{
	unsigned int cpu, checked = 0;
	phys_addr_t pa;

	for_each_online_cpu(cpu) {
		uintptr_t guard = *per_cpu_ptr(&x86_stack_guard, cpu);

		if (cpu == 0)
			continue;
		SELFTEST_EXPECT(guard, "cpu %u has no stack guard page", cpu);
		SELFTEST_EXPECT(!x86_translate(guard, &pa), "cpu %u's guard "
				"page %#lx is mapped", cpu,
				(unsigned long)guard);
		SELFTEST_EXPECT(x86_identity_mapped(guard + 4096) &&
				x86_identity_mapped(guard - 1),
				"the pages around cpu %u's guard %#lx are not "
				"mapped", cpu, (unsigned long)guard);
		checked++;
	}
	if (!checked)
		return selftest_skip("no secondary CPU online");
	ktap_diag("%u secondary stacks have an unmapped guard page", checked);
	return true;
}

SELFTEST(x86_smp_apic_uncached, STAGE_MEMBLOCK)
{
	pte_t *pde;

	if (num_online_cpus() < 2)
		return selftest_skip("no secondary CPU was started");
	if (apic_x2apic())
		return selftest_skip("x2APIC: registers are MSRs, not MMIO");
	pde = x86_pd_entry(XAPIC_DEFAULT, NULL);
	SELFTEST_EXPECT(pde && (*pde & PTE_PCD), "the APIC page at %#llx is "
			"not uncached", XAPIC_DEFAULT);
	return true;
}
