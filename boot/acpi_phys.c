/*
 * acpi_phys.c - the ACPI reader on real physical memory (kernel only):
 * where the RSDP comes from, acpi_read_cpus() for boot/cpus.c and
 * acpi_read_numa() (SRAT, SLIT) for the NUMA topology.
 *
 * The RSDP, in order: what the loader handed over (PVH start_info's
 * rsdp_paddr; multiboot2's ACPI new or old tag, whose RSDP is a copy
 * inside the information; the EFI configuration table's, which the EFI
 * entry put in the EFI boot information), else what the arch finds where the firmware
 * leaves it (arch_acpi_rsdp_scan(): the PC BIOS areas). Every table is
 * read through arch_acpi_map(), so a table the arch has not mapped is a
 * refusal with its address, never a fault.
 */
#include <arch/acpi.h>
#include <arch/memory.h>
#include <boot/acpi.h>
#include <boot/cpus.h>
#include <boot/efi.h>
#include <boot/gic.h>
#include <boot/numa.h>
#include <boot/readers.h>
#include <lib/compiler.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

/* Targets without ACPI: nothing is readable, nothing is found. */
__weak const void *arch_acpi_map(phys_addr_t pa, size_t len)
{
	return NULL;
}

__weak phys_addr_t arch_acpi_rsdp_scan(void)
{
	return 0;
}

static const void *acpi_phys_map(const struct acpi_source *src,
				 uint64_t addr, size_t len)
{
	return arch_acpi_map(addr, len);
}

static const struct acpi_source acpi_phys = { .map = acpi_phys_map };

static const void *pvh_phys_map(const struct pvh_source *src, uint64_t addr,
				size_t len)
{
	return arch_acpi_map(addr, len);
}

phys_addr_t acpi_boot_rsdp(enum boot_protocol proto, phys_addr_t info)
{
	struct pvh_source pvh = { .map = pvh_phys_map, .physical = true };
	const uint32_t *mbi;
	const void *efi;
	uint64_t rsdp = 0;

	if (proto == BOOT_PROTO_PVH && !pvh_rsdp(&pvh, info, &rsdp) && rsdp) {
		pr_info("acpi: RSDP at %#llx (PVH start info)\n",
			(unsigned long long)rsdp);
		return rsdp;
	}
	if (proto == BOOT_PROTO_MULTIBOOT2 &&
	    (mbi = arch_acpi_map(info, 8)) &&
	    arch_acpi_map(info, *mbi) &&
	    !multiboot2_rsdp(mbi, *mbi, &rsdp)) {
		pr_info("acpi: RSDP at %#llx (multiboot2 ACPI tag)\n",
			(unsigned long long)(info + rsdp));
		return info + rsdp;
	}
	if (proto == BOOT_PROTO_EFI &&
	    (efi = arch_acpi_map(info, EFI_BOOT_INFO_HEADER)) &&
	    efi_boot_info_size(efi) > EFI_BOOT_INFO_HEADER &&
	    (rsdp = efi_boot_info_u64(efi, offsetof(struct efi_boot_info,
						    acpi_rsdp)))) {
		pr_info("acpi: RSDP at %#llx (EFI configuration table)\n",
			(unsigned long long)rsdp);
		return rsdp;
	}
	rsdp = arch_acpi_rsdp_scan();
	if (rsdp)
		pr_info("acpi: RSDP at %#llx (found in the firmware's area)\n",
			(unsigned long long)rsdp);
	return rsdp;
}

int acpi_read_cpus(phys_addr_t rsdp, unsigned long boot_hwid,
		   struct boot_cpus *out)
{
	struct acpi_tables t;
	int err = acpi_open(&t, &acpi_phys, rsdp);

	if (!err)
		err = acpi_madt_cpus(&t, boot_hwid, out);
	if (err) {
		pr_err("%s\n", t.error);
		return err;
	}
	pr_info("acpi: RSDP revision %u (%s), %s at %#llx: %u CPUs usable, "
		"%u not, %u beyond NR_CPUS=%u\n", t.rsdp_revision, t.oem_id,
		t.xsdt ? "XSDT" : "RSDT", (unsigned long long)t.root, out->nr,
		out->nr_unusable, out->nr_over, NR_CPUS);
	return 0;
}

int acpi_read_gic(phys_addr_t rsdp, struct boot_gic *out)
{
	struct acpi_tables t;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_open(&t, &acpi_phys, rsdp);
	err = err ?: acpi_madt_gic(&t, out);
	if (err && err != -ENOENT)
		pr_err("%s: idle CPUs will spin\n", t.error);
	return err;
}

int acpi_read_numa(phys_addr_t rsdp, struct boot_numa *numa)
{
	struct acpi_tables t;
	int err = acpi_open(&t, &acpi_phys, rsdp);

	boot_numa_init(numa, "SRAT");
	err = err ?: acpi_srat_read(&t, numa);
	if (err == -ENOENT) {
		pr_info("acpi: no SRAT: one NUMA node\n");
		return err;
	}
	if (err) {
		pr_err("%s: NUMA information not used, one node\n", t.error);
		boot_numa_init(numa, "SRAT");
		return err;
	}
	pr_info("acpi: SRAT: %u proximity domains, %u memory ranges (%u "
		"hot-pluggable), %u CPUs, %u entries disabled\n",
		numa->nr_pxm, numa->nr_mem, numa->nr_hotplug, numa->nr_cpu,
		numa->nr_disabled);
	/*
	 * Memory comes from the memory map alone: a hot-pluggable range
	 * (QEMU's slots/maxmem, a DIMM plugged at boot) is RAM only where
	 * the map lists it, and buddyboot adds no memory later.
	 */
	for (unsigned int i = 0; i < numa->nr_mem; i++)
		if (numa->mem[i].hotplug)
			pr_info("acpi: SRAT: [%#llx-%#llx) is hot-pluggable "
				"(domain %u): RAM only where the memory map "
				"lists it; no memory is added later\n",
				(unsigned long long)numa->mem[i].base,
				(unsigned long long)(numa->mem[i].base +
						     numa->mem[i].size),
				numa->pxm[numa->mem[i].nid]);
	err = acpi_slit_read(&t, numa);
	if (err == -ENOENT)
		pr_info("acpi: no SLIT: default distances\n");
	else if (err)
		pr_err("%s: default distances\n", t.error);
	else
		pr_info("acpi: SLIT: distances between %u domains\n",
			numa->dist_nodes);
	return 0;
}
