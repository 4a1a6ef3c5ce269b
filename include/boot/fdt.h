/*
 * fdt.h - a read-only, bounds-checked reader for flattened device trees
 * (devicetree specification v0.4, chapter 5).
 *
 * fdt_open() validates the whole blob before anything reads it: the header,
 * every block offset and size against totalsize, the memory reservation
 * block and its terminator, and the structure block token by token (names
 * NUL-terminated inside the block, property names inside the strings block,
 * nodes balanced, depth limited, FDT_END reached). The accessors below check
 * their bounds again and never read outside [blob, blob + totalsize).
 *
 * Nodes are named by the offset of their FDT_BEGIN_NODE token inside the
 * structure block, as in libfdt.
 */
#ifndef BOOT_FDT_H
#define BOOT_FDT_H

#include <boot/abi.h>
#include <lib/types.h>

#define FDT_V16_HEADER_SIZE	36u
#define FDT_V17_HEADER_SIZE	40u
#define FDT_MAX_DEPTH		32	/* deeper nesting is refused */
#define FDT_MAX_TOTALSIZE	(64u << 20)	/* larger is refused as absurd */

struct fdt {
	const uint8_t *blob;
	uint32_t totalsize;
	uint32_t version;
	uint32_t off_rsvmap;
	uint32_t off_struct, size_struct;
	uint32_t off_strings, size_strings;
	int root;		/* offset of the root node */
	char *error;		/* BOOT_ERROR_LEN bytes, set on failure */
};

/*
 * fdt_open - validate @blob (@avail readable bytes) and fill @fdt.
 * @error: a BOOT_ERROR_LEN buffer for the message on failure.
 * Return: 0, or -EBADMSG with "fdt: <problem>" in @error.
 */
int fdt_open(struct fdt *fdt, const void *blob, size_t avail, char *error);

/* fdt_header_totalsize - totalsize of a blob whose first 8 bytes can be
 * read, or 0 when the magic is wrong (for callers that must learn how much
 * to map before they can call fdt_open). */
uint32_t fdt_header_totalsize(const void *blob);

/* fdt_first_child / fdt_next_child - iterate over @parent's children.
 * Return: a node offset, or -1 when there are no more. */
int fdt_first_child(const struct fdt *fdt, int parent);
int fdt_next_child(const struct fdt *fdt, int child);

/* fdt_node_name - the node's name ("" for the root). Never NULL. */
const char *fdt_node_name(const struct fdt *fdt, int node);

/*
 * fdt_getprop - find property @name of @node.
 * Return: its value (*@len bytes, inside the blob), or NULL if absent.
 */
const void *fdt_getprop(const struct fdt *fdt, int node, const char *name,
			uint32_t *len);

/* fdt_node_is_available - status absent, "okay" or "ok". */
bool fdt_node_is_available(const struct fdt *fdt, int node);

/* fdt_prop_is_string - the property is a NUL-terminated @value. */
bool fdt_prop_is_string(const struct fdt *fdt, int node, const char *name,
			const char *value);

/*
 * fdt_rsvmap_entry - the @index-th /memreserve/ entry.
 * Return: true and *@base, *@size set, or false past the last one.
 */
bool fdt_rsvmap_entry(const struct fdt *fdt, unsigned int index,
		      uint64_t *base, uint64_t *size);

/* fdt_read_cells - big-endian number of @cells (1 or 2) 32-bit cells. */
uint64_t fdt_read_cells(const void *p, unsigned int cells);

/*
 * A node with its ancestors, as a path from the root finds it:
 * node[0] is the root, node[depth] the node itself. Translating a node's
 * reg needs every bus above it, which offsets alone do not give.
 */
struct fdt_node_path {
	int node[FDT_MAX_DEPTH + 1];
	int depth;
};

/*
 * fdt_lookup_path - the node @path names (@len bytes): an absolute path
 * ("/soc/serial@7e215040", or "/soc/serial" when the name is unique) or an
 * alias of /aliases ("serial0"). Anything from a ':' on is options and is
 * ignored. Return: 0, -ENOENT (no such node or alias), -EINVAL; a message
 * in fdt->error when it has one.
 */
int fdt_lookup_path(const struct fdt *fdt, const char *path, size_t len,
		    struct fdt_node_path *np);

/*
 * fdt_stdout_node - the node /chosen/stdout-path (or linux,stdout-path)
 * names; *@options, when given, points at what followed its ':' ("" if
 * nothing). Return: 0, or as fdt_lookup_path(); -ENOENT with no property.
 */
int fdt_stdout_node(const struct fdt *fdt, struct fdt_node_path *np,
		    const char **options);

/* fdt_find_compatible - the first available node, depth-first, whose
 * compatible list has @compat. Return: 0, or -ENOENT. */
int fdt_find_compatible(const struct fdt *fdt, const char *compat,
			struct fdt_node_path *np);

/* fdt_node_is_compatible - @compat is one of @node's compatible strings. */
bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat);

/* fdt_getprop_u32 - a one-cell property, or @dflt when absent or not 4 bytes. */
uint32_t fdt_getprop_u32(const struct fdt *fdt, int node, const char *name,
			 uint32_t dflt);

/*
 * fdt_reg_translate - the @index-th entry of the node's reg as the CPU sees
 * it: read with the parent's #address-cells/#size-cells, then mapped
 * through the `ranges` of every bus up to the root (an empty ranges is
 * the identity; a bus without ranges is not on the CPU's bus: -ENOENT; an
 * address no range covers: -ERANGE). Up to 2 cells per number.
 */
int fdt_reg_translate(const struct fdt *fdt, const struct fdt_node_path *np,
		      unsigned int index, uint64_t *addr, uint64_t *size);

#endif /* BOOT_FDT_H */
