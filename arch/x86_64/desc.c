/*
 * desc.c - the descriptor tables: GDT, TSS and IDT.
 *
 * Long mode ignores segment bases and limits, but still needs a code
 * descriptor with L=1 to run 64-bit code, a TSS to name the stacks of the
 * Interrupt Stack Table, and an IDT to reach the exception handlers and
 * the interrupt that wakes an idle CPU.
 *
 * The GDT is used by entry.S in 32-bit mode already (lgdt x86_gdt_descr,
 * then the far jump to KERNEL_CS), so it is initialised data; the TSS
 * descriptors are filled in here, once their addresses are known to C.
 * Everything lives in .data, not BSS: x86_cpu_init() runs before
 * boot_main() checks that BSS is still all zero.
 *
 * SMP: every CPU shares the GDT and the IDT, and has a TSS of its own,
 * because ltr marks its descriptor busy and each CPU's double faults need
 * their own IST stack: CPU n's TSS descriptor takes GDT slots
 * KERNEL_TSS + 16 n (a long-mode TSS descriptor is 16 bytes). Each CPU
 * writes only its own TSS and descriptor, before it loads them.
 */
#include <smp/nr_cpus.h>
#include <asm/processor-flags.h>
#include <lib/string.h>
#include "x86_64.h"

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

/* A 64-bit TSS (SDM vol. 3, 8.7): only the IST slots matter here. */
struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7]; /* ist[n - 1] is IST slot n */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t io_bitmap_base;
} __packed;

/* An interrupt gate (SDM vol. 3, 6.14.1). */
struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __packed;

_Static_assert(sizeof(struct tss64) == 104, "a 64-bit TSS is 104 bytes");
_Static_assert(sizeof(struct idt_gate) == 16,
	       "a long-mode IDT gate is 16 bytes");

/* Present, DPL 0, 64-bit interrupt gate: IF is cleared on entry. */
#define GATE_INTERRUPT	   0x8e
/* Present, DPL 0, available 64-bit TSS. */
#define DESC_TSS_AVAILABLE 0x89

/*
 * Flat descriptors: code has L=1 (64-bit), D=0; data is read/write.
 * Both with base 0, limit 4 GiB, which 32-bit code would also accept.
 */
#define DESC_CODE64 0x00af9a000000ffffULL
#define DESC_DATA   0x00cf92000000ffffULL

/* null, code, data, and a TSS per CPU, each two slots in long mode. */
uint64_t x86_gdt[KERNEL_TSS / 8 + 2 * NR_CPUS] __aligned(16) = {
	[KERNEL_CS / 8] = DESC_CODE64,
	[KERNEL_DS / 8] = DESC_DATA,
};

const struct desc_ptr x86_gdt_descr = {
	.limit = sizeof(x86_gdt) - 1,
	.base = (uintptr_t)x86_gdt,
};

static struct tss64 tss[NR_CPUS] __section(".data") __aligned(16);
static struct idt_gate idt[X86_NR_VECTORS] __section(".data") __aligned(16);

_Static_assert(KERNEL_TSS / 8 + 2 * NR_CPUS <= 8192,
	       "the GDT holds 8192 descriptors: too many CPUs for a TSS each");

/* The double-fault handler's stack, reserved by arch/x86_64/image.lds.S. */
extern char __double_fault_stack_top[];

/* CPU @cpu's TSS: its double-fault stack; its descriptor; ltr. */
static void load_tss(unsigned int cpu, uintptr_t df_stack_top)
{
	struct tss64 *t = &tss[cpu];
	unsigned int slot = KERNEL_TSS / 8 + 2 * cpu;
	uint64_t base = (uintptr_t)t;
	uint64_t limit = sizeof(*t) - 1;

	memset(t, 0, sizeof(*t));
	t->ist[DOUBLE_FAULT_IST - 1] = df_stack_top;
	t->io_bitmap_base = sizeof(*t); /* no I/O permission bitmap */
	x86_gdt[slot] = (limit & 0xffff) | (base & 0xffffff) << 16 |
			(uint64_t)DESC_TSS_AVAILABLE << 40 |
			((limit >> 16) & 0xf) << 48 |
			((base >> 24) & 0xff) << 56;
	x86_gdt[slot + 1] = base >> 32;
	__asm__ volatile("ltr %w0" : : "r"(slot * 8) : "memory");
}

static void load_idt(void)
{
	struct desc_ptr idt_descr = {
		.limit = sizeof(idt) - 1,
		.base = (uintptr_t)idt,
	};

	__asm__ volatile("lidt %0" : : "m"(idt_descr));
}

static void set_gate(unsigned int vector, uint64_t handler, unsigned int ist)
{
	idt[vector] = (struct idt_gate){
		.offset_low = handler & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = GATE_INTERRUPT,
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_high = handler >> 32,
	};
}

void x86_cpu_init(void)
{
	/*
	 * A double fault often means the stack is gone (the guard page under
	 * the boot stack): take it on a stack of its own.
	 */
	load_tss(0, (uintptr_t)__double_fault_stack_top);

	for (unsigned int v = 0; v < X86_NR_EXCEPTIONS; v++)
		set_gate(v, x86_exception_stubs[v],
			 v == X86_VECTOR_DOUBLE_FAULT ? DOUBLE_FAULT_IST : 0);
	/*
	 * Interrupts come only across an idle CPU's sti; hlt (vectors.S):
	 * the wake-up vector, and any other a device or the firmware left
	 * pointed at a CPU, which is acknowledged and otherwise ignored.
	 */
	for (unsigned int v = X86_NR_EXCEPTIONS; v < X86_VECTOR_SPURIOUS; v++)
		set_gate(v, (uintptr_t)x86_interrupt_stub, 0);
	set_gate(X86_VECTOR_SPURIOUS, (uintptr_t)x86_spurious_stub, 0);
	load_idt();
}

void x86_cpu_init_secondary(unsigned int cpu, uintptr_t df_stack_top)
{
	/* The boot CPU filled the IDT before it started any other CPU. */
	load_idt();
	load_tss(cpu, df_stack_top);
}
