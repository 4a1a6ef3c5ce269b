/*
 * cpu.c - x86_64 CPU services: from entry.S to boot_main() (descriptor
 * tables, then which boot protocol the loader spoke), arch_halt() and
 * poweroff.
 *
 * The entry point tells the loader apart: the ELF entry is multiboot2's,
 * the PVH note's is QEMU's, efi_entry64 is BOOTX64.EFI's. The magic then
 * confirms it: eax for multiboot2, the first word of hvm_start_info for
 * PVH. Anything else is BOOT_PROTO_NONE, and the boot_info_found selftest
 * fails the boot.
 *
 * There is no portable way to power a PC off without ACPI; under QEMU the
 * isa-debug-exit device (QEMU_MACHINE_ARGS in arch.mk) ends the machine
 * with a status the runner reads.
 */
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/poweroff.h>
#include <boot/efi.h>
#include <asm/boot.h>
#include <asm/processor-flags.h>
#include <asm/x86.h>
#include "x86_64.h"

static enum boot_protocol find_protocol(uint32_t entry, uint32_t eax,
					uint32_t ebx)
{
	if (!ebx)
		return BOOT_PROTO_NONE;
	switch (entry) {
	case X86_ENTRY_MULTIBOOT2:
		if (eax == MULTIBOOT2_BOOTLOADER_MAGIC)
			return BOOT_PROTO_MULTIBOOT2;
		break;
	case X86_ENTRY_PVH:
		if (*(const volatile uint32_t *)(uintptr_t)ebx ==
		    XEN_HVM_START_MAGIC_VALUE)
			return BOOT_PROTO_PVH;
		break;
	case X86_ENTRY_EFI:
		if (*(const volatile uint32_t *)(uintptr_t)ebx ==
		    EFI_BOOT_INFO_MAGIC)
			return BOOT_PROTO_EFI;
		break;
	}
	return BOOT_PROTO_NONE;
}

/*
 * The initial APIC ID of this CPU, what the ACPI MADT calls it: the
 * x2APIC id of CPUID leaf 0xb where the CPU has that leaf (all 32 bits),
 * else leaf 1's EBX bits 31-24. secondary.S does the same in assembly.
 */
unsigned long x86_apic_id(void)
{
	if (cpuid(0, 0).eax >= 0xb && cpuid(0xb, 0).ebx)
		return cpuid(0xb, 0).edx;
	return cpuid(1, 0).ebx >> 24;
}

/* The two 8259 interrupt controllers' mask registers (OCW1). */
#define PIC1_DATA	0x21
#define PIC2_DATA	0xa1

/*
 * Mask every line of the 8259s, which buddyboot never uses (idle wake-ups
 * come through the local APIC: apic.c). The firmware leaves some open:
 * SeaBIOS its timer tick, the PIT on IRQ 0. With interrupts masked in the
 * CPU, such an interrupt stays pending, and QEMU's TCG looks at it again
 * and again between translated blocks: a 1-CPU boot of the matrix line
 * x86_64-4K-6G spent 65.6 s in integrity_verify_free with the lines
 * open, 4.5 s masked. An SMP boot masked them too, but only when it
 * started other CPUs (apic_init_wakeup() did).
 */
static void mask_8259(void)
{
	outb(0xff, PIC1_DATA);
	outb(0xff, PIC2_DATA);
}

void x86_start(uint32_t entry, uint32_t eax, uint32_t ebx)
{
	enum boot_protocol proto;

	x86_cpu_init();
	mask_8259();
	proto = find_protocol(entry, eax, ebx);
	boot_main(proto, proto == BOOT_PROTO_NONE ? 0 : ebx, x86_apic_id());
}

/* -device isa-debug-exit,iobase=0xf4,iosize=0x04 */
#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_PASS 0x10 /* (0x10 << 1) | 1 = 33 */
#define DEBUG_EXIT_FAIL 0x11 /* (0x11 << 1) | 1 = 35 */

_Static_assert(((DEBUG_EXIT_PASS << 1) | 1) == QEMU_EXIT_PASS,
	       "isa-debug-exit must turn a pass into QEMU_EXIT_PASS");
_Static_assert(((DEBUG_EXIT_FAIL << 1) | 1) == QEMU_EXIT_FAIL,
	       "isa-debug-exit must turn a failure into QEMU_EXIT_FAIL");

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void x86_debug_exit(uint32_t value)
{
	outl(value, DEBUG_EXIT_PORT);
}

/*
 * Under QEMU the write below ends the process. On a PC without the device
 * the write goes nowhere and the CPU halts: the runner reads a timeout as
 * a failure, and a person reads the console.
 */
void arch_poweroff(enum poweroff_status status)
{
	x86_debug_exit(status == POWEROFF_PASS ? DEBUG_EXIT_PASS
					       : DEBUG_EXIT_FAIL);
	arch_halt();
}
