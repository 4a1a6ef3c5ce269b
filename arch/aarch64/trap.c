/*
 * trap.c - report an unexpected aarch64 exception, or resume at a fixup.
 *
 * The report's first line is the marker the runner looks for:
 *   EXCEPTION: cpu <n> (mpidr <MPIDR>): <cause> at pc <ELR>, far <FAR> (esr <ESR>)
 * then every general register, then a FAIL poweroff. vectors.S guarantees
 * a fault in here does not come back to this function.
 *
 * Any CPU may trap, a secondary CPU as well as the boot CPU, so the line
 * names the CPU: its logical number, found from its per-CPU register
 * (TPIDR_EL1) among the offsets smp_init() handed out rather than read
 * through it, so that a CPU trapping before its register is set (early in
 * secondary.S) or with it corrupted prints "cpu ?" instead of faulting
 * again; and its MPIDR, which is always right. The console lock is held
 * for the whole report, so that another CPU's lines do not cut into it.
 */
#include <arch/console.h>
#include <arch/fixup.h>
#include <arch/poweroff.h>
#include <lib/printk.h>
#include <smp/percpu.h>
#include <smp/smp.h>
#include "stack_alias.h"
#include "sysreg.h"
#include "trap.h"

_Static_assert(__builtin_offsetof(struct aarch64_trap_frame, sp) == TF_SP &&
		       __builtin_offsetof(struct aarch64_trap_frame, elr) ==
			       TF_ELR &&
		       __builtin_offsetof(struct aarch64_trap_frame, esr) ==
			       TF_ESR &&
		       __builtin_offsetof(struct aarch64_trap_frame, far) ==
			       TF_FAR &&
		       sizeof(struct aarch64_trap_frame) == TF_SIZE,
	       "trap.h offsets must match struct aarch64_trap_frame.");

#define ESR_EC(esr)	(((esr) >> 26) & 0x3f)
#define ESR_FSC(esr)	((esr) & 0x3f)

/* Exception classes (ESR_ELx.EC) that can reach EL1 here. */
static const char *const ec_names[64] = {
	[0x00] = "undefined instruction",
	[0x01] = "trapped WFI/WFE",
	[0x07] = "trapped FP/SIMD access",
	[0x0e] = "illegal execution state",
	[0x15] = "SVC",
	[0x16] = "HVC",
	[0x17] = "SMC",
	[0x18] = "trapped system register access",
	[0x20] = "instruction abort from EL0",
	[0x21] = "instruction abort",
	[0x22] = "PC alignment fault",
	[0x24] = "data abort from EL0",
	[0x25] = "data abort",
	[0x26] = "SP alignment fault",
	[0x2f] = "SError",
	[0x30] = "hardware breakpoint from EL0",
	[0x31] = "hardware breakpoint",
	[0x32] = "software step from EL0",
	[0x33] = "software step",
	[0x34] = "watchpoint from EL0",
	[0x35] = "watchpoint",
	[0x3c] = "breakpoint",
};

static const char *const async_names[] = {
	[TRAP_IRQ] = "IRQ",
	[TRAP_FIQ] = "FIQ",
	[TRAP_SERROR] = "SError",
};

static const char *const fault_names[16] = {
	[0x0] = "address size fault",
	[0x1] = "translation fault",
	[0x2] = "access flag fault",
	[0x3] = "permission fault",
};

static bool is_abort(unsigned long esr)
{
	unsigned int ec = ESR_EC(esr);

	return ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25;
}

/* Print the cause: the EC's name, and for an abort what kind and level. */
static void print_cause(unsigned long kind, unsigned long esr)
{
	unsigned int fsc = ESR_FSC(esr);
	const char *name = ec_names[ESR_EC(esr)];

	if ((kind & 3) != TRAP_SYNC) {
		printk("%s", async_names[kind & 3]);
		return;
	}
	printk("%s", name ? name : "unknown exception class");
	if (!is_abort(esr))
		return;
	if (fsc < 0x10)
		printk(" (%s, level %u)", fault_names[fsc >> 2], fsc & 3);
	else if (fsc == 0x10)
		printk(" (synchronous external abort)");
	else if (fsc == 0x21)
		printk(" (alignment fault)");
	else
		printk(" (fault status %#x)", fsc);
}

/* This CPU's logical number, or NR_CPUS when TPIDR_EL1 matches none. */
static unsigned int trapping_cpu(void)
{
	unsigned long off = read_sysreg(tpidr_el1);

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (__per_cpu_offset[cpu] == off &&
		    (cpu == 0 || off != 0) &&
		    cpu_hwid(cpu) == (read_sysreg(mpidr_el1) &
				      MPIDR_AFFINITY_MASK))
			return cpu;
	return NR_CPUS;
}

/*
 * aarch64_trap - called by vectors.S with the saved frame. Returns only to
 * resume at a fixup (tf->elr rewritten); otherwise reports and powers off.
 */
void aarch64_trap(struct aarch64_trap_frame *tf, unsigned long kind)
{
	unsigned long resume = 0;
	unsigned int cpu;
	bool locked;

	if (kind == (TRAP_FROM_KERNEL | TRAP_SYNC))
		resume = fixup_resume(tf->elr);
	if (resume) {
		tf->elr = resume;
		return;
	}

	/* The trap may have come before boot_main() set the UART up. */
	arch_console_init();
	cpu = trapping_cpu();
	/*
	 * printk() reads this CPU's number through TPIDR_EL1: one that
	 * matches no CPU would fault again. Borrow the boot CPU's area.
	 */
	if (cpu == NR_CPUS)
		arch_set_percpu_offset(0);
	printk_emergency();
	locked = printk_lock();
	printk("\nEXCEPTION: cpu ");
	if (cpu < NR_CPUS)
		printk("%u", cpu);
	else
		printk("?");
	printk(" (mpidr %#lx): ", read_sysreg(mpidr_el1));
	print_cause(kind, tf->esr);
	printk(" at pc %#lx, far %#lx (esr %#lx)\n", tf->elr, tf->far,
	       tf->esr);
	/* An abort in the stack alias (mmu.c) is a stack overflow. */
	if ((kind & 3) == TRAP_SYNC && is_abort(tf->esr) &&
	    tf->far >= STACK_ALIAS_BASE)
		printk("far is in the stack slot of cpu %lu: a stack overflow "
		       "into its guard pages\n",
		       (tf->far - STACK_ALIAS_BASE) / STACK_SLOT_SIZE);
	printk("spsr %#lx%s\n", tf->spsr,
	       (kind >> 2) ? ", taken from a lower exception level" : "");
	for (unsigned int i = 0; i < 31; i++)
		printk("%*sx%u %016lx%s", i < 10, "", i, tf->regs[i],
		       i % 4 == 3 ? "\n" : "  ");
	printk(" sp %016lx\n", tf->sp);
	printk_unlock(locked);
	arch_poweroff(POWEROFF_FAIL);
}
