/*
 * platform.c - the board's description, read once at boot: which UART is
 * the console and which device ends the machine with a verdict.
 *
 * The device tree is the description on every board that has one
 * (riscv64 and aarch64, whichever loader passed it, directly or through
 * the EFI configuration table). x86 PCs have none: their console is the
 * early one (COM1), their exit device the arch's isa-debug-exit port.
 */
#include <arch/memory.h>
#include <boot/bootmem.h>
#include <boot/fdt.h>
#include <boot/memory.h>
#include <lib/printk.h>
#include <platform/console.h>
#include <platform/platform.h>

uint64_t platform_test_finisher;

/* QEMU's test device: "sifive,test1" also lists "sifive,test0". */
static void exit_from_fdt(const struct fdt *fdt)
{
	static const char *const compat[] = { "sifive,test1", "sifive,test0" };
	struct fdt_node_path np;
	uint64_t addr, size;

	for (unsigned int i = 0; i < ARRAY_SIZE(compat); i++) {
		if (fdt_find_compatible(fdt, compat[i], &np))
			continue;
		if (fdt_reg_translate(fdt, &np, 0, &addr, &size)) {
			printk("platform: %s: %s\n", compat[i], fdt->error);
			return;
		}
		platform_test_finisher = (uint64_t)(uintptr_t)phys_to_virt(addr);
		printk("platform: exit device %s at %#llx\n", compat[i],
		       (unsigned long long)addr);
		return;
	}
}

void platform_poweroff_notice(bool pass)
{
	printk("poweroff: %s; no exit device in the device tree: the console "
	       "above is the verdict\n", pass ? "PASS" : "FAIL");
}

void platform_init(enum boot_protocol proto, phys_addr_t info)
{
	static char error[BOOT_ERROR_LEN];
	phys_addr_t dtb = info ? boot_info_fdt(proto, info) : 0;
	const void *blob;
	struct fdt fdt;
	uint32_t size;

	if (!dtb) {
		/* Everything printed so far goes nowhere else. */
		console_from_fdt(NULL);
		return;
	}
	blob = phys_to_virt(dtb);
	size = fdt_header_totalsize(blob);
	if (fdt_open(&fdt, blob, size ? size : 8, error)) {
		printk("platform: the device tree at %#llx cannot be read: %s\n",
		       (unsigned long long)dtb, error);
		console_from_fdt(NULL);
		return;
	}
	console_from_fdt(&fdt);
	exit_from_fdt(&fdt);
}
