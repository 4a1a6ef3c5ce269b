/*
 * readers.h - the boot-info readers: device tree, multiboot2, PVH.
 *
 * Each validates what the loader handed over and appends to @map the
 * usable RAM and the reservations it describes, with a reason for each
 * (see bootmem.h for the list and the error convention). None reads
 * outside the bytes it is given, none writes anything but @map.
 */
#ifndef BOOT_READERS_H
#define BOOT_READERS_H

#include <boot/bootmem.h>

/*
 * fdt_memory_parse - memory nodes (device_type = "memory", status okay, all
 * reg entries in the root's #address-cells/#size-cells), static
 * /reserved-memory children (no-map kept apart), /memreserve/ entries and
 * the /chosen initrd, from the DTB at @blob (@avail readable bytes).
 * map->info_size = totalsize. Refuses cell counts other than 1 or 2, a reg
 * that is not a whole number of entries, a range past 2^64, an initrd end
 * before its start, and everything fdt_open() refuses.
 */
int fdt_memory_parse(const void *blob, size_t avail, struct boot_memmap *map);

/*
 * multiboot2_memory_parse - the memory of the multiboot2 information at
 * @mbi (@avail readable bytes): the EFI memory-map tag (type 17) when
 * there is one, read by efi_memmap_parse_descs(); else the memory-map tag
 * (type 6), whose type 1 entries are memory and the rest listed as not
 * RAM. Modules (tag 3) are reserved. map->info_size = total_size.
 */
int multiboot2_memory_parse(const void *mbi, size_t avail,
			    struct boot_memmap *map);

/*
 * multiboot2_memory_source - the tag multiboot2_memory_parse() takes the
 * memory from: 17 (EFI memory map), 6 (memory map), or 0 when there is
 * neither (or the information is too broken to say).
 */
uint32_t multiboot2_memory_source(const void *mbi, size_t avail);

/*
 * struct pvh_source - how the PVH reader reaches the structures that
 * hvm_start_info points to.
 * @map:      a pointer to [@addr, @addr + @len), or NULL if that is not
 *            readable (out of the file, or wrapping).
 * @physical: the addresses are real physical addresses (the kernel), so
 *            the start_info, memory map, module list and command line are
 *            reserved too; false when they are offsets in a saved file.
 */
struct pvh_source {
	const void *(*map)(const struct pvh_source *src, uint64_t addr,
			   size_t len);
	const void *base;	/* for file sources: the file's bytes */
	size_t size;
	bool physical;
};

/*
 * pvh_buffer_map - a @map for a source whose "addresses" are offsets into
 * the @base/@size buffer (saved files, tests, fuzzers).
 */
const void *pvh_buffer_map(const struct pvh_source *src, uint64_t addr,
			   size_t len);

/*
 * pvh_memory_parse - the hvm_start_info at @info: version 1 or later, its
 * memmap (type 1 entries are memory, others listed as not RAM), modules
 * reserved. map->info_size = the start_info's size for its version.
 */
int pvh_memory_parse(const struct pvh_source *src, uint64_t info,
		     struct boot_memmap *map);

/*
 * pvh_rsdp - the start_info's rsdp_paddr (0 when the loader gave none).
 * Return: 0, or -EBADMSG when @info is not a readable start_info.
 */
int pvh_rsdp(const struct pvh_source *src, uint64_t info, uint64_t *rsdp);

/*
 * multiboot2_rsdp - where in the information at @mbi (@avail bytes) the
 * RSDP copy of the ACPI new (type 15, preferred) or old (type 14) tag is.
 * Return: 0 and *@offset set (from @mbi), -ENOENT when there is no ACPI
 * tag (*@offset = 0), -EBADMSG for a structure too short to hold one.
 */
int multiboot2_rsdp(const void *mbi, size_t avail, uint64_t *offset);

#endif /* BOOT_READERS_H */
