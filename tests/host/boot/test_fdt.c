/*
 * test_fdt.c - the device-tree reader: what it finds in well-formed trees,
 * and a named refusal for every kind of bad blob in the list.
 * Blobs are built in memory (fdt_builder.c) and read from exact-size heap
 * copies, so ASan catches any read outside them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <boot/fdt.h>
#include "boot_test.h"
#include "fdt_builder.h"

static struct fdtb b;

/* / { #address-cells = <ac>; #size-cells = <sc>; ... */
static void root(uint32_t ac, uint32_t sc)
{
	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#address-cells", 1, ac);
	fdtb_prop_cells(&b, "#size-cells", 1, sc);
}

static void memory_node(const char *name, unsigned int ncells, ...)
{
	uint8_t val[64];
	va_list ap;

	va_start(ap, ncells);
	for (unsigned int i = 0; i < ncells; i++) {
		uint32_t v = va_arg(ap, uint32_t);

		val[4 * i] = v >> 24;
		val[4 * i + 1] = v >> 16;
		val[4 * i + 2] = v >> 8;
		val[4 * i + 3] = v;
	}
	va_end(ap);
	fdtb_begin(&b, name);
	fdtb_prop_str(&b, "device_type", "memory");
	fdtb_prop(&b, "reg", val, 4 * ncells);
	fdtb_end(&b);
}

static int finish_and_read(void)
{
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	return read_blob(READ_FDT, b.blob, b.len);
}

/*
 * The QEMU riscv64 virt shape, after OpenSBI and a loader:
 *   |mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm|  memory@80000000
 *   |rr|  mmode_resv0 (OpenSBI)   |nn| no-map   |ii| initrd   |r| memreserve
 */
static bool fdt_reads_memory_and_every_reservation(void)
{
	root(2, 2);
	memory_node("memory@80000000", 4, 0, 0x80000000, 0, 0x8000000);
	fdtb_begin(&b, "reserved-memory");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	fdtb_prop_cells(&b, "#size-cells", 1, 2);
	fdtb_begin(&b, "mmode_resv0@80000000");
	fdtb_prop_cells(&b, "reg", 4, 0, 0x80000000, 0, 0x80000);
	fdtb_end(&b);
	fdtb_begin(&b, "fw@81000000");
	fdtb_prop_cells(&b, "reg", 4, 0, 0x81000000, 0, 0x10000);
	fdtb_prop(&b, "no-map", NULL, 0);
	fdtb_end(&b);
	fdtb_begin(&b, "dynamic");
	fdtb_prop_cells(&b, "size", 2, 0, 0x100000);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_begin(&b, "chosen");
	fdtb_prop_cells(&b, "linux,initrd-start", 1, 0x84000000);
	fdtb_prop_cells(&b, "linux,initrd-end", 1, 0x84100000);
	fdtb_end(&b);
	fdtb_rsv(&b, 0x87000000, 0x1000);
	EXPECT(finish_and_read() == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 5, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0x80000000, 0x8000000,
		     "/memory@80000000");
	EXPECT_RANGE(1, BOOT_RANGE_RESERVED, 0x80000000, 0x80000,
		     "/reserved-memory/mmode_resv0@80000000");
	EXPECT_RANGE(2, BOOT_RANGE_NOMAP, 0x81000000, 0x10000,
		     "/reserved-memory/fw@81000000");
	EXPECT_RANGE(3, BOOT_RANGE_RESERVED, 0x84000000, 0x100000, "initrd");
	EXPECT_RANGE(4, BOOT_RANGE_RESERVED, 0x87000000, 0x1000,
		     "/memreserve/ #0");
	EXPECT(test_map.info_size == b.len, "info_size %llu",
	       (unsigned long long)test_map.info_size);
	return true;
}

/* One-cell addresses, several reg entries, several nodes, 64-bit initrd. */
static bool fdt_reads_several_banks_in_one_cell(void)
{
	root(1, 1);
	memory_node("memory@0", 4, 0, 0x10000000, 0x20000000, 0x1000);
	memory_node("memory@40000000", 2, 0x40000000, 0x100000);
	fdtb_begin(&b, "chosen");
	fdtb_prop_cells(&b, "linux,initrd-start", 2, 0x1, 0x0);
	fdtb_prop_cells(&b, "linux,initrd-end", 2, 0x1, 0x2000);
	fdtb_end(&b);
	EXPECT(finish_and_read() == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 4, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0, 0x10000000, "/memory@0");
	EXPECT_RANGE(1, BOOT_RANGE_MEMORY, 0x20000000, 0x1000, "/memory@0");
	EXPECT_RANGE(2, BOOT_RANGE_MEMORY, 0x40000000, 0x100000,
		     "/memory@40000000");
	EXPECT_RANGE(3, BOOT_RANGE_RESERVED, 0x100000000ULL, 0x2000, "initrd");
	return true;
}

/* Banks above 4 GiB (Juno), default cells when the root has none. */
static bool fdt_uses_spec_default_cells(void)
{
	fdtb_init(&b);
	fdtb_begin(&b, "");		/* defaults: 2 address, 1 size cells */
	memory_node("memory@880000000", 3, 0x8, 0x80000000, 0x80000000);
	EXPECT(finish_and_read() == 0, "%s", test_map.error);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0x880000000ULL, 0x80000000,
		     "/memory@880000000");
	return true;
}

static bool fdt_skips_disabled_nodes_and_size_zero(void)
{
	root(1, 1);
	memory_node("memory@0", 4, 0, 0x1000, 0x8000, 0);
	fdtb_begin(&b, "memory@10000");
	fdtb_prop_str(&b, "device_type", "memory");
	fdtb_prop_cells(&b, "reg", 2, 0x10000, 0x1000);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_end(&b);
	fdtb_begin(&b, "reserved-memory");
	fdtb_begin(&b, "off@0");
	fdtb_prop_cells(&b, "reg", 2, 0x0, 0x100);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT(finish_and_read() == 0, "%s", test_map.error);
	EXPECT(test_map.cnt == 1, "%u ranges", test_map.cnt);
	EXPECT_RANGE(0, BOOT_RANGE_MEMORY, 0, 0x1000, "/memory@0");
	return true;
}

/* Raspberry Pi style: a memory node of size 0, filled in by firmware. */
static bool fdt_refuses_size_zero_memory(void)
{
	root(1, 1);
	memory_node("memory@0", 2, 0, 0);
	fdtb_rsv(&b, 0, 0x1000);
	EXPECT_ERROR(finish_and_read(), -ENOMEM, "fdt: no usable memory");
	return true;
}

static bool fdt_refuses_no_memory_node(void)
{
	root(2, 1);
	fdtb_begin(&b, "memory@0");	/* no device_type: not memory */
	fdtb_prop_cells(&b, "reg", 3, 0, 0, 0x1000);
	fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -ENOMEM, "no usable memory");
	return true;
}

static void good_blob(void)
{
	root(2, 2);
	memory_node("memory@80000000", 4, 0, 0x80000000, 0, 0x8000000);
	fdtb_begin(&b, "chosen");
	fdtb_prop_str(&b, "bootargs", "console=ttyS0");
	fdtb_end(&b);
	fdtb_rsv(&b, 0x80000000, 0x1000);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
}

/* Every strict prefix of a good blob is refused, and nothing past it read. */
static bool fdt_refuses_every_truncation(void)
{
	good_blob();
	for (size_t len = 0; len < b.len; len++) {
		int err = read_blob(READ_FDT, b.blob, len);

		EXPECT(err == -EBADMSG && strstr(test_map.error, "truncated"),
		       "length %zu: %d \"%s\"", len, err, test_map.error);
	}
	EXPECT(read_blob(READ_FDT, b.blob, b.len) == 0, "%s", test_map.error);
	return true;
}

/* Header word at @off set to @v must be refused with @needle. */
static bool header_refused(size_t off, uint32_t v, const char *needle)
{
	good_blob();
	fdtb_set32(&b, off, v);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG, needle);
	return true;
}

static bool fdt_refuses_bad_headers(void)
{
	EXPECT(header_refused(0, 0xd00dfeee, "bad magic 0xd00dfeee"), "magic");
	EXPECT(header_refused(20, 15, "version 15 is too old"), "version");
	EXPECT(header_refused(24, 18, "last compatible version 18"), "comp");
	EXPECT(header_refused(4, 20, "smaller than the header"), "small");
	EXPECT(header_refused(4, 0x7fffffff, "absurd"), "totalsize");
	good_blob();
	EXPECT(header_refused(4, (uint32_t)b.len + 8, "truncated"), "big");
	return true;
}

static bool fdt_refuses_offsets_past_the_end(void)
{
	good_blob();
	EXPECT(header_refused(8, (uint32_t)b.len, "structure block"), "st");
	EXPECT(header_refused(36, 0x10000, "structure block"), "st size");
	EXPECT(header_refused(12, (uint32_t)b.len - 1, "strings block"), "str");
	EXPECT(header_refused(32, 0x10000, "strings block"), "str size");
	EXPECT(header_refused(16, (uint32_t)b.len + 64, "memory reservation"),
	       "rsv");
	EXPECT(header_refused(16, 41, "not 8-byte aligned"), "rsv align");
	EXPECT(header_refused(8, 4, "overlaps"), "header overlap");
	return true;
}

static bool fdt_refuses_unterminated_rsvmap(void)
{
	good_blob();
	/* Point the reservation block at the last 16 bytes, with no (0, 0). */
	memset(b.blob + b.len - 16, 0xff, 16);
	EXPECT(header_refused(16, (uint32_t)b.len - 16, "without its "
			      "terminator"), "rsvmap");
	return true;
}

static bool fdt_refuses_unterminated_names(void)
{
	/* A node name running to the end of the structure block. */
	fdtb_init(&b);
	fdtb_token(&b, 1);
	memcpy(b.st + b.st_len, "abcdefgh", 8);
	b.st_len += 8;
	fdtb_finish(&b, 0);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "unterminated node name");

	/* A property name running to the end of the strings block. */
	good_blob();
	b.blob[b.len - 1] = 'x';
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "unterminated name in the strings block");
	return true;
}

static bool fdt_refuses_string_offset_out_of_range(void)
{
	root(2, 1);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	/* the first property's nameoff: struct + BEGIN(4) + "\0" pad(4) + 8 */
	fdtb_set32(&b, b.off_struct + 16, 0x1000);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "name offset 4096 is past the strings block");
	return true;
}

static bool fdt_refuses_property_past_the_block(void)
{
	root(2, 1);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	fdtb_set32(&b, b.off_struct + 12, 0x1000);	/* first prop's len */
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "runs past the structure block");
	return true;
}

static bool fdt_refuses_malformed_structure(void)
{
	root(2, 1);
	fdtb_end(&b);
	fdtb_finish(&b, 0);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "without FDT_END");

	root(2, 1);
	fdtb_finish(&b, 1);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "FDT_END inside a node");

	root(2, 1);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "FDT_END_NODE without a node");

	root(2, 1);
	fdtb_end(&b);
	fdtb_prop_cells(&b, "stray", 1, 0);
	fdtb_finish(&b, 1);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "outside any node");

	root(2, 1);
	fdtb_end(&b);
	fdtb_begin(&b, "");
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "a second root node");

	root(2, 1);
	fdtb_token(&b, 7);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	EXPECT_ERROR(read_blob(READ_FDT, b.blob, b.len), -EBADMSG,
		     "unknown token 0x7");
	return true;
}

static bool fdt_refuses_deep_nesting(void)
{
	root(2, 1);
	for (int i = 0; i < FDT_MAX_DEPTH; i++)
		fdtb_begin(&b, "n");
	for (int i = 0; i < FDT_MAX_DEPTH; i++)
		fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -EBADMSG, "nested deeper than 32");
	return true;
}

static bool fdt_refuses_absurd_cells(void)
{
	root(5, 1);
	memory_node("memory@0", 2, 0, 0x1000);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/: #address-cells = 5 is absurd");

	root(3, 1);
	memory_node("memory@0", 4, 0, 0, 0, 0x1000);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/memory@0: reg with #address-cells 3 and #size-cells 1");

	root(2, 0);
	memory_node("memory@0", 2, 0, 0);
	EXPECT_ERROR(finish_and_read(), -EBADMSG, "#size-cells 0");

	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#size-cells", 2, 0, 1);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/: #size-cells is 8 bytes, not one cell");
	return true;
}

static bool fdt_refuses_partial_reg_entries(void)
{
	root(2, 2);
	memory_node("memory@0", 6, 0, 0, 0, 0x1000, 0, 0x2000);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/memory@0: reg is 24 bytes, not a whole number of "
		     "16-byte entries");

	root(1, 1);
	memory_node("memory@0", 2, 0, 0x1000);
	fdtb_begin(&b, "reserved-memory");
	fdtb_begin(&b, "odd@0");
	fdtb_prop_cells(&b, "reg", 3, 0, 0x10, 0x20);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/reserved-memory/odd@0: reg is 12 bytes");
	return true;
}

static bool fdt_refuses_ranges_past_2_to_the_64(void)
{
	root(2, 2);
	memory_node("memory@0", 4, 0xffffffff, 0xfffff000, 0, 0x2000);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/memory@0: range 0xfffffffffffff000 + 0x2000 runs past "
		     "the 64-bit address space");

	root(2, 2);
	memory_node("memory@0", 4, 0, 0, 0, 0x1000);
	fdtb_rsv(&b, 0xffffffffffffff00ULL, 0x100);
	EXPECT_ERROR(finish_and_read(), -EBADMSG, "/memreserve/ #0: range");
	return true;
}

static bool fdt_refuses_bad_initrd(void)
{
	static const uint8_t six[6];

	root(1, 1);
	memory_node("memory@0", 2, 0, 0x1000);
	fdtb_begin(&b, "chosen");
	fdtb_prop_cells(&b, "linux,initrd-start", 1, 0x2000);
	fdtb_prop_cells(&b, "linux,initrd-end", 1, 0x1000);
	fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "/chosen: initrd end 0x1000 is below its start 0x2000");

	root(1, 1);
	memory_node("memory@0", 2, 0, 0x1000);
	fdtb_begin(&b, "chosen");
	fdtb_prop_cells(&b, "linux,initrd-start", 1, 0x2000);
	fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "linux,initrd-start without linux,initrd-end");

	root(1, 1);
	memory_node("memory@0", 2, 0, 0x1000);
	fdtb_begin(&b, "chosen");
	fdtb_prop(&b, "linux,initrd-start", six, 6);
	fdtb_prop_cells(&b, "linux,initrd-end", 1, 0x1000);
	fdtb_end(&b);
	EXPECT_ERROR(finish_and_read(), -EBADMSG,
		     "linux,initrd-start is 6 bytes");
	return true;
}

/* The reader never runs out of room silently. */
static bool fdt_refuses_more_ranges_than_room(void)
{
	root(1, 1);
	for (int i = 0; i < 70; i++)
		fdtb_rsv(&b, 0x1000u * i, 0x100);
	memory_node("memory@0", 2, 0, 0x100000);
	EXPECT_ERROR(finish_and_read(), -ENOSPC, "refusing a partial map");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(fdt_reads_memory_and_every_reservation),
	HOST_TEST(fdt_reads_several_banks_in_one_cell),
	HOST_TEST(fdt_uses_spec_default_cells),
	HOST_TEST(fdt_skips_disabled_nodes_and_size_zero),
	HOST_TEST(fdt_refuses_size_zero_memory),
	HOST_TEST(fdt_refuses_no_memory_node),
	HOST_TEST(fdt_refuses_every_truncation),
	HOST_TEST(fdt_refuses_bad_headers),
	HOST_TEST(fdt_refuses_offsets_past_the_end),
	HOST_TEST(fdt_refuses_unterminated_rsvmap),
	HOST_TEST(fdt_refuses_unterminated_names),
	HOST_TEST(fdt_refuses_string_offset_out_of_range),
	HOST_TEST(fdt_refuses_property_past_the_block),
	HOST_TEST(fdt_refuses_malformed_structure),
	HOST_TEST(fdt_refuses_deep_nesting),
	HOST_TEST(fdt_refuses_absurd_cells),
	HOST_TEST(fdt_refuses_partial_reg_entries),
	HOST_TEST(fdt_refuses_ranges_past_2_to_the_64),
	HOST_TEST(fdt_refuses_bad_initrd),
	HOST_TEST(fdt_refuses_more_ranges_than_room),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
