/*
 * x86_64.h - what the files of arch/x86_64 share with each other (not
 * part of the arch contract).
 */
#ifndef ARCH_X86_64_H
#define ARCH_X86_64_H

#include <lib/compiler.h>
#include <lib/types.h>

/*
 * The exception frame: the general registers vectors.S pushes, the vector
 * and error code, then what the CPU pushed. Field order is stack order.
 */
struct x86_exception_frame {
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t vector;
	uint64_t error_code; /* 0 for vectors without one */
	uint64_t rip, cs, rflags, rsp, ss;
};

#define X86_NR_EXCEPTIONS	32
#define X86_VECTOR_DOUBLE_FAULT 8
#define X86_VECTOR_PAGE_FAULT	14
/*
 * Interrupts, taken only across arch_cpu_idle()'s sti; hlt: the local
 * APIC timer, another CPU's wake-up IPI (a vector of its own, so that
 * x86_interrupt() can count it), and the APIC's spurious vector. Every
 * other vector from 32 on acknowledges and returns too.
 */
#define X86_VECTOR_TIMER	0xf0
#define X86_VECTOR_WAKE		0xf1
#define X86_VECTOR_SPURIOUS	0xff
#define X86_NR_VECTORS		256

/* vectors.S: the entry stub of each exception vector, in vector order. */
extern const uint64_t x86_exception_stubs[X86_NR_EXCEPTIONS];
/* vectors.S: vectors 32-254 (acknowledged, then return), and 255. */
void x86_interrupt_stub(void);
void x86_spurious_stub(void);

/* x86_interrupt - the C side of x86_interrupt_stub: end the interrupt. */
void x86_interrupt(void);

/*
 * x86_exception - report an exception on the console and power off with
 * a failure; called by vectors.S on every vector 0-31. Never returns.
 */
void x86_exception(struct x86_exception_frame *frame) __noreturn;

/*
 * x86_cpu_init - load the final GDT with its TSS and the IDT, so that an
 * exception is reported instead of resetting the machine.
 */
void x86_cpu_init(void);

/*
 * x86_start - the C side of entry.S: from the entry used and the loader's
 * eax and ebx, work out the boot protocol, then call boot_main().
 */
void x86_start(uint32_t entry, uint32_t eax, uint32_t ebx) __noreturn;

/*
 * The SMP trampoline (secondary.S, smp.c): one page below 1 MiB, found
 * and reserved by arch_reserve_memory() (memory.c); 0 if none was free.
 */
#define X86_TRAMPOLINE_SIZE	4096
extern phys_addr_t x86_trampoline_page;

/*
 * x86_cpu_init_secondary - the descriptor tables on secondary CPU @cpu:
 * the shared GDT and IDT, its own TSS (GDT slot x86_tss_selector(@cpu))
 * whose double-fault IST stack tops at @df_stack_top.
 */
void x86_cpu_init_secondary(unsigned int cpu, uintptr_t df_stack_top);

/*
 * x86_is_stack_guard - @va is in the guard page under a secondary CPU's
 * stack, which arch_cpu_start() unmapped on purpose.
 */
bool x86_is_stack_guard(uint64_t va);

/* x86_delay_ns - spin for @ns nanoseconds of arch_clock_ns() (smp.c). */
void x86_delay_ns(uint64_t ns);

/* The CPU's APIC id as CPUID gives it (x2APIC id where leaf 0xb has it). */
unsigned long x86_apic_id(void);

/* x86_debug_exit - end QEMU with exit status (value << 1) | 1, if it can. */
void x86_debug_exit(uint32_t value);

#endif /* ARCH_X86_64_H */
