/*
 * fdt_builder.h - build small flattened device trees in memory, for tests
 * that need blobs dtc would never write (unterminated names, offsets past
 * the end, deep nesting) as well as ordinary ones.
 */
#ifndef TESTS_HOST_BOOT_FDT_BUILDER_H
#define TESTS_HOST_BOOT_FDT_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#define FDTB_MAX	8192

struct fdtb {
	uint8_t st[FDTB_MAX];		/* structure block */
	size_t st_len;
	char str[FDTB_MAX];		/* strings block */
	size_t str_len;
	uint64_t rsv[128][2];		/* /memreserve/ entries */
	unsigned int nr_rsv;
	uint8_t blob[3 * FDTB_MAX];	/* fdtb_finish() output */
	size_t len;
	/* header fields, as fdtb_finish() wrote them, offsets into blob */
	size_t off_rsvmap, off_struct, off_strings;
};

void fdtb_init(struct fdtb *b);
void fdtb_begin(struct fdtb *b, const char *name);
void fdtb_end(struct fdtb *b);
void fdtb_prop(struct fdtb *b, const char *name, const void *val, uint32_t len);
void fdtb_prop_str(struct fdtb *b, const char *name, const char *s);
/* fdtb_prop_cells - @n big-endian 32-bit cells. */
void fdtb_prop_cells(struct fdtb *b, const char *name, unsigned int n, ...);
void fdtb_rsv(struct fdtb *b, uint64_t base, uint64_t size);
/* fdtb_token - a raw 32-bit token in the structure block. */
void fdtb_token(struct fdtb *b, uint32_t token);
/* fdtb_finish - append FDT_END (unless !end) and lay the blob out (v17). */
void fdtb_finish(struct fdtb *b, int end);

/* fdtb_set32 - overwrite the big-endian word at @off in the blob. */
void fdtb_set32(struct fdtb *b, size_t off, uint32_t v);

#endif /* TESTS_HOST_BOOT_FDT_BUILDER_H */
