/*
 * efi_boot.c - what the kernel does with the EFI boot information beyond
 * reading its map (kernel only: it reaches physical memory through
 * phys_to_virt()).
 *
 *   - says why each range the map calls not RAM is left out (runtime
 *     services, ACPI NVS, MMIO, ...), since memblock never sees those;
 *   - reserves the configuration table's device tree, in place, which
 *     lies in memory the map calls RAM (boot services data on AAVMF;
 *     U-Boot puts it in ACPI reclaim memory, already reserved);
 *   - applies that device tree's reservations (/reserved-memory,
 *     /memreserve/, the initrd), as Linux does under EFI: the EFI map is
 *     the truth about what is RAM, but firmware does not always carry the
 *     tree's reservations into it. U-Boot 2023.01 on riscv64 lists
 *     OpenSBI's own memory, a /reserved-memory node without no-map, as
 *     conventional memory; the PMP faults any store to it.
 *     The tree's memory nodes are not read for RAM.
 *   - with EFI_DUMP=1, prints the blob as hex (tests/fixtures/efi/
 *     capture.sh turns that into a host fixture).
 */
#include <arch/memory.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/memory.h>
#include <boot/readers.h>
#include <boot/reserve.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/memblock.h>

/* What the configuration table's device tree lists: efi_fdt_scratch(). */
static struct boot_range fdt_ranges[BOOT_MAX_RANGES / 4];

void efi_fdt_scratch(struct boot_memmap *map)
{
	bootmem_init(map, fdt_ranges, ARRAY_SIZE(fdt_ranges));
}

#ifdef CONFIG_EFI_DUMP
static void dump_efi_info(phys_addr_t info, size_t size)
{
	const uint8_t *p = phys_to_virt(info);
	char line[2 * 32 + 1];

	for (size_t at = 0; at < size; at += 32) {
		size_t n = MIN(size - at, (size_t)32);

		for (size_t i = 0; i < n; i++) {
			line[2 * i] = "0123456789abcdef"[p[at + i] >> 4];
			line[2 * i + 1] = "0123456789abcdef"[p[at + i] & 15];
		}
		line[2 * n] = '\0';
		printk("efi-dump: %s\n", line);
	}
}
#endif

void efi_boot_report(phys_addr_t info, const struct boot_memmap *map)
{
	for (unsigned int i = 0; i < map->cnt; i++)
		if (map->ranges[i].kind == BOOT_RANGE_IGNORED)
			printk("not RAM: [%#llx-%#llx) %s\n",
			       (unsigned long long)map->ranges[i].base,
			       (unsigned long long)(map->ranges[i].base +
						    map->ranges[i].size),
			       map->ranges[i].reason);
#ifdef CONFIG_EFI_DUMP
	dump_efi_info(info, map->info_size);
#endif
}

/* The tree's reservations; a malformed tree is not survivable. */
static int reserve_fdt_reservations(const void *blob, uint32_t size)
{
	struct boot_memmap dt;
	int err;

	efi_fdt_scratch(&dt);
	err = fdt_memory_parse(blob, size, &dt);
	/* Firmware may leave out memory nodes under EFI: not an error here. */
	if (err && err != -ENOMEM)
		boot_refuse("malformed boot info: the EFI configuration "
			    "table's device tree: %s", dt.error);
	err = 0;
	for (unsigned int i = 0; !err && i < dt.cnt; i++) {
		const struct boot_range *r = &dt.ranges[i];

		if (r->kind == BOOT_RANGE_RESERVED)
			err = boot_reserve(r->base, r->size, r->reason);
		else if (r->kind == BOOT_RANGE_NOMAP)
			err = boot_reserve_nomap(r->base, r->size, r->reason);
	}
	return err;
}

int efi_boot_reserve(phys_addr_t info)
{
	phys_addr_t fdt = boot_info_fdt(BOOT_PROTO_EFI, info);
	const void *blob = phys_to_virt(fdt);
	uint32_t size = fdt ? fdt_header_totalsize(blob) : 0;
	int err = 0;

	if (!fdt)
		return 0;
	if (!size) {
		pr_warn("efi: no device tree magic at %#llx; not read\n",
			(unsigned long long)fdt);
		return 0;
	}
	if (!memblock_is_region_reserved(fdt, size))
		err = boot_reserve(fdt, size, "device tree blob (EFI "
				   "configuration table)");
	return err ?: reserve_fdt_reservations(blob, size);
}
