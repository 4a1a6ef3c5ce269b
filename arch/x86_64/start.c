/*
 * start.c - from head.S to boot_main(): descriptor tables, then which
 * boot protocol the loader spoke.
 *
 * The entry point tells the loader apart: the ELF entry is multiboot2's,
 * the PVH note's is QEMU's, efi_entry64 is BOOTX64.EFI's. The magic then confirms it: eax for
 * multiboot2, the first word of hvm_start_info for PVH. Anything else is
 * BOOT_PROTO_NONE, and the boot_info_found selftest fails the boot.
 */
#include <arch/entry.h>
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
 * else leaf 1's EBX bits 31-24. trampoline.S does the same in assembly.
 */
unsigned long x86_apic_id(void)
{
	if (cpuid(0, 0).eax >= 0xb && cpuid(0xb, 0).ebx)
		return cpuid(0xb, 0).edx;
	return cpuid(1, 0).ebx >> 24;
}

void x86_start(uint32_t entry, uint32_t eax, uint32_t ebx)
{
	enum boot_protocol proto;

	x86_cpu_init();
	proto = find_protocol(entry, eax, ebx);
	boot_main(proto, proto == BOOT_PROTO_NONE ? 0 : ebx, x86_apic_id());
}
