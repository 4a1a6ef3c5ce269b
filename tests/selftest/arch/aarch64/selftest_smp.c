/*
 * selftest_smp.c - aarch64 secondary CPUs: what arch_cpu_start() and
 * secondary.S promise, checked on the CPUs that came up.
 *
 *   aarch64_secondary_cpu_state   every CPU has the boot CPU's MMU set-up,
 *                                 its own TPIDR_EL1 and a stack in its slot
 *   aarch64_stack_guard_pages     each secondary stack is mapped, the page
 *                                 below it is not
 *   aarch64_psci_error_reported   a refused CPU_ON comes back as an errno
 *   aarch64_spin_table_start    the spin-table method end to end, with
 *                                 this test as the firmware
 */
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/smp.h>
#include <boot/bootmem.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/ktap.h>
#include <lib/string.h>
#include <mm/page_alloc.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include <smp/percpu.h>
#include <smp/smp.h>
#include "psci.h"
#include "secondary.h"
#include "selftest_local.h"
#include "smp_local.h"
#include "stack_alias.h"
#include "sysreg.h"
#include "translate.h"

#define PSCI_AFFINITY_INFO_64	0xc4000004
#define PSCI_CPU_OFF		0x84000002
#define AFFINITY_INFO_OFF	1

/* What a CPU sees of itself; filled on that CPU. */
struct cpu_view {
	unsigned long mair, tcr, ttbr0, ttbr1, sctlr, vbar, tpidr, mpidr, el;
	uintptr_t sp;
};

static void read_view(struct cpu_view *v)
{
	uintptr_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	v->mair = read_sysreg(mair_el1);
	v->tcr = read_sysreg(tcr_el1);
	v->ttbr0 = read_sysreg(ttbr0_el1);
	v->ttbr1 = read_sysreg(ttbr1_el1);
	v->sctlr = read_sysreg(sctlr_el1);
	v->vbar = read_sysreg(vbar_el1);
	v->tpidr = read_sysreg(tpidr_el1);
	v->mpidr = read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK;
	v->el = read_sysreg(CurrentEL) >> 2 & 3;
	v->sp = sp;
}

/* Written by CPU n only (its own entry), read after on_each_cpu(). */
static struct cpu_view views[NR_CPUS];

static void record_view(void *arg __unused)
{
	read_view(&views[smp_processor_id()]);
}

static bool view_matches(unsigned int cpu, const struct cpu_view *boot)
{
	const struct cpu_view *v = &views[cpu];
	uintptr_t slot = STACK_ALIAS_BASE + cpu * STACK_SLOT_SIZE;

	SELFTEST_EXPECT(v->mair == boot->mair && v->tcr == boot->tcr &&
				v->ttbr0 == boot->ttbr0 &&
				v->ttbr1 == boot->ttbr1 &&
				v->sctlr == boot->sctlr && v->vbar == boot->vbar,
			"cpu %u: MAIR %#lx TCR %#lx TTBR0 %#lx TTBR1 %#lx SCTLR "
			"%#lx VBAR %#lx, the boot CPU's are %#lx %#lx %#lx %#lx "
			"%#lx %#lx", cpu, v->mair, v->tcr, v->ttbr0, v->ttbr1,
			v->sctlr, v->vbar, boot->mair, boot->tcr, boot->ttbr0,
			boot->ttbr1, boot->sctlr, boot->vbar);
	SELFTEST_EXPECT(v->el == 1, "cpu %u runs at EL%lu", cpu, v->el);
	SELFTEST_EXPECT(v->mpidr == cpu_hwid(cpu),
			"cpu %u has MPIDR %#lx, its hwid is %#lx", cpu,
			v->mpidr, cpu_hwid(cpu));
	SELFTEST_EXPECT(v->tpidr == __per_cpu_offset[cpu],
			"cpu %u: TPIDR_EL1 %#lx, its per-CPU offset is %#lx",
			cpu, v->tpidr, __per_cpu_offset[cpu]);
	if (cpu)
		SELFTEST_EXPECT(v->sp >= slot && v->sp < slot + STACK_SLOT_SIZE,
				"cpu %u runs on sp %#lx, outside its stack "
				"slot %#lx", cpu, (unsigned long)v->sp,
				(unsigned long)slot);
	return true;
}

SELFTEST(aarch64_secondary_cpu_state, STAGE_BOOT)
{
	unsigned int cpu;

	if (num_online_cpus() < 2)
		return selftest_skip("one CPU online");
	memset(views, 0, sizeof(views));
	on_each_cpu(record_view, NULL, true);
	for_each_online_cpu(cpu)
		if (!view_matches(cpu, &views[0]))
			return false;
	ktap_diag("%u CPUs: the boot CPU's MAIR, TCR, TTBR0/1, SCTLR and VBAR, "
		  "each its own TPIDR_EL1 and stack slot", num_online_cpus());
	/*
	 * arch_counter() counts from the boot CPU's entry (entry.S resets
	 * the cycle counter there): under -icount shift=0 these are the
	 * guest instructions, of all CPUs together, until all were online.
	 */
	ktap_diag("boot CPU entry to %u CPUs online: %llu cycle-counter ticks "
		  "(%llu of them before boot_main() read the counter, after "
		  "its BSS check)", num_online_cpus(),
		  (unsigned long long)selftest_boot_state.counter_smp_online,
		  (unsigned long long)selftest_boot_state.counter_entry);
	return true;
}


/*
 * For each secondary CPU: its stack's top page translates to RAM, and a
 * word written through the identity map reads back through the alias;
 * below the stack's lowest page, the slot is unmapped.
 */
SELFTEST(aarch64_stack_guard_pages, STAGE_BOOT)
{
	unsigned int cpu, checked = 0;
	uintptr_t guard = STACK_SLOT_SIZE;

	for_each_online_cpu(cpu) {
		const struct aarch64_secondary *sec = &aarch64_secondary_data[cpu];
		uintptr_t top = sec->sp, low, slot;
		unsigned long par;
		volatile uint64_t *alias, *ident;

		if (!cpu)
			continue;
		slot = STACK_ALIAS_BASE + cpu * STACK_SLOT_SIZE;
		/* The top page (PAR_EL1 gives 4 KiB frames: ask for its start). */
		alias = (volatile uint64_t *)ALIGN_DOWN(top - 16, PAGE_SIZE);
		par = translate((uintptr_t)alias);
		SELFTEST_EXPECT(!(par & PAR_FAULT), "cpu %u: its stack top "
				"%#lx is not mapped (PAR %#lx)", cpu,
				(unsigned long)top, par);
		ident = phys_to_virt(PAR_PA(par));
		*ident = 0x5eed0000 + cpu;
		SELFTEST_EXPECT(*alias == 0x5eed0000 + cpu, "cpu %u: the alias "
				"%p and RAM %p differ", cpu, (void *)alias,
				(void *)ident);
		*ident = 0;
		/* The lowest mapped page, then the guard below it. */
		for (low = (uintptr_t)alias; low > slot; low -= PAGE_SIZE)
			if (translate(low - PAGE_SIZE) & PAR_FAULT)
				break;
		SELFTEST_EXPECT(low > slot, "cpu %u: its whole slot %#lx is "
				"mapped, no guard page", cpu,
				(unsigned long)slot);
		SELFTEST_EXPECT(top - low >= 16 * 1024, "cpu %u: only %#lx "
				"bytes of stack mapped", cpu,
				(unsigned long)(top - low));
		for (uintptr_t g = slot; g < low; g += PAGE_SIZE)
			SELFTEST_EXPECT(translate(g) & PAR_FAULT, "cpu %u: %#lx "
					"below its stack is mapped", cpu,
					(unsigned long)g);
		guard = MIN(guard, low - slot);
		checked++;
	}
	if (!checked)
		return selftest_skip("no secondary CPU online");
	ktap_diag("%u secondary stacks, each with at least %lu KiB unmapped "
		  "below it", checked, (unsigned long)guard >> 10);
	return true;
}

/* CPU_ON for a CPU that is on must come back as ALREADY_ON: -EALREADY. */
SELFTEST(aarch64_psci_error_reported, STAGE_BOOT)
{
	unsigned int cpu = cpumask_next_online(1);
	int ret;

	if (cpu >= NR_CPUS)
		return selftest_skip("no secondary CPU online");
	if (selftest_boot_facts.cpus->psci == PSCI_CONDUIT_NONE)
		return selftest_skip("no /psci: the CPUs started another way");
	ktap_diag("PSCI CPU_ON for cpu %u, which is on: an error line follows",
		  cpu);
	ret = aarch64_psci_cpu_on(cpu, cpu_hwid(cpu),
				  virt_to_phys((void *)aarch64_secondary_entry),
				  0);
	SELFTEST_EXPECT(ret == -EALREADY, "CPU_ON for an online CPU returned "
			"%d, not -EALREADY (%d)", ret, -EALREADY);
	return true;
}

/*
 * The spin-table method, for real, on a CPU the machine has but the
 * device tree does not list (the aarch64-*-spintable lines: QEMU with one
 * more CPU than the DTB they pass, whose /chosen
 * buddyboot,selftest-spin-table-cpu names its MPIDR; without that
 * property the case skips, with it it must pass). QEMU's virt has no
 * spin-table firmware, so this test plays it: PSCI starts that CPU in
 * aarch64_selftest_spin_firmware, which waits, MMU off, on a release
 * word; once it says it waits, aarch64_cpu_start() with enable-method
 * spin-table publishes the CPU's boot data, writes the release word,
 * cleans it and sevs, exactly as for a listed CPU. The CPU then goes
 * through aarch64_spin_table_entry (finding its slot by MPIDR, with no
 * argument), the EL2 drop if any, the MMU switch and its guarded stack,
 * and calls spin_probe() instead of secondary_start() (it is no logical
 * CPU of smp_init()'s): the probe reports what it sees and turns itself
 * off with PSCI CPU_OFF. What QEMU cannot prove: the cache maintenance
 * (TCG models no caches); that needs hardware.
 */
struct spin_firmware {
	uint64_t release;		/* written by the boot CPU */
	uint64_t pad[7];
	uint64_t waiting;		/* written by the firmware, MMU off */
	uint64_t pad2[7];
};

void aarch64_selftest_spin_firmware(void);

static struct spin_firmware spin_fw __aligned(64);
static struct aarch64_secondary spin_sec __aligned(64);
static struct secondary_boot spin_boot;
static struct cpu_view spin_view;
static int spin_done;

static void spin_probe(struct secondary_boot *boot __unused)
{
	read_view(&spin_view);
	/* The view is complete before the boot CPU sees done. */
	smp_store_release(&spin_done, 1);
	aarch64_psci_call(PSCI_CPU_OFF, 0, 0, 0);
	for (;;)
		__asm__ volatile("wfi");
}

/* Wait up to @ns for @cond; false on the timeout. */
#define WAIT_NS(cond, ns)						\
	({								\
		uint64_t __end = arch_clock_ns() + (ns);		\
		bool __ok;						\
		while (!(__ok = (cond)) && arch_clock_ns() < __end)	\
			arch_cpu_relax();				\
		__ok;							\
	})

static uint64_t firmware_waiting(void)
{
	/* Written with the MMU off: drop any stale line before reading. */
	__asm__ volatile("dc ivac, %0\n"
			 "dsb sy" ::"r"(&spin_fw.waiting)
			 : "memory");
	return READ_ONCE(spin_fw.waiting);
}

const void *aarch64_selftest_chosen(const char *name, uint32_t *len)
{
	const void *info = (const void *)(uintptr_t)selftest_boot_facts.info;
	char error[BOOT_ERROR_LEN];
	struct fdt fdt;
	int node;

	if (selftest_boot_facts.proto != BOOT_PROTO_FDT ||
	    fdt_open(&fdt, info, fdt_header_totalsize(info), error))
		return NULL;
	for (node = fdt_first_child(&fdt, fdt.root); node >= 0;
	     node = fdt_next_child(&fdt, node))
		if (!strcmp(fdt_node_name(&fdt, node), "chosen"))
			return fdt_getprop(&fdt, node, name, len);
	return NULL;
}

/* /chosen buddyboot,selftest-spin-table-cpu, or false without one. */
static bool spin_table_cpu(unsigned long *hwid)
{
	uint32_t len;
	const void *prop = aarch64_selftest_chosen(
		"buddyboot,selftest-spin-table-cpu", &len);

	if (!prop || len != 4)
		return false;
	*hwid = fdt_read_cells(prop, 1);
	return true;
}

SELFTEST(aarch64_spin_table_start, STAGE_BOOT)
{
	const struct boot_cpus *cpus = selftest_boot_facts.cpus;
	struct cpu_desc desc = { .method = CPU_ENABLE_SPIN_TABLE };
	unsigned long hwid, stack, percpu;
	unsigned int stack_order = (unsigned int)get_order(32 * 1024);
	size_t area = percpu_area_size();
	int ret;

	if (!spin_table_cpu(&hwid))
		return selftest_skip("no /chosen buddyboot,selftest-spin-table-"
				     "cpu (the aarch64 spintable line has one)");
	SELFTEST_EXPECT(cpus && cpus->nr < NR_CPUS, "no CPU list, or no "
			"logical number left for the probe");
	ret = aarch64_psci_call(PSCI_AFFINITY_INFO_64, hwid, 0, 0);
	SELFTEST_EXPECT(ret == AFFINITY_INFO_OFF, "MPIDR %#lx is not a CPU "
			"that is off (PSCI AFFINITY_INFO %d)", hwid, ret);

	stack = __get_free_pages(GFP_KERNEL, stack_order);
	percpu = __get_free_pages(GFP_KERNEL | __GFP_ZERO,
				  (unsigned int)get_order(area ? area : 1));
	SELFTEST_EXPECT(stack && percpu, "no memory for the probe's stack");
	spin_boot = (struct secondary_boot){
		.cpu = cpus->nr,
		.hwid = hwid,
		.stack_bottom = stack + PAGE_SIZE,
		.stack_top = stack + (PAGE_SIZE << stack_order),
		.percpu_offset = percpu - (uintptr_t)__per_cpu_start,
	};
	memset(&spin_fw, 0, sizeof(spin_fw));
	aarch64_clean_dcache_poc(&spin_fw, sizeof(spin_fw));

	ret = aarch64_psci_cpu_on(cpus->nr, hwid,
				  virt_to_phys((void *)aarch64_selftest_spin_firmware),
				  virt_to_phys(&spin_fw));
	SELFTEST_EXPECT(!ret, "PSCI could not start MPIDR %#lx in the stand-in "
			"firmware (%d)", hwid, ret);
	SELFTEST_EXPECT(WAIT_NS(firmware_waiting(), 2000000000ULL),
			"MPIDR %#lx never reached the firmware's wait loop", hwid);

	desc.hwid = hwid;
	desc.release_addr = virt_to_phys(&spin_fw.release);
	ret = aarch64_cpu_start(&desc, &spin_boot, &spin_sec, spin_probe);
	SELFTEST_EXPECT(!ret, "the spin-table start failed (%d)", ret);
	SELFTEST_EXPECT(WAIT_NS(smp_load_acquire(&spin_done), 2000000000ULL),
			"MPIDR %#lx was released but never reached its probe",
			hwid);

	read_view(&views[0]);
	SELFTEST_EXPECT(spin_view.mpidr == hwid && spin_view.el == 1 &&
				spin_view.tpidr == spin_boot.percpu_offset,
			"the probe ran with MPIDR %#lx at EL%lu, TPIDR %#lx",
			spin_view.mpidr, spin_view.el, spin_view.tpidr);
	SELFTEST_EXPECT(spin_view.mair == views[0].mair &&
				spin_view.tcr == views[0].tcr &&
				spin_view.ttbr0 == views[0].ttbr0 &&
				spin_view.ttbr1 == views[0].ttbr1 &&
				spin_view.sctlr == views[0].sctlr,
			"the probe's MMU set-up differs from the boot CPU's");
	SELFTEST_EXPECT(spin_view.sp >= spin_boot.stack_bottom &&
				spin_view.sp < spin_boot.stack_top &&
				spin_view.sp >= STACK_ALIAS_BASE,
			"the probe's sp %#lx is not in its guarded stack",
			(unsigned long)spin_view.sp);
	ktap_diag("MPIDR %#lx: started in stand-in firmware by PSCI, released "
		  "through cpu-release-addr %#llx, ran its probe at EL1 on sp "
		  "%#lx", hwid, (unsigned long long)desc.release_addr,
		  (unsigned long)spin_view.sp);
	return true;
}
