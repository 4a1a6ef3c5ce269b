/*
 * cpus.c - which reader finds the CPUs, by boot protocol (kernel only:
 * it reaches the boot info through phys_to_virt()).
 *
 *   device tree          fdt_read_cpus() on the DTB (riscv64, aarch64)
 *   EFI with a DTB       the same on the configuration table's DTB
 *                        (boot_info_fdt(): aarch64 on AAVMF, acpi=off)
 *   PVH, multiboot2, EFI acpi_read_cpus(): the MADT (and on Arm the FADT's
 *                        PSCI conduit), through the RSDP the
 *                        loader gives or the firmware's areas hold
 *                        (acpi_boot_rsdp()); with no RSDP or no MADT,
 *                        the boot CPU alone, said in one line
 *   nothing              the boot CPU alone
 *
 * and, by the same protocols, where the NUMA topology comes from
 * (boot_numa_init_topology()): the device tree's numa-node-id and
 * /distance-map (under EFI, whose map gave the RAM, the memory nodes'
 * numa-node-id as ranges: fdt_numa_memory()), or ACPI SRAT and SLIT.
 */
#include <arch/memory.h>
#include <arch/smp.h>
#include <boot/acpi.h>
#include <boot/cpus.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/gic.h>
#include <boot/memory.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

static void boot_cpu_alone(unsigned long boot_hwid, struct boot_cpus *out)
{
	memset(out, 0, sizeof(*out));
	out->nr = 1;
	out->cpu[0] = (struct cpu_desc){ .hwid = boot_hwid, .node = -1 };
	out->boot_cpu_found = true;
}

static int cpus_from_acpi(enum boot_protocol proto, phys_addr_t info,
			  unsigned long boot_hwid, struct boot_cpus *out)
{
	phys_addr_t rsdp = acpi_boot_rsdp(proto, info);
	int err;

	if (!rsdp && boot_info_efi_rsdp(proto, info)) {
		/*
		 * ACPI tables instead of a DTB, on an arch whose
		 * arch_acpi_map() reads none (riscv64).
		 */
		boot_cpu_alone(boot_hwid, out);
		printk("cpus: the firmware gave ACPI tables (RSDP at %#llx) and "
		       "no device tree, and %s reads no ACPI: running on the "
		       "boot CPU alone\n",
		       (unsigned long long)boot_info_efi_rsdp(proto, info),
		       CONFIG_ARCH_NAME);
		return 0;
	}
	if (!rsdp) {
		boot_cpu_alone(boot_hwid, out);
		printk("cpus: no ACPI RSDP: running on the boot CPU alone\n");
		return 0;
	}
	err = acpi_read_cpus(rsdp, boot_hwid, out);
	if (err == -ENOENT) {
		boot_cpu_alone(boot_hwid, out);
		printk("cpus: no ACPI MADT: running on the boot CPU alone\n");
		return 0;
	}
	if (!err)
		acpi_read_gic(rsdp, &out->gic);
	return err;
}

/* The GIC beside the CPUs: a tree that has none says nothing. */
static void gic_from_fdt(const void *fdt, uint32_t size, struct boot_gic *gic)
{
	char error[BOOT_ERROR_LEN];
	int err = fdt_read_gic(fdt, size, gic, error);

	if (err && err != -ENOENT)
		pr_err("%s: idle CPUs will spin\n", error);
}

int boot_cpus_init(enum boot_protocol proto, phys_addr_t info,
		   unsigned long boot_hwid, struct boot_cpus *out)
{
	phys_addr_t dtb = boot_info_fdt(proto, info);
	const void *p = phys_to_virt(dtb);
	uint32_t size;
	int err;

	if (proto == BOOT_PROTO_EFI && dtb)
		proto = BOOT_PROTO_FDT;
	switch (proto) {
	case BOOT_PROTO_FDT:
		/* Only totalsize bytes are read; fdt_open() checks it. */
		size = fdt_header_totalsize(p);
		err = fdt_read_cpus(p, size ? size : 8, boot_hwid,
				    arch_cpus_held_at_entry() ? FDT_CPUS_HELD : 0,
				    out);
		if (!err)
			gic_from_fdt(p, size ? size : 8, &out->gic);
		return err;
	case BOOT_PROTO_PVH:
	case BOOT_PROTO_MULTIBOOT2:
	case BOOT_PROTO_EFI:
		return cpus_from_acpi(proto, info, boot_hwid, out);
	default:
		boot_cpu_alone(boot_hwid, out);
		printk("cpus: no boot information to find other CPUs in: "
		       "running on the boot CPU alone\n");
		return 0;
	}
}

/* Kept static: struct boot_numa holds a thousand SRAT CPU entries. */
static struct boot_numa boot_numa;

int boot_numa_init_topology(enum boot_protocol proto, phys_addr_t info,
			    struct boot_cpus *cpus)
{
	phys_addr_t dtb = boot_info_fdt(proto, info), rsdp;
	const void *p = phys_to_virt(dtb);
	bool ram_from_efi = false;
	uint32_t size;
	int nodes;

	if (proto == BOOT_PROTO_EFI && dtb) {
		proto = BOOT_PROTO_FDT;
		ram_from_efi = true;
	}
	switch (proto) {
	case BOOT_PROTO_FDT:
		/* Memory and CPU nodes' numa-node-id are read already. */
		boot_numa_init(&boot_numa, "device tree");
		size = fdt_header_totalsize(p);
		if (fdt_numa_distances(p, size ? size : 8, &boot_numa)) {
			pr_err("%s: default distances\n", boot_numa.error);
			boot_numa_init(&boot_numa, "device tree");
		}
		/* Under EFI the map gave the RAM: the memory nodes, its nodes. */
		if (ram_from_efi && size) {
			struct boot_memmap scratch;

			efi_fdt_scratch(&scratch);
			if (fdt_numa_memory(p, size, &boot_numa, &scratch))
				pr_err("%s: memory nodes' numa-node-id not "
				       "used\n", boot_numa.error);
		}
		break;
	case BOOT_PROTO_PVH:
	case BOOT_PROTO_MULTIBOOT2:
	case BOOT_PROTO_EFI:
		rsdp = acpi_boot_rsdp(proto, info);
		if (!rsdp || acpi_read_numa(rsdp, &boot_numa))
			boot_numa_init(&boot_numa, "SRAT");
		break;
	default:
		boot_numa_init(&boot_numa, "boot information");
		break;
	}
	nodes = boot_numa_apply(&boot_numa, cpus);
	boot_numa_print(cpus);
	return nodes;
}
