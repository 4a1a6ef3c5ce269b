/*
 * relocate.S - the image applies its own relocations: it is a
 * position-independent executable (linker/image.lds.S) that runs wherever
 * a loader put it. Called by entry.S on every boot, before anything reads
 * a stored address, and by efi_entry.S before C runs under the firmware.
 * The relocations are applied even at offset 0: riscv64 ld leaves the
 * relocated words zero in the file. Doing it twice is harmless: each word
 * is written from its addend, not updated.
 */
#define R_RISCV_RELATIVE	3

/*
 * riscv_self_relocate - apply .rela.dyn for where the image runs.
 * Return: a0 = 0, or 1 for a relocation type other than RELATIVE.
 * Each entry is {offset, info, addend}, 24 bytes; only a0 and t0-t4 are
 * clobbered and no stack is used. Only data is patched (-fpie code is
 * PC-relative): no fence.i.
 */
	.text
	.globl	riscv_self_relocate
	.type	riscv_self_relocate, @function
riscv_self_relocate:
	lla	t0, _start
	ld	t1, __image_link_start_word
	sub	t0, t0, t1		/* where we run - where we were linked */
	lla	t1, __rela_start
	lla	t2, __rela_end
1:	bgeu	t1, t2, 2f
	ld	t3, 8(t1)
	li	t4, R_RISCV_RELATIVE
	bne	t3, t4, 3f
	ld	t3, 0(t1)
	ld	t4, 16(t1)
	add	t3, t3, t0
	add	t4, t4, t0
	sd	t4, 0(t3)
	addi	t1, t1, 24
	j	1b
2:	li	a0, 0
	ret
3:	li	a0, 1
	ret
	.size	riscv_self_relocate, . - riscv_self_relocate
