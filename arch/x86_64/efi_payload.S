/*
 * efi_payload.S - the kernel's loadable bytes inside BOOTX64.EFI: the
 * flat binary of buddyboot.elf from _start (objcopy -O binary), which
 * efi_stub.c copies to the kernel's link address. EFI_PAYLOAD is its
 * file name, from mk/efi.mk.
 */
	.section .rodata.payload, "a"
	.balign 4096
	.globl efi_payload_start, efi_payload_end
efi_payload_start:
	.incbin EFI_PAYLOAD
efi_payload_end:
	.section .note.GNU-stack, "", @progbits
