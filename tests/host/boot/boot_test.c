/*
 * boot_test.c - see boot_test.h.
 */
#include <stdlib.h>
#include "boot_test.h"

static struct boot_range test_ranges[64];
struct boot_memmap test_map;

int read_blob(enum test_reader reader, const void *data, size_t len)
{
	void *copy = malloc(len ? len : 1);
	struct pvh_source pvh = { .map = pvh_buffer_map, .base = copy, .size = len,
				  .physical = reader == READ_PVH_PHYS };
	int err;

	memcpy(copy, data, len);
	bootmem_init(&test_map, test_ranges, 64);
	switch (reader) {
	case READ_FDT:
		err = fdt_memory_parse(copy, len, &test_map);
		break;
	case READ_MULTIBOOT2:
		err = multiboot2_memory_parse(copy, len, &test_map);
		break;
	case READ_EFI:
		err = efi_memmap_parse(copy, len, &test_map);
		break;
	default:
		err = pvh_memory_parse(&pvh, 0, &test_map);
		break;
	}
	free(copy);
	if (err && !test_map.error[0])
		printf("# reader failed (%d) without a message\n", err);
	return err && !test_map.error[0] ? -EFAULT : err;
}

void *fixture_load(const char *path, size_t *len)
{
	static uint8_t buf[2 << 20];
	char cmd[512];
	void *copy;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "gzip -dcf '%s'", path);
	f = popen(cmd, "r");
	*len = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (!f || pclose(f) || !*len) {
		printf("# cannot read %s\n", path);
		return NULL;
	}
	copy = malloc(*len);
	memcpy(copy, buf, *len);
	return copy;
}

bool range_is(unsigned int i, enum boot_range_kind kind, uint64_t base,
	      uint64_t size, const char *reason)
{
	const struct boot_range *r = &test_map.ranges[i];

	if (i >= test_map.cnt) {
		printf("# only %u ranges\n", test_map.cnt);
		return false;
	}
	if (r->kind == kind && r->base == base && r->size == size &&
	    !strcmp(r->reason, reason))
		return true;
	printf("# ranges[%u] = %s [%#llx + %#llx] '%s', expected %s "
	       "[%#llx + %#llx] '%s'\n", i, bootmem_kind_name(r->kind),
	       (unsigned long long)r->base, (unsigned long long)r->size,
	       r->reason, bootmem_kind_name(kind), (unsigned long long)base,
	       (unsigned long long)size, reason);
	return false;
}
