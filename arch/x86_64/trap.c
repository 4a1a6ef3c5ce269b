/*
 * trap.c - reporting an exception: no exception is expected in
 * buddyboot, so each one is a crash to describe as fully as possible.
 *
 * The first line is the marker the runner looks for, with the CPU it
 * happened on (logical number and APIC id):
 *   EXCEPTION: cpu N (APIC id A): <name> (vector V, error code E)
 * then the faulting RIP, CR2 for a page fault, the CPU-pushed frame and
 * every general register; then the machine powers off with a failure.
 */
#include <arch/console.h>
#include <arch/cpu.h>
#include <arch/poweroff.h>
#include <asm/smp.h>
#include <asm/x86.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include "x86_64.h"

DECLARE_PER_CPU(uintptr_t, x86_stack_guard);

#define STACK_GUARD_SIZE 4096

static const char *const vector_names[X86_NR_EXCEPTIONS] = {
	[0] = "divide error",
	[1] = "debug",
	[2] = "non-maskable interrupt",
	[3] = "breakpoint",
	[4] = "overflow",
	[5] = "BOUND range exceeded",
	[6] = "invalid opcode",
	[7] = "device not available",
	[8] = "double fault",
	[9] = "coprocessor segment overrun",
	[10] = "invalid TSS",
	[11] = "segment not present",
	[12] = "stack-segment fault",
	[13] = "general protection fault",
	[14] = "page fault",
	[16] = "x87 floating-point error",
	[17] = "alignment check",
	[18] = "machine check",
	[19] = "SIMD floating-point exception",
	[20] = "virtualization exception",
	[21] = "control protection exception",
	[28] = "hypervisor injection exception",
	[29] = "VMM communication exception",
	[30] = "security exception",
};

/* arch/x86_64/image.lds.S: the unmapped page under the boot stack. */
extern char __boot_stack_guard[];
extern char __per_cpu_start[];

static const char *vector_name(uint64_t vector)
{
	if (vector < X86_NR_EXCEPTIONS && vector_names[vector])
		return vector_names[vector];
	return "reserved vector";
}

/* Decode a page fault's error code (SDM vol. 3, 4.7). */
static void print_page_fault(uint64_t error_code)
{
	printk("CR2: %#018llx (%s %s, %s)\n", (unsigned long long)read_cr2(),
	       error_code & 2 ? "write to" : "read from",
	       error_code & 1 ? "a protected page" : "a page not present",
	       error_code & 16 ? "instruction fetch" : "data access");
}

/* The CPU-pushed frame, the general and control registers, three a line. */
static void print_registers(const struct x86_exception_frame *f)
{
	const struct {
		const char *name;
		uint64_t value;
	} regs[] = {
		{"CS", f->cs},	     {"SS", f->ss},	  {"RFLAGS", f->rflags},
		{"RSP", f->rsp},     {"RAX", f->rax},	  {"RBX", f->rbx},
		{"RCX", f->rcx},     {"RDX", f->rdx},	  {"RSI", f->rsi},
		{"RDI", f->rdi},     {"RBP", f->rbp},	  {"R8", f->r8},
		{"R9", f->r9},	     {"R10", f->r10},	  {"R11", f->r11},
		{"R12", f->r12},     {"R13", f->r13},	  {"R14", f->r14},
		{"R15", f->r15},     {"CR0", read_cr0()}, {"CR3", read_cr3()},
		{"CR4", read_cr4()},
	};

	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		printk("%-6s %#018llx%s", regs[i].name,
		       (unsigned long long)regs[i].value,
		       i % 3 == 2 || i + 1 == ARRAY_SIZE(regs) ? "\n" : "  ");
}

/*
 * Which CPU this is, for the marker line: "cpu N" from the per-CPU area.
 * GS is set a few instructions into a secondary CPU's C entry: before
 * that its base is 0, %gs:0 would read page 0, and the CPU is "cpu ?".
 */
static void print_marker(const struct x86_exception_frame *f)
{
	if (rdmsr(MSR_GS_BASE))
		printk("\nEXCEPTION: cpu %u (APIC id %#lx): ",
		       smp_processor_id(), x86_apic_id());
	else
		printk("\nEXCEPTION: cpu ? (APIC id %#lx, not set up yet): ",
		       x86_apic_id());
	printk("%s (vector %llu, error code %#llx)\n", vector_name(f->vector),
	       (unsigned long long)f->vector,
	       (unsigned long long)f->error_code);
}

/* The guard page under this CPU's stack. */
static uintptr_t stack_guard(const char **whose)
{
	uintptr_t guard = 0;

	if (rdmsr(MSR_GS_BASE))
		guard = *this_cpu_ptr(&x86_stack_guard);
	*whose = guard ? "this CPU's stack" : "the boot stack";
	return guard ? guard : (uintptr_t)__boot_stack_guard;
}

void x86_exception(struct x86_exception_frame *f)
{
	/* The APIC id of the CPU reporting, or -1: the first one reports. */
	static long reporter = -1;
	long expected = -1, me = (long)x86_apic_id();
	const char *whose;
	bool locked;

	if (!__atomic_compare_exchange_n(&reporter, &expected, me, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* A fault while reporting one: do not try to print again. */
		if (expected == me)
			arch_poweroff(POWEROFF_FAIL);
		/* Another CPU is reporting; it powers the machine off. */
		arch_halt();
	}

	/* The exception may have come before boot_main() set the UART up. */
	arch_console_init();
	printk_emergency();
	locked = printk_lock();
	print_marker(f);
	printk("RIP: %#018llx\n", (unsigned long long)f->rip);
	if (f->vector == X86_VECTOR_PAGE_FAULT)
		print_page_fault(f->error_code);
	/*
	 * An overflow faults on the guard page, and the page fault itself
	 * cannot be pushed: a double fault, with CR2 still in the guard page.
	 */
	if (read_cr2() - stack_guard(&whose) < STACK_GUARD_SIZE)
		printk("CR2 is in the guard page under %s: it overflowed\n",
		       whose);
	print_registers(f);
	printk_unlock(locked);
	arch_poweroff(POWEROFF_FAIL);
}
