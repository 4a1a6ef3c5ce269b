/*
 * efi_header.S - the arm64 Image is a PE32+ EFI application too
 * (BOOTAA64.EFI): the header is asm-generic/pe_header.S's. entry.S's
 * code0 is the "MZ" (ccmp, which changes only flags), its res5 the
 * header's offset; linker/image.lds.S lays the sections out 64 KiB
 * aligned, so that a firmware that maps images by section (EDK2's image
 * protection) can map them at every page size.
 */
#define PE_MACHINE	0xaa64		/* IMAGE_FILE_MACHINE_ARM64 */
#include "image.lds.h"
#define PE_SECTION_ALIGN	IMAGE_PE_SECTION_ALIGN
#define PE_FILE_ALIGN	0x200
#include <asm-generic/pe_header.S>
