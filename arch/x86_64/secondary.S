/*
 * secondary.S - where a secondary CPU starts: real mode, at the page a
 * SIPI names, to long mode on the boot CPU's page tables, then C.
 *
 * x86_trampoline_start..x86_trampoline_end is position-independent 16-
 * and 32-bit code with its own data; arch_smp_prepare_cpus() (smp.c)
 * copies it to the page arch_reserve_memory() set aside below 1 MiB and
 * fills in, through the offsets exported below, the fields only known at
 * run time: its GDT's base, the far pointer into its own 32-bit code, and
 * the boot CPU's CR0, CR3, CR4 and EFER. Every secondary CPU runs the
 * same copy at once; it only reads it, and takes no stack until it is in
 * the kernel.
 *
 * The steps (SDM vol. 3, 10.8 and 10.9):
 *   real mode, CS = the SIPI's page >> 4, IP = 0: lgdt its own GDT (a
 *     32-bit and a 64-bit code descriptor, a data descriptor), CR0.PE,
 *     far jump to 32-bit protected mode;
 *   protected mode, flat: the boot CPU's CR4 (PAE among it), CR3 (the
 *     page tables, below 4 GiB: entry.S's boot_pml4) and EFER (LME), then
 *     its CR0 (PG, WP): paging on makes long mode active; far jump to
 *     the 64-bit code descriptor, at x86_secondary_entry64;
 *   long mode, in the kernel: the kernel's GDT and data segments (CS is
 *     KERNEL_CS already: same selector, same meaning), this CPU's
 *     own APIC id looked up in x86_secondary_boots[] (filled by
 *     arch_cpu_start() before the SIPI) for its struct secondary_boot,
 *     its stack, then x86_secondary_start(boot) (smp.c).
 * A CPU that finds no entry for its APIC id halts.
 */
#include <asm/boot.h>
#include <asm/processor-flags.h>

/* struct secondary_boot (include/arch/smp.h): smp.c asserts these. */
#define SB_HWID		8
#define SB_STACK_TOP	16

/*
 * The trampoline's GDT uses the kernel's selectors for what both have,
 * so that the kernel's lgdt leaves CS and the data segments meaning the
 * same: no far return (and no stack) needed to reload CS.
 */
#define TR_CODE64	KERNEL_CS
#define TR_DATA		KERNEL_DS
#define TR_CODE32	0x18

#define TR(label)	((label) - x86_trampoline_start)

	.section .rodata.trampoline, "a"
	.balign 16
	.globl x86_trampoline_start
x86_trampoline_start:
	.code16
	cli
	cld
	mov	%cs, %ax
	mov	%ax, %ds
	movzwl	%ax, %ebx
	shl	$4, %ebx		/* ebx = this page's linear address */
	lgdtl	TR(tr_gdt_ptr)
	mov	%cr0, %eax
	or	$X86_CR0_PE, %eax
	mov	%eax, %cr0
	ljmpl	*TR(tr_pm32_ptr)

	.code32
tr_pm32:
	mov	$TR_DATA, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	mov	%eax, %fs
	mov	%eax, %gs
	mov	TR(tr_cr4)(%ebx), %eax
	mov	%eax, %cr4
	mov	TR(tr_cr3)(%ebx), %eax
	mov	%eax, %cr3
	mov	$MSR_EFER, %ecx
	mov	TR(tr_efer)(%ebx), %eax
	xor	%edx, %edx
	wrmsr
	mov	TR(tr_cr0)(%ebx), %eax
	mov	%eax, %cr0		/* paging on: long mode is active */
	ljmp	$TR_CODE64, $x86_secondary_entry64

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00af9a000000ffff	/* 0x08 TR_CODE64: L=1 */
	.quad	0x00cf92000000ffff	/* 0x10 TR_DATA: read/write, flat */
	.quad	0x00cf9a000000ffff	/* 0x18 TR_CODE32: 32-bit, flat */
tr_gdt_end:
	.balign 4
tr_gdt_ptr:
	.short	tr_gdt_end - tr_gdt - 1
	.long	0			/* patched: the copy's tr_gdt */
tr_pm32_ptr:
	.long	0			/* patched: the copy's tr_pm32 */
	.short	TR_CODE32
	.balign 4
tr_cr0:	.long	0			/* patched: the boot CPU's */
tr_cr3:	.long	0
tr_cr4:	.long	0
tr_efer: .long	0
	.globl x86_trampoline_end
x86_trampoline_end:

/* Where smp.c patches the copy. */
	.globl x86_tr_gdt, x86_tr_gdt_ptr_base, x86_tr_pm32, x86_tr_pm32_ptr
	.globl x86_tr_cr0, x86_tr_cr3, x86_tr_cr4, x86_tr_efer
	.set	x86_tr_gdt, TR(tr_gdt)
	.set	x86_tr_gdt_ptr_base, TR(tr_gdt_ptr) + 2
	.set	x86_tr_pm32, TR(tr_pm32)
	.set	x86_tr_pm32_ptr, TR(tr_pm32_ptr)
	.set	x86_tr_cr0, TR(tr_cr0)
	.set	x86_tr_cr3, TR(tr_cr3)
	.set	x86_tr_cr4, TR(tr_cr4)
	.set	x86_tr_efer, TR(tr_efer)

/* ---- Long mode, in the kernel image ----------------------------------- */

	.text
	.code64
	.globl x86_secondary_entry64
	.type x86_secondary_entry64, @function
x86_secondary_entry64:
	lgdt	x86_gdt_descr
	load_kernel_data_segments
	/* This CPU's APIC id: CPUID 0xb's x2APIC id, else leaf 1's. */
	xor	%eax, %eax
	cpuid
	cmp	$0xb, %eax
	jb	2f
	mov	$0xb, %eax
	xor	%ecx, %ecx
	cpuid
	test	%ebx, %ebx
	jz	2f
	mov	%edx, %r8d
	jmp	3f
2:	mov	$1, %eax
	cpuid
	shr	$24, %ebx
	mov	%ebx, %r8d
3:
	/* Its struct secondary_boot: the entry whose hwid is that id. */
	lea	x86_secondary_boots(%rip), %rsi
	mov	$CONFIG_NR_CPUS, %ecx
4:	mov	(%rsi), %rdi
	test	%rdi, %rdi
	jz	5f
	cmp	SB_HWID(%rdi), %r8
	je	6f
5:	add	$8, %rsi
	dec	%ecx
	jnz	4b
	jmp	x86_secondary_park
6:	mov	SB_STACK_TOP(%rdi), %rsp
	xor	%ebp, %ebp		/* the end of the frame-pointer chain */
	call	x86_secondary_start
	/* x86_secondary_start does not return. */
	.size x86_secondary_entry64, . - x86_secondary_entry64

	.globl x86_secondary_park
x86_secondary_park:
	cli
	hlt
	jmp	x86_secondary_park
