/*
 * test_reserve.c - applying a reader's list to memblock, the reasons
 * table, the warnings and the printed report. Address arithmetic only:
 * nothing here touches the ranges.
 *
 *   memory   |mmmmmmmmmmmmmmmmmmmm|      |mmmmmmmm|
 *   reserved   |rr|  |nnnn|     |rr|rr|        |rrrrrr|
 *                     no-map    overlap        outside memory
 */
#include <stdarg.h>
#include <boot/reserve.h>
#include "boot_test.h"

static struct boot_range ranges[16];
static struct boot_memmap map;
static char report[4096];
static size_t report_len;

static int capture(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(report + report_len, sizeof(report) - report_len, fmt, ap);
	va_end(ap);
	report_len += n;
	return n;
}

static void setup(void)
{
	boot_reservations_reset();
	bootmem_init(&map, ranges, ARRAY_SIZE(ranges));
	bootmem_add_range(&map, BOOT_RANGE_MEMORY, 0x80000000, 0x10000000, "m0");
	bootmem_add_range(&map, BOOT_RANGE_MEMORY, 0xa0000000, 0x1000000, "m1");
	bootmem_add_range(&map, BOOT_RANGE_IGNORED, 0xb0000000, 0x1000, "acpi");
}

static bool reserve_applies_memory_nomap_and_reservations(void)
{
	setup();
	bootmem_add_range(&map, BOOT_RANGE_RESERVED, 0x80000000, 0x80000,
			  "/reserved-memory/mmode_resv0@80000000");
	bootmem_add_range(&map, BOOT_RANGE_NOMAP, 0x81000000, 0x100000,
			  "/reserved-memory/fw");
	EXPECT(bootmem_apply(&map) == 0, "apply failed");
	EXPECT(memblock.memory.cnt == 4, "%lu memory regions",
	       memblock.memory.cnt);
	EXPECT(memblock.memory.regions[1].base == 0x81000000 &&
	       memblock.memory.regions[1].flags == MEMBLOCK_NOMAP,
	       "no-map region not split out");
	EXPECT(memblock.reserved.cnt == 2, "%lu reserved regions",
	       memblock.reserved.cnt);
	EXPECT(!memblock_is_memory(0xb0000000), "not-RAM range was added");
	EXPECT(boot_reservation_count() == 2, "%u recorded",
	       boot_reservation_count());
	EXPECT(!console_says("warning"), "unexpected warning");

	report_len = 0;
	boot_memory_report(capture);
	EXPECT(strstr(report, "memory: [0x80000000-0x81000000) 16 MiB\n") &&
	       strstr(report, "memory: [0x81000000-0x81100000) 1 MiB no-map\n") &&
	       strstr(report, "reserved: [0x80000000-0x80080000) 512 KiB "
		      "/reserved-memory/mmode_resv0@80000000\n") &&
	       strstr(report, "reserved: [0x81000000-0x81100000) 1 MiB no-map "
		      "/reserved-memory/fw\n"), "report:\n%s", report);
	return true;
}

static bool reserve_warns_about_overlap_and_outside_memory(void)
{
	setup();
	bootmem_add_range(&map, BOOT_RANGE_RESERVED, 0x8f000000, 0x2000000,
			  "straddles");
	bootmem_add_range(&map, BOOT_RANGE_RESERVED, 0x8f800000, 0x1000,
			  "inside");
	bootmem_add_range(&map, BOOT_RANGE_RESERVED, 0xc0000000, 0x1000,
			  "beyond");
	EXPECT(bootmem_apply(&map) == 0, "apply failed");
	EXPECT(console_says("warning: reservation [0x8f000000-0x91000000) "
			    "'straddles' lies partly outside memory"),
	       "no partly-outside warning");
	EXPECT(console_says("warning: reservation [0x8f800000-0x8f801000) "
			    "'inside' overlaps [0x8f000000-0x91000000) "
			    "'straddles'"), "no overlap warning");
	EXPECT(console_says("warning: reservation [0xc0000000-0xc0001000) "
			    "'beyond' lies outside memory"),
	       "no outside warning");
	/* Nothing is lost: memblock holds the union of all three. */
	EXPECT(memblock_is_region_reserved(0x8f000000, 0x2000000) &&
	       memblock_is_region_reserved(0xc0000000, 0x1000),
	       "a reservation was dropped");
	return true;
}

static bool reserve_table_overflow_is_reported(void)
{
	char reason[32];

	setup();
	EXPECT(bootmem_apply(&map) == 0, "apply failed");
	for (unsigned int i = 0; i < BOOT_RESERVATIONS_MAX + 6; i++) {
		snprintf(reason, sizeof(reason), "r%u", i);
		EXPECT(boot_reserve(0x80000000 + 0x10000 * i, 0x1000, reason) == 0,
		       "reserve %u", i);
	}
	EXPECT(boot_reservations_unlisted() == 6, "%u unlisted",
	       boot_reservations_unlisted());
	EXPECT(memblock_is_region_reserved(0x80000000 +
					   0x10000 * (BOOT_RESERVATIONS_MAX + 5),
					   0x1000), "unlisted one not reserved");
	report_len = 0;
	boot_memory_report(capture);
	EXPECT(strstr(report, "6 more reservations not listed"), "%s", report);
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(reserve_applies_memory_nomap_and_reservations),
	HOST_TEST(reserve_warns_about_overlap_and_outside_memory),
	HOST_TEST(reserve_table_overflow_is_reported),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
