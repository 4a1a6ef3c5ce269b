/*
 * platform.h - what aarch64 still takes from QEMU's `virt` machine rather
 * than from the board's device tree: where RAM starts, for mmu.c's split
 * of the map into Device and Normal memory.
 *
 * The console comes from the device tree (platform/console.c), the DTB of
 * an ELF boot from where the image runs (cpu.c). Plain numbers, no
 * suffixes: assembly includes this file too.
 */
#ifndef AARCH64_PLATFORM_H
#define AARCH64_PLATFORM_H

/* Start of RAM: below it QEMU virt's devices, above it RAM. */
#define VIRT_RAM_BASE		0x40000000

#endif /* AARCH64_PLATFORM_H */
