/*
 * fuzz_pvh.c - libFuzzer target for the PVH reader. Addresses are offsets
 * into the input; odd-sized inputs read it as physical memory, so the
 * structure reservations (memory map, module list, command line) are
 * fuzzed too.
 */
#include "fuzz_reader.h"

static int read_pvh(const uint8_t *data, size_t size, struct boot_memmap *map)
{
	struct pvh_source src = { .map = pvh_buffer_map, .base = data,
				  .size = size, .physical = size & 1 };

	return pvh_memory_parse(&src, 0, map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_reader(read_pvh, data, size);
}
