/*
 * boot_test.h - what the boot-info reader tests share: run a reader on an
 * exact-size heap copy of the input (so ASan sees any read past it), and
 * check the ranges or the error it gave.
 */
#ifndef TESTS_HOST_BOOT_TEST_H
#define TESTS_HOST_BOOT_TEST_H

#include <string.h>
#include <boot/bootmem.h>
#include <boot/efi.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include "../mm/harness.h"

extern struct boot_memmap test_map;

enum test_reader { READ_FDT, READ_MULTIBOOT2, READ_PVH_FILE, READ_PVH_PHYS,
		   READ_EFI };

/* read_blob - run @reader on a heap copy of @len bytes of @data. */
int read_blob(enum test_reader reader, const void *data, size_t len);

/*
 * fixture_load - the file at @path (relative to the top of the tree, where
 * the suites run), gunzipped if it is compressed, in a heap buffer of
 * exactly its size, so that ASan sees a read past its end; free() it.
 * Return: the buffer with *@len set, or NULL (said in a "# " line).
 */
void *fixture_load(const char *path, size_t *len);

/* range_is - does test_map.ranges[@i] hold exactly this? (prints why not) */
bool range_is(unsigned int i, enum boot_range_kind kind, uint64_t base,
	      uint64_t size, const char *reason);

#define EXPECT_RANGE(i, kind, base, size, reason)			\
	EXPECT(range_is(i, kind, base, size, reason), "range %u", i)

#define EXPECT_ERROR(err, want, needle)					\
	EXPECT((err) == (want) && strstr(test_map.error, needle),	\
	       "error %d \"%s\", expected %d with \"%s\"", err,		\
	       test_map.error, want, needle)

#endif /* TESTS_HOST_BOOT_TEST_H */
