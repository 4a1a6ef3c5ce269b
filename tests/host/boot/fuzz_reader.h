/*
 * fuzz_reader.h - the check every boot-info fuzzer makes: any input is
 * read or refused with a message, never read outside itself (ASan) or
 * misbehaving (UBSan). The small range array exercises the "no room" path.
 */
#ifndef TESTS_HOST_BOOT_FUZZ_READER_H
#define TESTS_HOST_BOOT_FUZZ_READER_H

#include <stdlib.h>
#include <boot/readers.h>

typedef int (*fuzz_reader_fn)(const uint8_t *data, size_t size,
			      struct boot_memmap *map);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline int fuzz_reader(fuzz_reader_fn read, const uint8_t *data,
			      size_t size)
{
	static struct boot_range ranges[32];
	struct boot_memmap map;
	int err;

	bootmem_init(&map, ranges, 32);
	err = read(data, size, &map);
	if (err && !map.error[0])
		abort();	/* every refusal must say why */
	if (map.cnt > map.max)
		abort();
	return 0;
}

#endif /* TESTS_HOST_BOOT_FUZZ_READER_H */
