/*
 * image.lds.S - the buddyboot image for x86_64: its own layout (a
 * multiboot2 and PVH ELF, not an Image), with the pieces every port
 * shares from linker/sections.lds.h; mk/kernel.mk preprocesses it.
 *
 * Linked and loaded at 1 MiB, identity-mapped (virtual == physical):
 * the first address above the PC's real-mode area (IVT, BIOS data, EBDA,
 * VGA, ROMs), the address the multiboot specifications' examples and
 * QEMU's PVH loader expect, and RAM on every PC. A 2 MiB-aligned address
 * would buy nothing: the boot stub maps [0, 2 MiB) with 4 KiB pages anyway
 * (for the stack guard page), and 1 MiB leaves 2 MiB-aligned RAM above the
 * image to the allocator.
 *
 * Physical addresses of PT_LOAD segments are where loaders put them, so
 * the whole image, including its NOLOAD tail, must stay below 4 GiB
 * (multiboot2 and PVH start in 32-bit mode) and, for the stub's 4 KiB
 * page table, the stack guard page below 2 MiB.
 *
 * Layout:  .text (multiboot2 header first, within the first 32 KiB the
 *          specification allows) | .rodata (+ .selftests, .console_drivers) | .note.Xen
 *          (in its own PT_NOTE too) | .data | .bss (per-CPU section
 *          first) | boot page tables |
 *          stack guard page, boot stack, double-fault stack | _end.
 * The page tables and stacks are NOLOAD and outside [__bss_start,
 * __bss_end): the stack is in use while BSS is cleared, and boot_main()
 * checks that BSS is still zero. They are before _end, because GRUB puts
 * the multiboot2 info right after _end.
 */
#include "sections.lds.h"

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(multiboot2_entry32)

LOAD_ADDRESS		= 0x100000;
BOOT_STACK_SIZE		= 0x10000;	/* 64 KiB */
DOUBLE_FAULT_STACK_SIZE	= 0x1000;

PHDRS
{
	text	PT_LOAD FLAGS(5);	/* R X */
	rodata	PT_LOAD FLAGS(4);	/* R */
	data	PT_LOAD FLAGS(6);	/* R W */
	note	PT_NOTE FLAGS(4);
}

SECTIONS
{
	. = LOAD_ADDRESS;
	_start = .;

	.text : {
		KEEP(*(.multiboot2))
		*(.text.entry32)
		*(.text .text.*)
	} :text
	_etext = .;

	.rodata : ALIGN(4096) {
		*(.rodata .rodata.*)
		. = ALIGN(8);
		SELFTESTS_TABLE
		. = ALIGN(8);
		CONSOLE_DRIVERS_TABLE
	} :rodata

	/* 4-byte aligned: QEMU pads the note name to the PT_NOTE alignment. */
	.note.Xen : ALIGN(4) {
		KEEP(*(.note.Xen))
	} :rodata :note

	.data : ALIGN(4096) {
		*(.data .data.*)
	} :data

	.bss (NOLOAD) : ALIGN(4096) {
		__bss_start = .;
		/* First, this_cpu_off: %gs:0 on every CPU (asm/smp.h). */
		PER_CPU_SECTION(KEEP(*(bb_percpu.first)))
		*(.bss .bss.*)
		*(COMMON)
		. = ALIGN(8);
		__bss_end = .;
	} :data

	.boot.page_tables (NOLOAD) : ALIGN(4096) {
		*(.boot.page_tables)
	} :data

	.boot.stack (NOLOAD) : ALIGN(4096) {
		__boot_stack_guard = .;
		. += 4096;
		__boot_stack_bottom = .;
		. += BOOT_STACK_SIZE;
		__boot_stack_top = .;
		__double_fault_stack_bottom = .;
		. += DOUBLE_FAULT_STACK_SIZE;
		__double_fault_stack_top = .;
	} :data

	. = ALIGN(4096);
	_end = .;

	/DISCARD/ : {
		COMMON_DISCARDS
	}
}

ASSERT(_end <= 0x100000000, "the x86_64 image must end below 4 GiB: both loaders enter in 32-bit mode")
ASSERT(__boot_stack_guard + 4096 <= 0x200000, "the boot stack guard page must lie in the first 2 MiB, which entry.S maps with 4 KiB pages")
ASSERT(multiboot2_header == _start, "the multiboot2 header must open the image (GRUB looks in its first 32 KiB)")

ASSERT(this_cpu_off == __per_cpu_start, "this_cpu_off must be the first per-CPU word: %gs:0")
