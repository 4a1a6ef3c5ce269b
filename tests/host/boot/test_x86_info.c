/*
 * test_x86_info.c - the multiboot2 and PVH readers: QEMU's -m 128M map
 * read right, modules reserved, and a named refusal for each bad input.
 */
#include <boot/abi.h>
#include "boot_test.h"

static uint8_t buf[1024];
static size_t len;

static void put(const void *p, size_t n)
{
	memcpy(buf + len, p, n);
	len += n;
}

static void put32(uint32_t v)
{
	put(&v, 4);
}

static void put64(uint64_t v)
{
	put(&v, 8);
}

static void set32(size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

static void e820(uint64_t base, uint64_t size, uint32_t type)
{
	put64(base);
	put64(size);
	put32(type);
	put32(0);
}

/* QEMU -m 128M, as platforms.md records it. */
static void qemu_128m_entries(void)
{
	e820(0, 0x9fc00, 1);
	e820(0x9fc00, 0x400, 2);
	e820(0x100000, 0x7ee0000, 1);
	e820(0xfffc0000, 0x40000, 2);
}

/* total_size, reserved, mmap tag (4 entries) */
static void mb2_head(void)
{
	len = 0;
	put32(0);
	put32(0);
	put32(6);
	put32(16 + 4 * 24);
	put32(24);
	put32(0);
	qemu_128m_entries();
}

/* mb2_head(), then a module tag and the end tag. */
static void mb2_blob(void)
{
	mb2_head();
	put32(3);
	put32(16 + 7);
	put32(0x2000000);
	put32(0x2400000);
	put("initrd\0\0", 8);		/* string and padding to 8 */
	put32(0);
	put32(8);
	set32(0, (uint32_t)len);
}

static bool multiboot2_reads_qemu_128m(void)
{
	mb2_blob();
	EXPECT(read_blob(READ_MULTIBOOT2, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 5, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0, 0x9fc00, "multiboot2 mmap #0");
	EXPECT_RANGE(1, BOOT_RANGE_IGNORED, 0x9fc00, 0x400,
		     "multiboot2 mmap #1: reserved (2)");
	EXPECT_RANGE(2, BOOT_RANGE_MEMORY, 0x100000, 0x7ee0000,
		     "multiboot2 mmap #2");
	EXPECT_RANGE(4, BOOT_RANGE_RESERVED, 0x2000000, 0x400000,
		     "multiboot2 module #0 initrd");
	EXPECT(test_map.info_size == len, "info_size");
	return true;
}

static bool multiboot2_refuses_every_truncation(void)
{
	mb2_blob();
	for (size_t n = 0; n < len; n++)
		EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, n), -EBADMSG,
			     "truncated");
	return true;
}

static bool multiboot2_refuses_bad_tags(void)
{
	mb2_blob();
	set32(12, 0x1000);			/* mmap tag size */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "tag type 6 at offset 8 has size 4096");
	mb2_blob();
	set32(16, 20);				/* entry_size */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "entry_size 20");
	mb2_blob();
	set32(12, 16 + 4 * 24 - 8);		/* not whole entries */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "not a whole number of 24-byte entries");
	mb2_blob();
	set32(len - 4, 16);			/* end tag size */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "past total_size");
	mb2_blob();
	set32(len - 8, 99);			/* end tag type */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "no end tag");
	mb2_blob();
	memcpy(buf + 8 + 16 + 96 + 16, "initrd!", 7);	/* no NUL */
	buf[8 + 16 + 96 + 16 + 6] = '!';
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "unterminated string");
	mb2_blob();
	set32(8 + 16 + 96 + 8, 0x3000000);	/* module start > end */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "below its start");
	mb2_blob();
	set32(0, (uint32_t)len + 8);
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "truncated: total_size");
	set32(0, 12);
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "not a multiple of 8");
	return true;
}

/*
 * GRUB for UEFI: the mmap tag (type 6) and the EFI memory-map tag (type
 * 17: descriptor size 48 as OVMF's, version 1, three descriptors).
 */
#define EFI_TAG_AT	(8 + 16 + 4 * 24)
static void efi_desc(uint32_t type, uint64_t start, uint64_t pages,
		     uint64_t attr)
{
	put32(type);
	put32(0);
	put64(start);
	put64(0);
	put64(pages);
	put64(attr);
	put64(0);			/* OVMF's 8 more bytes */
}

static void mb2_efi_blob(void)
{
	mb2_head();
	put32(17);
	put32(16 + 3 * 48);
	put32(48);
	put32(1);
	efi_desc(7, 0, 0xa0, 8);			/* conventional, WB */
	efi_desc(6, 0x100000, 0x10, 8 | (1ULL << 63));	/* runtime data */
	efi_desc(4, 0x200000, 0x1e00, 8);		/* boot services data */
	put32(0);
	put32(8);
	set32(0, (uint32_t)len);
}

static bool multiboot2_prefers_efi_tag(void)
{
	mb2_efi_blob();
	EXPECT(multiboot2_memory_source(buf, len) == 17, "source");
	EXPECT(read_blob(READ_MULTIBOOT2, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 3, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0, 0xa0000,
		     "EFI map #0: conventional memory");
	EXPECT_RANGE(1, BOOT_RANGE_IGNORED, 0x100000, 0x10000,
		     "EFI map #1: runtime services data (6): the firmware's "
		     "at run time");
	EXPECT_RANGE(2, BOOT_RANGE_MEMORY, 0x200000, 0x1e00000,
		     "EFI map #2: boot services data");
	EXPECT(test_map.info_size == len, "info_size");
	mb2_blob();
	EXPECT(multiboot2_memory_source(buf, len) == 6, "source without 17");
	return true;
}

static bool multiboot2_refuses_bad_efi_tag(void)
{
	mb2_efi_blob();
	for (size_t n = 0; n < len; n++)
		EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, n), -EBADMSG,
			     "truncated");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 8, 32);			/* descriptor size */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "descriptor size 32 is smaller");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 8, 40);			/* 144 bytes of 40 */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "map size 144 is not a multiple of the descriptor size 40");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 12, 2);			/* version */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "descriptor version 2");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 4, 12);			/* shorter than header */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "EFI memory-map tag at offset 120 is 12 bytes");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 4, 16 + 3 * 48 + 16);	/* past the end */
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "tag type 17 at offset 120 has size 176");
	mb2_efi_blob();
	set32(EFI_TAG_AT + 16 + 48 + 8, 0x1000);	/* #1 overlaps #0 */
	set32(EFI_TAG_AT + 16 + 48 + 32, 0x100);
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -EBADMSG,
		     "overlap");
	return true;
}

static bool multiboot2_refuses_no_memory(void)
{
	len = 0;
	put32(16);
	put32(0);
	put32(0);
	put32(8);
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -ENOMEM,
		     "no memory-map tag");
	len = 0;
	put32(0);
	put32(0);
	put32(6);
	put32(16 + 24);
	put32(24);
	put32(0);
	e820(0, 0x1000, 2);
	put32(0);
	put32(8);
	set32(0, (uint32_t)len);
	EXPECT_ERROR(read_blob(READ_MULTIBOOT2, buf, len), -ENOMEM,
		     "multiboot2: no usable memory");
	return true;
}

/* start_info (56), memmap at 56, module list after it, command line. */
static void pvh_blob(uint32_t version)
{
	len = 0;
	put32(PVH_MAGIC);
	put32(version);
	put32(0);
	put32(1);			/* nr_modules */
	put64(56 + 4 * 24);		/* modlist_paddr */
	put64(56 + 4 * 24 + 32);	/* cmdline_paddr */
	put64(0);
	put64(56);			/* memmap_paddr */
	put32(4);
	put32(0);
	qemu_128m_entries();
	put64(0x2000000);
	put64(0x400000);
	put64(0);
	put64(0);
	put("console=ttyS0", 14);
}

static bool pvh_reads_qemu_128m(void)
{
	pvh_blob(1);
	EXPECT(read_blob(READ_PVH_FILE, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 5, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_RESERVED, 0x2000000, 0x400000,
		     "PVH module #0");
	EXPECT_RANGE(1, BOOT_RANGE_MEMORY, 0, 0x9fc00, "PVH memmap #0");
	EXPECT_RANGE(4, BOOT_RANGE_IGNORED, 0xfffc0000, 0x40000,
		     "PVH memmap #3: reserved (2)");
	EXPECT(test_map.info_size == 56, "info_size");
	return true;
}

/* With physical addresses, the structures themselves are reserved too. */
static bool pvh_reserves_its_structures(void)
{
	pvh_blob(1);
	EXPECT(read_blob(READ_PVH_PHYS, buf, len) == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 8, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_RESERVED, 56 + 96, 32, "PVH module list");
	EXPECT_RANGE(2, BOOT_RANGE_RESERVED, 56 + 96 + 32, 14,
		     "PVH command line");
	EXPECT_RANGE(3, BOOT_RANGE_RESERVED, 56, 96, "PVH memory map");
	return true;
}

static bool pvh_refuses_bad_input(void)
{
	pvh_blob(1);
	for (size_t n = 0; n < 56; n++)
		EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, n), -EBADMSG,
			     "truncated");
	EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, 56 + 95), -EBADMSG,
		     "pvh: module list");
	set32(0, 0x336ec579);
	EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, len), -EBADMSG,
		     "bad magic 0x336ec579");
	pvh_blob(1);
	set32(48, 100000);
	EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, len), -EBADMSG,
		     "memory map of 100000 entries is absurd");
	pvh_blob(1);
	set32(48, 40);
	EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, len), -EBADMSG,
		     "outside the readable data");
	pvh_blob(1);
	buf[len - 1] = 'x';		/* command line loses its NUL */
	EXPECT_ERROR(read_blob(READ_PVH_PHYS, buf, len), -EBADMSG,
		     "command line at 0xb8 is not readable");
	pvh_blob(0);
	EXPECT_ERROR(read_blob(READ_PVH_FILE, buf, len), -ENOMEM,
		     "version 0 has no memory map");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(multiboot2_reads_qemu_128m),
	HOST_TEST(multiboot2_refuses_every_truncation),
	HOST_TEST(multiboot2_refuses_bad_tags),
	HOST_TEST(multiboot2_prefers_efi_tag),
	HOST_TEST(multiboot2_refuses_bad_efi_tag),
	HOST_TEST(multiboot2_refuses_no_memory),
	HOST_TEST(pvh_reads_qemu_128m),
	HOST_TEST(pvh_reserves_its_structures),
	HOST_TEST(pvh_refuses_bad_input),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
