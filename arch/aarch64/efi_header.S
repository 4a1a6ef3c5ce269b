/*
 * efi_header.S - the PE32+ header that makes the arm64 Image an EFI
 * application (BOOTAA64.EFI) too, as Linux's EFI stub does: the Image
 * header's code0 is the "MZ" signature (an instruction that changes no
 * register a loader hands over), and its last word (res5, offset 0x3c)
 * the offset of this header. A firmware's PE loader and U-Boot's booti
 * each read the same file their own way.
 *
 * Layout (linker/aarch64.ld): [0, 64 KiB) is the PE headers' region,
 * holding the Image header, this header, and entry.S's boot code, which
 * runs only after the MMU is off; then two sections, 64 KiB aligned so
 * that a firmware that maps images by section (EDK2's image protection)
 * can map them at every page size:
 *   .text  [__pe_text_start, _etext)  code, read-execute; efi_entry.S's
 *                                     pe_entry is the entry point
 *   .data  [_etext, _end)             the rest, read-write: .rodata,
 *                                     .got and .rela.dyn are written by
 *                                     the self-relocation; BSS is the
 *                                     part beyond the file
 * The numbers come from the linker script as absolute symbols (__pe_*).
 * No base relocations: the image relocates itself (entry.S). The
 * relocation directory is empty and IMAGE_FILE_RELOCS_STRIPPED is clear,
 * so the firmware may load it anywhere.
 */
#define IMAGE_FILE_MACHINE_ARM64	0xaa64
#define IMAGE_FILE_EXECUTABLE_IMAGE	0x0002
#define IMAGE_FILE_LINE_NUMS_STRIPPED	0x0004
#define IMAGE_FILE_DEBUG_STRIPPED	0x0200
#define PE_OPT_MAGIC_PE32PLUS		0x20b
#define IMAGE_SUBSYSTEM_EFI_APPLICATION	10
#define SCN_CNT_CODE			0x00000020
#define SCN_CNT_INITIALIZED_DATA	0x00000040
#define SCN_MEM_EXECUTE			0x20000000
#define SCN_MEM_READ			0x40000000
#define SCN_MEM_WRITE			0x80000000

	.section .head.pe, "a"
	.balign	8
	.globl	pe_header
pe_header:
	.ascii	"PE\0\0"
	.short	IMAGE_FILE_MACHINE_ARM64
	.short	2				/* NumberOfSections */
	.long	0				/* TimeDateStamp */
	.long	0, 0				/* symbol table, symbols */
	.short	section_table - optional_header	/* SizeOfOptionalHeader */
	.short	IMAGE_FILE_EXECUTABLE_IMAGE | IMAGE_FILE_LINE_NUMS_STRIPPED | \
		IMAGE_FILE_DEBUG_STRIPPED

optional_header:
	.short	PE_OPT_MAGIC_PE32PLUS
	.byte	0x02, 0x14			/* linker version */
	.long	__pe_text_size			/* SizeOfCode */
	.long	__pe_data_raw			/* SizeOfInitializedData */
	.long	__pe_bss_size			/* SizeOfUninitializedData */
	.long	__pe_entry			/* AddressOfEntryPoint */
	.long	__pe_text_offset		/* BaseOfCode */
	.quad	0				/* ImageBase: relocatable */
	.long	__pe_section_align		/* SectionAlignment */
	.long	__pe_file_align			/* FileAlignment */
	.short	0, 0				/* OS version */
	.short	0, 0				/* image version */
	.short	0, 0				/* subsystem version */
	.long	0				/* Win32VersionValue */
	.long	__pe_image_size			/* SizeOfImage */
	.long	__pe_text_offset		/* SizeOfHeaders */
	.long	0				/* CheckSum */
	.short	IMAGE_SUBSYSTEM_EFI_APPLICATION
	.short	0				/* DllCharacteristics */
	.quad	0, 0, 0, 0			/* stack and heap reserve, commit */
	.long	0				/* LoaderFlags */
	.long	(section_table - data_directories) / 8
data_directories:
	.quad	0				/* export */
	.quad	0				/* import */
	.quad	0				/* resource */
	.quad	0				/* exception */
	.quad	0				/* certificate */
	.quad	0				/* base relocation: none */

section_table:
	.ascii	".text\0\0\0"
	.long	__pe_text_size			/* VirtualSize */
	.long	__pe_text_offset		/* VirtualAddress */
	.long	__pe_text_size			/* SizeOfRawData */
	.long	__pe_text_offset		/* PointerToRawData */
	.long	0, 0				/* relocations, line numbers */
	.short	0, 0
	.long	SCN_CNT_CODE | SCN_MEM_READ | SCN_MEM_EXECUTE

	.ascii	".data\0\0\0"
	.long	__pe_data_size			/* VirtualSize: BSS and stacks too */
	.long	__pe_data_offset		/* VirtualAddress */
	.long	__pe_data_raw			/* SizeOfRawData */
	.long	__pe_data_offset		/* PointerToRawData */
	.long	0, 0
	.short	0, 0
	.long	SCN_CNT_INITIALIZED_DATA | SCN_MEM_READ | SCN_MEM_WRITE
	.globl	pe_header_end
pe_header_end:
