/*
 * boot_checks.c - what an image can check about its own boot: BSS, the
 * boot info it was handed, and the console it is printing on.
 */
#include <arch/entry.h>
#include <lib/string.h>
#include "selftest.h"

static volatile uint64_t bss_canary;

SELFTEST(boot_bss_cleared, STAGE_BOOT)
{
	SELFTEST_EXPECT(selftest_boot_facts.bss_was_clear,
			"BSS was not all zero when boot_main() was entered");
	SELFTEST_EXPECT(bss_canary == 0, "a BSS variable is not zero");
	return true;
}

static uint32_t load_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static uint32_t load_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[1] << 8 | b[0];
}

SELFTEST(boot_info_found, STAGE_BOOT)
{
	const void *info = (const void *)(uintptr_t)selftest_boot_facts.info;

	SELFTEST_EXPECT(selftest_boot_facts.proto != BOOT_PROTO_NONE && info,
			"the loader handed over no boot info");
	switch (selftest_boot_facts.proto) {
	case BOOT_PROTO_FDT:
		SELFTEST_EXPECT(load_be32(info) == 0xd00dfeed,
				"no FDT magic at %p", info);
		break;
	case BOOT_PROTO_PVH:
		SELFTEST_EXPECT(load_le32(info) == 0x336ec578,
				"no hvm_start_info magic at %p", info);
		break;
	case BOOT_PROTO_MULTIBOOT2:
		/* total_size, then reserved; the end tag is type 0 size 8. */
		SELFTEST_EXPECT(load_le32(info) >= 16,
				"multiboot2 info at %p is too short", info);
		break;
	default:
		return selftest_fail(__FILE__, __LINE__, "unknown protocol %u",
				     selftest_boot_facts.proto);
	}
	return true;
}
