/*
 * fdt_builder.c - see fdt_builder.h. Layout of the finished blob, as dtc
 * writes it: 40-byte v17 header, /memreserve/ block, structure block,
 * strings block.
 */
#include <stdarg.h>
#include <string.h>
#include <boot/abi.h>
#include <boot/bytes.h>
#include "fdt_builder.h"

void fdtb_init(struct fdtb *b)
{
	memset(b, 0, sizeof(*b));
}

void fdtb_token(struct fdtb *b, uint32_t token)
{
	store_be32(b->st + b->st_len, token);
	b->st_len += 4;
}

static void put_padded(struct fdtb *b, const void *p, size_t len)
{
	if (len)
		memcpy(b->st + b->st_len, p, len);
	b->st_len += len;
	while (b->st_len % 4)
		b->st[b->st_len++] = 0;
}

void fdtb_begin(struct fdtb *b, const char *name)
{
	fdtb_token(b, 1);
	put_padded(b, name, strlen(name) + 1);
}

void fdtb_end(struct fdtb *b)
{
	fdtb_token(b, 2);
}

static uint32_t string_offset(struct fdtb *b, const char *name)
{
	for (size_t off = 0; off < b->str_len; off += strlen(b->str + off) + 1)
		if (!strcmp(b->str + off, name))
			return off;
	strcpy(b->str + b->str_len, name);
	b->str_len += strlen(name) + 1;
	return b->str_len - strlen(name) - 1;
}

void fdtb_prop(struct fdtb *b, const char *name, const void *val, uint32_t len)
{
	fdtb_token(b, 3);
	fdtb_token(b, len);
	fdtb_token(b, string_offset(b, name));
	put_padded(b, val, len);
}

void fdtb_prop_str(struct fdtb *b, const char *name, const char *s)
{
	fdtb_prop(b, name, s, strlen(s) + 1);
}

void fdtb_prop_cells(struct fdtb *b, const char *name, unsigned int n, ...)
{
	uint8_t val[64];
	va_list ap;

	va_start(ap, n);
	for (unsigned int i = 0; i < n; i++)
		store_be32(val + 4 * i, va_arg(ap, uint32_t));
	va_end(ap);
	fdtb_prop(b, name, val, 4 * n);
}

void fdtb_rsv(struct fdtb *b, uint64_t base, uint64_t size)
{
	b->rsv[b->nr_rsv][0] = base;
	b->rsv[b->nr_rsv][1] = size;
	b->nr_rsv++;
}

void fdtb_set32(struct fdtb *b, size_t off, uint32_t v)
{
	store_be32(b->blob + off, v);
}

void fdtb_finish(struct fdtb *b, int end)
{
	size_t off = 40;

	if (end)
		fdtb_token(b, 9);
	memset(b->blob, 0, sizeof(b->blob));
	b->off_rsvmap = off;
	for (unsigned int i = 0; i <= b->nr_rsv; i++, off += 16) {
		uint64_t base = i < b->nr_rsv ? b->rsv[i][0] : 0;
		uint64_t size = i < b->nr_rsv ? b->rsv[i][1] : 0;

		store_be32(b->blob + off, base >> 32);
		store_be32(b->blob + off + 4, (uint32_t)base);
		store_be32(b->blob + off + 8, size >> 32);
		store_be32(b->blob + off + 12, (uint32_t)size);
	}
	b->off_struct = off;
	memcpy(b->blob + off, b->st, b->st_len);
	off += b->st_len;
	b->off_strings = off;
	memcpy(b->blob + off, b->str, b->str_len);
	off += b->str_len;
	b->len = off;

	fdtb_set32(b, 0, FDT_MAGIC);
	fdtb_set32(b, 4, (uint32_t)b->len);
	fdtb_set32(b, 8, (uint32_t)b->off_struct);
	fdtb_set32(b, 12, (uint32_t)b->off_strings);
	fdtb_set32(b, 16, (uint32_t)b->off_rsvmap);
	fdtb_set32(b, 20, 17);
	fdtb_set32(b, 24, 16);
	fdtb_set32(b, 28, 0);
	fdtb_set32(b, 32, (uint32_t)b->str_len);
	fdtb_set32(b, 36, (uint32_t)b->st_len);
}
