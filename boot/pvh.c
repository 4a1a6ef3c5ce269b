/*
 * pvh.c - the Xen/QEMU PVH boot ABI's struct hvm_start_info, handed over in
 * ebx (xen/include/public/arch-x86/hvm/start_info.h), all little-endian:
 *
 *   0  u32 magic (0x336ec578)    4 u32 version     8 u32 flags
 *   12 u32 nr_modules            16 u64 modlist_paddr
 *   24 u64 cmdline_paddr         32 u64 rsdp_paddr
 *   version >= 1:  40 u64 memmap_paddr  48 u32 memmap_entries  52 u32 rsvd
 *
 * memmap entries are 24 bytes: u64 addr, u64 size, u32 type, u32 reserved,
 * with e820 types (1 = RAM). Module list entries are 32 bytes: u64 paddr,
 * u64 size, u64 cmdline_paddr, u64 reserved.
 *
 * The structures sit wherever the loader put them (QEMU: below 1 MiB).
 * With a physical source the memory map, module list and command line are
 * reserved, so nothing handed out overlaps them (the caller reserves the
 * start_info itself, map->info_size bytes); a saved file gives offsets
 * instead, and only the modules are reported.
 */
#include <boot/abi.h>
#include <boot/bytes.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include <lib/string.h>

#define PVH_V0_SIZE		40u
#define PVH_V1_SIZE		56u
#define PVH_MEMMAP_ENTRY	24u
#define PVH_MODLIST_ENTRY	32u
#define PVH_MAX_ENTRIES		4096u	/* more is refused as absurd */
#define PVH_CMDLINE_MAX		65536u

const void *pvh_buffer_map(const struct pvh_source *src, uint64_t addr,
			   size_t len)
{
	if (addr > src->size || len > src->size - addr)
		return NULL;
	return (const uint8_t *)src->base + addr;
}

static const uint8_t *pvh_map(const struct pvh_source *src, uint64_t addr,
			      size_t len)
{
	return src->map(src, addr, len);
}

/*
 * pvh_map_table - the @n entries of @entry bytes at @paddr, reserved (with
 * a physical source) as @what. Return: 0 and *@out set, or an error.
 */
static int pvh_map_table(const struct pvh_source *src, uint64_t paddr,
			 uint32_t n, uint32_t entry, const char *what,
			 struct boot_memmap *map, const uint8_t **out)
{
	if (n > PVH_MAX_ENTRIES)
		return bootmem_error(map, -EBADMSG, "pvh: %s of %u entries is "
				     "absurd (more than %u)", what, n,
				     PVH_MAX_ENTRIES);
	*out = pvh_map(src, paddr, (size_t)n * entry);
	if (!*out)
		return bootmem_error(map, -EBADMSG, "pvh: %s [%#llx, +%u "
				     "entries) is outside the readable data",
				     what, (unsigned long long)paddr, n);
	if (!src->physical)
		return 0;
	return bootmem_add_range(map, BOOT_RANGE_RESERVED, paddr,
				 (uint64_t)n * entry, "PVH %s", what);
}

static int pvh_parse_memmap(const struct pvh_source *src, const uint8_t *si,
			    struct boot_memmap *map)
{
	uint32_t n = load_le32(si + 48);
	const uint8_t *mm;
	int err = pvh_map_table(src, load_le64(si + 40), n, PVH_MEMMAP_ENTRY,
				"memory map", map, &mm);

	for (uint32_t i = 0; !err && i < n; i++) {
		const uint8_t *e = mm + i * PVH_MEMMAP_ENTRY;

		err = bootmem_add_e820(map, load_le64(e), load_le64(e + 8),
				       load_le32(e + 16), "PVH memmap", i);
	}
	return err;
}

static int pvh_parse_modules(const struct pvh_source *src, const uint8_t *si,
			     struct boot_memmap *map)
{
	uint32_t n = load_le32(si + 12);
	const uint8_t *ml;
	int err;

	if (n == 0)
		return 0;
	err = pvh_map_table(src, load_le64(si + 16), n, PVH_MODLIST_ENTRY,
			    "module list", map, &ml);
	for (uint32_t i = 0; !err && i < n; i++)
		err = bootmem_add_range(map, BOOT_RANGE_RESERVED,
					load_le64(ml + i * PVH_MODLIST_ENTRY),
					load_le64(ml + i * PVH_MODLIST_ENTRY + 8),
					"PVH module #%u", i);
	return err;
}

/* The command line, up to its NUL, read one byte at a time through @src. */
static int pvh_reserve_cmdline(const struct pvh_source *src, uint64_t paddr,
			       struct boot_memmap *map)
{
	const uint8_t *c;
	uint32_t len;

	if (!paddr || !src->physical)
		return 0;
	for (len = 0; len < PVH_CMDLINE_MAX; len++) {
		c = pvh_map(src, paddr + len, 1);
		if (!c)
			return bootmem_error(map, -EBADMSG, "pvh: command line "
					     "at %#llx is not readable",
					     (unsigned long long)paddr);
		if (*c == '\0')
			return bootmem_add_range(map, BOOT_RANGE_RESERVED,
						 paddr, len + 1,
						 "PVH command line");
	}
	return bootmem_error(map, -EBADMSG, "pvh: command line at %#llx is not "
			     "terminated within %u bytes",
			     (unsigned long long)paddr, PVH_CMDLINE_MAX);
}

int pvh_memory_parse(const struct pvh_source *src, uint64_t info,
		     struct boot_memmap *map)
{
	const uint8_t *si = pvh_map(src, info, 8);
	uint32_t version, size;
	int err;

	if (!si)
		return bootmem_error(map, -EBADMSG, "pvh: truncated: no "
				     "hvm_start_info header at %#llx",
				     (unsigned long long)info);
	if (load_le32(si) != PVH_MAGIC)
		return bootmem_error(map, -EBADMSG, "pvh: bad magic %#x "
				     "(expected %#x)", load_le32(si), PVH_MAGIC);
	version = load_le32(si + 4);
	size = version >= 1 ? PVH_V1_SIZE : PVH_V0_SIZE;
	si = pvh_map(src, info, size);
	if (!si)
		return bootmem_error(map, -EBADMSG, "pvh: truncated: "
				     "hvm_start_info version %u needs %u bytes",
				     version, size);
	map->info_size = size;
	err = pvh_parse_modules(src, si, map);
	if (!err)
		err = pvh_reserve_cmdline(src, load_le64(si + 24), map);
	if (err)
		return err;
	if (version < 1)
		return bootmem_error(map, -ENOMEM, "pvh: hvm_start_info version "
				     "0 has no memory map: no usable memory");
	err = pvh_parse_memmap(src, si, map);
	return err ?: bootmem_require_memory(map, "pvh");
}

int pvh_rsdp(const struct pvh_source *src, uint64_t info, uint64_t *rsdp)
{
	const uint8_t *si = pvh_map(src, info, PVH_V0_SIZE);

	if (!si || load_le32(si) != PVH_MAGIC)
		return -EBADMSG;
	*rsdp = load_le64(si + 32);
	return 0;
}
