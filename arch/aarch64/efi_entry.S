/*
 * efi_entry.S - the aarch64 UEFI entry (BOOTAA64.EFI is the Image itself,
 * efi_header.S): pe_entry, where the firmware calls the image, and
 * aarch64_efi_enter_kernel, where efi_main() leaves boot services behind.
 *
 * The firmware loads the image anywhere and applies no relocations of its
 * own (the PE header lists none), so pe_entry first applies the image's
 * relocations (relocate.S), as entry.S does on every boot (doing it twice
 * is harmless: each is written from its addend, not updated), and only
 * then calls C. MMU and caches are the firmware's, on, at EL1 or
 * EL2 (AAVMF with virtualization=on).
 */
#include "sysreg.h"

	.text
	.globl	pe_entry
	.type	pe_entry, @function
pe_entry:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]	/* image handle, system table */
	bl	aarch64_self_relocate
	cbnz	x0, 1f
	ldp	x0, x1, [sp, #16]
	bl	efi_main		/* returns only to give up */
	ldp	x29, x30, [sp], #32
	ret
1:	ldr	x0, =0x8000000000000001	/* EFI_LOAD_ERROR */
	ldp	x29, x30, [sp], #32
	ret
	.size	pe_entry, . - pe_entry

/*
 * aarch64_efi_enter_kernel(info) - boot services have ended and the
 * caller cleaned what the kernel reads to the point of coherency: turn
 * the MMU and caches off at this EL, drop stale instructions, and enter
 * the image where _start's branch goes (primary_entry: not _start itself,
 * in the headers' region, which a UEFI loader need not have copied), x0 =
 * the EFI boot information.
 * The firmware's identity map keeps this code where it is when the MMU
 * goes off.
 */
	.globl	aarch64_efi_enter_kernel
	.type	aarch64_efi_enter_kernel, @function
aarch64_efi_enter_kernel:
	msr	daifset, #0xf
	mov	x19, x0
	mrs	x1, CurrentEL
	ubfx	x1, x1, #2, #2
	cmp	x1, #2
	b.eq	1f
	mrs	x0, sctlr_el1
	bic	x0, x0, #SCTLR_M
	bic	x0, x0, #SCTLR_C
	bic	x0, x0, #SCTLR_I
	msr	sctlr_el1, x0
	b	2f
1:	mrs	x0, sctlr_el2
	bic	x0, x0, #SCTLR_M
	bic	x0, x0, #SCTLR_C
	bic	x0, x0, #SCTLR_I
	msr	sctlr_el2, x0
2:	isb
	ic	iallu
	dsb	nsh
	isb
	mov	x0, x19
	b	primary_entry
	.size	aarch64_efi_enter_kernel, . - aarch64_efi_enter_kernel
