/*
 * platform.h - the devices and memory of QEMU's aarch64 `virt` machine that
 * buddyboot relies on, in one place.
 *
 * Hard-coded for `-M virt`: a board port changes these lines. (A later step
 * may take the UART from the DTB's /chosen stdout-path instead.) Plain
 * numbers, no suffixes: assembly includes this file too.
 */
#ifndef AARCH64_PLATFORM_H
#define AARCH64_PLATFORM_H

/* PL011 UART. */
#define VIRT_UART0_BASE		0x09000000

#endif /* AARCH64_PLATFORM_H */
