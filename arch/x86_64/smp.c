/*
 * smp.c - x86_64's part of bringing CPUs up (include/arch/smp.h): the
 * trampoline, INIT-SIPI-SIPI, the secondary CPU's first C, and the clock.
 *
 * arch_smp_prepare_cpus() sets the boot CPU's local APIC up (apic.c) and
 * copies the real-mode trampoline (secondary.S) to the page
 * arch_reserve_memory() set aside below 1 MiB, with the boot CPU's CR0,
 * CR3, CR4 and EFER in it: every secondary CPU runs on the boot CPU's
 * page tables. arch_cpu_start() then, per CPU:
 *   - unmaps the lowest page of the stack smp_init() gave it (the guard:
 *     the 2 MiB page around it is split into 4 KiB pages, pgtable.c), so
 *     that an overflow faults, and the double fault is reported on a
 *     stack of its own (a page from the allocator, the CPU's TSS IST 1);
 *   - publishes @boot in x86_secondary_boots[cpu], where the CPU finds it
 *     by its APIC id (secondary.S): CPUs start in parallel;
 *   - sends INIT (assert), waits 10 ms, INIT (de-assert), then two
 *     STARTUP IPIs naming the trampoline page, 200 us apart and 200 us
 *     after the second: the SDM's sequence (vol. 3, 9.4.4.1), in Linux's
 *     order (smpboot.c, wakeup_secondary_cpu_via_init).
 * The new CPU loads the IDT and its TSS, points GS at its per-CPU area,
 * sets its local APIC up for idle wake-ups and calls secondary_start().
 * SSE stays off on it as on the boot CPU: CR4 is the boot CPU's.
 *
 * Idle CPUs sleep: arch_cpu_idle() halts until another CPU's wake-up IPI
 * or the local APIC timer (apic.c).
 *
 * The clock: the TSC, at the rate CPUID leaf 0x15 states (crystal clock
 * times its ratio) where the CPU says it, else measured once against the
 * PIT's channel 2 over 10 ms, by the boot CPU in arch_smp_prepare_cpus(),
 * before any other CPU reads it.
 */
#include <arch/memory.h>
#include <arch/smp.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include <boot/cpus.h>
#include <lib/atomic.h>
#include <lib/compiler.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <smp/percpu.h>
#include "apic.h"
#include "pgtable.h"
#include "x86_64.h"

/* Its own area's offset from the section, first in every CPU's area. */
__section(PER_CPU_FIRST_SECTION) __aligned(8) unsigned long this_cpu_off;

/* The page under this CPU's stack, for trap.c (0: the boot CPU). */
DEFINE_PER_CPU(uintptr_t, x86_stack_guard);

/*
 * x86_secondary_boots[cpu]: written by the boot CPU in arch_cpu_start()
 * before CPU @cpu's INIT (the IPI is the release: apic.c orders it), read
 * by every starting CPU, which takes the entry with its APIC id.
 */
struct secondary_boot *x86_secondary_boots[NR_CPUS];

_Static_assert(__builtin_offsetof(struct secondary_boot, hwid) == 8,
	       "secondary.S reads hwid at 8");
_Static_assert(__builtin_offsetof(struct secondary_boot, stack_top) == 16,
	       "secondary.S reads stack_top at 16");

/* secondary.S: the code to copy, and where its fields are in it. */
extern const char x86_trampoline_start[], x86_trampoline_end[];
extern const char x86_tr_gdt[], x86_tr_gdt_ptr_base[], x86_tr_pm32[];
extern const char x86_tr_pm32_ptr[], x86_tr_cr0[], x86_tr_cr3[];
extern const char x86_tr_cr4[], x86_tr_efer[];

#define INIT_DELAY_NS	(10ULL * 1000 * 1000)	/* 10 ms */
#define SIPI_DELAY_NS	(200ULL * 1000)		/* 200 us */
#define XAPIC_MAX_ID	0xfe			/* 0xff is the broadcast */

void x86_secondary_start(struct secondary_boot *boot) __noreturn;

/* Where arch_clock_ns()'s rate came from (set by its first call). */
static const char *tsc_khz_source;

void x86_delay_ns(uint64_t ns)
{
	uint64_t end = arch_clock_ns() + ns;

	while (arch_clock_ns() < end)
		arch_cpu_relax();
}

/* Write the 32-bit field at @offset (a secondary.S symbol) of the copy. */
static void patch32(const char *offset, uint64_t value)
{
	uint32_t v = (uint32_t)value;

	memcpy((char *)phys_to_virt(x86_trampoline_page) + (uintptr_t)offset,
	       &v, 4);
}

/* CPUID leaf 1, ECX: set by hypervisors (and QEMU's TCG), clear on metal. */
#define CPUID1_ECX_HYPERVISOR	(1u << 31)
/* The hypervisor's leaves: its largest leaf, then its 12-byte signature. */
#define CPUID_HYPERVISOR_LEAF	0x40000000u

/*
 * The hypervisor bit, and the signature the hypervisor puts in its
 * leaf ("KVMKVMKVM", "TCGTCGTCGTCG", "Microsoft Hv", ...), kept for the
 * boot line; bytes outside printable ASCII print as '.'.
 */
const char *arch_cpus_virtual(void)
{
	static char why[64];
	struct cpuid_regs r;
	char sig[13];

	if (!(cpuid(1, 0).ecx & CPUID1_ECX_HYPERVISOR))
		return NULL;
	r = cpuid(CPUID_HYPERVISOR_LEAF, 0);
	memcpy(&sig[0], &r.ebx, 4);
	memcpy(&sig[4], &r.ecx, 4);
	memcpy(&sig[8], &r.edx, 4);
	sig[12] = '\0';
	for (char *c = sig; *c; c++)
		if (*c < ' ' || *c > '~')
			*c = '.';
	ksnprintf(why, sizeof(why), "CPUID: hypervisor bit, signature \"%s\"",
		  sig);
	return why;
}

int arch_smp_prepare_cpus(const struct boot_cpus *cpus)
{
	size_t size = x86_trampoline_end - x86_trampoline_start;
	phys_addr_t page = x86_trampoline_page;
	unsigned long max_id = 0;
	uint64_t cr3 = read_cr3(), now;
	int err;

	for (unsigned int i = 0; i < cpus->nr; i++)
		max_id = MAX(max_id, cpus->cpu[i].hwid);
	if (!page)
		return -EOPNOTSUPP; /* memory.c said why */
	if (size > X86_TRAMPOLINE_SIZE || cr3 >> 32) {
		pr_err("x86_64: the trampoline (%zu bytes) must fit a page and "
		       "CR3 (%#llx) be below 4 GiB\n", size,
		       (unsigned long long)cr3);
		return -EOPNOTSUPP;
	}
	err = apic_init(max_id);
	if (err)
		return err;

	memcpy(phys_to_virt(page), x86_trampoline_start, size);
	patch32(x86_tr_gdt_ptr_base, page + (uintptr_t)x86_tr_gdt);
	patch32(x86_tr_pm32_ptr, page + (uintptr_t)x86_tr_pm32);
	patch32(x86_tr_cr0, read_cr0());
	patch32(x86_tr_cr3, cr3);
	patch32(x86_tr_cr4, read_cr4());
	/* LMA is the CPU's to set, when paging comes on. */
	patch32(x86_tr_efer, rdmsr(MSR_EFER) & ~(uint64_t)EFER_LMA);

	/* Calibrate now, before any other CPU reads the clock. */
	now = arch_clock_ns();
	pr_info("x86_64: trampoline at %#llx (STARTUP vector %#llx, %zu "
		"bytes), clock at %llu ns (TSC rate from %s)\n",
		(unsigned long long)page, (unsigned long long)(page >> 12),
		size, (unsigned long long)now, tsc_khz_source);
	/* After the clock's calibration: it measures the APIC timer. */
	apic_init_wakeup();
	return 0;
}

/* A page-table page for x86_unmap_page(), after the hand-off. */
static pte_t *alloc_page_table(void)
{
	return (pte_t *)__get_free_pages(GFP_KERNEL, 0);
}

/* INIT, INIT de-assert, STARTUP twice, with the SDM's delays. */
static int init_sipi_sipi(unsigned long id)
{
	uint32_t vector = (uint32_t)(x86_trampoline_page >> 12);
	int err;

	err = apic_send_ipi(id, APIC_DM_INIT | APIC_LEVEL_ASSERT |
				APIC_TRIGGER_LEVEL);
	if (err)
		return err;
	x86_delay_ns(INIT_DELAY_NS);
	err = apic_send_ipi(id, APIC_DM_INIT | APIC_TRIGGER_LEVEL);
	for (int i = 0; !err && i < 2; i++) {
		err = apic_send_ipi(id, APIC_DM_STARTUP | vector);
		x86_delay_ns(SIPI_DELAY_NS);
	}
	return err;
}

int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot)
{
	uintptr_t guard = boot->stack_bottom - PAGE_SIZE;
	unsigned long df_stack;
	int err;

	if (!apic_x2apic() && desc->hwid > XAPIC_MAX_ID)
		return -ERANGE;
	df_stack = __get_free_pages(GFP_KERNEL, 0);
	if (!df_stack)
		return -ENOMEM;
	err = x86_unmap_page(guard, alloc_page_table);
	if (err) {
		pr_warn("x86_64: cpu %u: no guard page under its stack (error "
			"%d)\n", boot->cpu, err);
		guard = 0;
	}
	per_cpu(x86_stack_guard, boot->cpu) = guard;
	boot->arch = (void *)(df_stack + PAGE_SIZE);

	/* Release: everything above before the CPU's first read. */
	__atomic_store_n(&x86_secondary_boots[boot->cpu], boot,
			 __ATOMIC_RELEASE);
	err = init_sipi_sipi(desc->hwid);
	if (err) {
		WRITE_ONCE(x86_secondary_boots[boot->cpu], NULL);
		free_pages(df_stack, 0);
	}
	return err;
}

bool x86_is_stack_guard(uint64_t va)
{
	for (unsigned int cpu = 1; cpu < NR_CPUS; cpu++) {
		uintptr_t guard = *per_cpu_ptr(&x86_stack_guard, cpu);

		if (guard && va - guard < PAGE_SIZE)
			return true;
	}
	return false;
}

void x86_secondary_start(struct secondary_boot *boot)
{
	/* Exceptions are reported from here on, then name this CPU. */
	x86_cpu_init_secondary(boot->cpu, (uintptr_t)boot->arch);
	arch_set_percpu_offset(boot->percpu_offset);
	apic_init_cpu();
	secondary_start(boot);
}

/*
 * arch_cpu_idle - hlt until the wake-up vector: another CPU's IPI
 * (arch_smp_send_wakeup()) or this CPU's APIC timer, set 1 ms ahead for a
 * caller that watches a deadline. IF is 1 only across the hlt: sti takes
 * effect after the next instruction, so an IPI sent between the caller's
 * last look and the sti is taken at the hlt and ends it at once, never
 * lost. x86_interrupt_stub acknowledges it and returns past the hlt.
 * Without a timer that counts, spin instead.
 */
void arch_cpu_idle(void)
{
	if (!apic_timer_start()) {
		arch_cpu_relax();
		return;
	}
	__asm__ volatile("sti\n\thlt\n\tcli" ::: "memory");
}

void arch_smp_send_wakeup(unsigned int cpu)
{
	/* apic_send_ipi() orders the request's stores before the IPI. */
	apic_send_ipi(cpu_hwid(cpu), APIC_DM_FIXED | X86_VECTOR_WAKE);
}

#define PIT_HZ			1193182
#define PIT_CH2			0x42
#define PIT_CMD			0x43
#define PIT_PORT_B		0x61	/* bit 0: gate 2, 1: speaker, 5: OUT2 */
#define PIT_CALIBRATE_MS	10
#define PIT_POLL_LIMIT		100000000UL
/* Below this a measured TSC rate is a broken measurement, not a CPU. */
#define TSC_MIN_KHZ		100000
#define CPUID_TIMING_LEAF	0x40000010	/* eax: TSC kHz */

/* The TSC rate in kHz from CPUID 0x15, or 0 when it does not say. */
static uint64_t tsc_khz_from_cpuid(void)
{
	struct cpuid_regs r;

	if (cpuid(0, 0).eax < 0x15)
		return 0;
	r = cpuid(0x15, 0);
	if (!r.eax || !r.ebx || !r.ecx)
		return 0;
	return (uint64_t)r.ecx * r.ebx / r.eax / 1000;
}

/*
 * The TSC rate in kHz from the hypervisor's timing leaf, 0x40000010
 * (VMware's, which QEMU with KVM offers with vmware-cpuid-freq), or 0
 * when the hypervisor's range does not reach it.
 */
static uint64_t tsc_khz_from_hypervisor(void)
{
	if (!(cpuid(1, 0).ecx & CPUID1_ECX_HYPERVISOR) ||
	    cpuid(CPUID_HYPERVISOR_LEAF, 0).eax < CPUID_TIMING_LEAF)
		return 0;
	return cpuid(CPUID_TIMING_LEAF, 0).eax;
}

/* Count TSC ticks while the PIT's channel 2 counts 10 ms down. */
static uint64_t tsc_khz_from_pit(void)
{
	uint32_t latch = PIT_HZ / (1000 / PIT_CALIBRATE_MS);
	uint64_t start, end;
	unsigned long polls = 0;

	/* Gate on, speaker off; mode 0, binary, low then high byte. */
	outb((uint8_t)((inb(PIT_PORT_B) & ~0x02) | 0x01), PIT_PORT_B);
	outb(0xb0, PIT_CMD);
	outb((uint8_t)latch, PIT_CH2);
	outb((uint8_t)(latch >> 8), PIT_CH2);
	/*
	 * Mode 0 holds OUT2 low until the count ends. A port B that reads
	 * all ones, or OUT2 already high, is no PIT's: QEMU's microvm has
	 * no speaker port, and such a "count" would end at once.
	 */
	if (inb(PIT_PORT_B) & 0x20)
		return 0;
	start = rdtsc();
	while (!(inb(PIT_PORT_B) & 0x20) && ++polls < PIT_POLL_LIMIT)
		;
	end = rdtsc();
	if (polls >= PIT_POLL_LIMIT || end <= start ||
	    (end - start) / PIT_CALIBRATE_MS < TSC_MIN_KHZ)
		return 0;
	return (end - start) / PIT_CALIBRATE_MS;
}

uint64_t arch_clock_ns(void)
{
	/* Measured once, by the first caller (the boot CPU). */
	static uint64_t tsc_khz;
	uint64_t tsc;

	/* Asked in this order; the first that answers sets the rate. */
	static const struct {
		const char *name;
		uint64_t (*khz)(void);
	} sources[] = {
		{ "CPUID 0x15", tsc_khz_from_cpuid },
		{ "the hypervisor's CPUID 0x40000010", tsc_khz_from_hypervisor },
		{ "the PIT", tsc_khz_from_pit },
	};

	for (size_t i = 0; !tsc_khz && i < ARRAY_SIZE(sources); i++) {
		tsc_khz = sources[i].khz();
		tsc_khz_source = sources[i].name;
	}
	if (!tsc_khz) {
		/* Times read fast or slow; intervals still order. */
		tsc_khz_source = "no source: 1 GHz assumed";
		tsc_khz = 1000000;
	}
	tsc = rdtsc();
	return tsc / tsc_khz * 1000000ULL + tsc % tsc_khz * 1000000ULL / tsc_khz;
}
