/*
 * efi_stub.c - the x86_64 part of the UEFI entry (BOOTX64.EFI).
 *
 * The kernel is linked at a fixed address (1 MiB, arch/x86_64/image.lds.S) and
 * is not position-independent, while the firmware loads an EFI
 * application wherever it likes. So BOOTX64.EFI is this small
 * position-independent program with the kernel's loadable bytes as a
 * payload (efi_payload.S): with boot services it allocates the kernel's
 * own range, [_start, _end) BSS and boot stack included, as loader code
 * at exactly that address, and copies the payload there. A firmware
 * that has that range in use already gets a clear refusal.
 *
 * After ExitBootServices it jumps to efi_entry64 (efi_entry.S), in the
 * copy, with the boot information in edi: that must lie below 4 GiB,
 * because the kernel re-enters through its 32-bit path.
 *
 * The addresses come from the kernel ELF (EFI_KERNEL_START, _END,
 * _ENTRY: mk/efi.mk reads them with nm).
 */
#include "../../boot/efi/stub.h"

extern const uint8_t efi_payload_start[], efi_payload_end[];

const uint64_t efi_arch_info_max = 0xffffffffULL;

/* The compiler may call these for copies and zeroing: no libc here. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

efi_status_t efi_arch_prepare(struct efi_system_table *st,
			      const struct efi_boot_info *tables)
{
	uint64_t addr = EFI_KERNEL_START;
	unsigned long pages = (EFI_KERNEL_END - EFI_KERNEL_START + 4095) / 4096;
	size_t len = efi_payload_end - efi_payload_start;
	efi_status_t status;

	status = st->boot_services->allocate_pages(EFI_ALLOCATE_ADDRESS,
						   EFI_LOADER_CODE, pages,
						   &addr);
	if (status != EFI_SUCCESS) {
		efi_puts("buddyboot: the kernel runs at ");
		efi_put_hex(EFI_KERNEL_START);
		efi_puts("-");
		efi_put_hex(EFI_KERNEL_END);
		efi_puts(", which the firmware uses\n");
		return efi_fail(status, "cannot place the kernel");
	}
	if (len > EFI_KERNEL_END - EFI_KERNEL_START)
		return efi_fail(EFI_LOAD_ERROR, "the payload is larger than "
				"the kernel image");
	memcpy((void *)(uintptr_t)addr, efi_payload_start, len);
	efi_puts("buddyboot: kernel copied to ");
	efi_put_hex(addr);
	efi_puts("\n");
	return EFI_SUCCESS;
}

void efi_arch_enter(uint64_t info)
{
	void (*entry)(uint64_t) = (void (*)(uint64_t))(uintptr_t)EFI_KERNEL_ENTRY;

	__asm__ volatile("cli");
	entry(info);
	__builtin_unreachable();
}
