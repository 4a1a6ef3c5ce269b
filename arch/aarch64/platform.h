/*
 * platform.h - what aarch64 still takes from QEMU's `virt` machine rather
 * than from the board's device tree: where RAM starts.
 *
 * The console comes from the device tree (platform/console.c). Plain
 * numbers, no suffixes: assembly includes this file too.
 */
#ifndef AARCH64_PLATFORM_H
#define AARCH64_PLATFORM_H

/*
 * Start of RAM. For an ELF -kernel QEMU enters with x0 = 0 and leaves the
 * DTB here, below the image (arch/aarch64/image.lds.h links at +2 MiB for that).
 */
#define VIRT_RAM_BASE		0x40000000

#endif /* AARCH64_PLATFORM_H */
