/*
 * trap.c - report an unexpected riscv64 trap, or resume at a fixup.
 *
 * The report's first line is the marker the runner looks for, naming the
 * CPU (logical number, from tp, and hart id):
 *   EXCEPTION: cpu <n> (hart <id>): <cause> (scause <n>) at pc <sepc>, stval <stval>
 * then every general register, then a FAIL poweroff. Any hart may report:
 * the report holds the console lock so no other hart's line cuts into
 * it, and waits for the lock only so long (printk_emergency()). vectors.S guarantees a
 * fault in here does not come back to this function.
 */
#include <arch/console.h>
#include <arch/poweroff.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include "csr.h"
#include <arch/fixup.h>
#include "trap.h"

_Static_assert(__builtin_offsetof(struct riscv_trap_frame, sepc) == TF_SEPC &&
		       __builtin_offsetof(struct riscv_trap_frame, sstatus) ==
			       TF_SSTATUS &&
		       __builtin_offsetof(struct riscv_trap_frame, scause) ==
			       TF_SCAUSE &&
		       __builtin_offsetof(struct riscv_trap_frame, stval) ==
			       TF_STVAL &&
		       sizeof(struct riscv_trap_frame) == TF_SIZE,
	       "trap.h offsets must match struct riscv_trap_frame.");

static const char *const exception_names[] = {
	[0] = "instruction address misaligned",
	[1] = "instruction access fault",
	[2] = "illegal instruction",
	[3] = "breakpoint",
	[4] = "load address misaligned",
	[5] = "load access fault",
	[6] = "store/AMO address misaligned",
	[7] = "store/AMO access fault",
	[8] = "environment call from U-mode",
	[9] = "environment call from S-mode",
	[12] = "instruction page fault",
	[13] = "load page fault",
	[15] = "store/AMO page fault",
};

static const char *const interrupt_names[] = {
	[1] = "supervisor software interrupt",
	[5] = "supervisor timer interrupt",
	[9] = "supervisor external interrupt",
};

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2",
	"s0",	"s1", "a0", "a1", "a2",  "a3",  "a4", "a5",
	"a6",	"a7", "s2", "s3", "s4",  "s5",  "s6", "s7",
	"s8",	"s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *cause_name(unsigned long scause)
{
	bool interrupt = scause >> SCAUSE_INTERRUPT_BIT;
	unsigned long code = scause & ~(1UL << SCAUSE_INTERRUPT_BIT);
	const char *name = NULL;

	if (interrupt && code < ARRAY_SIZE(interrupt_names))
		name = interrupt_names[code];
	else if (!interrupt && code < ARRAY_SIZE(exception_names))
		name = exception_names[code];
	if (name)
		return name;
	return interrupt ? "unknown interrupt" : "unknown exception";
}

/*
 * riscv_trap - called by vectors.S with the saved frame. Returns only to
 * resume at a fixup (tf->sepc rewritten); otherwise reports and powers off.
 */
void riscv_trap(struct riscv_trap_frame *tf)
{
	unsigned long resume = 0;
	unsigned int cpu;
	bool locked;

	if (!(tf->scause >> SCAUSE_INTERRUPT_BIT))
		resume = fixup_resume(tf->sepc);
	if (resume) {
		tf->sepc = resume;
		return;
	}

	/* The trap may have come before boot_main() set the UART up. */
	arch_console_init();
	printk_emergency();
	locked = printk_lock();
	cpu = smp_processor_id();
	printk("\nEXCEPTION: cpu %u (hart %lu): %s (scause %#lx) at pc %#lx, "
	       "stval %#lx\n", cpu, cpu_hwid(cpu), cause_name(tf->scause),
	       tf->scause, tf->sepc, tf->stval);
	printk("sstatus %#lx\n", tf->sstatus);
	for (unsigned int i = 1; i < 32; i++)
		printk("%4s %016lx%s", reg_names[i], tf->regs[i],
		       i % 4 == 0 || i == 31 ? "\n" : "  ");
	printk_unlock(locked);
	arch_poweroff(POWEROFF_FAIL);
}
