/*
 * fuzz_efi.c - libFuzzer target for the EFI memory map reader: any blob
 * (header, descriptor size and version, count and map size, descriptors)
 * is read or refused with a message.
 */
#include <boot/efi.h>
#include "fuzz_reader.h"

static int read_efi(const uint8_t *data, size_t size, struct boot_memmap *map)
{
	return efi_memmap_parse(data, size, map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_reader(read_efi, data, size);
}
