/*
 * pe_header.S - the PE32+ header that makes a raw Image an EFI
 * application too, as Linux's EFI stub does; included by
 * arch/<arch>/efi_header.S, which defines PE_MACHINE. The Image header's
 * code0 is the "MZ" signature (an instruction that changes no register a
 * loader hands over), and the word at offset 0x3c (arm64's res5,
 * RISC-V's res3) the offset of this header (__pe_header_offset). A
 * firmware's PE loader and U-Boot's booti each read the same file their
 * own way.
 *
 * Layout (linker/image.lds.S): [0, __pe_text_offset) is the PE headers'
 * region, holding the Image header, this header, and entry.S's boot code,
 * which runs only after boot services have ended; then two sections,
 * aligned to PE_SECTION_ALIGN:
 *   .text  [__pe_text_start, _etext)  code, read-execute; efi_entry.S's
 *                                     pe_entry is the entry point
 *   .data  [_etext, _end)             the rest, read-write: .rodata,
 *                                     .got and .rela.dyn are written by
 *                                     the self-relocation; BSS is the
 *                                     part beyond the file
 * The numbers come from the linker script. Where the assembler can leave
 * a difference of two symbols to the linker (riscv64: ADD32/SUB32 pairs,
 * PE_LABEL_DIFFERENCES), each field is one; elsewhere (aarch64) it is an
 * absolute symbol the linker script computes (__pe_*). riscv64's linker
 * cannot be given those: in a position-independent link it turns a
 * 32-bit reference to an absolute symbol into a 64-bit R_RISCV_RELATIVE
 * relocation, which the self-relocation would then write over the
 * header. PE_SECTION_ALIGN and PE_FILE_ALIGN are the arch's numbers, the
 * linker script's too (make check's pecheck.py proves they agree).
 * No base relocations: the image relocates itself (relocate.S). The
 * relocation directory is empty and IMAGE_FILE_RELOCS_STRIPPED is clear,
 * so the firmware may load it anywhere.
 */
#ifdef PE_LABEL_DIFFERENCES
#define PE_SPAN(abs, end, start)	((end) - (start))
#else
#define PE_SPAN(abs, end, start)	abs
#endif

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
	.short	PE_MACHINE
	.short	2				/* NumberOfSections */
	.long	0				/* TimeDateStamp */
	.long	0, 0				/* symbol table, symbols */
	.short	section_table - optional_header	/* SizeOfOptionalHeader */
	.short	IMAGE_FILE_EXECUTABLE_IMAGE | IMAGE_FILE_LINE_NUMS_STRIPPED | \
		IMAGE_FILE_DEBUG_STRIPPED

optional_header:
	.short	PE_OPT_MAGIC_PE32PLUS
	.byte	0x02, 0x14			/* linker version */
	.long	PE_SPAN(__pe_text_size, _etext, __pe_text_start) /* SizeOfCode */
	.long	PE_SPAN(__pe_data_raw, __pe_data_end, _etext) /* SizeOfInitializedData */
	.long	PE_SPAN(__pe_bss_size, _end, __pe_data_end) /* SizeOfUninitializedData */
	.long	PE_SPAN(__pe_entry, pe_entry, _start) /* AddressOfEntryPoint */
	.long	PE_SPAN(__pe_text_offset, __pe_text_start, _start) /* BaseOfCode */
	.quad	0				/* ImageBase: relocatable */
	.long	PE_SECTION_ALIGN		/* SectionAlignment */
	.long	PE_FILE_ALIGN			/* FileAlignment */
	.short	0, 0				/* OS version */
	.short	0, 0				/* image version */
	.short	0, 0				/* subsystem version */
	.long	0				/* Win32VersionValue */
	.long	PE_SPAN(__pe_image_size, __pe_image_end, _start) /* SizeOfImage */
	.long	PE_SPAN(__pe_text_offset, __pe_text_start, _start) /* SizeOfHeaders */
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
	.long	PE_SPAN(__pe_text_size, _etext, __pe_text_start) /* VirtualSize */
	.long	PE_SPAN(__pe_text_offset, __pe_text_start, _start) /* VirtualAddress */
	.long	PE_SPAN(__pe_text_size, _etext, __pe_text_start) /* SizeOfRawData */
	.long	PE_SPAN(__pe_text_offset, __pe_text_start, _start) /* PointerToRawData */
	.long	0, 0				/* relocations, line numbers */
	.short	0, 0
	.long	SCN_CNT_CODE | SCN_MEM_READ | SCN_MEM_EXECUTE

	.ascii	".data\0\0\0"
	.long	PE_SPAN(__pe_data_size, _end, _etext) /* VirtualSize: BSS too */
	.long	PE_SPAN(__pe_data_offset, _etext, _start) /* VirtualAddress */
	.long	PE_SPAN(__pe_data_raw, __pe_data_end, _etext) /* SizeOfRawData */
	.long	PE_SPAN(__pe_data_offset, _etext, _start) /* PointerToRawData */
	.long	0, 0
	.short	0, 0
	.long	SCN_CNT_INITIALIZED_DATA | SCN_MEM_READ | SCN_MEM_WRITE
	.globl	pe_header_end
pe_header_end:
