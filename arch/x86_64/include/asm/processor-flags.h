/*
 * asm/processor-flags.h - control-register, EFER and page-table bits, and
 * the segment selectors: shared by the assembly boot stub and the C code.
 */
#ifndef ASM_PROCESSOR_FLAGS_H
#define ASM_PROCESSOR_FLAGS_H

#define X86_CR0_PE  (1 << 0)   /* protected mode */
#define X86_CR0_WP  (1 << 16)  /* honour read-only pages in ring 0 */
#define X86_CR0_PG  0x80000000 /* paging */
#define X86_CR4_PAE (1 << 5)   /* 64-bit page-table entries */

#define MSR_EFER 0xc0000080
#define EFER_LME (1 << 8)  /* long mode enable */
#define EFER_LMA (1 << 10) /* long mode active (read-only) */

/* Page-table entry bits (the same at every level unless noted). */
#define PTE_PRESENT    (1 << 0)
#define PTE_WRITE      (1 << 1)
#define PTE_PSE	       (1 << 7) /* in a PD entry: a 2 MiB page */
#define PTE_TABLE      (PTE_PRESENT | PTE_WRITE)
#define PTE_LARGE_PAGE (PTE_PRESENT | PTE_WRITE | PTE_PSE)
#define PTE_ADDR_MASK  0x000ffffffffff000

#define PTRS_PER_TABLE 512
#define PMD_SHIFT      21 /* a PD entry maps 2 MiB */
#define PUD_SHIFT      30 /* a PDPT entry maps 1 GiB */
#define PGDIR_SHIFT    39 /* a PML4 entry maps 512 GiB */

/*
 * The boot stub identity-maps [0, BOOT_MAP_SIZE): the image, the boot
 * info both loaders put below 4 GiB, the local APIC, the I/O APIC and the
 * PCI hole. One page directory per GiB.
 */
#define BOOT_MAP_GIB 4
#ifndef __ASSEMBLY__
#define PMD_SIZE      (1ULL << PMD_SHIFT)
#define BOOT_MAP_SIZE ((unsigned long long)BOOT_MAP_GIB << PUD_SHIFT)
#endif

/* GDT selectors (arch/x86_64/desc.c lays the GDT out to match). */
#define KERNEL_CS  0x08
#define KERNEL_DS  0x10
#define KERNEL_TSS 0x18

#ifdef __ASSEMBLY__
/*
 * The kernel's data segments, after a lgdt of x86_gdt in 64-bit mode
 * (entry.S for the boot CPU, secondary.S for the others): DS, ES, SS the
 * flat data descriptor, FS and GS null. Clobbers eax; GS's base is reset
 * on some CPUs, so the per-CPU base is set after this.
 */
.macro load_kernel_data_segments
	mov	$KERNEL_DS, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
.endm
#endif

/* IST slot of the double-fault handler's own stack (1..7; 0 = none). */
#define DOUBLE_FAULT_IST 1

/* Which entry point the loader used, for x86_start(). */
#define X86_ENTRY_MULTIBOOT2 1 /* ELF entry: GRUB's multiboot2 */
#define X86_ENTRY_PVH	     2 /* XEN_ELFNOTE_PHYS32_ENTRY: QEMU -kernel */
#define X86_ENTRY_EFI	     3 /* efi_entry64: BOOTX64.EFI (efi_entry.S) */

#endif /* ASM_PROCESSOR_FLAGS_H */
