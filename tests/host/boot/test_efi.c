/*
 * test_efi.c - the EFI memory map reader: an OVMF-like map read by type
 * policy, descriptors stepped by their own size, maps of thousands of
 * descriptors, and a named refusal for each bad input.
 */
#include <stdlib.h>
#include "boot_test.h"

#define MAX_DESC	2048
#define HDR		EFI_BOOT_INFO_HEADER
#define WB		EFI_MEMORY_WB
#define RT		EFI_MEMORY_RUNTIME

static uint8_t buf[HDR + MAX_DESC * 64];
static size_t len;
static uint32_t dsize, ndesc;

static void set32(size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

static void set64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

/* An empty map of @size-byte descriptors; padding bytes are 0xa5. */
static void begin(uint32_t size)
{
	memset(buf, 0xa5, sizeof(buf));
	dsize = size;
	ndesc = 0;
	len = HDR;
	set32(0, EFI_BOOT_INFO_MAGIC);
	set32(4, HDR);
	set32(8, size);
	set32(12, EFI_MEMORY_DESCRIPTOR_VERSION);
	set32(16, 0);
	set32(20, 0);
	set64(24, 0);
	set64(32, 0);
	set64(40, 0);
}

static void desc(uint32_t type, uint64_t start, uint64_t pages, uint64_t attr)
{
	size_t d = HDR + (size_t)ndesc * dsize;

	set32(d, type);
	set64(d + 8, start);
	set64(d + 16, 0);
	set64(d + 24, pages);
	set64(d + 32, attr);
	ndesc++;
	len = d + dsize;
	set32(16, ndesc);
	set32(20, ndesc * dsize);
}

/* What OVMF gives a 128 MiB q35 guest, in short. */
static void ovmf_like(uint32_t size)
{
	begin(size);
	desc(EFI_BOOT_SERVICES_CODE, 0, 1, WB);
	desc(EFI_CONVENTIONAL_MEMORY, 0x1000, 0x9f, WB);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x700, WB);
	desc(EFI_ACPI_MEMORY_NVS, 0x800000, 8, WB);
	desc(EFI_CONVENTIONAL_MEMORY, 0x808000, 8, WB);
	desc(EFI_LOADER_CODE, 0x810000, 0x10, WB);
	desc(EFI_BOOT_SERVICES_DATA, 0x820000, 0x100, WB);
	desc(EFI_ACPI_RECLAIM_MEMORY, 0x7b7e000, 4, WB);
	desc(EFI_RUNTIME_SERVICES_DATA, 0x7b82000, 0x20, WB | RT);
	desc(EFI_RESERVED_MEMORY_TYPE, 0xe0000000, 0x10000, 0);
	desc(EFI_MEMORY_MAPPED_IO, 0xffc00000, 0x400, RT);
}

static bool efi_reads_ovmf_like_map(void)
{
	ovmf_like(48);
	EXPECT(read_blob(READ_EFI, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 9, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0, 0xa0000,
		     "EFI map #0-#1: usable RAM");
	EXPECT_RANGE(1, BOOT_RANGE_MEMORY, 0x100000, 0x700000,
		     "EFI map #2: conventional memory");
	EXPECT_RANGE(2, BOOT_RANGE_IGNORED, 0x800000, 0x8000,
		     "EFI map #3: ACPI NVS (10): the firmware's, kept across "
		     "sleep");
	EXPECT_RANGE(3, BOOT_RANGE_MEMORY, 0x808000, 0x118000,
		     "EFI map #4-#6: usable RAM");
	EXPECT_RANGE(4, BOOT_RANGE_MEMORY, 0x7b7e000, 0x4000,
		     "EFI map #7: ACPI reclaim memory");
	EXPECT_RANGE(5, BOOT_RANGE_RESERVED, 0x7b7e000, 0x4000,
		     "EFI map #7: ACPI tables, until read");
	EXPECT_RANGE(6, BOOT_RANGE_IGNORED, 0x7b82000, 0x20000,
		     "EFI map #8: runtime services data (6): the firmware's at "
		     "run time");
	EXPECT_RANGE(7, BOOT_RANGE_IGNORED, 0xe0000000, 0x10000000,
		     "EFI map #9: reserved (0): not for the OS");
	EXPECT_RANGE(8, BOOT_RANGE_IGNORED, 0xffc00000, 0x400000,
		     "EFI map #10: MMIO (11): device registers, not RAM");
	EXPECT(test_map.info_size == len, "info_size %llu, not %zu",
	       (unsigned long long)test_map.info_size, len);
	return true;
}

/* The same map with 40-, 48- and 64-byte descriptors reads the same. */
static bool efi_steps_by_descriptor_size(void)
{
	static const uint32_t sizes[] = { 40, 48, 64, 56 };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		ovmf_like(sizes[i]);
		EXPECT(read_blob(READ_EFI, buf, len) == 0, "size %u: %s",
		       sizes[i], test_map.error);
		EXPECT(test_map.cnt == 9, "size %u: %u ranges", sizes[i],
		       test_map.cnt);
		EXPECT_RANGE(8, BOOT_RANGE_IGNORED, 0xffc00000, 0x400000,
			     "EFI map #10: MMIO (11): device registers, not "
			     "RAM");
	}
	return true;
}

static bool efi_ram_needs_wb_and_no_runtime(void)
{
	begin(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x100, WB);
	desc(EFI_CONVENTIONAL_MEMORY, 0x200000, 0x100, 0);
	desc(EFI_BOOT_SERVICES_DATA, 0x300000, 0x100, WB | RT);
	desc(EFI_PERSISTENT_MEMORY, 0x400000, 0x100, WB);
	desc(0x80000001u, 0x500000, 0x100, WB);
	EXPECT(read_blob(READ_EFI, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 5, "%u ranges", test_map.cnt);
	EXPECT_RANGE(1, BOOT_RANGE_IGNORED, 0x200000, 0x100000,
		     "EFI map #1: conventional memory: not write-back "
		     "cacheable");
	EXPECT_RANGE(2, BOOT_RANGE_IGNORED, 0x300000, 0x100000,
		     "EFI map #2: boot services data: marked for runtime "
		     "services");
	EXPECT_RANGE(3, BOOT_RANGE_IGNORED, 0x400000, 0x100000,
		     "EFI map #3: persistent memory (14): kept for its "
		     "contents");
	EXPECT_RANGE(4, BOOT_RANGE_IGNORED, 0x500000, 0x100000,
		     "EFI map #4: unknown type (2147483649): not known to "
		     "buddyboot");
	return true;
}

/* Run the reader with room for @max ranges on a heap copy. */
static int read_big(unsigned int max, struct boot_memmap *map)
{
	static struct boot_range ranges[MAX_DESC];
	void *copy = malloc(len);
	int err;

	memcpy(copy, buf, len);
	bootmem_init(map, ranges, max);
	err = efi_memmap_parse(copy, len, map);
	free(copy);
	return err;
}

/*
 * 2048 descriptors: alternating RAM and MMIO need a range each; all RAM,
 * in descending order of address (unsorted: the pairwise overlap check),
 * merges only where neighbours in the list are neighbours in memory.
 */
static bool efi_reads_thousands_of_descriptors(void)
{
	struct boot_memmap map;

	begin(48);
	for (unsigned int i = 0; i < MAX_DESC; i++)
		desc(i % 2 ? EFI_MEMORY_MAPPED_IO : EFI_CONVENTIONAL_MEMORY,
		     0x100000 + i * 0x2000ULL, 2, WB);
	EXPECT(read_big(MAX_DESC, &map) == 0, "%s", map.error);
	EXPECT(map.cnt == MAX_DESC, "%u ranges", map.cnt);
	EXPECT(map.ranges[MAX_DESC - 1].base == 0x100000 + (MAX_DESC - 1) *
	       0x2000ULL, "last range at %#llx",
	       (unsigned long long)map.ranges[MAX_DESC - 1].base);
	EXPECT(read_big(1024, &map) == -ENOSPC && strstr(map.error, "more "
	       "than 1024"), "%s", map.error);

	begin(48);
	for (unsigned int i = 0; i < MAX_DESC; i++)
		desc(EFI_CONVENTIONAL_MEMORY, 0x100000 + i * 0x2000ULL, 2, WB);
	EXPECT(read_big(4, &map) == 0, "%s", map.error);
	EXPECT(map.cnt == 1 && map.ranges[0].size == MAX_DESC * 0x2000ULL,
	       "%u ranges", map.cnt);
	EXPECT(!strcmp(map.ranges[0].reason, "EFI map #0-#2047: usable RAM"),
	       "%s", map.ranges[0].reason);

	begin(48);
	for (unsigned int i = 0; i < MAX_DESC; i++)
		desc(EFI_CONVENTIONAL_MEMORY, 0x100000 + (MAX_DESC - i) *
		     0x2000ULL, 1, WB);
	EXPECT(read_big(MAX_DESC, &map) == 0, "%s", map.error);
	EXPECT(map.cnt == MAX_DESC, "%u ranges", map.cnt);
	return true;
}

static bool efi_refuses_bad_headers(void)
{
	ovmf_like(48);
	for (size_t n = 0; n < len; n++)
		EXPECT_ERROR(read_blob(READ_EFI, buf, n), -EBADMSG,
			     "truncated");
	ovmf_like(48);
	set32(0, 0x12345678);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG, "bad magic");
	ovmf_like(48);
	set32(4, 44);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "header_size 44");
	ovmf_like(48);
	set32(8, 32);
	set32(20, ndesc * 32);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "descriptor size 32 is smaller than the 40-byte");
	ovmf_like(48);
	set32(8, 8192);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG, "absurd");
	ovmf_like(48);
	set32(12, 2);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "descriptor version 2");
	ovmf_like(48);
	set32(20, ndesc * 48 - 8);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "is not a multiple of the descriptor size 48");
	ovmf_like(48);
	set32(20, (ndesc - 1) * 48);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "11 descriptors of 48 bytes, but the map size is 480");
	ovmf_like(48);
	set32(16, 100000);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "100000 descriptors is absurd");
	return true;
}

static bool efi_refuses_bad_descriptors(void)
{
	ovmf_like(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0x1000000, 0x10, WB);	/* unsorted */
	desc(EFI_CONVENTIONAL_MEMORY, 0x850000, 0x1, WB);	/* in #6 */
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "descriptors #6 [0x820000-0x920000) and #12 "
		     "[0x850000-0x851000) overlap");
	ovmf_like(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100000000, 0x10, WB);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100008000, 0x10, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "and #12 [0x100008000-0x100018000) overlap");
	ovmf_like(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100000800, 0x10, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "descriptor #11 starts at 0x100000800, not 4 KiB aligned");
	ovmf_like(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0xfffffffffff00000ULL, 0x100, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "256 pages overflow the 64-bit address space");
	ovmf_like(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0x100000000, 1ULL << 60, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "overflow the 64-bit address space");
	begin(48);
	desc(EFI_CONVENTIONAL_MEMORY, 0, 1ULL << 52, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -EBADMSG,
		     "overflow the 64-bit address space");
	return true;
}

static bool efi_refuses_no_memory(void)
{
	begin(48);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -ENOMEM,
		     "efi: no usable memory");
	desc(EFI_RUNTIME_SERVICES_CODE, 0x100000, 0x10, WB | RT);
	desc(EFI_ACPI_MEMORY_NVS, 0x200000, 0x10, WB);
	EXPECT_ERROR(read_blob(READ_EFI, buf, len), -ENOMEM,
		     "efi: no usable memory");
	return true;
}

static bool efi_header_fields(void)
{
	ovmf_like(48);
	set64(24, 0x7fbfa014);
	set64(32, 0x48000000);
	EXPECT(read_blob(READ_EFI, buf, len) == 0, "%s", test_map.error);
	EXPECT(efi_boot_info_u64(buf, 24) == 0x7fbfa014, "rsdp");
	EXPECT(efi_boot_info_u64(buf, 32) == 0x48000000, "fdt");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(efi_reads_ovmf_like_map),
	HOST_TEST(efi_steps_by_descriptor_size),
	HOST_TEST(efi_ram_needs_wb_and_no_runtime),
	HOST_TEST(efi_reads_thousands_of_descriptors),
	HOST_TEST(efi_refuses_bad_headers),
	HOST_TEST(efi_refuses_bad_descriptors),
	HOST_TEST(efi_refuses_no_memory),
	HOST_TEST(efi_header_fields),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
