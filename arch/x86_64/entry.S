/*
 * entry.S - the x86_64 boot stub: from a loader's 32-bit protected mode to
 * boot_main() in long mode.
 *
 * Two loaders, one image:
 *   QEMU -kernel reads the PVH ELF note and enters pvh_entry32 with
 *     ebx = hvm_start_info;
 *   GRUB's multiboot2 command finds the multiboot2 header in the first
 *     32 KiB and enters the ELF entry, multiboot2_entry32, with
 *     eax = MULTIBOOT2_BOOTLOADER_MAGIC and ebx = the multiboot2 info.
 * Both leave paging off, interrupts off, flat 4 GiB segments; no stack
 * and no GDT we may rely on.
 *
 * The stub then: takes the boot stack, checks for long mode, builds the
 * boot page tables (identity map of [0, 4 GiB) with 2 MiB pages; the
 * first 2 MiB with 4 KiB pages so that the page under the boot stack is a
 * guard page), enables PAE, EFER.LME and paging, loads the GDT,
 * far-jumps to 64-bit code, clears BSS and calls x86_start() (cpu.c)
 * with the entry used and the loader's eax and ebx, untouched.
 *
 * The page tables and the stack live in NOLOAD sections inside the image,
 * before _end: GRUB puts the multiboot2 info right after _end.
 */
#include <asm/boot.h>
#include <asm/processor-flags.h>
#include <asm/smp.h>

/* ---- What the loaders read ------------------------------------------ */

	.section .multiboot2, "a"
	.balign 8
	.globl multiboot2_header
multiboot2_header:
	.long	MULTIBOOT2_HEADER_MAGIC
	.long	MULTIBOOT2_ARCH_I386
	.long	multiboot2_header_end - multiboot2_header
	.long	0x100000000 - (MULTIBOOT2_HEADER_MAGIC + MULTIBOOT2_ARCH_I386 + \
			       (multiboot2_header_end - multiboot2_header))
	/* Refuse to boot rather than start without a memory map. */
	.balign 8
	.short	MULTIBOOT2_TAG_INFO_REQUEST, 0
	.long	12
	.long	MULTIBOOT2_INFO_MMAP
	.balign 8
	.short	MULTIBOOT2_TAG_END, 0
	.long	8
multiboot2_header_end:

	/*
	 * QEMU reads the descriptor as a 64-bit value in an ELF64 and finds it
	 * after the name padded to the PT_NOTE segment's alignment: keep this
	 * section 4-byte aligned (see arch/x86_64/image.lds.S).
	 */
	.section .note.Xen, "a", @note
	.balign 4
	.long	2f - 1f			/* namesz */
	.long	4f - 3f			/* descsz */
	.long	XEN_ELFNOTE_PHYS32_ENTRY
1:	.asciz	"Xen"
2:	.balign 4
3:	.quad	pvh_entry32
4:	.balign 4

/* ---- 32-bit protected mode ------------------------------------------ */

	.section .text.entry32, "ax"
	.code32

	.globl multiboot2_entry32
	.type multiboot2_entry32, @function
multiboot2_entry32:
	cli
	mov	$__boot_stack_top, %esp
	push	%ebx			/* multiboot2 info */
	push	%eax			/* the multiboot2 magic: x86_start() checks */
	push	$X86_ENTRY_MULTIBOOT2
	jmp	setup_long_mode
	.size multiboot2_entry32, . - multiboot2_entry32

	.globl pvh_entry32
	.type pvh_entry32, @function
pvh_entry32:
	cli
	mov	$__boot_stack_top, %esp
	push	%ebx			/* hvm_start_info */
	push	%eax			/* undefined under PVH; kept for symmetry */
	push	$X86_ENTRY_PVH
	jmp	setup_long_mode
	.size pvh_entry32, . - pvh_entry32

/*
 * The stack holds, from the top: ebx, eax, entry. Only eax, ecx, edx and
 * edi are used below. efi_entry.S comes here too.
 */
	.globl setup_long_mode
setup_long_mode:
	cld

	/* CPUID 0x80000001 EDX bit 29: the CPU has long mode. */
	mov	$0x80000000, %eax
	cpuid
	cmp	$0x80000001, %eax
	jb	no_long_mode
	mov	$0x80000001, %eax
	cpuid
	bt	$29, %edx
	jnc	no_long_mode

	/* The loaders zero NOLOAD space too, but nothing says they must. */
	mov	$boot_page_tables, %edi
	mov	$(boot_page_tables_end - boot_page_tables) / 4, %ecx
	xor	%eax, %eax
	rep stosl

	/* PML4[0] covers [0, 512 GiB); its PDPT's first four entries, 4 GiB. */
	movl	$boot_pdpt + PTE_TABLE, boot_pml4
	mov	$boot_pdpt, %edi
	mov	$boot_pd + PTE_TABLE, %eax
	mov	$4096, %edx
	mov	$BOOT_MAP_GIB, %ecx
	call	fill_entries

	/* The page directories, contiguous: 2 MiB pages over [0, 4 GiB). */
	mov	$boot_pd, %edi
	mov	$PTE_LARGE_PAGE, %eax
	mov	$1 << PMD_SHIFT, %edx
	mov	$BOOT_MAP_GIB * PTRS_PER_TABLE, %ecx
	call	fill_entries

	/*
	 * [0, 2 MiB) in 4 KiB pages instead, but for one guard page: the page
	 * under the boot stack, so that an overflow faults (and the double-fault
	 * handler, on its own stack, reports it) instead of running over the
	 * page tables. arch/x86_64/image.lds.S asserts that it is below 2 MiB.
	 * Page 0 stays mapped: QEMU's PVH ROM puts the memory map there (at
	 * 0x5a8 in QEMU 7.2), so it cannot catch NULL pointers.
	 */
	movl	$boot_pt0 + PTE_TABLE, boot_pd
	mov	$boot_pt0, %edi
	mov	$PTE_TABLE, %eax
	mov	$4096, %edx
	mov	$PTRS_PER_TABLE, %ecx
	call	fill_entries
	mov	$__boot_stack_guard, %eax
	shr	$12 - 3, %eax		/* page number * 8: its entry's offset */
	movl	$0, boot_pt0(%eax)

	/* Long mode: PAE, then EFER.LME, then paging activates it. */
	mov	$boot_pml4, %eax
	mov	%eax, %cr3
	mov	%cr4, %eax
	or	$X86_CR4_PAE, %eax
	mov	%eax, %cr4
	mov	$MSR_EFER, %ecx
	rdmsr
	or	$EFER_LME, %eax
	wrmsr
	mov	%cr0, %eax
	or	$X86_CR0_PG | X86_CR0_WP | X86_CR0_PE, %eax
	mov	%eax, %cr0

	/* The 32-bit lgdt reads the low half of the 64-bit base: below 4 GiB. */
	lgdt	x86_gdt_descr
	ljmp	$KERNEL_CS, $long_mode_entry64

/*
 * fill_entries - write %ecx page-table entries from %edi on: %eax, then
 * %eax + %edx, and so on. Only the low halves: every address is below
 * 4 GiB, and the high halves were zeroed. Clobbers eax, ecx, edi.
 */
fill_entries:
	mov	%eax, (%edi)
	add	%edx, %eax
	add	$8, %edi
	loop	fill_entries
	ret

/*
 * No long mode: say so on COM1 (without setting the UART up: enough for
 * QEMU and for a UART the firmware left configured), report a failure
 * to QEMU's isa-debug-exit, and stop.
 */
no_long_mode:
	mov	$no_long_mode_msg, %esi
1:	lodsb
	test	%al, %al
	jz	2f
	mov	$0x3f8, %dx
	out	%al, %dx
	jmp	1b
2:	mov	$0x11, %eax		/* POWEROFF_FAIL: QEMU exits 35 */
	out	%eax, $0xf4
3:	cli
	hlt
	jmp	3b

no_long_mode_msg:
	.asciz	"\r\nbuddyboot: this CPU has no long mode (x86_64); stopping.\r\n"

/* ---- 64-bit long mode ------------------------------------------------ */

	.text
	.code64
	.cfi_sections .debug_frame
	.type long_mode_entry64, @function
long_mode_entry64:
	.cfi_startproc
	.cfi_undefined rip		/* the outermost frame, for debuggers */
	/* The upper halves of registers are not defined yet: rsp = esp. */
	mov	%esp, %esp
	load_kernel_data_segments

	/* BSS: 8-byte aligned at both ends (arch/x86_64/image.lds.S). */
	mov	$__bss_start, %rdi
	mov	$__bss_end, %rcx
	sub	%rdi, %rcx
	shr	$3, %rcx
	xor	%eax, %eax
	rep stosq

	/*
	 * The per-CPU register: GS base = the per-CPU section, the boot
	 * CPU's copy (offset 0, which its first word, this_cpu_off, holds:
	 * BSS is zero). After the segment loads above, which reset the base.
	 */
	mov	$MSR_GS_BASE, %ecx
	mov	$__per_cpu_start, %eax
	xor	%edx, %edx
	wrmsr

	/* x86_start(entry, eax, ebx), from what the 32-bit code pushed. */
	movl	0(%rsp), %edi
	movl	4(%rsp), %esi
	movl	8(%rsp), %edx
	mov	$__boot_stack_top, %rsp
	xor	%ebp, %ebp		/* the end of the frame-pointer chain */
	call	x86_start
	ud2				/* x86_start does not return */
	.cfi_endproc
	.size long_mode_entry64, . - long_mode_entry64

/* ---- The boot page tables -------------------------------------------- */

	.section .boot.page_tables, "aw", @nobits
	.balign 4096
boot_page_tables:
	.globl boot_pml4
boot_pml4:
	.skip	4096
boot_pdpt:
	.skip	4096
boot_pd:
	.skip	4096 * BOOT_MAP_GIB
boot_pt0:
	.skip	4096
boot_page_tables_end:
