/*
 * entry.h - the single generic entry point every boot stub calls.
 *
 * The stub has cleared BSS, set up the boot stack and the exception vectors,
 * and (x86_64) entered long mode. It then calls boot_main() with what the
 * loader handed over, untouched.
 */
#ifndef ARCH_ENTRY_H
#define ARCH_ENTRY_H

#include <lib/compiler.h>
#include <lib/types.h>

enum boot_protocol {
	BOOT_PROTO_NONE = 0,	/* no boot info found */
	BOOT_PROTO_FDT,		/* flattened device tree (riscv64, aarch64) */
	BOOT_PROTO_MULTIBOOT2,	/* multiboot2 information (x86_64, GRUB) */
	BOOT_PROTO_PVH,		/* hvm_start_info (x86_64, QEMU -kernel) */
	BOOT_PROTO_EFI,		/* EFI boot information: the UEFI memory map
				 * after ExitBootServices (boot/efi.h) */
};

/*
 * boot_main - generic boot flow: console, memory discovery, reservations,
 * hand-off to the buddy allocator, selftests, poweroff. Never returns.
 * @proto:    which structure @info points to
 * @info:     physical address of the DTB, multiboot2 info, hvm_start_info
 *            or EFI boot information
 * @boot_cpu: hart id / MPIDR / APIC id of the CPU that booted
 */
void boot_main(enum boot_protocol proto, phys_addr_t info,
	       unsigned long boot_cpu) __noreturn;

#endif /* ARCH_ENTRY_H */
