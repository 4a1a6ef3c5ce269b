/*
 * efi.h - the UEFI memory map as buddyboot reads it: the memory descriptor
 * (UEFI 2.10, section 7.2, EFI_MEMORY_DESCRIPTOR), its types and
 * attributes, and the "EFI boot information" blob that carries a map from
 * the EFI entry to boot_main() and that build/host/memmap reads from a
 * file (tools/memmap/README.md).
 *
 * The firmware's own interfaces (system table, boot services) are in
 * boot/efi_api.h: only the EFI entry calls them.
 *
 * The EFI boot information blob, all little-endian:
 *
 *   0  u32 magic         EFI_BOOT_INFO_MAGIC ("EMAP" in memory)
 *   4  u32 header_size   bytes before the first descriptor (>= 48, a
 *                        multiple of 8)
 *   8  u32 desc_size     the firmware's DescriptorSize (>= 40)
 *   12 u32 desc_version  the firmware's DescriptorVersion (1)
 *   16 u32 count         descriptors that follow
 *   20 u32 map_size      the MemoryMapSize GetMemoryMap() returned:
 *                        count * desc_size, or the map is refused
 *   24 u64 acpi_rsdp     physical address of the ACPI RSDP, or 0
 *   32 u64 fdt           physical address of the device tree, or 0
 *   40 u64 system_table  physical address of the EFI system table, or 0
 *   header_size: count descriptors of desc_size bytes each
 *
 * Descriptors are stepped through by desc_size, never by the size of the
 * structure below: firmware may append fields (OVMF's are 48 bytes).
 */
#ifndef BOOT_EFI_H
#define BOOT_EFI_H

#include <boot/bootmem.h>

/* EFI_MEMORY_TYPE */
enum efi_memory_type {
	EFI_RESERVED_MEMORY_TYPE	= 0,
	EFI_LOADER_CODE			= 1,
	EFI_LOADER_DATA			= 2,
	EFI_BOOT_SERVICES_CODE		= 3,
	EFI_BOOT_SERVICES_DATA		= 4,
	EFI_RUNTIME_SERVICES_CODE	= 5,
	EFI_RUNTIME_SERVICES_DATA	= 6,
	EFI_CONVENTIONAL_MEMORY		= 7,
	EFI_UNUSABLE_MEMORY		= 8,
	EFI_ACPI_RECLAIM_MEMORY		= 9,
	EFI_ACPI_MEMORY_NVS		= 10,
	EFI_MEMORY_MAPPED_IO		= 11,
	EFI_MEMORY_MAPPED_IO_PORT_SPACE	= 12,
	EFI_PAL_CODE			= 13,
	EFI_PERSISTENT_MEMORY		= 14,
	EFI_UNACCEPTED_MEMORY		= 15,
};

/* EFI_MEMORY_DESCRIPTOR attributes this reader looks at. */
#define EFI_MEMORY_WB		(1ULL << 3)	/* write-back cacheable */
#define EFI_MEMORY_RUNTIME	(1ULL << 63)	/* the OS must map it for
						 * runtime services */

#define EFI_PAGE_SHIFT		12		/* always 4 KiB, whatever
						 * the OS's page size */

/*
 * EFI_MEMORY_DESCRIPTOR, version 1: 40 bytes with the padding after
 * @type. Only for offsets and sizeof in a check; never for stepping.
 */
struct efi_memory_descriptor {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start;
	uint64_t virt_start;
	uint64_t num_pages;
	uint64_t attribute;
};

#define EFI_DESC_MIN_SIZE	40u	/* sizeof(struct efi_memory_descriptor) */
#define EFI_DESC_MAX_SIZE	4096u	/* larger is refused as absurd */
#define EFI_MEMORY_DESCRIPTOR_VERSION 1u

#define EFI_BOOT_INFO_MAGIC	0x50414d45u	/* "EMAP" little-endian */
#define EFI_BOOT_INFO_HEADER	48u
#define EFI_BOOT_INFO_MAX_DESC	65536u		/* more is refused as absurd */

/* The blob's header, as the EFI entry writes it (little-endian CPUs). */
struct efi_boot_info {
	uint32_t magic;
	uint32_t header_size;
	uint32_t desc_size;
	uint32_t desc_version;
	uint32_t count;
	uint32_t map_size;
	uint64_t acpi_rsdp;
	uint64_t fdt;
	uint64_t system_table;
};

/*
 * efi_memmap_parse - the EFI boot information blob at @blob (@avail
 * readable bytes): every descriptor becomes a range, by type:
 *   loader code/data, boot services code/data, conventional: memory
 *     (usable once ExitBootServices() returned), when write-back
 *     cacheable and not marked EFI_MEMORY_RUNTIME;
 *   ACPI reclaim: memory, and reserved until the ACPI tables are read;
 *   runtime services code/data, ACPI NVS, unusable, MMIO, MMIO port
 *     space, PAL code, persistent, unaccepted, reserved and unknown
 *     types: listed as not RAM, with the reason.
 * Neighbouring usable descriptors are merged into one range, so that a
 * map of thousands of descriptors fits a small range array.
 * map->info_size = header_size + count * desc_size.
 * Refuses: a bad magic or header, a descriptor size below 40 bytes or
 * absurd, a descriptor version other than 1, a map that is not a whole
 * number of descriptors or runs past @avail, a start that is not 4 KiB
 * aligned, a page count that runs past 2^64, overlapping descriptors.
 * Return: as the other readers (bootmem.h).
 */
int efi_memmap_parse(const void *blob, size_t avail, struct boot_memmap *map);

/*
 * efi_memmap_parse_descs - the descriptors alone: @map_size bytes at
 * @descs, of @desc_size bytes each, version @desc_version, as the
 * firmware's GetMemoryMap() returned them (the multiboot2 EFI memory-map
 * tag carries them so). The same checks and ranges as efi_memmap_parse(),
 * which calls it; the caller has checked that @map_size bytes are
 * readable. map->info_size is left alone.
 */
int efi_memmap_parse_descs(const void *descs, uint32_t map_size,
			   uint32_t desc_size, uint32_t desc_version,
			   struct boot_memmap *map);

/*
 * efi_boot_info_u64 - a 64-bit header field (offsetof(struct
 * efi_boot_info, acpi_rsdp) etc.) of a blob efi_memmap_parse() accepted.
 */
uint64_t efi_boot_info_u64(const void *blob, size_t offset);

/*
 * efi_boot_info_size - header_size + map_size of the blob at @blob, whose
 * first EFI_BOOT_INFO_HEADER bytes must be readable: how much to hand to
 * efi_memmap_parse(). EFI_BOOT_INFO_HEADER when the magic is wrong, so
 * that the reader then names the problem.
 */
size_t efi_boot_info_size(const void *blob);

/* efi_memory_type_name - "conventional memory", "ACPI NVS", ... */
const char *efi_memory_type_name(uint32_t type);

/* Kernel only (boot/efi_boot.c), for boot_memory_init(). */

/* efi_boot_report - print why each not-RAM range is left out. */
void efi_boot_report(phys_addr_t info, const struct boot_memmap *map);

/*
 * efi_boot_reserve - reserve the configuration table's device tree and
 * the reservations it lists. Return: 0 or memblock's error.
 */
int efi_boot_reserve(phys_addr_t info);

/*
 * efi_fdt_scratch - point @map, emptied, at the ranges that hold what the
 * configuration table's device tree lists (a few dozen on real boards):
 * one buffer for both readers of that tree, efi_boot_reserve() and, later,
 * boot_numa_init_topology() (fdt_numa_memory()).
 */
void efi_fdt_scratch(struct boot_memmap *map);

#endif /* BOOT_EFI_H */
