/*
 * fdt.c - validating, read-only access to a flattened device tree.
 *
 * The blob comes from firmware or a bootloader and may be anything: every
 * read here is checked against the block it belongs to, and fdt_open()
 * walks the whole structure block once so that a blob that is malformed
 * anywhere is refused before any of it is used. See include/boot/fdt.h.
 */
#include <boot/bootmem.h>
#include <boot/bytes.h>
#include <boot/fdt.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define FDT_BEGIN_NODE	0x1
#define FDT_END_NODE	0x2
#define FDT_PROP	0x3
#define FDT_NOP		0x4
#define FDT_END		0x9

/* Header field offsets (all fields are big-endian 32-bit). */
#define HDR_MAGIC		0
#define HDR_TOTALSIZE		4
#define HDR_OFF_STRUCT		8
#define HDR_OFF_STRINGS		12
#define HDR_OFF_RSVMAP		16
#define HDR_VERSION		20
#define HDR_LAST_COMP		24
#define HDR_SIZE_STRINGS	32
#define HDR_SIZE_STRUCT		36

struct fdt_token {
	uint32_t tag;
	uint32_t next;		/* offset of the following token */
	const char *name;	/* node or property name */
	const void *value;	/* property value */
	uint32_t len;		/* property length */
};

uint64_t fdt_read_cells(const void *p, unsigned int cells)
{
	const uint8_t *b = p;
	uint64_t v = 0;

	for (unsigned int i = 0; i < cells; i++)
		v = v << 32 | load_be32(b + 4 * i);
	return v;
}

static int fdt_fail(const struct fdt *fdt, const char *fmt, ...) __printf(2, 3);
static int fdt_fail(const struct fdt *fdt, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!fdt->error)
		return -EBADMSG;
	n = ksnprintf(fdt->error, BOOT_ERROR_LEN, "fdt: ");
	va_start(ap, fmt);
	kvsnprintf(fdt->error + n, BOOT_ERROR_LEN - n, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/*
 * fdt_token_at - decode the token at @off in the structure block.
 * Return: 0, or -EBADMSG (message set) for anything that does not fit.
 */
static int fdt_token_at(const struct fdt *fdt, uint32_t off,
			struct fdt_token *tok)
{
	const uint8_t *s = fdt->blob + fdt->off_struct;
	uint32_t size = fdt->size_struct;
	size_t n;

	if (off > size || size - off < 4)
		return fdt_fail(fdt, "structure block ends without FDT_END "
				"(at struct offset %u)", off);
	tok->tag = load_be32(s + off);
	switch (tok->tag) {
	case FDT_BEGIN_NODE:
		tok->name = (const char *)s + off + 4;
		n = strnlen(tok->name, size - off - 4);
		if (n == size - off - 4)
			return fdt_fail(fdt, "unterminated node name at struct "
					"offset %u", off);
		tok->next = ALIGN_UP(off + 4 + (uint32_t)n + 1, 4);
		break;
	case FDT_PROP: {
		uint32_t nameoff;

		if (size - off < 12)
			return fdt_fail(fdt, "truncated property at struct "
					"offset %u", off);
		tok->len = load_be32(s + off + 4);
		nameoff = load_be32(s + off + 8);
		if (tok->len > size - off - 12)
			return fdt_fail(fdt, "property at struct offset %u: "
					"length %u runs past the structure "
					"block", off, tok->len);
		if (nameoff >= fdt->size_strings)
			return fdt_fail(fdt, "property at struct offset %u: "
					"name offset %u is past the strings "
					"block (%u bytes)", off, nameoff,
					fdt->size_strings);
		tok->name = (const char *)fdt->blob + fdt->off_strings + nameoff;
		if (strnlen(tok->name, fdt->size_strings - nameoff) ==
		    fdt->size_strings - nameoff)
			return fdt_fail(fdt, "property at struct offset %u: "
					"unterminated name in the strings "
					"block", off);
		tok->value = s + off + 12;
		tok->next = ALIGN_UP(off + 12 + tok->len, 4);
		break;
	}
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		tok->next = off + 4;
		break;
	default:
		return fdt_fail(fdt, "unknown token %#x at struct offset %u",
				tok->tag, off);
	}
	return 0;
}

/* fdt_next_token - the next token that is not a NOP, from @off. */
static int fdt_next_token(const struct fdt *fdt, uint32_t off,
			  uint32_t *at, struct fdt_token *tok)
{
	int err;

	for (;;) {
		err = fdt_token_at(fdt, off, tok);
		if (err)
			return err;
		if (tok->tag != FDT_NOP)
			break;
		off = tok->next;
	}
	*at = off;
	return 0;
}

/* The whole structure block, once: balanced, bounded, FDT_END reached. */
static int fdt_check_structure(struct fdt *fdt)
{
	struct fdt_token tok;
	uint32_t off = 0, at;
	int depth = 0, err;

	fdt->root = -1;
	for (;;) {
		err = fdt_next_token(fdt, off, &at, &tok);
		if (err)
			return err;
		switch (tok.tag) {
		case FDT_BEGIN_NODE:
			if (depth == 0 && fdt->root >= 0)
				return fdt_fail(fdt, "a second root node at "
						"struct offset %u", at);
			if (depth == 0)
				fdt->root = (int)at;
			if (++depth > FDT_MAX_DEPTH)
				return fdt_fail(fdt, "nodes nested deeper than "
						"%d at struct offset %u",
						FDT_MAX_DEPTH, at);
			break;
		case FDT_END_NODE:
			if (depth == 0)
				return fdt_fail(fdt, "FDT_END_NODE without a "
						"node at struct offset %u", at);
			depth--;
			break;
		case FDT_PROP:
			if (depth == 0)
				return fdt_fail(fdt, "property '%s' outside "
						"any node at struct offset %u",
						tok.name, at);
			break;
		case FDT_END:
			if (depth != 0)
				return fdt_fail(fdt, "FDT_END inside a node "
						"(%d left open)", depth);
			if (fdt->root < 0)
				return fdt_fail(fdt, "no root node");
			return 0;
		}
		off = tok.next;
	}
}

/* The /memreserve/ block: 16-byte entries up to a (0, 0) terminator. */
static int fdt_check_rsvmap(const struct fdt *fdt)
{
	for (uint32_t off = fdt->off_rsvmap;; off += 16) {
		if (fdt->totalsize - off < 16)
			return fdt_fail(fdt, "memory reservation block runs past "
					"totalsize without its terminator");
		if (fdt_read_cells(fdt->blob + off, 2) == 0 &&
		    fdt_read_cells(fdt->blob + off + 8, 2) == 0)
			return 0;
	}
}

static int fdt_check_block(const struct fdt *fdt, const char *what,
			   uint32_t off, uint32_t size, uint32_t hdrsize)
{
	if (off < hdrsize)
		return fdt_fail(fdt, "%s block at offset %u overlaps the "
				"%u-byte header", what, off, hdrsize);
	if ((uint64_t)off + size > fdt->totalsize)
		return fdt_fail(fdt, "%s block [%u, +%u) lies past totalsize "
				"%u", what, off, size, fdt->totalsize);
	return 0;
}

uint32_t fdt_header_totalsize(const void *blob)
{
	const uint8_t *b = blob;

	if (load_be32(b + HDR_MAGIC) != FDT_MAGIC)
		return 0;
	return load_be32(b + HDR_TOTALSIZE);
}

int fdt_open(struct fdt *fdt, const void *blob, size_t avail, char *error)
{
	const uint8_t *b = blob;
	uint32_t hdrsize, last_comp;
	int err;

	memset(fdt, 0, sizeof(*fdt));
	fdt->blob = b;
	fdt->error = error;
	fdt->root = -1;
	if (avail < 4)
		return fdt_fail(fdt, "truncated: %zu bytes, too short for a "
				"header", avail);
	if (load_be32(b + HDR_MAGIC) != FDT_MAGIC)
		return fdt_fail(fdt, "bad magic %#x (expected %#x)",
				load_be32(b + HDR_MAGIC), FDT_MAGIC);
	if (avail < FDT_V16_HEADER_SIZE)
		return fdt_fail(fdt, "truncated: %zu bytes, too short for a "
				"header", avail);
	fdt->version = load_be32(b + HDR_VERSION);
	last_comp = load_be32(b + HDR_LAST_COMP);
	if (fdt->version < 16)
		return fdt_fail(fdt, "version %u is too old (16 or later is "
				"read)", fdt->version);
	if (last_comp > 17)
		return fdt_fail(fdt, "last compatible version %u is newer than "
				"17", last_comp);
	hdrsize = fdt->version >= 17 ? FDT_V17_HEADER_SIZE : FDT_V16_HEADER_SIZE;
	if (avail < hdrsize)
		return fdt_fail(fdt, "truncated: %zu bytes, too short for a "
				"version %u header", avail, fdt->version);

	fdt->totalsize = load_be32(b + HDR_TOTALSIZE);
	if (fdt->totalsize < hdrsize)
		return fdt_fail(fdt, "totalsize %u is smaller than the header",
				fdt->totalsize);
	if (fdt->totalsize > FDT_MAX_TOTALSIZE)
		return fdt_fail(fdt, "totalsize %u is absurd (more than %u)",
				fdt->totalsize, FDT_MAX_TOTALSIZE);
	if (fdt->totalsize > avail)
		return fdt_fail(fdt, "truncated: totalsize is %u but only %zu "
				"bytes are present", fdt->totalsize, avail);

	fdt->off_rsvmap = load_be32(b + HDR_OFF_RSVMAP);
	fdt->off_struct = load_be32(b + HDR_OFF_STRUCT);
	fdt->off_strings = load_be32(b + HDR_OFF_STRINGS);
	fdt->size_strings = load_be32(b + HDR_SIZE_STRINGS);
	if (fdt->version >= 17)
		fdt->size_struct = load_be32(b + HDR_SIZE_STRUCT);
	else if (fdt->off_struct <= fdt->totalsize)
		fdt->size_struct = fdt->totalsize - fdt->off_struct;

	if (!IS_ALIGNED(fdt->off_rsvmap, 8))
		return fdt_fail(fdt, "memory reservation block offset %u is "
				"not 8-byte aligned", fdt->off_rsvmap);
	if (!IS_ALIGNED(fdt->off_struct, 4))
		return fdt_fail(fdt, "structure block offset %u is not 4-byte "
				"aligned", fdt->off_struct);
	err = fdt_check_block(fdt, "memory reservation", fdt->off_rsvmap, 16,
			      hdrsize);
	if (!err)
		err = fdt_check_block(fdt, "structure", fdt->off_struct,
				      fdt->size_struct, hdrsize);
	if (!err)
		err = fdt_check_block(fdt, "strings", fdt->off_strings,
				      fdt->size_strings, hdrsize);
	if (!err)
		err = fdt_check_rsvmap(fdt);
	if (!err)
		err = fdt_check_structure(fdt);
	return err;
}

/* Offset just past the FDT_END_NODE that closes @node. */
static int fdt_skip_node(const struct fdt *fdt, int node)
{
	struct fdt_token tok;
	uint32_t off = (uint32_t)node, at;
	int depth = 0;

	do {
		if (fdt_next_token(fdt, off, &at, &tok))
			return -1;
		if (tok.tag == FDT_BEGIN_NODE)
			depth++;
		else if (tok.tag == FDT_END_NODE)
			depth--;
		else if (tok.tag == FDT_END)
			return -1;
		off = tok.next;
	} while (depth > 0);
	return (int)off;
}

/* The first child node at or after @off, skipping properties. */
static int fdt_child_from(const struct fdt *fdt, int off)
{
	struct fdt_token tok;
	uint32_t at;

	while (off >= 0) {
		if (fdt_next_token(fdt, (uint32_t)off, &at, &tok))
			return -1;
		if (tok.tag == FDT_BEGIN_NODE)
			return (int)at;
		if (tok.tag != FDT_PROP)
			return -1;
		off = (int)tok.next;
	}
	return -1;
}

int fdt_first_child(const struct fdt *fdt, int parent)
{
	struct fdt_token tok;

	if (parent < 0 || fdt_token_at(fdt, (uint32_t)parent, &tok) ||
	    tok.tag != FDT_BEGIN_NODE)
		return -1;
	return fdt_child_from(fdt, (int)tok.next);
}

int fdt_next_child(const struct fdt *fdt, int child)
{
	return child < 0 ? -1 : fdt_child_from(fdt, fdt_skip_node(fdt, child));
}

const char *fdt_node_name(const struct fdt *fdt, int node)
{
	struct fdt_token tok;

	if (node < 0 || fdt_token_at(fdt, (uint32_t)node, &tok) ||
	    tok.tag != FDT_BEGIN_NODE)
		return "";
	return tok.name;
}

/* Properties of @node, wherever they sit among its children. */
const void *fdt_getprop(const struct fdt *fdt, int node, const char *name,
			uint32_t *len)
{
	struct fdt_token tok;
	uint32_t off, at;
	int depth = 0;

	if (node < 0 || fdt_token_at(fdt, (uint32_t)node, &tok) ||
	    tok.tag != FDT_BEGIN_NODE)
		return NULL;
	for (off = tok.next;; off = tok.next) {
		if (fdt_next_token(fdt, off, &at, &tok))
			return NULL;
		if (tok.tag == FDT_BEGIN_NODE) {
			depth++;
		} else if (tok.tag == FDT_END_NODE) {
			if (depth-- == 0)
				return NULL;
		} else if (tok.tag == FDT_END) {
			return NULL;
		} else if (depth == 0 && !strcmp(tok.name, name)) {
			*len = tok.len;
			return tok.value;
		}
	}
}

bool fdt_prop_is_string(const struct fdt *fdt, int node, const char *name,
			const char *value)
{
	uint32_t len;
	const char *p = fdt_getprop(fdt, node, name, &len);
	size_t want = strlen(value) + 1;

	return p && len >= want && !memcmp(p, value, want);
}

bool fdt_node_is_available(const struct fdt *fdt, int node)
{
	uint32_t len;

	if (!fdt_getprop(fdt, node, "status", &len))
		return true;
	return fdt_prop_is_string(fdt, node, "status", "okay") ||
	       fdt_prop_is_string(fdt, node, "status", "ok");
}

bool fdt_rsvmap_entry(const struct fdt *fdt, unsigned int index,
		      uint64_t *base, uint64_t *size)
{
	uint64_t off = fdt->off_rsvmap;

	for (unsigned int i = 0;; i++, off += 16) {
		if (off + 16 > fdt->totalsize)
			return false;
		*base = fdt_read_cells(fdt->blob + off, 2);
		*size = fdt_read_cells(fdt->blob + off + 8, 2);
		if (*base == 0 && *size == 0)
			return false;
		if (i == index)
			return true;
	}
}
