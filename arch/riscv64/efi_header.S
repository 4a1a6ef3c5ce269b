/*
 * efi_header.S - the RISC-V Image is a PE32+ EFI application too
 * (BOOTRISCV64.EFI): binutils has no RISC-V PE target, so the header is
 * written here, asm-generic/pe_header.S's. entry.S's code0 is the "MZ"
 * (c.li s4, -13, which changes only s4), its res3 the header's offset;
 * linker/image.lds.S lays the sections out 4 KiB aligned.
 */
#define PE_MACHINE	0x5064		/* IMAGE_FILE_MACHINE_RISCV64 */
#include "image.lds.h"
#define PE_SECTION_ALIGN	IMAGE_PE_SECTION_ALIGN
#define PE_FILE_ALIGN	0x200
#define PE_LABEL_DIFFERENCES
#include <asm-generic/pe_header.S>
