/*
 * efi_entry.S - where BOOTX64.EFI (efi_stub.c) enters the kernel: in
 * 64-bit mode, on the firmware's page tables, GDT and stack, boot
 * services ended, edi = the EFI boot information (below 4 GiB).
 *
 * The kernel builds its own page tables and GDT in entry.S's 32-bit path,
 * which the other loaders enter; rather than a second copy of that in
 * 64-bit code, this leaves long mode (compatibility mode through a 32-bit
 * code segment of its own, then paging and EFER.LME off) and joins
 * setup_long_mode like pvh_entry32, with X86_ENTRY_EFI and ebx = the
 * boot information. It runs from the kernel's copy at its link address
 * (below 2 MiB, identity-mapped by the firmware as all memory is).
 */
#include <asm/processor-flags.h>

#define EFI_CS32	0x08
#define EFI_DS32	0x10
#define X86_CR4_PCIDE	(1 << 17)

	.text
	.code64
	.globl efi_entry64
	.type efi_entry64, @function
efi_entry64:
	cli
	cld
	mov	%edi, %ebx
	/* CR0.PG cannot be cleared with CR4.PCIDE set. */
	mov	%cr4, %rax
	and	$~X86_CR4_PCIDE, %rax
	mov	%rax, %cr4
	lgdt	efi_gdt_descr(%rip)
	mov	$__boot_stack_top, %esp
	pushq	$EFI_CS32
	pushq	$efi_compat32
	lretq
	.size efi_entry64, . - efi_entry64

	.section .text.entry32, "ax"
	.code32
efi_compat32:
	mov	$EFI_DS32, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	mov	%eax, %fs
	mov	%eax, %gs
	/* Paging off leaves long mode; then EFER.LME off. */
	mov	%cr0, %eax
	and	$~X86_CR0_PG, %eax
	mov	%eax, %cr0
	mov	$MSR_EFER, %ecx
	rdmsr
	and	$~EFER_LME, %eax
	wrmsr
	/* Only what entry.S sets: no 5-level paging or other firmware bits. */
	xor	%eax, %eax
	mov	%eax, %cr4
	mov	$__boot_stack_top, %esp
	push	%ebx			/* EFI boot information */
	push	%eax			/* no magic in eax: x86_start checks ebx */
	push	$X86_ENTRY_EFI
	jmp	setup_long_mode

	.section .rodata
	.balign 8
efi_gdt:
	.quad	0				/* null */
	.quad	0x00cf9a000000ffff		/* 0x08: 32-bit code, flat */
	.quad	0x00cf92000000ffff		/* 0x10: data, flat */
efi_gdt_end:
efi_gdt_descr:
	.short	efi_gdt_end - efi_gdt - 1
	.quad	efi_gdt
