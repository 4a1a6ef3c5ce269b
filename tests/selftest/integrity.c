/*
 * integrity.c - hand out all of memory, write all of it, and prove that
 * nothing outside the allocator's own memory changed.
 *
 *   integrity_exhaust_write   (STAGE_INTEGRITY) every free page, order 0,
 *                             each placed correctly and written
 *   integrity_kernel_text     (+1) [_start, _etext) checksums as at boot
 *   integrity_boot_info       (+1) the DTB / multiboot2 info / PVH start
 *                             info checksums as at boot and still parses
 *   integrity_boot_modules    (+1) every initrd / module checksums as at boot
 *   integrity_firmware        (+1) the firmware still answers, the same
 *   integrity_verify_free     (+2) every page still holds what was written
 *                             into it, then all are freed and the counts,
 *                             page_alloc_check() and the top order are back
 *
 * Separate stages, because the checks in the middle must run while every
 * page is handed out and written. buddyinfo is printed before and after.
 *
 * What is written: each page holds, after the chain word, its allocation
 * number and a pattern seeded by its pfn and that number, over the whole
 * page. A page handed out twice holds the later owner's number, which the
 * walk back through the chain finds where it expects the earlier one.
 * Writing every word of every page costs about 3 instructions per 8 bytes;
 * measured under TCG on this project's machine, 128 MiB takes well under a
 * second and 5 GiB a few seconds per pass, so every word is written and
 * read back: no sampling.
 */
#include <arch/test_services.h>
#include <arch/memory.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/memory.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include "buddy_check.h"

static struct {
	struct buddy_counts before;
	struct block_chain chain;
	unsigned long predicted;
	bool started;
} run;

/* Words 0 and 1 are the chain link and the allocation number. */
#define HEADER_BYTES	16

static uint64_t page_seed(unsigned long pfn, unsigned long seq)
{
	return ((uint64_t)pfn << 24) ^ seq ^ 0x696e746567726974ULL;
}

static void print_buddyinfo(const char *when)
{
	printk("# buddyinfo %s: free blocks of order 0..%d\n# ", when,
	       MAX_PAGE_ORDER);
	show_buddyinfo();
}

SELFTEST(integrity_exhaust_write, STAGE_INTEGRITY)
{
	unsigned long misplaced = 0, seq = 0;
	uint64_t t0 = arch_counter();
	struct page *page;

	print_buddyinfo("before");
	buddy_counts_take(&run.before);
	run.predicted = buddy_counts_predict(&run.before, 0);
	run.started = true;
	while ((page = alloc_pages(__GFP_NOWARN, 0))) {
		uint64_t *p = page_address(page);

		/* The page-0 policy (boot_page0_kept_out): never NULL. */
		SELFTEST_EXPECT(p, "pfn %#lx handed out: its address is NULL",
				page_to_pfn(page));
		if (misplaced < 4 && !block_placement_ok(page, 0))
			misplaced++;
		chain_push(&run.chain, p);
		p[1] = seq;
		pattern_fill(p + 2, PAGE_SIZE - HEADER_BYTES,
			     page_seed(page_to_pfn(page), seq));
		seq++;
	}
	printk("# integrity: %lu pages handed out and written, %llu counter "
	       "ticks\n", run.chain.count,
	       (unsigned long long)(arch_counter() - t0));
	SELFTEST_EXPECT(!misplaced, "%lu pages placed wrongly", misplaced);
	SELFTEST_EXPECT(run.chain.count == run.predicted, "%lu pages handed "
			"out, %lu predicted by the free counts",
			run.chain.count, run.predicted);
	SELFTEST_EXPECT(nr_free_pages() == 0, "%lu pages still free after "
			"order 0 was refused", nr_free_pages());
	return true;
}

static bool blob_unchanged(const char *what, const struct boot_blob *b)
{
	uint64_t sum = selftest_checksum(b->base, b->size);

	SELFTEST_EXPECT(sum == b->sum, "%s [%#llx-%#llx) checksums %#llx, "
			"%#llx at boot", what, (unsigned long long)b->base,
			(unsigned long long)(b->base + b->size),
			(unsigned long long)sum, (unsigned long long)b->sum);
	return true;
}

SELFTEST(integrity_kernel_text, STAGE_INTEGRITY + 1)
{
	const struct selftest_boot_state *s = &selftest_boot_state;

	SELFTEST_EXPECT(s->recorded && s->text.size, "no kernel text "
			"checksum was taken at boot");
	return blob_unchanged("kernel text", &s->text);
}

static struct boot_range reparse_ranges[BOOT_MAX_RANGES];

static const void *pvh_phys(const struct pvh_source *src, uint64_t addr,
			    size_t len)
{
	return addr + len < addr ? NULL : phys_to_virt(addr);
}

/* Run the boot reader on the info again: 0, or its error with map.error. */
static int reparse(const struct boot_blob *b, struct boot_memmap *map)
{
	struct pvh_source pvh = { .map = pvh_phys, .physical = true };
	const void *p = phys_to_virt(b->base);

	bootmem_init(map, reparse_ranges, ARRAY_SIZE(reparse_ranges));
	switch (selftest_boot_state.proto) {
	case BOOT_PROTO_FDT:
		return fdt_memory_parse(p, b->size, map);
	case BOOT_PROTO_MULTIBOOT2:
		return multiboot2_memory_parse(p, b->size, map);
	case BOOT_PROTO_PVH:
		return pvh_memory_parse(&pvh, b->base, map);
	case BOOT_PROTO_EFI:
		return efi_memmap_parse(p, b->size, map);
	default:
		return -EINVAL;
	}
}

SELFTEST(integrity_boot_info, STAGE_INTEGRITY + 1)
{
	const struct boot_blob *b = &selftest_boot_state.info;
	struct boot_memmap map;
	int err;

	if (!b->size)
		return selftest_skip("no boot info was recorded at boot");
	if (!blob_unchanged("boot info", b))
		return false;
	err = reparse(b, &map);
	SELFTEST_EXPECT(!err, "the boot info no longer parses (%d): %s", err,
			map.error);
	SELFTEST_EXPECT(map.info_size == b->size || selftest_boot_state.proto
			!= BOOT_PROTO_FDT, "the DTB now says %llu bytes, %llu "
			"at boot", (unsigned long long)map.info_size,
			(unsigned long long)b->size);
	printk("# integrity: boot info [%#llx-%#llx) unchanged, parses to %u "
	       "ranges\n", (unsigned long long)b->base,
	       (unsigned long long)(b->base + b->size), map.cnt);
	return true;
}

SELFTEST(integrity_boot_modules, STAGE_INTEGRITY + 1)
{
	const struct selftest_boot_state *s = &selftest_boot_state;
	bool ok = true;

	if (!s->nr_modules)
		return selftest_skip("no initrd or boot module was given");
	SELFTEST_EXPECT(!s->modules_unchecked, "%u boot modules beyond the "
			"first %d were not recorded", s->modules_unchecked,
			BOOT_STATE_MAX_MODULES);
	for (unsigned int i = 0; i < s->nr_modules; i++) {
		ok = blob_unchanged("initrd/module", &s->modules[i]) && ok;
		printk("# integrity: module %u [%#llx-%#llx) %llu bytes\n", i,
		       (unsigned long long)s->modules[i].base,
		       (unsigned long long)(s->modules[i].base +
					    s->modules[i].size),
		       (unsigned long long)s->modules[i].size);
	}
	return ok;
}

SELFTEST(integrity_firmware, STAGE_INTEGRITY + 1)
{
	const struct selftest_boot_state *s = &selftest_boot_state;
	uint32_t version = 0;
	int err = arch_firmware_version(&version);

	if (err == -ENOENT && s->firmware_err == -ENOENT)
		return selftest_skip("%s has no firmware to ask (no SBI, no "
				     "PSCI)", CONFIG_ARCH_NAME);
	SELFTEST_EXPECT(!s->firmware_err, "the firmware did not answer at "
			"boot either (%d)", s->firmware_err);
	SELFTEST_EXPECT(!err, "the firmware no longer answers (%d) with all "
			"memory handed out", err);
	SELFTEST_EXPECT(version == s->firmware_version, "the firmware now "
			"says version %#x, %#x at boot", version,
			s->firmware_version);
	printk("# integrity: firmware version %#x, as at boot\n", version);
	return true;
}

/* Walk the chain newest first: page seq, then seq - 1, ... down to 0. */
static bool verify_pages(void)
{
	unsigned long seq = run.chain.count, bad = 0;
	const uint64_t *p = run.chain.head;

	for (; p && seq; p = *(const uint64_t *const *)p) {
		unsigned long pfn = page_to_pfn(virt_to_page(p));
		long word;

		seq--;
		if (p[1] != seq) {
			if (bad++ < 4)
				selftest_fail(__FILE__, __LINE__, "pfn %#lx: "
					      "allocation number %llu where "
					      "%lu was written: handed out "
					      "twice?", pfn,
					      (unsigned long long)p[1], seq);
			continue;
		}
		word = pattern_mismatch(p + 2, PAGE_SIZE - HEADER_BYTES,
					page_seed(pfn, seq));
		if (word >= 0 && bad++ < 4)
			selftest_fail(__FILE__, __LINE__, "pfn %#lx: byte %#lx "
				      "reads %#llx, %#llx was written", pfn,
				      (unsigned long)(HEADER_BYTES + word * 8),
				      (unsigned long long)p[2 + word],
				      (unsigned long long)pattern_word(
					      page_seed(pfn, seq), word));
	}
	SELFTEST_EXPECT(!p && !seq, "the chain of pages is broken: %lu "
			"pages not reached", seq);
	SELFTEST_EXPECT(!bad, "%lu pages do not hold what was written", bad);
	return true;
}

SELFTEST(integrity_verify_free, STAGE_INTEGRITY + 2)
{
	bool ok;

	SELFTEST_EXPECT(run.started, "integrity_exhaust_write did not run");
	ok = verify_pages();
	chain_free(&run.chain, 0);
	print_buddyinfo("after");
	return buddy_restored(&run.before, "after the whole-memory test") &&
	       ok;
}
