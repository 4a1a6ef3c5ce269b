/*
 * relocate.S - the image applies its own relocations: it is a
 * position-independent executable (linker/image.lds.S) that runs wherever
 * a loader put it. Called by entry.S on every boot, with the MMU off and
 * no stack, and by efi_entry.S before C runs under the firmware.
 */
#include "sysreg.h"

#define R_AARCH64_RELATIVE	1027

/*
 * aarch64_self_relocate - apply .rela.dyn for where the image runs.
 * Return: x0 = 0, or 1 for a relocation type other than RELATIVE.
 * Each entry is {offset, info, addend}, 24 bytes; only x0-x5 are
 * clobbered and no stack is used.
 */
	.text
	.globl	aarch64_self_relocate
	.type	aarch64_self_relocate, @function
aarch64_self_relocate:
	adr	x0, _start
	ldr	x1, __image_link_start_word
	sub	x0, x0, x1		/* where we run - where we were linked */
	adr_l	x1, __rela_start
	adr_l	x2, __rela_end
1:	cmp	x1, x2
	b.hs	2f
	ldp	x3, x4, [x1], #16
	ldr	x5, [x1], #8
	cmp	x4, #R_AARCH64_RELATIVE
	b.ne	3f
	add	x5, x5, x0
	str	x5, [x3, x0]
	b	1b
2:	mov	x0, #0
	ret
3:	mov	x0, #1
	ret
	.size	aarch64_self_relocate, . - aarch64_self_relocate

