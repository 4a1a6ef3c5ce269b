/*
 * bootmem.c - the list of ranges the boot-info readers fill in.
 *
 * Pure bookkeeping, no memblock: shared by the kernel, the host memmap
 * tool, the unit tests and the fuzzers. See include/boot/bootmem.h.
 */
#include <boot/bootmem.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

void bootmem_init(struct boot_memmap *map, struct boot_range *ranges,
		  unsigned int max)
{
	map->ranges = ranges;
	map->max = max;
	map->cnt = 0;
	map->info_size = 0;
	map->error[0] = '\0';
}

int bootmem_error(struct boot_memmap *map, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(map->error, sizeof(map->error), fmt, ap);
	va_end(ap);
	return err;
}

int bootmem_add_range(struct boot_memmap *map, enum boot_range_kind kind,
		      phys_addr_t base, phys_addr_t size, const char *reason, ...)
{
	struct boot_range *r;
	va_list ap;

	if (size == 0)
		return 0;
	r = &map->ranges[map->cnt];
	if (map->cnt < map->max) {
		va_start(ap, reason);
		kvsnprintf(r->reason, sizeof(r->reason), reason, ap);
		va_end(ap);
	}
	/* The exclusive end must be representable: base + size <= 2^64 - 1. */
	if (size > PHYS_ADDR_MAX - base)
		return bootmem_error(map, -EBADMSG,
				     "%s: range %#llx + %#llx runs past the "
				     "64-bit address space",
				     map->cnt < map->max ? r->reason : "range",
				     (unsigned long long)base,
				     (unsigned long long)size);
	if (map->cnt >= map->max)
		return bootmem_error(map, -ENOSPC,
				     "more than %u memory ranges and "
				     "reservations; refusing a partial map",
				     map->max);
	r->base = base;
	r->size = size;
	r->kind = kind;
	r->nid = -1;	/* NUMA_NO_NODE: a reader that knows sets it */
	map->cnt++;
	return 0;
}

int bootmem_require_memory(struct boot_memmap *map, const char *who)
{
	for (unsigned int i = 0; i < map->cnt; i++)
		if (map->ranges[i].kind == BOOT_RANGE_MEMORY)
			return 0;
	return bootmem_error(map, -ENOMEM, "%s: no usable memory", who);
}

/* The e820 type names, which multiboot2's memory map shares. */
static const char *e820_type_name(uint32_t type)
{
	switch (type) {
	case 2:		return "reserved";
	case 3:		return "ACPI reclaimable";
	case 4:		return "ACPI NVS";
	case 5:		return "unusable";
	case 7:		return "persistent memory";
	default:	return "unknown type";
	}
}

int bootmem_add_e820(struct boot_memmap *map, phys_addr_t base,
		     phys_addr_t size, uint32_t type, const char *who,
		     unsigned int index)
{
	if (type == BOOT_E820_RAM)
		return bootmem_add_range(map, BOOT_RANGE_MEMORY, base, size,
					 "%s #%u", who, index);
	return bootmem_add_range(map, BOOT_RANGE_IGNORED, base, size,
				 "%s #%u: %s (%u)", who, index,
				 e820_type_name(type), type);
}

const char *bootmem_kind_name(enum boot_range_kind kind)
{
	switch (kind) {
	case BOOT_RANGE_MEMORY:		return "memory";
	case BOOT_RANGE_RESERVED:	return "reserved";
	case BOOT_RANGE_NOMAP:		return "no-map";
	case BOOT_RANGE_IGNORED:	return "not RAM";
	}
	return "?";
}
