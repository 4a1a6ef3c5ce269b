/*
 * acpi_snapshot.c - see acpi_snapshot.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acpi_snapshot.h"

static const void *snapshot_map(const struct acpi_source *src, uint64_t addr,
				 size_t len)
{
	const struct acpi_snapshot *s = (const struct acpi_snapshot *)src;

	for (unsigned int i = 0; i < s->nr; i++) {
		uint64_t off = addr - s->rec[i].addr;

		if (addr >= s->rec[i].addr && off <= s->rec[i].len &&
		    len <= s->rec[i].len - off)
			return s->rec[i].bytes + off;
	}
	return NULL;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int acpi_snapshot_load(struct acpi_snapshot *s, const uint8_t *data,
		       size_t size)
{
	size_t at = 16;

	memset(s, 0, sizeof(*s));
	s->src.map = snapshot_map;
	if (size < 16 || memcmp(data, "BBACPI01", 8))
		return -1;
	s->rsdp = get64(data + 8);
	while (size - at >= 16) {
		uint64_t addr = get64(data + at), len = get64(data + at + 8);

		at += 16;
		if (s->nr == ACPI_SNAPSHOT_MAX_RECORDS || len > size - at ||
		    addr + len < addr)
			goto bad;
		for (unsigned int i = 0; i < s->nr; i++)
			if (addr < s->rec[i].addr + s->rec[i].len &&
			    s->rec[i].addr < addr + len)
				goto bad;
		s->rec[s->nr].addr = addr;
		s->rec[s->nr].len = len;
		s->rec[s->nr].bytes = malloc(len ? len : 1);
		memcpy(s->rec[s->nr].bytes, data + at, len);
		s->nr++;
		at += len;
		at += (size - at) < (-len & 7) ? size - at : (-len & 7);
	}
	return 0;
bad:
	acpi_snapshot_free(s);
	return -1;
}

int acpi_snapshot_file(struct acpi_snapshot *s, const char *path)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return acpi_snapshot_load(s, buf, n);
}

static void fix(uint8_t *p, size_t len, size_t at)
{
	uint8_t sum = 0;

	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		sum += p[i];
	p[at] = -sum;
}

void acpi_snapshot_fix_checksums(struct acpi_snapshot *s)
{
	for (unsigned int i = 0; i < s->nr; i++) {
		uint8_t *p = s->rec[i].bytes;
		uint64_t len = s->rec[i].len;
		uint32_t n = 0;

		if (s->rec[i].addr == s->rsdp && len >= 20 &&
		    !memcmp(p, "RSD PTR ", 8)) {
			fix(p, 20, 8);
			memcpy(&n, p + 20, len >= 24 ? 4 : 0);
			if (len >= 36 && p[15] >= 2 && n >= 36 && n <= len)
				fix(p, n, 32);
		} else if (len >= 36) {
			memcpy(&n, p + 4, 4);
			if (n >= 36 && n <= len)
				fix(p, n, 9);
		}
	}
}

void acpi_snapshot_free(struct acpi_snapshot *s)
{
	for (unsigned int i = 0; i < s->nr; i++)
		free(s->rec[i].bytes);
	s->nr = 0;
}
