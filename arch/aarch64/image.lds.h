/*
 * image.lds.h - aarch64's parameters for linker/image.lds.S.
 *
 * The link address is the board's (BOARD_LINK_ADDRESS in boards/aarch64/
 * <board>.mk, given to the template as IMAGE_LINK_ADDRESS): where its
 * loader puts the image, RAM base + text_offset 0x200000 for an arm64
 * Image. The image relocates itself (entry.S), so it runs anywhere; the
 * link address matters only to a loader that takes the ELF's addresses.
 */
#define IMAGE_OUTPUT_ARCH	aarch64
/* PE sections aligned for the largest page size, 64 KiB. */
#define IMAGE_PE_SECTION_ALIGN	0x10000
#define IMAGE_SMALL_RODATA
#define IMAGE_SMALL_DATA
#define IMAGE_SMALL_BSS
/* For efi_header.S: offsets from _start, sizes. */
#define IMAGE_PE_SYMBOLS						\
	__pe_header_offset = ABSOLUTE(pe_header - _start);		\
	__pe_entry = ABSOLUTE(pe_entry - _start);			\
	__pe_text_offset = ABSOLUTE(__pe_text_start - _start);		\
	__pe_text_size = ABSOLUTE(_etext - __pe_text_start);		\
	__pe_data_offset = ABSOLUTE(_etext - _start);			\
	__pe_data_raw = ABSOLUTE(__pe_data_end - _etext);		\
	__pe_data_size = ABSOLUTE(_end - _etext);			\
	__pe_bss_size = ABSOLUTE(_end - __pe_data_end);			\
	__pe_image_size = ABSOLUTE(ALIGN(_end - _start, PE_SECTION_ALIGN));
