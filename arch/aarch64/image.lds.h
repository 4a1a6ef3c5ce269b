/*
 * image.lds.h - aarch64's parameters for linker/image.lds.S.
 *
 * Linked at 0x40200000, 2 MiB into QEMU virt's RAM: for an ELF -kernel
 * QEMU puts the DTB at the start of RAM only if it fits below the image
 * (at +0x80000 there would silently be no DTB). It is also where U-Boot's
 * booti and QEMU place an arm64 Image (RAM base + text_offset 0x200000).
 * The image relocates itself (entry.S), so a board's RAM elsewhere is the
 * same to it.
 */
#define IMAGE_OUTPUT_ARCH	aarch64
#define IMAGE_LINK_ADDRESS	0x40200000
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
