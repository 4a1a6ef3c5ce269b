/*
 * efi_stub.c - the riscv64 part of the UEFI entry: the image runs where
 * the firmware loaded it (it relocates itself); what the kernel needs
 * beyond the memory map is the boot hart's id, which S-mode cannot read
 * from a register: the firmware writes it into the device tree it hands
 * over, as /chosen/boot-hartid (U-Boot does for bootefi, as for Linux).
 */
#include <arch/memory.h>
#include <boot/bytes.h>
#include <boot/fdt.h>
#include <lib/string.h>
#include "../../boot/efi/stub.h"

void riscv_efi_enter_kernel(unsigned long hartid, uint64_t info)
	__attribute__((noreturn));

const uint64_t efi_arch_info_max = ~0ULL;

static unsigned long boot_hartid;

/* /chosen/boot-hartid, one or two cells. Return: 0, or -1 if absent. */
static int find_boot_hartid(uint64_t dtb, unsigned long *hartid)
{
	const void *blob = (const void *)(uintptr_t)dtb;
	char error[BOOT_ERROR_LEN];
	const void *prop;
	struct fdt fdt;
	uint32_t len;
	int node;

	if (!dtb || fdt_open(&fdt, blob, fdt_header_totalsize(blob), error))
		return -1;
	for (node = fdt_first_child(&fdt, fdt.root); node >= 0;
	     node = fdt_next_child(&fdt, node)) {
		if (strcmp(fdt_node_name(&fdt, node), "chosen"))
			continue;
		prop = fdt_getprop(&fdt, node, "boot-hartid", &len);
		if (!prop || (len != 4 && len != 8))
			return -1;
		*hartid = fdt_read_cells(prop, len / 4);
		return 0;
	}
	return -1;
}

efi_status_t efi_arch_prepare(struct efi_system_table *st,
			      const struct efi_boot_info *tables)
{
	if (find_boot_hartid(tables->fdt, &boot_hartid))
		return efi_fail(EFI_UNSUPPORTED, "no /chosen/boot-hartid in "
				"the firmware's device tree: which hart is "
				"this?");
	efi_puts("buddyboot: running at ");
	efi_put_hex((uint64_t)(uintptr_t)_start);
	efi_puts(" on hart ");
	efi_put_hex(boot_hartid);
	efi_puts("\n");
	return EFI_SUCCESS;
}

void efi_arch_enter(uint64_t info)
{
	riscv_efi_enter_kernel(boot_hartid, info);
}
