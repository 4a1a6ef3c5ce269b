/*
 * memory.c - the generic boot memory flow: read the boot info, give
 * memblock the RAM, reserve everything that is not ours, print the result.
 * Kernel only (it needs the linker's symbols); the host memmap tool runs
 * the same readers and bootmem_apply() without it.
 *
 * Policy for boot data, on every target:
 *   - the boot info is reserved in place, never copied: the DTB
 *     (totalsize), the multiboot2 information (total_size; GRUB puts it
 *     right after _end), the PVH start_info with its memory map, module
 *     list and command line, the EFI boot information (header and memory
 *     map, in loader data the EFI entry allocated, which the map itself
 *     calls RAM). All of it stays readable for the whole run.
 *   - the kernel image [_start, _end), BSS included, and the boot stack.
 *   - what the firmware and loader keep: /reserved-memory (OpenSBI's own
 *     region is one), /memreserve/ (what a loader such as U-Boot adds;
 *     tools/uboot/boot.cmd adds one for the script it ran), the
 *     initrd, multiboot2 and PVH modules.
 *   - the low 1 MiB on x86_64 (arch_reserve_memory(): real-mode IVT, BDA,
 *     EBDA, option ROMs and the BIOS live there).
 *   - page 0 is mm/'s policy, not boot's: memblock_free_all() keeps it
 *     out (<mm/memblock.h>).
 * All of it happens before the first memblock allocation.
 */
#include <stdarg.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <boot/memory.h>
#include <boot/readers.h>
#include <boot/reserve.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include <mm/page_order.h>

static struct boot_range boot_ranges[BOOT_MAX_RANGES];

/* Every physical address is reachable in the kernel; only wrapping fails. */
static const void *pvh_phys_map(const struct pvh_source *src, uint64_t addr,
				size_t len)
{
	if (addr + len < addr)
		return NULL;
	return phys_to_virt(addr);
}

static const char *read_boot_info(enum boot_protocol proto, phys_addr_t info,
				  struct boot_memmap *map, int *err)
{
	const void *p = phys_to_virt(info);
	struct pvh_source pvh = { .map = pvh_phys_map, .physical = true };
	uint32_t size;

	switch (proto) {
	case BOOT_PROTO_FDT:
		/* Only totalsize bytes are read; fdt_open checks it first. */
		size = fdt_header_totalsize(p);
		*err = fdt_memory_parse(p, size ? size : 8, map);
		return "device tree blob";
	case BOOT_PROTO_MULTIBOOT2:
		size = *(const uint32_t *)p;
		*err = multiboot2_memory_parse(p, size, map);
		return "multiboot2 information";
	case BOOT_PROTO_PVH:
		*err = pvh_memory_parse(&pvh, info, map);
		return "PVH start info";
	case BOOT_PROTO_EFI:
		/* The header is read first; the reader checks the rest. */
		*err = efi_memmap_parse(p, efi_boot_info_size(p), map);
		return "EFI memory map";
	default:
		*err = bootmem_error(map, -EINVAL, "no boot information from the "
				     "loader: cannot find memory");
		return "";
	}
}

void boot_refuse(const char *fmt, ...)
{
	va_list ap;

	printk("cannot boot: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	arch_poweroff(POWEROFF_FAIL);
}

/* What a reader's or memblock's error means for the boot. */
static const char *refusal_kind(int err)
{
	switch (err) {
	case -ENOMEM:	return "no usable memory";
	case -ENOSPC:	return "too many regions";
	default:	return "malformed boot info";
	}
}

/*
 * The EFI map lists what is not RAM with a reason (runtime services, ACPI
 * NVS, MMIO, ...); memblock never sees those, so say here why.
 */
static void print_not_ram(const struct boot_memmap *map)
{
	for (unsigned int i = 0; i < map->cnt; i++)
		if (map->ranges[i].kind == BOOT_RANGE_IGNORED)
			printk("not RAM: [%#llx-%#llx) %s\n",
			       (unsigned long long)map->ranges[i].base,
			       (unsigned long long)(map->ranges[i].base +
						    map->ranges[i].size),
			       map->ranges[i].reason);
}

#ifdef CONFIG_EFI_DUMP
/*
 * The blob as hex, 32 bytes a line, for tests/fixtures/efi/capture.sh:
 * the firmware's own map becomes a host fixture. Only in images built
 * with EFI_DUMP=1 (mk/efi.mk).
 */
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

phys_addr_t boot_info_fdt(enum boot_protocol proto, phys_addr_t info)
{
	const void *p = phys_to_virt(info);

	if (proto == BOOT_PROTO_FDT)
		return info;
	if (proto == BOOT_PROTO_EFI && info &&
	    efi_boot_info_size(p) > EFI_BOOT_INFO_HEADER)
		return efi_boot_info_u64(p, offsetof(struct efi_boot_info, fdt));
	return 0;
}

/*
 * Under EFI the device tree sits in memory the map calls RAM (boot
 * services data, on AAVMF): it is reserved, read-only and in place, like
 * a DTB handed over directly. U-Boot puts it in ACPI reclaim memory,
 * which the map's reading has reserved already: nothing to add then.
 */
static int reserve_efi_fdt(enum boot_protocol proto, phys_addr_t info)
{
	phys_addr_t fdt = proto == BOOT_PROTO_EFI ? boot_info_fdt(proto, info)
						  : 0;
	uint32_t size = fdt ? fdt_header_totalsize(phys_to_virt(fdt)) : 0;

	if (fdt && !size)
		pr_warn("efi: no device tree magic at %#llx; not reserved\n",
			(unsigned long long)fdt);
	if (!size || memblock_is_region_reserved(fdt, size))
		return 0;
	return boot_reserve(fdt, size, "device tree blob (EFI configuration "
			    "table)");
}

void boot_memory_init(enum boot_protocol proto, phys_addr_t info)
{
	struct boot_memmap map;
	const char *what;
	int err;

	bootmem_init(&map, boot_ranges, ARRAY_SIZE(boot_ranges));
	what = read_boot_info(proto, info, &map, &err);
	if (err)
		boot_refuse("%s: %s", refusal_kind(err), map.error);
	if (proto == BOOT_PROTO_EFI)
		print_not_ram(&map);
#ifdef CONFIG_EFI_DUMP
	if (proto == BOOT_PROTO_EFI)
		dump_efi_info(info, map.info_size);
#endif

	err = bootmem_apply(&map);
	err = err ?: boot_reserve(info, map.info_size, what);
	err = err ?: reserve_efi_fdt(proto, info);
	err = err ?: boot_reserve(virt_to_phys(_start), _end - _start,
				  "kernel image");
	err = err ?: boot_reserve_policy(virt_to_phys(__boot_stack_bottom),
					 __boot_stack_top - __boot_stack_bottom,
					 "boot stack");
	/* memblock's arrays cannot grow before the MMU is up. */
	if (err == -ENOMEM)
		boot_refuse("too many regions: memblock holds %u memory and %u "
			    "reserved regions until memory is mapped",
			    INIT_MEMBLOCK_REGIONS, INIT_MEMBLOCK_REGIONS);
	if (err)
		boot_refuse("cannot reserve boot memory (error %d)", err);
	arch_reserve_memory();
	boot_memory_print();
}
