/*
 * fuzz_fdt.c - libFuzzer target for the device-tree reader.
 */
#include "fuzz_reader.h"

static int read_fdt(const uint8_t *data, size_t size, struct boot_memmap *map)
{
	return fdt_memory_parse(data, size, map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_reader(read_fdt, data, size);
}
