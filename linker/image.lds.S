/*
 * image.lds.S - the image layout of the ports that boot as a Linux-style
 * Image which is also a PE32+ EFI application (riscv64, aarch64): one
 * template, preprocessed for each port with its arch/<arch>/image.lds.h
 * (link address, page-size alignment of the PE sections, small-data
 * sections, the PE header's symbols). x86_64's multiboot2/PVH ELF has a
 * layout of its own (arch/x86_64/image.lds.S); both use the shared
 * pieces of linker/sections.lds.h.
 *
 *   _start        image start: entry.S's .text.head comes first
 *   _etext        end of code
 *   .rodata .data .selftests .console_drivers .fixup_table .got .rela.dyn .dynamic
 *   __bss_start .. __bss_end            cleared by entry.S (16-byte aligned)
 *     __per_cpu_start .. __per_cpu_end  its start: the boot CPU's per-CPU copy
 *   __boot_stack_bottom .. __boot_stack_top          64 KiB, not in BSS
 *   __exception_stack_bottom .. __exception_stack_top
 *   _end          end of everything the image occupies
 *
 * boot/ reserves _start .. _end, so the stacks are covered too.
 */
#include <image.lds.h>
#include "sections.lds.h"

#ifndef IMAGE_LINK_ADDRESS
#error "IMAGE_LINK_ADDRESS: the board file (boards/<arch>/<board>.mk) sets BOARD_LINK_ADDRESS"
#endif

OUTPUT_ARCH(IMAGE_OUTPUT_ARCH)
ENTRY(_start)

BOOT_STACK_SIZE = 64K;
/* The Image is also a PE32+ EFI application (arch/<arch>/efi_header.S):
 * IMAGE_PE_SECTION_ALIGN sections, 512-byte file blocks. */
PE_SECTION_ALIGN = IMAGE_PE_SECTION_ALIGN;
PE_FILE_ALIGN = 0x200;
EXCEPTION_STACK_SIZE = 16K;

/* Code read-execute, everything else read-write: no RWX segment. */
PHDRS
{
	text PT_LOAD FLAGS(5);
	data PT_LOAD FLAGS(6);
}

SECTIONS
{
	. = IMAGE_LINK_ADDRESS;

	.text : {
		/* entry.S's Image header up to text_offset, then image_size */
		KEEP(*(.text.head))
		QUAD(__image_size)
		KEEP(*(.text.head.tail))	/* the rest of the Image header */
		KEEP(*(.head.pe))		/* efi_header.S */
		/*
		 * The PE headers' region ends; the PE .text section starts.
		 * Nothing the image runs or reads may sit before it: a UEFI
		 * loader need not copy the headers' region beyond the
		 * structures (U-Boot's copies the DOS, NT and section headers
		 * and leaves the rest of it as the memory was). So the entry
		 * code and the link address the relocation reads are here.
		 */
		. = ALIGN(PE_SECTION_ALIGN);
		__pe_text_start = .;
		__image_link_start_word = .;
		QUAD(__image_link_start)
		KEEP(*(.text.entry))		/* entry.S's code from code1's jump */
		*(.text .text.*)
		. = ALIGN(PE_SECTION_ALIGN);
	} :text
	_etext = .;

	.rodata : ALIGN(8) {
		*(.rodata .rodata.* IMAGE_SMALL_RODATA)
	} :data

	.data : ALIGN(8) {
		*(.data .data.* IMAGE_SMALL_DATA)
	}

	.selftests : ALIGN(8) {
		SELFTESTS_TABLE
	}

	.console_drivers : ALIGN(8) {
		CONSOLE_DRIVERS_TABLE
	}

	.fixup_table : ALIGN(8) {
		FIXUP_TABLE
	}

	/*
	 * The image is a position-independent executable: entry.S applies
	 * these relocations (all R_*_RELATIVE) to itself before anything
	 * else, wherever it was loaded. .got holds the addresses -fpie code
	 * loads; .dynamic only because the linker insists on one.
	 */
	.got : ALIGN(8) {
		*(.got .got.*)
	}
	.rela.dyn : ALIGN(8) {
		__rela_start = .;
		*(.rela .rela.*)
		__rela_end = .;
	}
	.dynamic : ALIGN(8) {
		*(.dynamic)
	}

	/* The file's end: a whole number of PE file-alignment blocks. */
	.pe_pad : {
		BYTE(0)
		. = ALIGN(PE_FILE_ALIGN);
	}
	__pe_data_end = .;

	.bss (NOLOAD) : ALIGN(16) {
		__bss_start = .;
		PER_CPU_SECTION()
		*(IMAGE_SMALL_BSS .bss .bss.* COMMON)
		. = ALIGN(16);
		__bss_end = .;
	}

	.stack (NOLOAD) : ALIGN(16) {
		__boot_stack_bottom = .;
		. += BOOT_STACK_SIZE;
		__boot_stack_top = .;
		__exception_stack_bottom = .;
		. += EXCEPTION_STACK_SIZE;
		__exception_stack_top = .;
	}

	_end = .;

	/*
	 * Written by QUAD() above: linker-script data is final in the file,
	 * never relocated, which a loader reading image_size and the stub
	 * computing its load offset both rely on.
	 */
	__image_link_start = ABSOLUTE(_start);
	__image_size = ABSOLUTE(_end - _start);

	/* For efi_header.S: what its PE header needs of the layout. */
	IMAGE_PE_SYMBOLS

	/DISCARD/ : {
		COMMON_DISCARDS
		*(.interp)
		*(.dynsym .dynstr .hash .gnu.hash)
	}
}

ASSERT(_start == IMAGE_LINK_ADDRESS, "entry.S's _start must be the first byte of the image")
ASSERT(pe_header_end <= __pe_text_start, "the PE header must lie in the headers' region")
