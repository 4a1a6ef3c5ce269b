/*
 * harness.c - run host test cases one after another in one process, each
 * from a freshly reset memblock and buddy allocator, and print KTAP through
 * lib/ktap.c, the kernel's own emitter.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <lib/ktap.h>
#include <mm/numa.h>
#include <mm/test_reset.h>
#include "../../../arch/host/cpu_hold.h"
#include "harness.h"

struct mapping {
	void *addr;
	size_t len;
};

static struct mapping mappings[64];
static unsigned int nr_mappings;

void *host_map(size_t size, size_t align)
{
	size_t len = size + align;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t aligned;

	if (p == MAP_FAILED || nr_mappings == sizeof(mappings) / sizeof(mappings[0])) {
		printf("# host_map: cannot map %zu bytes\n", len);
		exit(1);
	}
	mappings[nr_mappings++] = (struct mapping){ p, len };
	aligned = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	return (void *)aligned;
}

static void unmap_all(void)
{
	while (nr_mappings) {
		nr_mappings--;
		munmap(mappings[nr_mappings].addr, mappings[nr_mappings].len);
	}
}

bool console_says(const char *needle)
{
	return host_console_contains(needle);
}

unsigned int console_count(const char *needle)
{
	const char *s = host_console_captured();
	unsigned int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

void console_clear(void)
{
	host_console_capture_start(true);
}

static void print_captured(void)
{
	const char *s = host_console_captured();

	while (*s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		printf("# console: %.*s\n", len, s);
		s += len + (nl ? 1 : 0);
	}
}

static const char *skip_reason;	/* set by the running case */

bool host_test_skip(const char *reason)
{
	skip_reason = reason;
	return true;
}

void host_busy_begin(void)
{
#ifdef __SANITIZE_THREAD__
	host_blocking_begin();
#endif
}

void host_busy_end(void)
{
#ifdef __SANITIZE_THREAD__
	host_blocking_end();
#endif
}

int host_test_main(const struct host_test *tests, size_t n)
{
	struct ktap k;

	setvbuf(stdout, NULL, _IOLBF, 0);
	host_console_to_stdout();
	ktap_header(&k, (unsigned int)n);
	for (size_t i = 0; i < n; i++) {
		bool ok;

		memblock_reset_for_test();
		numa_reset();
		page_alloc_reset_for_test();
		slab_reset_for_test();
		host_set_phys_offset(0);
		host_console_capture_start(true);
		skip_reason = NULL;
		ok = tests[i].run();
		host_console_capture_stop();
		if (!ok)
			print_captured();
		if (ok && skip_reason)
			ktap_skip(&k, tests[i].name, skip_reason);
		else
			ktap_result(&k, ok, tests[i].name);
		unmap_all();
	}
	ktap_diag("%u passed, %u failed", k.number - k.failed, k.failed);
	return ktap_passed(&k) ? 0 : 1;
}
