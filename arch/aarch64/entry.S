/*
 * entry.S - the aarch64 boot stub: from the loader to boot_main().
 *
 * Entered at _start on the boot CPU with the MMU off, at EL1 (QEMU's
 * default) or EL2 (`-M virt,virtualization=on`, and most firmware):
 *   x0 = the DTB for an arm64 Image boot (Linux's protocol),
 *   x0 = 0 for an ELF -kernel: QEMU then put the DTB at the start of RAM.
 * Secondary CPUs stay off until smp_init() starts them (PSCI CPU_ON or a
 * spin table), at secondary.S, so only one CPU gets past the EL check
 * (at EL3, with no firmware to hold the others, see el3_lottery).
 *
 * At EL2 the stub sets EL2 up so it stays out of the way (EL1 is AArch64,
 * no traps, no stage 2, the counters open to EL1) and drops to EL1
 * (aarch64_el2_to_el1, which secondary CPUs entered at EL2 use too). At
 * EL3 (an ELF image under `-M virt,secure=on`, or a board with no EL3
 * firmware) it plays the firmware's last step: the lower world is
 * non-secure AArch64 with no trap to EL3, and the stub drops to EL2 when
 * the CPU has it (then on to EL1 as above), else to EL1
 * (aarch64_el3_to_el1). Nothing stays resident at EL3, so there is no
 * PSCI: CPUs that entered with the boot CPU wait in the kernel's own
 * spin table (el3_lottery), and others come up only by their own spin
 * table.
 *
 * At EL1: SCTLR_EL1 to a known state (MMU off), clear BSS, then two
 * stacks: the kernel runs on SP_EL0 (__boot_stack_bottom ..
 * __boot_stack_top, outside BSS), exceptions arrive on SP_EL1, a stack of
 * their own. So a trap never depends on the kernel's stack, and a trap
 * inside the handler lands in the "current EL, SP_ELx" vectors, which
 * vectors.S treats as a fault in the handler. Then VBAR_EL1, and
 * aarch64_boot() in C, which calls boot_main().
 *
 * Where it runs: the image starts with the arm64 Linux Image header, so
 * that `booti` and QEMU's -kernel take the raw Image as well as the ELF;
 * the header also opens a PE32+ EFI application (efi_header.S), which
 * UEFI firmware starts at efi_entry.S's pe_entry.
 * Loaders put an Image at a 2 MiB-aligned address + text_offset: QEMU at
 * RAM base + 2 MiB (the board file's BOARD_LINK_ADDRESS is that), U-Boot
 * anywhere when the header says so, and other boards have other RAM
 * bases. So the kernel is a position-independent executable (-fpie -pie)
 * that relocates itself: at EL1, before anything reads a stored address,
 * the stub applies its R_AARCH64_RELATIVE relocations (.rela.dyn) with the
 * offset between where it runs and where it was linked, then runs in
 * place; the header's flags say "anywhere" (bit 3). (Copying itself to the
 * link address instead would need that address to be free RAM, which only
 * the board knows.) Until then every address is PC-relative (adr, adrp).
 */
#include <arch/fixup.h>
#include <arch/poweroff.h>
#include "image.h"
#include "sysreg.h"

/* Image flags: little endian, page size (1 = 4K, 2 = 16K, 3 = 64K), anywhere. */
#define IMAGE_FLAG_PAGE_SIZE	(((CONFIG_PAGE_SHIFT - 10) / 2) << 1)
#define IMAGE_FLAG_ANYWHERE	(1 << 3)

	/* Unwind info for debuggers only (gcc emits .debug_frame for C too). */
	.cfi_sections .debug_frame

	/* The arm64 Linux Image header (Documentation/arm64/booting.rst). */
	.section .text.head, "ax"
	.globl	_start
_start:
	/* code0: "MZ", the PE signature (efi_header.S); changes only flags. */
	ccmp	x18, #0, #0xd, pl
	b	primary_entry		/* code1 */
	.quad	IMAGE_TEXT_OFFSET	/* text_offset: 2 MiB into RAM */
	/* image_size (_end - _start, BSS too): linker/image.lds.S writes it. */

	.section .text.head.tail, "ax"
	.quad	IMAGE_FLAG_PAGE_SIZE | IMAGE_FLAG_ANYWHERE
	.quad	0, 0, 0			/* res2, res3, res4 */
	.ascii	"ARM\x64"		/* magic */
	.word	__pe_header_offset	/* res5: the PE header (efi_header.S) */

	/*
	 * The code: in the PE's .text section (linker/image.lds.S), which
	 * every UEFI loader copies, not in the headers' region.
	 */
	.section .text.entry, "ax"
	.globl	primary_entry
primary_entry:
	.cfi_startproc
	.cfi_undefined x30		/* the outermost frame: no caller */
	msr	daifset, #0xf
	mov	x19, x0			/* DTB, or 0 */
	mrs	x20, CurrentEL
	ubfx	x20, x20, #2, #2
	cmp	x20, #2
	b.hi	el3_lottery
el3_won:
	adr_l	x1, aarch64_entry_el
	str	w20, [x1]
	cmp	x20, #2
	adr	x30, el1_setup
	b.hi	aarch64_el3_to_el1
	b.eq	aarch64_el2_to_el1

el1_setup:
	ldr	x0, =SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x0
	/* Per-CPU offset 0: the boot CPU's copy is the section itself. */
	msr	tpidr_el1, xzr
	isb

	/*
	 * The cycle counter from 0, here, when the CPU has a PMU: so that
	 * arch_counter() (test_services.c, for the bench) counts from the
	 * boot CPU's entry, and under -icount shift=0 gives the guest
	 * instructions since then.
	 */
	mrs	x0, id_aa64dfr0_el1
	ubfx	x0, x0, #ID_AA64DFR0_PMUVER_SHIFT, #4
	cbz	x0, 5f
	cmp	x0, #0xf
	b.eq	5f
	msr	pmccfiltr_el0, xzr
	mov	x0, #(1 << 31)		/* PMCNTEN_C: the cycle counter */
	msr	pmcntenset_el0, x0
	mov	x0, #(PMCR_E | PMCR_LC | PMCR_C)
	msr	pmcr_el0, x0
	isb
5:

	/* Relocate for where we run (relocate.S). */
	bl	aarch64_self_relocate
	cbnz	x0, bad_relocation
	/* The linker script aligns both ends of BSS to 16 bytes. */
	adr_l	x0, __bss_start
	adr_l	x1, __bss_end
1:	cmp	x0, x1
	b.hs	2f
	stp	xzr, xzr, [x0], #16
	b	1b
2:
	adr_l	x0, __exception_stack_top
	mov	sp, x0			/* SP_EL1 */
	msr	spsel, #0
	adr_l	x0, __boot_stack_top
	mov	sp, x0			/* SP_EL0, from here on */
	adr_l	x0, aarch64_vectors
	msr	vbar_el1, x0
	isb

	/* A zero frame pointer and link register end every backtrace. */
	mov	x29, xzr
	mov	x30, xzr
	mov	x0, x19
	bl	aarch64_boot
	b	arch_halt
	.cfi_endproc

/*
 * aarch64_el2_to_el1 - configure EL2 to stay out of EL1's way, then eret
 * to x30 at EL1 on SP_EL1, every exception masked. MMU off; uses no
 * memory and no stack; clobbers x0 and x1. The boot CPU and every
 * secondary CPU entered at EL2 come through here: each CPU has its own
 * copy of these registers.
 */
	.globl	aarch64_el2_to_el1
aarch64_el2_to_el1:
	ldr	x0, =SCTLR_EL2_MMU_OFF
	msr	sctlr_el2, x0
	mov	x0, #HCR_EL2_RW
	msr	hcr_el2, x0
	msr	vttbr_el2, xzr
	msr	hstr_el2, xzr
	ldr	x0, =CPTR_EL2_NO_TRAPS
	msr	cptr_el2, x0
	mrs	x0, cnthctl_el2
	orr	x0, x0, #CNTHCTL_EL1PCTEN_EL1PCEN
	msr	cnthctl_el2, x0
	msr	cntvoff_el2, xzr

	/* PMU and debug untrapped; EL1 owns every event counter (HPMN). */
	mov	x1, xzr
	mrs	x0, id_aa64dfr0_el1
	ubfx	x0, x0, #ID_AA64DFR0_PMUVER_SHIFT, #4
	cbz	x0, 3f
	cmp	x0, #0xf
	b.eq	3f
	mrs	x1, pmcr_el0
	ubfx	x1, x1, #PMCR_N_SHIFT, #5
3:	msr	mdcr_el2, x1

	/*
	 * GICv3 system registers: EL1 uses its ICC_* without trapping here
	 * (ICC_SRE_EL2.Enable), and no virtual interrupts (ICH_HCR_EL2).
	 */
	mrs	x0, id_aa64pfr0_el1
	ubfx	x0, x0, #ID_AA64PFR0_GIC_SHIFT, #4
	cbz	x0, 4f
	mov	x0, #ICC_SRE_ALL
	msr	ICC_SRE_EL2, x0
	msr	ICH_HCR_EL2, xzr
4:
	/* EL1 reads the real MIDR and MPIDR, not the reset-UNKNOWN virtual ones. */
	mrs	x0, midr_el1
	msr	vpidr_el2, x0
	mrs	x0, mpidr_el1
	msr	vmpidr_el2, x0

	adr_l	x0, aarch64_el2_vectors
	msr	vbar_el2, x0
	mov	x0, #SPSR_EL1H_DAIF
	msr	spsr_el2, x0
	msr	elr_el2, x30
	/* The EL2 configuration above takes effect before the eret uses it. */
	isb
	eret

/*
 * el3_lottery - with no firmware at EL3 to hold them, every CPU may enter
 * here at once (QEMU starts all of them at an ELF's entry under
 * secure=on). Each adds one to aarch64_boot_lottery; the one that found 0
 * boots, and every other waits as a spin-table CPU would, at EL3, in
 * aarch64_spin_table_entry (secondary.S), until smp_init() publishes its
 * slot (smp.c: CPU_ENABLE_HELD, when the count says CPUs wait).
 * With the MMU off these are Device accesses, where a CPU may not support
 * exclusives: a store-exclusive that keeps failing, or a fault on either
 * instruction (the EL3 vectors resume at the fixup), means this CPU is
 * alone, as a board's firmware leaves it, and it boots. (The fixup table
 * holds link addresses until the relocation: an image entered at EL3
 * away from its link address has such a fault reported instead.)
 */
el3_lottery:
	adr_l	x0, aarch64_el3_vectors
	msr	vbar_el3, x0
	/* The vectors are in place before an exclusive below may fault. */
	isb
	adr_l	x1, aarch64_boot_lottery
	mov	x2, #64			/* tries */
1:	ldaxr	w3, [x1]
	fixup	1b, el3_won
	add	w4, w3, #1
3:	stlxr	w5, w4, [x1]
	fixup	3b, el3_won
	cbz	w5, 2f
	subs	x2, x2, #1
	b.ne	1b
	b	el3_won
2:	cbz	w3, el3_won
	b	aarch64_spin_table_entry

/*
 * aarch64_el3_to_el1 - leave EL3 for good and continue at x30 at EL1, as
 * aarch64_el2_to_el1 does (every exception masked, MMU off, no memory
 * written, no stack; clobbers x0 and x1). EL3 keeps aarch64_el3_vectors
 * (vectors.S) for anything that should never reach it. With EL2, the
 * eret goes to EL2, which aarch64_el2_to_el1 then sets up and leaves, as
 * for a CPU that firmware entered at EL2; x30 survives both erets.
 */
	.globl	aarch64_el3_to_el1
aarch64_el3_to_el1:
	adr_l	x0, aarch64_el3_vectors
	msr	vbar_el3, x0
	/* No FP/SIMD, SVE, trace or PMU access traps to EL3. */
	msr	cptr_el3, xzr
	msr	mdcr_el3, xzr
	/* Nor GICv3 system register access (ICC_SRE_EL3.Enable). */
	mrs	x0, id_aa64pfr0_el1
	ubfx	x0, x0, #ID_AA64PFR0_GIC_SHIFT, #4
	cbz	x0, 3f
	mov	x0, #ICC_SRE_ALL
	msr	ICC_SRE_EL3, x0
3:
	mrs	x0, id_aa64pfr0_el1
	ubfx	x0, x0, #ID_AA64PFR0_EL2_SHIFT, #4
	cbz	x0, 1f
	ldr	x0, =SCR_EL3_TO_EL2
	msr	scr_el3, x0
	mov	x0, #SPSR_EL2H_DAIF
	msr	spsr_el3, x0
	adr	x0, 2f
	msr	elr_el3, x0
	/* SCR_EL3 and the rest take effect before the eret uses them. */
	isb
	eret
1:	ldr	x0, =SCR_EL3_TO_EL1
	msr	scr_el3, x0
	mov	x0, #SPSR_EL1H_DAIF
	msr	spsr_el3, x0
	msr	elr_el3, x30
	isb
	eret
2:	b	aarch64_el2_to_el1

/* The linker produced a relocation this stub cannot apply. */
bad_relocation:
	adr_l	x0, bad_relocation_msg
	bl	aarch64_emergency_puts
	mov	x0, #QEMU_EXIT_FAIL
	b	aarch64_poweroff

/*
 * arch_halt - stop this CPU for good: exceptions masked, wait forever.
 * Also where aarch64_poweroff() ends when nothing powered the machine off.
 */
	.text
	.globl	arch_halt
arch_halt:
	msr	daifset, #0xf
1:	wfi
	b	1b

	.section .rodata
bad_relocation_msg:
	.asciz	"\r\nbuddyboot: unexpected relocation type in .rela.dyn, cannot run\r\n"

	/* In .data, not BSS: written before BSS is cleared. */
	.data
	.balign	4
	/* CPUs that entered at EL3 (el3_lottery): 1 for the boot CPU alone. */
	.globl	aarch64_boot_lottery
aarch64_boot_lottery:
	.word	0
	.globl	aarch64_entry_el
aarch64_entry_el:
	.word	0
