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
		if (!*err)
			printk("multiboot2: memory from the %s\n",
			       multiboot2_memory_source(p, size) == 17 ?
			       "EFI memory-map tag (type 17)" :
			       "memory-map tag (type 6)");
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


/* A field of the EFI boot information at @info, or 0. */
static phys_addr_t efi_info_field(enum boot_protocol proto, phys_addr_t info,
				  size_t offset)
{
	const void *p = phys_to_virt(info);

	if (proto == BOOT_PROTO_EFI && info &&
	    efi_boot_info_size(p) > EFI_BOOT_INFO_HEADER)
		return efi_boot_info_u64(p, offset);
	return 0;
}

phys_addr_t boot_info_fdt(enum boot_protocol proto, phys_addr_t info)
{
	if (proto == BOOT_PROTO_FDT)
		return info;
	return efi_info_field(proto, info, offsetof(struct efi_boot_info, fdt));
}

phys_addr_t boot_info_efi_rsdp(enum boot_protocol proto, phys_addr_t info)
{
	return efi_info_field(proto, info,
			      offsetof(struct efi_boot_info, acpi_rsdp));
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
		efi_boot_report(info, &map);

	err = bootmem_apply(&map);
	err = err ?: boot_reserve(info, map.info_size, what);
	if (proto == BOOT_PROTO_EFI)
		err = err ?: efi_boot_reserve(info);
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
