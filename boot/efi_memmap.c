/*
 * efi_memmap.c - the UEFI memory map reader: the EFI boot information
 * blob (include/boot/efi.h) to a list of ranges.
 *
 * Pure like the other readers: it validates the header and every
 * descriptor before it trusts any, reads only the bytes it is given and
 * writes only @map. The kernel runs it on the blob the EFI entry built
 * after ExitBootServices(), and on the EFI memory-map tag GRUB puts in
 * the multiboot2 information (efi_memmap_parse_descs(), from
 * boot/multiboot2.c); build/host/memmap, the unit tests and the fuzzers
 * run it on files.
 *
 * Descriptors are stepped through by the firmware's desc_size, never by
 * sizeof: OVMF's are 48 bytes for a 40-byte structure, and a reader that
 * stepped by 40 would read garbage from the second descriptor on.
 *
 * Once boot services have ended, the memory the loader and the boot
 * services used is ours: loader code/data, boot services code/data and
 * conventional memory are RAM (the EFI entry's own allocations among
 * them: the kernel reserves its image and this blob). What the firmware
 * keeps at run time, and what is not RAM, is never handed out.
 */
#include <boot/bytes.h>
#include <boot/efi.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define EFI_PAGE_SIZE	(1ULL << EFI_PAGE_SHIFT)

const char *efi_memory_type_name(uint32_t type)
{
	switch (type) {
	case EFI_RESERVED_MEMORY_TYPE:		return "reserved";
	case EFI_LOADER_CODE:			return "loader code";
	case EFI_LOADER_DATA:			return "loader data";
	case EFI_BOOT_SERVICES_CODE:		return "boot services code";
	case EFI_BOOT_SERVICES_DATA:		return "boot services data";
	case EFI_RUNTIME_SERVICES_CODE:		return "runtime services code";
	case EFI_RUNTIME_SERVICES_DATA:		return "runtime services data";
	case EFI_CONVENTIONAL_MEMORY:		return "conventional memory";
	case EFI_UNUSABLE_MEMORY:		return "unusable memory";
	case EFI_ACPI_RECLAIM_MEMORY:		return "ACPI reclaim memory";
	case EFI_ACPI_MEMORY_NVS:		return "ACPI NVS";
	case EFI_MEMORY_MAPPED_IO:		return "MMIO";
	case EFI_MEMORY_MAPPED_IO_PORT_SPACE:	return "MMIO port space";
	case EFI_PAL_CODE:			return "PAL code";
	case EFI_PERSISTENT_MEMORY:		return "persistent memory";
	case EFI_UNACCEPTED_MEMORY:		return "unaccepted memory";
	default:				return "unknown type";
	}
}

/* Why a type is not handed out: the reason the boot log prints. */
static const char *not_ram_reason(uint32_t type)
{
	switch (type) {
	case EFI_RUNTIME_SERVICES_CODE:
	case EFI_RUNTIME_SERVICES_DATA:
		return "the firmware's at run time";
	case EFI_ACPI_MEMORY_NVS:
		return "the firmware's, kept across sleep";
	case EFI_UNUSABLE_MEMORY:
		return "errors were detected in it";
	case EFI_MEMORY_MAPPED_IO:
	case EFI_MEMORY_MAPPED_IO_PORT_SPACE:
		return "device registers, not RAM";
	case EFI_PAL_CODE:
		return "the firmware's";
	case EFI_PERSISTENT_MEMORY:
		return "kept for its contents";
	case EFI_UNACCEPTED_MEMORY:
		return "not accepted by buddyboot";
	case EFI_RESERVED_MEMORY_TYPE:
		return "not for the OS";
	default:
		return "not known to buddyboot";
	}
}

static bool type_is_ram(uint32_t type)
{
	return type == EFI_LOADER_CODE || type == EFI_LOADER_DATA ||
	       type == EFI_BOOT_SERVICES_CODE ||
	       type == EFI_BOOT_SERVICES_DATA ||
	       type == EFI_CONVENTIONAL_MEMORY;
}

struct efi_desc {
	uint32_t type;
	uint64_t start;
	uint64_t pages;
	uint64_t attr;
};

static void load_desc(const uint8_t *d, struct efi_desc *out)
{
	out->type = load_le32(d);
	out->start = load_le64(d + 8);
	out->pages = load_le64(d + 24);
	out->attr = load_le64(d + 32);
}

/*
 * Start aligned, and the end representable: start + pages * 4 KiB must
 * stay below 2^64 (the range's exclusive end is a 64-bit value).
 */
static int check_desc(struct boot_memmap *map, unsigned int i,
		      const struct efi_desc *d)
{
	if (d->start & (EFI_PAGE_SIZE - 1))
		return bootmem_error(map, -EBADMSG, "efi: descriptor #%u "
				     "starts at %#llx, not 4 KiB aligned", i,
				     (unsigned long long)d->start);
	if (d->pages > (~d->start >> EFI_PAGE_SHIFT))
		return bootmem_error(map, -EBADMSG, "efi: descriptor #%u at "
				     "%#llx: %llu pages overflow the 64-bit "
				     "address space", i,
				     (unsigned long long)d->start,
				     (unsigned long long)d->pages);
	return 0;
}

static uint64_t desc_end(const struct efi_desc *d)
{
	return d->start + (d->pages << EFI_PAGE_SHIFT);
}

/*
 * No two descriptors may overlap. Firmware sorts its map, so one pass
 * proves it in the usual case; an unsorted map is compared pair by pair
 * (the count is bounded by EFI_BOOT_INFO_MAX_DESC).
 */
static int check_overlaps(struct boot_memmap *map, const uint8_t *descs,
			  uint32_t count, uint32_t desc_size)
{
	struct efi_desc a, b;
	bool sorted = true;
	uint64_t prev_end = 0;

	for (uint32_t i = 0; i < count && sorted; i++) {
		load_desc(descs + (size_t)i * desc_size, &a);
		if (!a.pages)
			continue;
		sorted = a.start >= prev_end;
		prev_end = desc_end(&a);
	}
	if (sorted)
		return 0;
	for (uint32_t i = 0; i < count; i++) {
		load_desc(descs + (size_t)i * desc_size, &a);
		for (uint32_t j = i + 1; a.pages && j < count; j++) {
			load_desc(descs + (size_t)j * desc_size, &b);
			if (b.pages && a.start < desc_end(&b) &&
			    b.start < desc_end(&a))
				return bootmem_error(map, -EBADMSG, "efi: "
					"descriptors #%u [%#llx-%#llx) and #%u "
					"[%#llx-%#llx) overlap", i,
					(unsigned long long)a.start,
					(unsigned long long)desc_end(&a), j,
					(unsigned long long)b.start,
					(unsigned long long)desc_end(&b));
		}
	}
	return 0;
}

/*
 * check_layout - what the firmware says of its map, wherever the map comes
 * from (this blob, or a multiboot2 EFI memory-map tag).
 */
static int check_layout(struct boot_memmap *map, uint32_t map_size,
			uint32_t desc_size, uint32_t version)
{
	if (desc_size < EFI_DESC_MIN_SIZE)
		return bootmem_error(map, -EBADMSG, "efi: descriptor size %u is "
				     "smaller than the %u-byte "
				     "EFI_MEMORY_DESCRIPTOR", desc_size,
				     EFI_DESC_MIN_SIZE);
	if (desc_size > EFI_DESC_MAX_SIZE)
		return bootmem_error(map, -EBADMSG, "efi: descriptor size %u is "
				     "absurd (more than %u)", desc_size,
				     EFI_DESC_MAX_SIZE);
	if (version != EFI_MEMORY_DESCRIPTOR_VERSION)
		return bootmem_error(map, -EBADMSG, "efi: descriptor version %u "
				     "(only version %u is known)", version,
				     EFI_MEMORY_DESCRIPTOR_VERSION);
	if (map_size % desc_size)
		return bootmem_error(map, -EBADMSG, "efi: map size %u is not a "
				     "multiple of the descriptor size %u",
				     map_size, desc_size);
	if (map_size / desc_size > EFI_BOOT_INFO_MAX_DESC)
		return bootmem_error(map, -EBADMSG, "efi: %u descriptors is "
				     "absurd (more than %u)",
				     map_size / desc_size,
				     EFI_BOOT_INFO_MAX_DESC);
	return 0;
}

static int check_header(const uint8_t *b, size_t avail,
			struct boot_memmap *map)
{
	uint32_t header, desc_size, version, count, map_size;
	int err;

	if (avail < EFI_BOOT_INFO_HEADER)
		return bootmem_error(map, -EBADMSG, "efi: truncated: %zu bytes, "
				     "too short for the %u-byte header", avail,
				     EFI_BOOT_INFO_HEADER);
	if (load_le32(b) != EFI_BOOT_INFO_MAGIC)
		return bootmem_error(map, -EBADMSG, "efi: bad magic %#x "
				     "(expected %#x, \"EMAP\")", load_le32(b),
				     EFI_BOOT_INFO_MAGIC);
	header = load_le32(b + 4);
	desc_size = load_le32(b + 8);
	version = load_le32(b + 12);
	count = load_le32(b + 16);
	map_size = load_le32(b + 20);
	if (header < EFI_BOOT_INFO_HEADER || header % 8 || header > avail)
		return bootmem_error(map, -EBADMSG, "efi: header_size %u is not "
				     "a multiple of 8 between %u and the %zu "
				     "bytes present", header,
				     EFI_BOOT_INFO_HEADER, avail);
	err = check_layout(map, map_size, desc_size, version);
	if (err)
		return err;
	if (count > EFI_BOOT_INFO_MAX_DESC)
		return bootmem_error(map, -EBADMSG, "efi: %u descriptors is "
				     "absurd (more than %u)", count,
				     EFI_BOOT_INFO_MAX_DESC);
	if ((uint64_t)count * desc_size != map_size)
		return bootmem_error(map, -EBADMSG, "efi: %u descriptors of %u "
				     "bytes, but the map size is %u", count,
				     desc_size, map_size);
	if (map_size > avail - header)
		return bootmem_error(map, -EBADMSG, "efi: truncated: a %u-byte "
				     "map after a %u-byte header, but only %zu "
				     "bytes are present", map_size, header,
				     avail);
	map->info_size = (uint64_t)header + map_size;
	return 0;
}

/*
 * add_ram - usable memory; merged into the previous range when that was
 * usable memory from this map ending where this one starts (@run_first:
 * the first descriptor of that range, or -1 when there is none to extend).
 */
static int add_ram(struct boot_memmap *map, unsigned int i,
		   const struct efi_desc *d, long *run_first)
{
	struct boot_range *prev = map->cnt ? &map->ranges[map->cnt - 1] : NULL;
	uint64_t size = d->pages << EFI_PAGE_SHIFT;

	if (*run_first >= 0 && prev && prev->base + prev->size == d->start) {
		prev->size += size;
		ksnprintf(prev->reason, sizeof(prev->reason), "EFI map #%ld-#%u: "
			  "usable RAM", *run_first, i);
		return 0;
	}
	*run_first = i;
	return bootmem_add_range(map, BOOT_RANGE_MEMORY, d->start, size,
				 "EFI map #%u: %s", i,
				 efi_memory_type_name(d->type));
}

static int add_desc(struct boot_memmap *map, unsigned int i,
		    const struct efi_desc *d, long *run_first)
{
	uint64_t size = d->pages << EFI_PAGE_SHIFT;
	const char *name = efi_memory_type_name(d->type);
	int err;

	if (!d->pages)
		return 0;
	if (type_is_ram(d->type)) {
		if (!(d->attr & EFI_MEMORY_RUNTIME) && (d->attr & EFI_MEMORY_WB))
			return add_ram(map, i, d, run_first);
		*run_first = -1;
		return bootmem_add_range(map, BOOT_RANGE_IGNORED, d->start, size,
					 "EFI map #%u: %s: %s", i, name,
					 d->attr & EFI_MEMORY_RUNTIME ?
					 "marked for runtime services" :
					 "not write-back cacheable");
	}
	*run_first = -1;
	if (d->type == EFI_ACPI_RECLAIM_MEMORY) {
		err = bootmem_add_range(map, BOOT_RANGE_MEMORY, d->start, size,
					"EFI map #%u: %s", i, name);
		return err ?: bootmem_add_range(map, BOOT_RANGE_RESERVED,
						d->start, size, "EFI map #%u: "
						"ACPI tables, until read", i);
	}
	return bootmem_add_range(map, BOOT_RANGE_IGNORED, d->start, size,
				 "EFI map #%u: %s (%u): %s", i, name, d->type,
				 not_ram_reason(d->type));
}

int efi_memmap_parse_descs(const void *descs_in, uint32_t map_size,
			   uint32_t desc_size, uint32_t desc_version,
			   struct boot_memmap *map)
{
	const uint8_t *descs = descs_in;
	uint32_t count;
	struct efi_desc d;
	long run_first = -1;
	int err;

	err = check_layout(map, map_size, desc_size, desc_version);
	if (err)
		return err;
	count = map_size / desc_size;
	for (uint32_t i = 0; i < count; i++) {
		load_desc(descs + (size_t)i * desc_size, &d);
		err = check_desc(map, i, &d);
		if (err)
			return err;
	}
	err = check_overlaps(map, descs, count, desc_size);
	for (uint32_t i = 0; !err && i < count; i++) {
		load_desc(descs + (size_t)i * desc_size, &d);
		err = add_desc(map, i, &d, &run_first);
	}
	return err ?: bootmem_require_memory(map, "efi");
}

int efi_memmap_parse(const void *blob, size_t avail, struct boot_memmap *map)
{
	const uint8_t *b = blob;
	int err;

	err = check_header(b, avail, map);
	if (err)
		return err;
	return efi_memmap_parse_descs(b + load_le32(b + 4), load_le32(b + 20),
				      load_le32(b + 8), load_le32(b + 12), map);
}

size_t efi_boot_info_size(const void *blob)
{
	const uint8_t *b = blob;

	if (load_le32(b) != EFI_BOOT_INFO_MAGIC)
		return EFI_BOOT_INFO_HEADER;
	return (size_t)load_le32(b + 4) + load_le32(b + 20);
}

uint64_t efi_boot_info_u64(const void *blob, size_t offset)
{
	return load_le64((const uint8_t *)blob + offset);
}
