/*
 * multiboot2.c - the multiboot2 boot information (Multiboot2 spec 2.0,
 * section 3.6) as GRUB hands it over in ebx: memory and modules.
 *
 *   u32 total_size, u32 reserved, then tags, each 8-byte aligned:
 *   u32 type, u32 size, payload ...; the last tag is type 0, size 8.
 *
 * Type 6 (memory map): entries of entry_size bytes (24 or more):
 * u64 base_addr, u64 length, u32 type, u32 reserved. Type 1 is usable RAM;
 * every other type (2 reserved, 3 ACPI reclaimable, 4 ACPI NVS, 5 bad RAM)
 * is listed as not RAM and left out of memblock. Type 3 (module): u32
 * mod_start, u32 mod_end, a NUL-terminated string; reserved.
 *
 * Type 17 (EFI memory map), which GRUB for UEFI adds when it has ended
 * boot services: u32 descriptor_size, u32 descriptor_version, then the
 * firmware's EFI_MEMORY_DESCRIPTORs. When it is there it is read instead
 * of type 6, by the one EFI map reader (boot/efi_memmap.c): it is the
 * firmware's own map, with the types type 6 folds away (boot services
 * and runtime services memory, ACPI NVS, ...); type 6 is GRUB's
 * translation of it.
 *
 * GRUB puts the information right after the kernel's _end; the caller
 * reserves [info, info + total_size) before any allocation.
 */
#include <boot/bytes.h>
#include <boot/efi.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include <lib/string.h>

#define MB2_TAG_END		0
#define MB2_TAG_MODULE		3
#define MB2_TAG_MMAP		6
#define MB2_TAG_EFI_MMAP	17
#define MB2_MAX_TOTAL_SIZE	(1u << 20)	/* larger is refused as absurd */

static int mb2_parse_mmap(const uint8_t *tag, uint32_t size, uint32_t at,
			  struct boot_memmap *map)
{
	uint32_t entry_size, n;
	int err = 0;

	if (size < 16)
		return bootmem_error(map, -EBADMSG, "multiboot2: memory-map tag "
				     "at offset %u is %u bytes, shorter than "
				     "its 16-byte header", at, size);
	entry_size = load_le32(tag + 8);
	if (entry_size < 24 || entry_size % 8)
		return bootmem_error(map, -EBADMSG, "multiboot2: memory-map "
				     "entry_size %u is not a multiple of 8 of "
				     "at least 24", entry_size);
	if ((size - 16) % entry_size)
		return bootmem_error(map, -EBADMSG, "multiboot2: memory-map tag "
				     "holds %u bytes of entries, not a whole "
				     "number of %u-byte entries", size - 16,
				     entry_size);
	n = (size - 16) / entry_size;
	for (uint32_t i = 0; !err && i < n; i++) {
		const uint8_t *e = tag + 16 + i * entry_size;

		err = bootmem_add_e820(map, load_le64(e), load_le64(e + 8),
				       load_le32(e + 16), "multiboot2 mmap", i);
	}
	return err;
}

static int mb2_parse_efi_mmap(const uint8_t *tag, uint32_t size, uint32_t at,
			      struct boot_memmap *map)
{
	if (size < 16)
		return bootmem_error(map, -EBADMSG, "multiboot2: EFI memory-map "
				     "tag at offset %u is %u bytes, shorter "
				     "than its 16-byte header", at, size);
	return efi_memmap_parse_descs(tag + 16, size - 16, load_le32(tag + 8),
				      load_le32(tag + 12), map);
}

static int mb2_parse_module(const uint8_t *tag, uint32_t size, uint32_t at,
			    unsigned int index, struct boot_memmap *map)
{
	uint32_t start, end;
	const char *name = (const char *)tag + 16;

	if (size < 17)
		return bootmem_error(map, -EBADMSG, "multiboot2: module tag at "
				     "offset %u is %u bytes, too short", at,
				     size);
	if (strnlen(name, size - 16) == size - 16)
		return bootmem_error(map, -EBADMSG, "multiboot2: module tag at "
				     "offset %u: unterminated string", at);
	start = load_le32(tag + 8);
	end = load_le32(tag + 12);
	if (end < start)
		return bootmem_error(map, -EBADMSG, "multiboot2: module #%u "
				     "ends at %#x, below its start %#x", index,
				     end, start);
	return bootmem_add_range(map, BOOT_RANGE_RESERVED, start, end - start,
				 "multiboot2 module #%u %s", index, name);
}

int multiboot2_memory_parse(const void *mbi, size_t avail,
			    struct boot_memmap *map)
{
	const uint8_t *b = mbi;
	uint32_t total, at, type, size;
	unsigned int modules = 0;
	bool have_mmap = false, have_efi = false, use_efi;
	int err = 0;

	if (avail < 16)
		return bootmem_error(map, -EBADMSG, "multiboot2: truncated: "
				     "%zu bytes, too short for the header and "
				     "an end tag", avail);
	total = load_le32(b);
	if (total < 16 || total % 8)
		return bootmem_error(map, -EBADMSG, "multiboot2: total_size %u "
				     "is not a multiple of 8 of at least 16",
				     total);
	if (total > MB2_MAX_TOTAL_SIZE)
		return bootmem_error(map, -EBADMSG, "multiboot2: total_size %u "
				     "is absurd (more than %u)", total,
				     MB2_MAX_TOTAL_SIZE);
	if (total > avail)
		return bootmem_error(map, -EBADMSG, "multiboot2: truncated: "
				     "total_size is %u but only %zu bytes are "
				     "present", total, avail);
	map->info_size = total;
	use_efi = multiboot2_memory_source(mbi, avail) == MB2_TAG_EFI_MMAP;

	for (at = 8;; at += ALIGN_UP(size, 8)) {
		if (total - at < 8)
			return bootmem_error(map, -EBADMSG, "multiboot2: no end "
					     "tag within total_size %u", total);
		type = load_le32(b + at);
		size = load_le32(b + at + 4);
		if (size < 8 || size > total - at)
			return bootmem_error(map, -EBADMSG, "multiboot2: tag "
					     "type %u at offset %u has size %u, "
					     "past total_size %u", type, at,
					     size, total);
		if (type == MB2_TAG_END)
			break;
		if (type == MB2_TAG_MMAP) {
			if (have_mmap)
				return bootmem_error(map, -EBADMSG,
						     "multiboot2: a second "
						     "memory-map tag at offset "
						     "%u", at);
			have_mmap = true;
			if (!use_efi)
				err = mb2_parse_mmap(b + at, size, at, map);
		} else if (type == MB2_TAG_EFI_MMAP) {
			if (have_efi)
				return bootmem_error(map, -EBADMSG,
						     "multiboot2: a second EFI "
						     "memory-map tag at offset "
						     "%u", at);
			have_efi = true;
			err = mb2_parse_efi_mmap(b + at, size, at, map);
		} else if (type == MB2_TAG_MODULE) {
			err = mb2_parse_module(b + at, size, at, modules++, map);
		}
		if (err)
			return err;
	}
	if (size != 8)
		return bootmem_error(map, -EBADMSG, "multiboot2: end tag at "
				     "offset %u has size %u, not 8", at, size);
	if (!have_mmap && !have_efi)
		return bootmem_error(map, -ENOMEM, "multiboot2: no memory-map "
				     "tag (type 6 or 17): no usable memory");
	return bootmem_require_memory(map, "multiboot2");
}

/*
 * Which memory tag the reader takes: the first type 17 when there is one,
 * else type 6. A walk that bounds every tag and trusts nothing else; the
 * reader checks the structure.
 */
uint32_t multiboot2_memory_source(const void *mbi, size_t avail)
{
	const uint8_t *b = mbi;
	uint32_t total, at, type, size, found = 0;

	if (avail < 16 || (total = load_le32(b)) < 16 || total > avail)
		return 0;
	for (at = 8; total - at >= 8; at += ALIGN_UP(size, 8)) {
		type = load_le32(b + at);
		size = load_le32(b + at + 4);
		if (size < 8 || size > total - at || type == MB2_TAG_END)
			break;
		if (type == MB2_TAG_EFI_MMAP)
			return MB2_TAG_EFI_MMAP;
		if (type == MB2_TAG_MMAP)
			found = MB2_TAG_MMAP;
		if (ALIGN_UP(size, 8) > total - at)
			break;
	}
	return found;
}

/*
 * The ACPI tags carry a copy of the RSDP, inside the information itself:
 * type 14 an ACPI 1.0 RSDP (20 bytes), type 15 an ACPI 2.0+ one (36 bytes
 * or more). The newer is preferred, as Linux does. The structure was
 * checked by multiboot2_memory_parse(); the walk still bounds every tag.
 */
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_RSDP_V1_SIZE	20u
#define MB2_RSDP_V2_SIZE	36u

int multiboot2_rsdp(const void *mbi, size_t avail, uint64_t *offset)
{
	const uint8_t *b = mbi;
	uint32_t total, at, type, size;

	*offset = 0;
	if (avail < 16 || (total = load_le32(b)) < 16 || total > avail)
		return -EBADMSG;
	for (at = 8; total - at >= 8; at += ALIGN_UP(size, 8)) {
		type = load_le32(b + at);
		size = load_le32(b + at + 4);
		if (size < 8 || size > total - at || type == MB2_TAG_END)
			break;
		if (type == MB2_TAG_ACPI_NEW && size >= 8 + MB2_RSDP_V2_SIZE)
			*offset = at + 8;	/* the best there is */
		else if (type == MB2_TAG_ACPI_OLD && !*offset &&
			 size >= 8 + MB2_RSDP_V1_SIZE)
			*offset = at + 8;
		if (ALIGN_UP(size, 8) > total - at)
			break;
	}
	return *offset ? 0 : -ENOENT;
}
