/*
 * fuzz_multiboot2.c - libFuzzer target for the multiboot2 reader.
 */
#include "fuzz_reader.h"

static int read_mb2(const uint8_t *data, size_t size, struct boot_memmap *map)
{
	return multiboot2_memory_parse(data, size, map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_reader(read_mb2, data, size);
}
