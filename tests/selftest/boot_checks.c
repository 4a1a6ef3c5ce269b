/*
 * boot_checks.c - what an image can check about its own boot: BSS, the
 * boot info it was handed, the console it is printing on, and the CPU it
 * booted on.
 */
#include <arch/entry.h>
#include <arch/memory.h>
#include <boot/abi.h>
#include <boot/bootmem.h>
#include <boot/bytes.h>
#include <boot/cpus.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/memory.h>
#include <lib/ktap.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include <selftest/selftest.h>

static volatile uint64_t bss_canary;

SELFTEST(boot_bss_cleared, STAGE_BOOT)
{
	SELFTEST_EXPECT(selftest_boot_facts.bss_was_clear,
			"BSS was not all zero when boot_main() was entered");
	SELFTEST_EXPECT(bss_canary == 0, "a BSS variable is not zero");
	return true;
}

/*
 * The page-0 policy (memblock_free_all(), <mm/memblock.h>): where RAM
 * starts at physical 0 (Raspberry Pi 3, ZynqMP, a PC) and 0 is the NULL
 * pointer, page 0 is reserved, so the allocator never hands out a block
 * whose address is NULL. integrity_exhaust_write then checks that no page
 * handed out has address NULL.
 */
SELFTEST(boot_page0_kept_out, STAGE_BOOT)
{
	if (phys_to_virt(0))
		return selftest_skip("physical 0 is not NULL here");
	if (!memblock_is_memory(0))
		return selftest_skip("no RAM at physical 0 (RAM starts at %#llx)",
				     (unsigned long long)memblock_start_of_DRAM());
	SELFTEST_EXPECT(memblock_is_region_reserved(0, PAGE_SIZE),
			"page 0 is RAM, NULL, and not reserved");
	ktap_diag("RAM at physical 0: page 0 reserved");
	return true;
}

SELFTEST(boot_info_found, STAGE_BOOT)
{
	const void *info = (const void *)(uintptr_t)selftest_boot_facts.info;

	SELFTEST_EXPECT(selftest_boot_facts.proto != BOOT_PROTO_NONE && info,
			"the loader handed over no boot info");
	switch (selftest_boot_facts.proto) {
	case BOOT_PROTO_FDT:
		SELFTEST_EXPECT(load_be32(info) == FDT_MAGIC,
				"no FDT magic at %p", info);
		break;
	case BOOT_PROTO_PVH:
		SELFTEST_EXPECT(load_le32(info) == PVH_MAGIC,
				"no hvm_start_info magic at %p", info);
		break;
	case BOOT_PROTO_EFI:
		SELFTEST_EXPECT(load_le32(info) == EFI_BOOT_INFO_MAGIC,
				"no EFI boot information magic at %p", info);
		break;
	case BOOT_PROTO_MULTIBOOT2:
		/* total_size, then reserved; the end tag is type 0 size 8. */
		SELFTEST_EXPECT(load_le32(info) >= 16,
				"multiboot2 info at %p is too short", info);
		break;
	default:
		return selftest_fail(__FILE__, __LINE__, "unknown protocol %u",
				     selftest_boot_facts.proto);
	}
	return true;
}

/* The "cpus" node's children with device_type "cpu": count them, find @id. */
static bool fdt_cpu_listed(const struct fdt *fdt, unsigned long id,
			   unsigned int *count)
{
	bool found = false;
	uint32_t len, cells = 1;
	const void *p;

	*count = 0;
	for (int n = fdt_first_child(fdt, fdt->root); n >= 0;
	     n = fdt_next_child(fdt, n)) {
		if (strcmp(fdt_node_name(fdt, n), "cpus"))
			continue;
		p = fdt_getprop(fdt, n, "#address-cells", &len);
		if (p && len == 4)
			cells = (uint32_t)fdt_read_cells(p, 1);
		for (int c = fdt_first_child(fdt, n); c >= 0;
		     c = fdt_next_child(fdt, c)) {
			if (!fdt_prop_is_string(fdt, c, "device_type", "cpu"))
				continue;
			(*count)++;
			p = fdt_getprop(fdt, c, "reg", &len);
			if (p && (cells == 1 || cells == 2) && len >= 4 * cells &&
			    fdt_read_cells(p, cells) == id)
				found = true;
		}
	}
	return found;
}

/*
 * The CPU that booted is one the device tree lists (riscv64: the hart id
 * OpenSBI's lottery chose; aarch64: the MPIDR affinity), and which one it
 * was is printed: with -smp the boot CPU need not be CPU 0. Under EFI the
 * device tree is the configuration table's.
 */
SELFTEST(boot_cpu_listed, STAGE_BOOT)
{
	phys_addr_t dtb = boot_info_fdt(selftest_boot_facts.proto,
					selftest_boot_facts.info);
	const void *info = phys_to_virt(dtb);
	unsigned long id = selftest_boot_facts.boot_cpu;
	char error[BOOT_ERROR_LEN];
	unsigned int count;
	struct fdt fdt;

	printk("# boot cpu %lu\n", id);
	if (!dtb) {
		/*
		 * Without a device tree the list is the ACPI MADT's, as
		 * boot_cpus_init() read it; a list of the boot CPU alone may
		 * be one it made up for want of a MADT: nothing to check.
		 */
		const struct boot_cpus *cpus = selftest_boot_facts.cpus;

		if (!cpus || cpus->nr + cpus->nr_unusable + cpus->nr_over < 2)
			return selftest_skip("no CPU list beyond the boot CPU "
					     "in %s boot info",
					     CONFIG_ARCH_NAME);
		SELFTEST_EXPECT(cpus->boot_cpu_found, "boot cpu %#lx is not in "
				"the ACPI MADT", id);
		printk("# boot cpu %lu is one of %u CPUs in the ACPI MADT\n",
		       id, cpus->nr + cpus->nr_unusable + cpus->nr_over);
		return true;
	}
	SELFTEST_EXPECT(!fdt_open(&fdt, info, fdt_header_totalsize(info),
				  error), "the DTB does not open: %s", error);
	SELFTEST_EXPECT(fdt_cpu_listed(&fdt, id, &count), "boot cpu %#lx is "
			"not among the %u CPUs of /cpus", id, count);
	printk("# boot cpu %lu is one of %u CPUs in the device tree\n", id,
	       count);
	return true;
}
