/*
 * handoff.c - the cost of memblock_free_all(), and what it leaves behind.
 *
 * One hand-off per process (one process holds one allocator). @gib GiB of
 * simulated RAM are mapped MAP_NORESERVE, so that only what the allocator
 * touches is backed, with the reservations a boot typically makes: a 2 MiB
 * kernel image near the bottom, a 16 MiB initrd in the middle, a 64 KiB
 * DTB near the top. Reported:
 *   handoff_ns       memblock_free_all() alone;
 *   setup_ns         mmap + memblock_add + reservations + hand-off;
 *   rss_kib          resident memory the hand-off added: proves sparseness;
 *   pages_given      its return value;
 *   free_blocks      free blocks of all orders afterwards, and top_blocks
 *                    those of MAX_PAGE_ORDER;
 *   metadata_bytes_per_page
 *                    pages neither handed out nor reserved by us, i.e. kept
 *                    by the allocator for itself, in bytes per page of RAM;
 *   minor_faults     page faults taken during the hand-off, and fault_ns
 *                    what one first touch of a page costs on this host:
 *                    a host cost that bare metal does not pay, so that the
 *                    report can say how much of the time it is.
 *
 * With nodes=N (N > 1; scenario "handoff-nodes", or "handoff-nodes-present")
 * the RAM is N nodes of equal size, each memblock_add_node()ed.
 *
 * With present=1 (scenario "handoff-present") the pages the hand-off will
 * touch are made resident first, so that it runs as on bare metal, where
 * RAM is simply there: a forked child does the same hand-off on the same
 * layout and reports, with mincore(), which pages it touched; the parent
 * touches those, keeping their contents, and then measures its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <mm/mm.h>
#include <smp/smp.h>
#include "../mm/page_state.h"
#include "bench.h"
#include "map.h"

static const struct {
	const char *what;
	unsigned long offset; /* from the bottom (0: the middle), or the top */
	unsigned long size;
	bool from_top;
} reservations[] = {
	{"kernel image", 2UL << 20, 2UL << 20, false},
	{"initrd", 0, 16UL << 20, false}, /* placed in the middle */
	{"DTB", 1UL << 20, 64UL << 10, true},
};

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The cost of one first touch of an anonymous page, in ns. */
static double fault_cost(void)
{
	const unsigned long pages = 4096;
	volatile char *m = (volatile char *)(uintptr_t)bench_map(
		pages << PAGE_SHIFT, PAGE_SIZE);
	uint64_t t0 = bench_now_ns();

	for (unsigned long i = 0; i < pages; i++)
		m[i << PAGE_SHIFT] = 1;
	t0 = bench_now_ns() - t0;
	munmap((void *)m, (pages + 1) << PAGE_SHIFT); /* as bench_map() */
	return (double)t0 / pages;
}

/* In a child: hand off, then write the index of every resident page. */
static void __attribute__((noreturn))
report_touched(phys_addr_t base, unsigned long pages, FILE *out)
{
	unsigned char *vec = malloc(pages);

	memblock_free_all();
	if (!vec || mincore((void *)(uintptr_t)base, pages << PAGE_SHIFT, vec))
		_exit(2);
	for (unsigned long i = 0; i < pages; i++)
		if (vec[i] & 1)
			fwrite(&i, sizeof(i), 1, out);
	_exit(fclose(out) ? 2 : 0);
}

/* Make resident the pages memblock_free_all() is about to touch. */
static void make_present(phys_addr_t base, unsigned long pages)
{
	volatile char *ram = (volatile char *)(uintptr_t)base;
	unsigned long i;
	int fd[2], status;
	pid_t pid;
	FILE *in;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0)
		bench_die("handoff: cannot start the probing child");
	if (!pid) {
		close(fd[0]);
		report_touched(base, pages, fdopen(fd[1], "w"));
	}
	close(fd[1]);
	in = fdopen(fd[0], "r");
	while (in && fread(&i, sizeof(i), 1, in) == 1 && i < pages)
		ram[i << PAGE_SHIFT] = ram[i << PAGE_SHIFT];
	if (in)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		bench_die("handoff: the probing child failed");
}

/*
 * The allocator's own static state (its zones and node data, memblock's
 * region arrays) is part of the kernel image on bare metal: make the
 * program's data and BSS present, keeping their contents, so that only
 * RAM is measured. (The per-CPU sets are in this thread's per-CPU area:
 * see bench_handoff().)
 */
extern char __data_start[], _end[];

static void touch_static_state(void)
{
	uintptr_t p = (uintptr_t)__data_start & ~(uintptr_t)(PAGE_SIZE - 1);

	for (; p < (uintptr_t)_end; p += PAGE_SIZE)
		*(volatile char *)p = *(volatile char *)p;
}

int bench_handoff(const struct bench_opts *o)
{
	unsigned int nodes = o->nodes ? o->nodes : 1;
	const char *scenario = nodes > 1 ? (o->present ? "handoff-nodes-present"
						       : "handoff-nodes")
					 : o->present ? "handoff-present" : "handoff";
	unsigned long bytes = o->gib << 30, total = bytes >> PAGE_SHIFT;
	unsigned long ours = 0, given, blocks = 0, kept, rss0, rss1;
	uint64_t t_setup, t0, t1;
	double fault_ns = fault_cost();
	long faults;
	phys_addr_t base;
	char variant[16];

	if (!o->gib || o->gib > 4096)
		bench_die("handoff: gib=%lu is not between 1 and 4096", o->gib);
	snprintf(variant, sizeof(variant), "%lu", o->gib);
	rss0 = bench_rss_kib();
	t_setup = bench_now_ns();
	base = bench_map(bytes, 1UL << SECTION_SIZE_BITS);
	if (nodes > MAX_NUMNODES)
		bench_die("handoff: nodes=%u is above %d", nodes, MAX_NUMNODES);
	for (unsigned int nid = 0; nid < nodes; nid++) {
		unsigned long part = (bytes / nodes) & PAGE_MASK;

		if (nid && node_set_online((int)nid))
			bench_die("handoff: node %u", nid);
		if (memblock_add_node(base + nid * part,
				      nid + 1 == nodes ? bytes - nid * part : part,
				      (int)nid, MEMBLOCK_NONE))
			bench_die("handoff: memblock_add refused %lu GiB",
				  o->gib);
	}
	for (size_t i = 0; i < sizeof(reservations) / sizeof(*reservations);
	     i++) {
		phys_addr_t at =
			reservations[i].from_top
				? base + bytes - reservations[i].offset
				: base + (reservations[i].offset ?: bytes / 2);

		if (memblock_reserve(at, reservations[i].size))
			bench_die("handoff: cannot reserve the %s",
				  reservations[i].what);
		ours += reservations[i].size >> PAGE_SHIFT;
	}
	if (o->present) {
		make_present(base, total);
		touch_static_state();
		/*
		 * This thread's per-CPU area, the section in the image on
		 * bare metal: the host makes it (zeroed, so present) when the
		 * thread first calls in.
		 */
		smp_processor_id();
	}
	faults = minor_faults();
	t0 = bench_now_ns();
	given = memblock_free_all();
	t1 = bench_now_ns();
	faults = minor_faults() - faults;
	t_setup = t1 - t_setup;
	rss1 = bench_rss_kib();

	if (nr_free_pages() != given)
		bench_die("handoff: %lu pages given, %lu free", given,
			  nr_free_pages());
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++)
		blocks += nr_free_blocks(order);
	if (given + ours > total)
		bench_die("handoff: %lu pages given, but only %lu are not "
			  "reserved",
			  given, total - ours);
	kept = total - given - ours;
	bench_emit(scenario, variant, -1, "handoff_ns", 1, (double)(t1 - t0));
	bench_emit(scenario, variant, -1, "setup_ns", 1, (double)t_setup);
	bench_emit(scenario, variant, -1, "rss_kib", 1, (double)(rss1 - rss0));
	bench_emit(scenario, variant, -1, "pages_given", 1, (double)given);
	bench_emit(scenario, variant, -1, "free_blocks", 1, (double)blocks);
	bench_emit(scenario, variant, -1, "top_blocks", 1,
		   (double)nr_free_blocks(MAX_PAGE_ORDER));
	bench_emit(scenario, variant, -1, "kept_pages", 1, (double)kept);
	bench_emit(scenario, variant, -1, "metadata_bytes_per_page", 1,
		   (double)kept * PAGE_SIZE / (double)total);
	bench_emit(scenario, variant, -1, "minor_faults", 1, (double)faults);
	bench_emit(scenario, variant, -1, "fault_ns", 1, fault_ns);

	/* The heap must work: one top-order block out and back. */
	struct page *p = alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER);

	if (!p)
		bench_die("handoff: no order-%d block after the hand-off",
			  MAX_PAGE_ORDER);
	__free_pages(p, MAX_PAGE_ORDER);
	if (nr_free_pages() != given)
		bench_die("handoff: the heap lost pages");
	return 0;
}
