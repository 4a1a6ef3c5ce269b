/*
 * bytes.h - loads of fixed-endian fields from boot-info blobs, byte by
 * byte: the blobs' fields need not be aligned for this CPU, and the DTB is
 * big-endian while multiboot2 and PVH are little-endian. The one place
 * for them: the readers, the selftests and the tests' blob builders
 * (store_be32) all use these.
 */
#ifndef BOOT_BYTES_H
#define BOOT_BYTES_H

#include <lib/types.h>

static inline uint32_t load_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static inline uint32_t load_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[1] << 8 | b[0];
}

static inline uint64_t load_le64(const void *p)
{
	return (uint64_t)load_le32((const uint8_t *)p + 4) << 32 | load_le32(p);
}

static inline void store_be32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

#endif /* BOOT_BYTES_H */
