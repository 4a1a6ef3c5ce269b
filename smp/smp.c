/*
 * smp.c - bringing every CPU up: smp_init() on the boot CPU, and
 * secondary_start(), where every other CPU enters the generic code.
 *
 * For each CPU the boot information lists after the boot CPU, smp_init()
 * takes from the page allocator a stack (with its lowest page left for
 * the arch to use as a guard where its MMU allows) and a zeroed per-CPU
 * area (each a contiguous run when MAX_PAGE_ORDER is too small for it),
 * fills a struct secondary_boot and calls arch_cpu_start(). Then it
 * waits for each started CPU to check in, up to SMP_CHECKIN_TIMEOUT_NS on
 * arch_clock_ns(); a CPU that does not is reported by its hwid and given
 * up, and the others go on. Starting them all before waiting lets them
 * come up in parallel.
 *
 * Checking in is one compare-and-swap of the CPU's state, STARTING ->
 * ONLINE, against the boot CPU's STARTING -> GIVEN_UP at the timeout:
 * exactly one of them wins, so a CPU that comes up too late parks instead
 * of joining a set that on_each_cpu() has already counted.
 *
 * Secondary CPUs then idle: away for per-CPU requests (their senders act
 * for them, smp.h), they poll their on_each_cpu() mailbox, and between
 * polls sleep where the arch can wake them (ARCH_HAS_IDLE_WAKEUP) or spin.
 * A sleeping emulated CPU leaves the host's cores to the others.
 */
#include <arch/cpu.h>
#include <arch/smp.h>
#include <boot/cpus.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include "internal.h"

#define SMP_STACK_SIZE		(16 * 1024)	/* usable, at least */
#define SMP_CHECKIN_TIMEOUT_NS	(5ULL * 1000 * 1000 * 1000)

enum cpu_state {
	CPU_OFF = 0,		/* never started */
	CPU_STARTING,		/* start requested, not checked in yet */
	CPU_ONLINE,		/* checked in */
	CPU_GIVEN_UP,		/* did not check in in time, or refused */
};

/*
 * cpu_state[n]: CPU_OFF -> STARTING by the boot CPU before the start
 * request; STARTING -> ONLINE by CPU n, or STARTING -> GIVEN_UP by the
 * boot CPU, each with a compare-and-swap.
 */
static int cpu_state[NR_CPUS];

/* Why no secondary CPU was started, or 0: the boot CPU's, for selftests. */
static int bringup_error;

int smp_bringup_error(void)
{
	return bringup_error;
}

/* Wake-ups each CPU took (smp_note_wakeup()): written by that CPU only. */
static unsigned long wakeups_taken[NR_CPUS];

void smp_note_wakeup(void)
{
	unsigned long *n = &wakeups_taken[smp_processor_id() % NR_CPUS];

	WRITE_ONCE(*n, *n + 1);
}

unsigned long smp_cpu_wakeups(unsigned int cpu)
{
	return READ_ONCE(wakeups_taken[cpu % NR_CPUS]);
}

/* Written by the boot CPU before each start; read by that CPU after. */
static struct secondary_boot secondary_boot[NR_CPUS];

/* Wait a little: sleep until a wake-up where the arch can, else spin. */
static void smp_idle(void)
{
#ifdef ARCH_HAS_IDLE_WAKEUP
	arch_cpu_idle();
#else
	arch_cpu_relax();
#endif
}

void smp_prepare_boot_cpu(unsigned long hwid)
{
	/* The boot CPU's per-CPU register is 0 from its entry on. */
	*this_cpu_ptr(&cpu_number) = 0;
	smp_set_hwid(0, hwid);
	cpu_state[0] = CPU_ONLINE;
	smp_set_online(0, true);
}

void secondary_start(struct secondary_boot *boot)
{
	int expected = CPU_STARTING;

	if (smp_processor_id() != boot->cpu)
		panic("cpu %u (hwid %#lx): its per-CPU register says cpu %u",
		      boot->cpu, boot->hwid, smp_processor_id());

	/*
	 * Check in. Seq-cst compare-and-swap: it orders everything this CPU
	 * did so far before the state change, which the boot CPU reads with
	 * an acquire; and it decides the race with the boot CPU's give-up.
	 */
	if (!__atomic_compare_exchange_n(&cpu_state[boot->cpu], &expected,
					 CPU_ONLINE, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST)) {
		printk("smp: cpu %u (hwid %#lx) came up after it was given "
		       "up; it stays parked\n", boot->cpu, boot->hwid);
		arch_halt();
	}
	/* Release (online.c): visible to for_each_online_cpu() from here. */
	smp_set_online(boot->cpu, true);

#ifdef ARCH_HAS_IDLE_WAKEUP
	/* The boot CPU may be asleep in wait_for_cpu(). */
	arch_smp_send_wakeup(0);
#endif
	/*
	 * Idle is away (smp.h): a per-CPU request finds this CPU's data at
	 * rest and its sender acts on it, with no wake-up. Back only to run
	 * an on_each_cpu() function, which may use that data.
	 */
	smp_cpu_away();
	for (;;) {
		if (smp_call_pending()) {
			smp_cpu_back();
			smp_call_poll();
			smp_cpu_away();
		} else {
			smp_idle();
		}
	}
}

/* The bytes of a secondary CPU's stack (guard page included) and area. */
static size_t stack_size(void)
{
	return ALIGN_UP((size_t)SMP_STACK_SIZE, PAGE_SIZE) + PAGE_SIZE;
}

static size_t percpu_size(void)
{
	size_t area = percpu_area_size();

	return area ? area : 1;
}

/*
 * One block of the order that holds @size; when that order is above
 * MAX_PAGE_ORDER (a build with small top blocks: 16 KiB of stack is
 * order 3 with 4K pages), a contiguous run of just the pages it needs
 * instead. Which one follows from @size alone, so smp_cpu_mem_free()
 * knows how to give it back.
 */
static bool cpu_mem_is_block(size_t size)
{
	return get_order(size) <= MAX_PAGE_ORDER;
}

size_t smp_cpu_mem_bytes(size_t size)
{
	return cpu_mem_is_block(size) ? (size_t)PAGE_SIZE << get_order(size)
				      : ALIGN_UP(size, PAGE_SIZE);
}

unsigned long smp_cpu_mem_alloc(size_t size, gfp_t gfp)
{
	struct page *page;

	if (cpu_mem_is_block(size))
		return __get_free_pages(gfp, (unsigned int)get_order(size));
	page = alloc_contig_pages(smp_cpu_mem_bytes(size) >> PAGE_SHIFT, gfp,
				  NUMA_NO_NODE, NULL);
	return page ? (unsigned long)page_address(page) : 0;
}

void smp_cpu_mem_free(unsigned long addr, size_t size)
{
	if (!addr)
		return;
	if (cpu_mem_is_block(size))
		free_pages(addr, (unsigned int)get_order(size));
	else
		free_contig_range(page_to_pfn(virt_to_page((void *)addr)),
				  smp_cpu_mem_bytes(size) >> PAGE_SHIFT);
}

/* A stack and a per-CPU area for CPU @cpu; false when memory ran out. */
static bool prepare_cpu(unsigned int cpu, const struct cpu_desc *desc)
{
	struct secondary_boot *boot = &secondary_boot[cpu];
	unsigned long stack, percpu;

	stack = smp_cpu_mem_alloc(stack_size(), GFP_KERNEL);
	percpu = smp_cpu_mem_alloc(percpu_size(), GFP_KERNEL | __GFP_ZERO);
	if (!stack || !percpu) {
		smp_cpu_mem_free(stack, stack_size());
		smp_cpu_mem_free(percpu, percpu_size());
		printk("smp: cpu %u (hwid %#lx): no memory for its stack and "
		       "per-CPU area\n", cpu, desc->hwid);
		return false;
	}

	boot->cpu = cpu;
	boot->hwid = desc->hwid;
	/* The lowest page stays unused: the arch's guard page, if any. */
	boot->stack_bottom = stack + PAGE_SIZE;
	boot->stack_top = stack + smp_cpu_mem_bytes(stack_size());
	boot->percpu_offset = percpu - (uintptr_t)__per_cpu_start;
	boot->arch = NULL;

	__per_cpu_offset[cpu] = boot->percpu_offset;
	per_cpu(cpu_number, cpu) = cpu;
	smp_set_hwid(cpu, desc->hwid);
	return true;
}

/* CPU @cpu was never started: its memory goes back. */
static void release_cpu(unsigned int cpu)
{
	struct secondary_boot *boot = &secondary_boot[cpu];

	smp_cpu_mem_free(boot->stack_bottom - PAGE_SIZE, stack_size());
	smp_cpu_mem_free((uintptr_t)__per_cpu_start + boot->percpu_offset,
		     percpu_size());
	__per_cpu_offset[cpu] = 0;
}

/* Wait for CPU @cpu to check in until @deadline; give it up after. */
static bool wait_for_cpu(unsigned int cpu, uint64_t deadline)
{
	int expected = CPU_STARTING;

	while (arch_clock_ns() < deadline) {
		/* Acquire: pairs with the CPU's check-in. */
		if (__atomic_load_n(&cpu_state[cpu], __ATOMIC_ACQUIRE) ==
		    CPU_ONLINE)
			break;
		/* Woken by the check-in, or soon enough for the deadline. */
		smp_idle();
	}
	if (__atomic_compare_exchange_n(&cpu_state[cpu], &expected,
					CPU_GIVEN_UP, false, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST))
		return false;
	/* Checked in: its online bit follows at once. */
	while (!cpu_online(cpu))
		arch_cpu_relax();
	return true;
}

static void print_online(const struct boot_cpus *cpus)
{
	unsigned int cpu;

	printk("smp: %u of %u CPUs online:", num_online_cpus(), cpus->nr);
	for_each_online_cpu(cpu)
		printk(" cpu%u=%#lx%s", cpu, cpu_hwid(cpu),
		       cpu == 0 ? " (boot)" : "");
	printk("\n");
}

/*
 * What says the CPUs are virtual, a hypervisor's or an emulator's, which
 * the host may stop at any instruction: the CPU or the firmware
 * (arch_cpus_virtual()), a device tree or ACPI tables of a virtual
 * machine (boot_cpus.virtual_machine), or PSCI over hvc (only a
 * hypervisor at EL2 answers an hvc from the kernel).
 * NULL: nothing does, as on bare metal.
 */
static const char *cpus_virtual(const struct boot_cpus *cpus)
{
	const char *why = arch_cpus_virtual();

	if (why)
		return why;
	if (cpus->virtual_machine)
		return cpus->virtual_machine;
	if (cpus->psci == PSCI_CONDUIT_HVC)
		return "PSCI over hvc: a hypervisor answers it";
	return NULL;
}

unsigned int smp_init(const struct boot_cpus *cpus)
{
	unsigned int nr = MIN(cpus->nr, (unsigned int)NR_CPUS);
	uint64_t deadline;
	int err;

	if (cpus->nr_over)
		printk("smp: %u more CPUs than NR_CPUS=%d: they stay parked "
		       "(build with NR_CPUS=%u to use them)\n", cpus->nr_over,
		       NR_CPUS, cpus->nr + cpus->nr_over);
	/* Before any other CPU runs, so that all wait the same way. */
	spinlock_choose_wait(cpus_virtual(cpus));
	err = nr > 1 ? arch_smp_prepare_cpus(cpus) : 0;
	if (err) {
		bringup_error = err;
		printk("smp: secondary CPUs cannot be started (error %d): "
		       "running on the boot CPU alone\n", err);
		nr = 1;
	}
	for (unsigned int cpu = 1; cpu < nr; cpu++) {
		if (!prepare_cpu(cpu, &cpus->cpu[cpu]))
			break;
		cpu_state[cpu] = CPU_STARTING;
		err = arch_cpu_start(&cpus->cpu[cpu], &secondary_boot[cpu]);
		if (err)
			release_cpu(cpu);
		if (err == -EOPNOTSUPP) {
			bringup_error = err;
			cpu_state[cpu] = CPU_GIVEN_UP;
			printk("smp: %s cannot start secondary CPUs: "
			       "running on the boot CPU alone\n",
			       CONFIG_ARCH_NAME);
			break;
		}
		if (err) {
			cpu_state[cpu] = CPU_GIVEN_UP;
			printk("smp: cpu %u (hwid %#lx): the start request "
			       "failed (error %d)\n", cpu, cpus->cpu[cpu].hwid,
			       err);
			continue;
		}
	}

	deadline = arch_clock_ns() + SMP_CHECKIN_TIMEOUT_NS;
	for (unsigned int cpu = 1; cpu < nr; cpu++) {
		if (READ_ONCE(cpu_state[cpu]) == CPU_OFF ||
		    READ_ONCE(cpu_state[cpu]) == CPU_GIVEN_UP)
			continue;
		if (!wait_for_cpu(cpu, deadline))
			printk("smp: cpu %u (hwid %#lx) did not come up within "
			       "%llu ms; going on without it\n", cpu,
			       cpus->cpu[cpu].hwid,
			       SMP_CHECKIN_TIMEOUT_NS / 1000000);
	}
	print_online(cpus);
	return num_online_cpus();
}

/* Bare-metal CPUs never go away: nothing to run, nothing to keep. */
void smp_register_cpu_dead(void (*fn)(unsigned int cpu))
{
	(void)fn;
}
