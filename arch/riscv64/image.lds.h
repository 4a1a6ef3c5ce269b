/*
 * image.lds.h - riscv64's parameters for linker/image.lds.S.
 *
 * The link address is the board's (BOARD_LINK_ADDRESS in boards/riscv64/
 * <board>.mk, given to the template as IMAGE_LINK_ADDRESS): where its
 * firmware expects an S-mode payload, 2 MiB into RAM for OpenSBI. The
 * image relocates itself (entry.S), so it runs wherever a loader puts it.
 */
#define IMAGE_OUTPUT_ARCH	riscv
/* 4 KiB PE sections: riscv64 has one page size. */
#define IMAGE_PE_SECTION_ALIGN	0x1000
/* The small-data sections gcc uses for riscv64. */
#define IMAGE_SMALL_RODATA	.srodata .srodata.*
#define IMAGE_SMALL_DATA	.sdata .sdata.*
#define IMAGE_SMALL_BSS		.sbss .sbss.*
/* asm-generic/pe_header.S takes differences of symbols: where the
 * image's PE size ends. */
#define IMAGE_PE_SYMBOLS						\
	__pe_image_end = _start + ALIGN(_end - _start, PE_SECTION_ALIGN);
