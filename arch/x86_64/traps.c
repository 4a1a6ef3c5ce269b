/*
 * traps.c - reporting an exception: no exception is expected in
 * buddyboot, so each one is a crash to describe as fully as possible.
 *
 * The first line is the marker the runner looks for:
 *   EXCEPTION: <name> (vector N, error code E)
 * then the faulting RIP, CR2 for a page fault, the CPU-pushed frame and
 * every general register; then the machine powers off with a failure.
 */
#include <arch/console.h>
#include <arch/poweroff.h>
#include <asm/x86.h>
#include <lib/printk.h>
#include "x86_64.h"

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

/* linker/x86_64.ld: the unmapped page under the boot stack. */
extern char __boot_stack_guard[];

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

void x86_exception(struct x86_exception_frame *f)
{
	static bool reporting;

	/* A fault while reporting one: do not try to print again. */
	if (reporting)
		arch_poweroff(POWEROFF_FAIL);
	reporting = true;

	arch_console_init();
	printk("\nEXCEPTION: %s (vector %llu, error code %#llx)\n",
	       vector_name(f->vector), (unsigned long long)f->vector,
	       (unsigned long long)f->error_code);
	printk("RIP: %#018llx\n", (unsigned long long)f->rip);
	if (f->vector == X86_VECTOR_PAGE_FAULT)
		print_page_fault(f->error_code);
	/*
	 * An overflow faults on the guard page, and the page fault itself
	 * cannot be pushed: a double fault, with CR2 still in the guard page.
	 */
	if (read_cr2() - (uintptr_t)__boot_stack_guard < STACK_GUARD_SIZE)
		printk("CR2 is in the guard page under the boot stack: "
		       "the boot stack overflowed\n");
	print_registers(f);
	arch_poweroff(POWEROFF_FAIL);
}
