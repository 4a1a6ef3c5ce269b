/*
 * smp.c - starting aarch64 secondary CPUs: PSCI CPU_ON and spin tables,
 * and the clock smp_init() times them with. Each CPU's part of the GIC,
 * for idle wake-ups (gic.c), is set up by the boot CPU in
 * arch_smp_prepare_cpus() and by a secondary as its first C.
 *
 * arch_cpu_start() prepares what the CPU reads before its MMU is on
 * (secondary.h: the boot CPU's MAIR, TCR, TTBR0, TTBR1 and SCTLR, its
 * stacks, its per-CPU offset), cleans it to the point of coherency, and
 * starts the CPU through the method its /cpus node names:
 *
 *   PSCI CPU_ON (function 0xc4000003) with the target MPIDR, the physical
 *   address of aarch64_secondary_entry and, as the context id that
 *   arrives in x0, the struct secondary_boot; through the conduit /psci
 *   names (hvc, or smc when the firmware sits at EL3 or QEMU emulates it
 *   for virtualization=on). A PSCI error is printed by name and returned
 *   as an errno.
 *
 *   A spin table: the CPU waits in firmware, MMU off, for its
 *   cpu-release-addr to hold an entry point. It arrives with no argument,
 *   so its struct secondary_boot is first published in aarch64_spin_slots
 *   under its MPIDR, then the entry point is written to the release
 *   address, cleaned to the point of coherency (the waiting CPU reads RAM,
 *   not our cache), and sev wakes it from wfe.
 *
 *   The boot lottery: with no firmware at EL3 (an ELF under QEMU's
 *   secure=on), every CPU entered the image, and all but the boot CPU
 *   wait in aarch64_spin_table_entry already (entry.S). The device tree
 *   still says psci, with no /psci: arch_cpus_held_at_entry() has the
 *   reader list such a CPU as CPU_ENABLE_HELD, started by its slot and
 *   sev alone.
 *
 * Stacks: the kernel stack smp_init() allocated is used through its
 * guarded alias (mmu.c, stack_alias.h), and boot->stack_top/stack_bottom
 * are moved there; the exception stack (SP_EL1) is a separate
 * allocation, identity-mapped so that it works before the MMU is on.
 */
#include <arch/memory.h>
#include <arch/smp.h>
#include <boot/cpus.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/page_alloc.h>
#include "gic.h"
#include "psci.h"
#include "secondary.h"
#include "smp_local.h"
#include "stack_alias.h"
#include "sysreg.h"

_Static_assert(__builtin_offsetof(struct secondary_boot, arch) ==
			       SECONDARY_BOOT_ARCH &&
		       __builtin_offsetof(struct aarch64_secondary, mair) ==
			       SEC_MAIR &&
		       __builtin_offsetof(struct aarch64_secondary, tcr) ==
			       SEC_TCR &&
		       __builtin_offsetof(struct aarch64_secondary, ttbr0) ==
			       SEC_TTBR0 &&
		       __builtin_offsetof(struct aarch64_secondary, ttbr1) ==
			       SEC_TTBR1 &&
		       __builtin_offsetof(struct aarch64_secondary, sctlr) ==
			       SEC_SCTLR &&
		       __builtin_offsetof(struct aarch64_secondary, sp) ==
			       SEC_SP &&
		       __builtin_offsetof(struct aarch64_secondary, exc_sp) ==
			       SEC_EXC_SP &&
		       __builtin_offsetof(struct aarch64_secondary,
					  percpu_offset) == SEC_PERCPU &&
		       __builtin_offsetof(struct aarch64_secondary, entry) ==
			       SEC_ENTRY &&
		       sizeof(struct aarch64_secondary) == SEC_SIZE &&
		       __builtin_offsetof(struct spin_slot, boot) ==
			       SPIN_SLOT_BOOT &&
		       sizeof(struct spin_slot) == SPIN_SLOT_SIZE,
	       "secondary.h offsets must match the structs.");

/* Each CPU's exception stack (SP_EL1): the boot CPU's size (linker script). */
#define EXC_STACK_SIZE		(16UL << 10)

/*
 * What CPU n reads before its MMU is on; written by the boot CPU in
 * arch_cpu_start() only. The stack fields stay for the selftests.
 */
struct aarch64_secondary aarch64_secondary_data[NR_CPUS] __aligned(64);

/*
 * The spin-table mailbox, read by aarch64_spin_table_entry with the MMU
 * off. Slot n belongs to logical CPU n; written by the boot CPU only.
 */
struct spin_slot aarch64_spin_slots[NR_CPUS] __aligned(64);
const unsigned long aarch64_spin_slots_nr = NR_CPUS;

/*
 * Clean [@p, @p + @size) to the point of coherency, so that a CPU reading
 * RAM with its MMU (and so its caches) off sees what this one wrote.
 */
void aarch64_clean_dcache_poc(const void *p, size_t size)
{
	unsigned long line = 4UL << (read_sysreg(ctr_el0) >> 16 & 0xf);
	uintptr_t a = ALIGN_DOWN((uintptr_t)p, line);

	for (; a < (uintptr_t)p + size; a += line)
		__asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
	/* The cleans are complete, system-wide, before any later access. */
	__asm__ volatile("dsb sy" ::: "memory");
}

static const char *const psci_names[] = {
	[-PSCI_RET_NOT_SUPPORTED] = "NOT_SUPPORTED",
	[-PSCI_RET_INVALID_PARAMETERS] = "INVALID_PARAMETERS",
	[-PSCI_RET_DENIED] = "DENIED",
	[-PSCI_RET_ALREADY_ON] = "ALREADY_ON",
	[-PSCI_RET_ON_PENDING] = "ON_PENDING",
	[-PSCI_RET_INTERNAL_FAILURE] = "INTERNAL_FAILURE",
	[-PSCI_RET_NOT_PRESENT] = "NOT_PRESENT",
	[-PSCI_RET_DISABLED] = "DISABLED",
	[-PSCI_RET_INVALID_ADDRESS] = "INVALID_ADDRESS",
};

static const int psci_errnos[] = {
	[-PSCI_RET_NOT_SUPPORTED] = -EOPNOTSUPP,
	[-PSCI_RET_INVALID_PARAMETERS] = -EINVAL,
	[-PSCI_RET_DENIED] = -EPERM,
	[-PSCI_RET_ALREADY_ON] = -EALREADY,
	[-PSCI_RET_ON_PENDING] = -EINPROGRESS,
	[-PSCI_RET_INTERNAL_FAILURE] = -EIO,
	[-PSCI_RET_NOT_PRESENT] = -ENODEV,
	[-PSCI_RET_DISABLED] = -ENODEV,
	[-PSCI_RET_INVALID_ADDRESS] = -EFAULT,
};

int aarch64_psci_to_errno(int ret)
{
	if (ret >= 0)
		return 0;
	if ((unsigned int)-ret < ARRAY_SIZE(psci_errnos))
		return psci_errnos[-ret];
	return -EIO;
}

const char *aarch64_psci_name(int ret)
{
	if (ret == 0)
		return "SUCCESS";
	if (ret < 0 && (unsigned int)-ret < ARRAY_SIZE(psci_names))
		return psci_names[-ret];
	return "an undefined return code";
}

/*
 * The conduit of PSCI CPU_ON: /psci's, once arch_smp_prepare_cpus() found
 * a PSCI 0.2 or later there; NONE otherwise. Boot CPU only.
 */
static enum psci_conduit cpu_on_conduit;

int aarch64_psci_cpu_on(unsigned int cpu, unsigned long hwid,
			phys_addr_t entry, phys_addr_t context)
{
	int ret;

	if (cpu_on_conduit == PSCI_CONDUIT_NONE) {
		pr_err("CPU %u (MPIDR %#lx): enable-method is psci, but there "
		       "is no usable PSCI (a /psci node with method hvc or "
		       "smc, or an ACPI FADT that claims PSCI; version 0.2 or "
		       "later)\n", cpu, hwid);
		return -ENODEV;
	}
	ret = aarch64_psci_call(PSCI_CPU_ON_64, hwid, entry, context);
	if (ret == PSCI_RET_SUCCESS)
		return 0;
	pr_err("CPU %u (MPIDR %#lx): PSCI CPU_ON over %s failed: %s (%d)\n",
	       cpu, hwid, cpu_on_conduit == PSCI_CONDUIT_HVC ? "hvc" : "smc",
	       aarch64_psci_name(ret), ret);
	return aarch64_psci_to_errno(ret);
}

/*
 * The release: @entry to @release_addr, cleaned to the point of coherency,
 * then sev. -EINVAL (printed) for a release address that is 0 or not
 * 8-byte aligned.
 */
static int spin_table_release(unsigned int cpu, unsigned long hwid,
			      phys_addr_t release_addr, phys_addr_t entry)
{
	volatile uint64_t *release = phys_to_virt(release_addr);

	if (!release_addr || !IS_ALIGNED(release_addr, 8)) {
		pr_err("CPU %u (MPIDR %#lx): cpu-release-addr %#llx is not an "
		       "8-byte aligned address\n", cpu, hwid,
		       (unsigned long long)release_addr);
		return -EINVAL;
	}
	*release = entry;
	aarch64_clean_dcache_poc((const void *)release, sizeof(*release));
	/*
	 * The clean (and its dsb sy) made the entry point visible in RAM to
	 * a CPU whose caches are off before the event that wakes it.
	 */
	__asm__ volatile("sev" ::: "memory");
	return 0;
}

/* @boot in the CPU's spin slot, for aarch64_spin_table_entry to find. */
static void spin_slot_publish(struct secondary_boot *boot)
{
	struct spin_slot *slot = &aarch64_spin_slots[boot->cpu];

	/* The hwid reaches RAM first: a CPU that matches it then reads boot. */
	slot->hwid = boot->hwid;
	aarch64_clean_dcache_poc(slot, sizeof(*slot));
	slot->boot = virt_to_phys(boot);
	aarch64_clean_dcache_poc(slot, sizeof(*slot));
}

static int spin_table_start(const struct cpu_desc *desc,
			    struct secondary_boot *boot)
{
	spin_slot_publish(boot);
	return spin_table_release(boot->cpu, boot->hwid, desc->release_addr,
				  virt_to_phys((void *)aarch64_spin_table_entry));
}

/*
 * A CPU that entered the image at EL3 with the boot CPU and lost
 * entry.S's lottery already waits in aarch64_spin_table_entry: its slot
 * and an event start it (CPU_ENABLE_HELD). The count says that CPUs
 * wait, not which: one that is not there never arrives, and smp_init()
 * says so when its wait runs out.
 */
bool arch_cpus_held_at_entry(void)
{
	return aarch64_entry_el == 3 && READ_ONCE(aarch64_boot_lottery) > 1;
}

static int lottery_start(struct secondary_boot *boot)
{
	spin_slot_publish(boot);
	/* The slot reached RAM (the clean's dsb sy) before the event. */
	__asm__ volatile("sev" ::: "memory");
	return 0;
}

/*
 * The stacks: the exception stack, identity-mapped (once per CPU: a CPU
 * started again after a failure keeps it), and the kernel stack's alias.
 */
static int prepare_stacks(struct secondary_boot *boot,
			  struct aarch64_secondary *sec)
{
	phys_addr_t lo = ALIGN_DOWN(virt_to_phys((void *)boot->stack_bottom),
				    PAGE_SIZE);
	phys_addr_t hi = ALIGN_UP(virt_to_phys((void *)boot->stack_top),
				  PAGE_SIZE);
	uintptr_t base;
	int ret;

	if (boot->stack_top <= boot->stack_bottom ||
	    !IS_ALIGNED(boot->stack_top, 16)) {
		pr_err("CPU %u: stack %#lx-%#lx is empty or its top is not "
		       "16-byte aligned\n", boot->cpu,
		       (unsigned long)boot->stack_bottom,
		       (unsigned long)boot->stack_top);
		return -EINVAL;
	}
	if (!sec->exc_sp) {
		/* Above the top order when top blocks are small. */
		unsigned long exc = smp_cpu_mem_alloc(EXC_STACK_SIZE, GFP_KERNEL);

		if (!exc) {
			pr_err("CPU %u: no memory for its exception stack\n",
			       boot->cpu);
			return -ENOMEM;
		}
		sec->exc_sp = exc + smp_cpu_mem_bytes(EXC_STACK_SIZE);
	}
	if (boot->stack_top >= STACK_ALIAS_BASE)
		return 0;	/* mapped by an earlier attempt */
	ret = aarch64_map_stack(boot->cpu, lo, hi - lo, &base);
	if (ret)
		return ret;
	boot->stack_bottom = base + (boot->stack_bottom - lo);
	boot->stack_top = base + (boot->stack_top - lo);
	sec->sp = boot->stack_top;
	return 0;
}

/* No register says so: the boot information's PSCI conduit does. */
const char *arch_cpus_virtual(void)
{
	return NULL;
}

/*
 * The GIC (gic.c: the distributor, and the boot CPU's interface), then
 * the conduit for every PSCI call from now on (power-off included): the
 * one /psci names. A PSCI before 0.2 has no standard CPU_ON id (its ids
 * were in the device tree), so CPUs that need it are refused then.
 */
int arch_smp_prepare_cpus(const struct boot_cpus *cpus)
{
	bool psci = false;
	int version;

	for (unsigned int i = 1; i < cpus->nr; i++)
		psci |= cpus->cpu[i].method == CPU_ENABLE_PSCI;
	if (arch_cpus_held_at_entry())
		printk("smp: %u CPUs entered the image at EL3 at once (no "
		       "firmware held them); all but the boot CPU wait in its "
		       "spin slots\n", READ_ONCE(aarch64_boot_lottery));
	gic_init(&cpus->gic);
	if (cpus->psci == PSCI_CONDUIT_NONE)
		return 0;	/* aarch64_psci_cpu_on() refuses the CPUs that need it */
	/* Read by aarch64_psci_call() on any CPU; the CPUs start after. */
	WRITE_ONCE(aarch64_psci_conduit, (unsigned int)cpus->psci);
	if (!psci)
		return 0;
	version = aarch64_psci_call(PSCI_VERSION, 0, 0, 0);
	if (version < 0 || (unsigned int)version < 0x00000002) {
		pr_err("PSCI over %s: %s%s; its CPUs cannot be started\n",
		       cpus->psci == PSCI_CONDUIT_HVC ? "hvc" : "smc",
		       version < 0 ? "no answer to PSCI_VERSION: " : "version ",
		       version < 0 ? aarch64_psci_name(version) : "0.1");
		return 0;
	}
	cpu_on_conduit = cpus->psci;
	return 0;
}

int aarch64_cpu_start(const struct cpu_desc *desc,
		      struct secondary_boot *boot, struct aarch64_secondary *sec,
		      void (*fn)(struct secondary_boot *boot))
{
	int ret;

	if (boot->cpu == 0 || boot->cpu >= NR_CPUS) {
		pr_err("cannot start logical CPU %u: not a secondary CPU below "
		       "NR_CPUS (%u)\n", boot->cpu, NR_CPUS);
		return -EINVAL;
	}
	ret = prepare_stacks(boot, sec);
	if (ret)
		return ret;
	sec->mair = read_sysreg(mair_el1);
	sec->tcr = read_sysreg(tcr_el1);
	sec->ttbr0 = read_sysreg(ttbr0_el1);
	sec->ttbr1 = read_sysreg(ttbr1_el1);
	sec->sctlr = read_sysreg(sctlr_el1);
	sec->percpu_offset = boot->percpu_offset;
	sec->entry = (uintptr_t)fn;
	boot->arch = sec;
	aarch64_clean_dcache_poc(sec, sizeof(*sec));
	aarch64_clean_dcache_poc(boot, sizeof(*boot));

	switch (desc->method) {
	case CPU_ENABLE_PSCI:
		return aarch64_psci_cpu_on(
			boot->cpu, boot->hwid,
			virt_to_phys((void *)aarch64_secondary_entry),
			virt_to_phys(boot));
	case CPU_ENABLE_SPIN_TABLE:
		return spin_table_start(desc, boot);
	case CPU_ENABLE_HELD:
		return lottery_start(boot);
	default:
		/* Not -EOPNOTSUPP: the other CPUs may still be startable. */
		pr_err("CPU %u (MPIDR %#lx): no enable-method this port can "
		       "use (psci, spin-table)\n", boot->cpu, boot->hwid);
		return -ENODEV;
	}
}

/* A secondary CPU's first C: its GIC interface, then the generic entry. */
static void __noreturn aarch64_secondary_start(struct secondary_boot *boot)
{
	gic_init_cpu();
	secondary_start(boot);
}

int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot)
{
	return aarch64_cpu_start(desc, boot,
				 &aarch64_secondary_data[boot->cpu % NR_CPUS],
				 aarch64_secondary_start);
}

/*
 * CNTVCT_EL0 at CNTFRQ_EL0, which the firmware must set (QEMU: 62.5 MHz;
 * under -icount it follows the instruction count). Split so that the
 * product cannot overflow for any frequency below 18 GHz.
 */
uint64_t arch_clock_ns(void)
{
	static bool warned;
	uint64_t freq = read_sysreg(cntfrq_el0), cnt;

	isb();	/* read the counter here, not earlier */
	cnt = read_sysreg(cntvct_el0);
	if (!freq) {
		if (!warned)
			pr_warn("CNTFRQ_EL0 is 0 (the firmware did not set "
				"it): timeouts count counter ticks as ns\n");
		warned = true;
		freq = 1000000000;
	}
	return cnt / freq * 1000000000 + cnt % freq * 1000000000 / freq;
}

