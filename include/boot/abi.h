/*
 * abi.h - the magic numbers of the boot protocols buddyboot speaks, each
 * defined once: the device tree blob's header, multiboot2's image header
 * and the value its loader leaves in eax, PVH's hvm_start_info. The
 * readers (boot/), the entry code (arch/) and the tools and tests all take
 * them from here. Plain numbers, so that assembly includes it too.
 */
#ifndef BOOT_ABI_H
#define BOOT_ABI_H

/* Devicetree specification v0.4, 5.2: the header's first word, big-endian. */
#define FDT_MAGIC			0xd00dfeed

/* Multiboot2 specification 2.0, 3.1.1 and 3.3. */
#define MULTIBOOT2_HEADER_MAGIC		0xe85250d6
#define MULTIBOOT2_BOOTLOADER_MAGIC	0x36d76289

/* The first field of hvm_start_info (Xen's arch-x86/hvm/start_info.h). */
#define XEN_HVM_START_MAGIC_VALUE	0x336ec578
#define PVH_MAGIC			XEN_HVM_START_MAGIC_VALUE

#endif /* BOOT_ABI_H */
