/*
 * efi_entry.S - the riscv64 UEFI entry (BOOTRISCV64.EFI is the Image
 * itself, efi_header.S): pe_entry, where the firmware (U-Boot's bootefi)
 * calls the image in S-mode, and riscv_efi_enter_kernel, where efi_main()
 * leaves boot services behind.
 *
 * The firmware loads the image anywhere and applies no relocations of its
 * own (the PE header lists none), so pe_entry first applies the image's
 * own (relocate.S) and only then calls C.
 */
#include "csr.h"

	.text
	.globl	pe_entry
	.type	pe_entry, @function
pe_entry:
	addi	sp, sp, -32
	sd	ra, 0(sp)
	sd	a0, 8(sp)		/* image handle */
	sd	a1, 16(sp)		/* system table */
	call	riscv_self_relocate
	bnez	a0, 1f
	ld	a0, 8(sp)
	ld	a1, 16(sp)
	call	efi_main		/* returns only to give up */
	j	2f
1:	li	a0, 1
	slli	a0, a0, 63
	addi	a0, a0, 1		/* EFI_LOAD_ERROR */
2:	ld	ra, 0(sp)
	addi	sp, sp, 32
	ret
	.size	pe_entry, . - pe_entry

/*
 * riscv_efi_enter_kernel(hartid, info) - boot services have ended: enter
 * the image where _start's jump goes (primary_entry: not _start itself,
 * in the headers' region, which a UEFI loader need not have copied), a0 =
 * the boot hart, a1 = the EFI boot information instead of a DTB. Interrupts off; translation off
 * (UEFI identity-maps, so nothing moves); stale instructions dropped.
 */
	.globl	riscv_efi_enter_kernel
	.type	riscv_efi_enter_kernel, @function
riscv_efi_enter_kernel:
	csrw	sie, zero
	csrci	sstatus, SSTATUS_SIE
	csrw	satp, zero
	sfence.vma
	.insn	i MISC_MEM, 1, x0, x0, 0	/* fence.i (Zifencei) */
	j	primary_entry
	.size	riscv_efi_enter_kernel, . - riscv_efi_enter_kernel
