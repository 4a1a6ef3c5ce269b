/*
 * harness.h - the host tests' small framework: one function per scenario,
 * KTAP on stdout, the console captured so a test can assert what mm/
 * reported.
 *
 * Before each case memblock and the buddy allocator are reset and the
 * host physical offset is 0. A case returns true for a pass; EXPECT()
 * explains a failure as a "# " diagnostic and returns false. On a failure
 * the captured console output is printed as diagnostics too.
 */
#ifndef TESTS_HOST_MM_HARNESS_H
#define TESTS_HOST_MM_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <arch/memory.h>
#include <mm/mm.h>
#include <mm/test_reset.h>
#include "host.h"

struct host_test {
	const char *name;
	bool (*run)(void);
};

#define HOST_TEST(fn)	{ #fn, fn }

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);				\
			printf("\n");					\
			return false;					\
		}							\
	} while (0)

/*
 * host_test_skip - from a case: report it skipped, for @reason (a string
 * that lives on), rather than passed. Return: true, for the case to return.
 */
bool host_test_skip(const char *reason);

/*
 * host_busy_begin/host_busy_end - around a test thread's loop that stands
 * for a CPU busy in its own code, with no poll point, which no sender may
 * serve. Under ThreadSanitizer, whose runtime may put a thread to sleep
 * for a moment anywhere in its program's code, the loop could be found
 * asleep outside buddyboot's code and held (arch/host/cpu_hold.c), so
 * there it counts as inside; elsewhere these do nothing.
 */
void host_busy_begin(void);
void host_busy_end(void);

/* host_test_main - run @n cases, print KTAP. Return: the exit status. */
int host_test_main(const struct host_test *tests, size_t n);

/*
 * host_map - @size bytes of anonymous memory whose address is a multiple
 * of @align (a power of two, at least the host page size), lazily backed
 * (MAP_NORESERVE): only what is touched costs memory. Unmapped after the
 * case. Aborts the program if the host refuses.
 */
void *host_map(size_t size, size_t align);

/* Capture what the console printed during this case. */
bool console_says(const char *needle);
/* How many times @needle is in what the console printed. */
unsigned int console_count(const char *needle);
void console_clear(void);

#endif /* TESTS_HOST_MM_HARNESS_H */
