/*
 * perf_mm.c - quick timings of the memory core on the host, for whoever
 * changes mm/: built with the plain -O2 library (no sanitizer), never part
 * of the test suites (times on a shared machine are not verdicts).
 *
 *   perf-mm pair used|fresh [ITERS]  order-0 alloc+free pairs: "used" on a
 *                                    heap where every other of 128 pages is
 *                                    held, so a free page with a held buddy
 *                                    is at hand; "fresh" on whole top-order
 *                                    blocks, so each pair splits and merges
 *                                    MAX_PAGE_ORDER times
 *   perf-mm handoff GIB              memblock_free_all() of GIB GiB of
 *                                    sparse (MAP_NORESERVE) simulated RAM
 *   perf-mm metadata                 metadata bytes per page, many layouts
 *
 * Times are the best of several runs, in ns, on stdout. The pair commands
 * run ITERS pairs per run (default 2000000), which "valgrind --tool=callgrind"
 * can count: the difference of two ITERS values gives instructions per pair.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <arch/test_services.h>
#include <arch/memory.h>
#include <mm/mm.h>
#include <mm/test_reset.h>
#include "host.h"

#define SZ_1M	0x100000ULL
#define SZ_1G	0x40000000ULL

static char *map_ram(phys_addr_t span)
{
	char *p = mmap(NULL, span + SZ_1G, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "perf-mm: cannot map %llu bytes\n",
			(unsigned long long)span);
		exit(1);
	}
	/* Physical 0 at a section-aligned host address. */
	host_set_phys_offset(ALIGN_UP((uintptr_t)p, 1UL << SECTION_SIZE_BITS));
	return p;
}

/* A bank of whole top-order blocks; the metadata in a small bank above. */
static void handoff(phys_addr_t base, phys_addr_t size)
{
	memblock_reset_for_test();
	page_alloc_reset_for_test();
	if (memblock_add(base, size) ||
	    memblock_add(base + size + SZ_1G, 4 * SZ_1M) ||
	    !memblock_free_all()) {
		fprintf(stderr, "perf-mm: hand-off failed\n");
		exit(1);
	}
}

static int pair(bool used, unsigned long iters)
{
	struct page *held[128];
	double best = 1e30;

	map_ram(4 * SZ_1G);
	handoff(2 * SZ_1G, 256 * SZ_1M);
	/* Hold what is left of the metadata bank: only top blocks stay free. */
	for (unsigned int o = MAX_PAGE_ORDER; o-- > 0;)
		while (nr_free_blocks(o))
			alloc_pages(0, o);
	if (used) {
		for (unsigned int i = 0; i < 128; i++)
			held[i] = alloc_pages(0, 0);
		/* Free every other page by address: each free page's buddy is held. */
		for (unsigned int i = 0; i < 128; i++)
			for (unsigned int j = i + 1; j < 128; j++)
				if (held[j] < held[i]) {
					struct page *t = held[i];

					held[i] = held[j];
					held[j] = t;
				}
		for (unsigned int i = 1; i < 128; i += 2)
			__free_pages(held[i], 0);
	}
	for (int rep = 0; rep < 7; rep++) {
		uint64_t t0 = arch_counter();

		for (unsigned long i = 0; i < iters; i++)
			__free_pages(alloc_pages(0, 0), 0);
		t0 = arch_counter() - t0;
		if (rep && (double)t0 / iters < best)
			best = (double)t0 / iters;
	}
	printf("pair %s order 0: %.2f ns (best of 6 runs of %lu)\n",
	       used ? "used" : "fresh", best, iters);
	return page_alloc_check() ? 1 : 0;
}

static int handoff_time(unsigned long gib)
{
	double best = 1e30;

	for (int rep = 0; rep < 3; rep++) {
		char *p = map_ram(gib * SZ_1G + 2 * SZ_1G);
		uint64_t t0;

		memblock_reset_for_test();
		page_alloc_reset_for_test();
		if (memblock_add(2 * SZ_1G, gib * SZ_1G))
			return 1;
		t0 = arch_counter();
		if (!memblock_free_all())
			return 1;
		t0 = arch_counter() - t0;
		if ((double)t0 < best)
			best = (double)t0;
		munmap(p, gib * SZ_1G + 3 * SZ_1G);
	}
	printf("hand-off of %lu GiB sparse: %.2f ms (best of 3)\n", gib,
	       best / 1e6);
	return 0;
}

static int metadata(void)
{
	static const struct {
		const char *name;
		phys_addr_t base, size, base2, size2;
	} layouts[] = {
		{ "16M", 2 * SZ_1G, 16 * SZ_1M, 0, 0 },
		{ "32M", 2 * SZ_1G, 32 * SZ_1M, 0, 0 },
		{ "129M", 2 * SZ_1G, 129 * SZ_1M, 0, 0 },
		{ "17M+5 pages, unaligned", 2 * SZ_1G + 12288,
		  17 * SZ_1M + 5 * 4096, 0, 0 },
		{ "1G", 2 * SZ_1G, SZ_1G, 0, 0 },
		{ "5G: 2G + hole + 3G", 0, 2 * SZ_1G, 4 * SZ_1G, 3 * SZ_1G },
		{ "16M + 16M 62 GiB apart", 2 * SZ_1G, 16 * SZ_1M, 64 * SZ_1G,
		  16 * SZ_1M },
	};

	for (unsigned int i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		phys_addr_t span = layouts[i].size2 ?
			layouts[i].base2 + layouts[i].size2 :
			layouts[i].base + layouts[i].size;
		char *p = map_ram(span);
		unsigned long pages;

		memblock_reset_for_test();
		page_alloc_reset_for_test();
		memblock_add(layouts[i].base, layouts[i].size);
		if (layouts[i].size2)
			memblock_add(layouts[i].base2, layouts[i].size2);
		pages = (unsigned long)(memblock_phys_mem_size() >> PAGE_SHIFT);
		if (!memblock_free_all())
			return 1;
		printf("%-24s %8lu pages: metadata %8zu bytes = %.4f bytes/page\n",
		       layouts[i].name, pages, page_metadata_bytes(),
		       (double)page_metadata_bytes() / pages);
		munmap(p, span + SZ_1G);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 3 ? strtoul(argv[3], NULL, 0) : 2000000;

	host_console_set_quiet(true);
	if (argc >= 3 && !strcmp(argv[1], "pair"))
		return pair(!strcmp(argv[2], "used"), n);
	if (argc >= 3 && !strcmp(argv[1], "handoff"))
		return handoff_time(strtoul(argv[2], NULL, 0));
	if (argc >= 2 && !strcmp(argv[1], "metadata"))
		return metadata();
	fprintf(stderr, "usage: perf-mm pair used|fresh [ITERS] | "
		"handoff GIB | metadata\n");
	return 2;
}
