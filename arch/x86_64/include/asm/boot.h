/*
 * asm/boot.h - what the two x86 loaders and the stub agree on: the
 * multiboot2 header and the PVH ELF note, both read from the image, and
 * the magic values each loader hands over. Shared by assembly and C.
 *
 * The layout of the boot information itself (multiboot2 tags,
 * hvm_start_info) belongs to the readers under boot/.
 */
#ifndef ASM_BOOT_H
#define ASM_BOOT_H

#include <boot/abi.h>	/* the magic values */

/* Multiboot2 specification 2.0, section 3.1. */
#define MULTIBOOT2_ARCH_I386	    0 /* 32-bit protected mode entry */
#define MULTIBOOT2_TAG_END	    0
#define MULTIBOOT2_TAG_INFO_REQUEST 1
#define MULTIBOOT2_INFO_MMAP	    6 /* the memory map tag */

/* Xen's public elfnote.h: the 32-bit entry point of a PVH guest. */
#define XEN_ELFNOTE_PHYS32_ENTRY  18

#endif /* ASM_BOOT_H */
