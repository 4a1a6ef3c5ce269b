/*
 * fdt_path.c - finding a device in a device tree and its registers' CPU
 * address: paths and aliases, /chosen/stdout-path, compatible strings,
 * `reg` translated through every parent's `ranges` (devicetree
 * specification v0.4, sections 2.3.6-2.3.8, 3.3, 3.5).
 *
 * Format only: which device a board uses as its console or exit device is
 * the platform layer's business (platform/), not this file's. All reads go
 * through fdt.c's bounds-checked accessors.
 */
#include <boot/fdt.h>
#include <boot/bootmem.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

static int fdt_path_fail(const struct fdt *fdt, int err, const char *fmt, ...)
	__printf(3, 4);
static int fdt_path_fail(const struct fdt *fdt, int err, const char *fmt, ...)
{
	va_list ap;

	if (fdt->error) {
		va_start(ap, fmt);
		kvsnprintf(fdt->error, BOOT_ERROR_LEN, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* A path component matches "name@unit" exactly, or "name" alone when the
 * component gives no unit address (the specification's shorthand). */
static bool component_matches(const char *node, const char *comp, size_t len)
{
	size_t n = strlen(node);

	if (n == len && !memcmp(node, comp, len))
		return true;
	if (memchr(comp, '@', len))
		return false;
	return n > len && node[len] == '@' && !memcmp(node, comp, len);
}

/* Resolve an absolute path of @len bytes from the root. */
static int lookup_absolute(const struct fdt *fdt, const char *path, size_t len,
			   struct fdt_node_path *np)
{
	size_t i = 0;

	np->depth = 0;
	np->node[0] = fdt->root;
	while (i < len) {
		size_t start, clen;
		int child;

		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && path[i] != '/')
			i++;
		clen = i - start;
		if (np->depth == FDT_MAX_DEPTH)
			return fdt_path_fail(fdt, -EINVAL, "path %.*s is too deep",
					     (int)len, path);
		for (child = fdt_first_child(fdt, np->node[np->depth]);
		     child >= 0; child = fdt_next_child(fdt, child))
			if (component_matches(fdt_node_name(fdt, child),
					      path + start, clen))
				break;
		if (child < 0)
			return fdt_path_fail(fdt, -ENOENT, "no node %.*s (in %.*s)",
					     (int)clen, path + start, (int)len,
					     path);
		np->node[++np->depth] = child;
	}
	return 0;
}

/* A child of the root named exactly @name ("chosen", "aliases"). */
static int root_child(const struct fdt *fdt, const char *name)
{
	for (int c = fdt_first_child(fdt, fdt->root); c >= 0;
	     c = fdt_next_child(fdt, c))
		if (!strcmp(fdt_node_name(fdt, c), name))
			return c;
	return -1;
}

int fdt_lookup_path(const struct fdt *fdt, const char *path, size_t len,
		    struct fdt_node_path *np)
{
	const char *colon = memchr(path, ':', len);
	const char *alias;
	uint32_t alen;
	int aliases;

	/* "serial0:115200n8": the options belong to the console driver. */
	if (colon)
		len = (size_t)(colon - path);
	if (!len)
		return fdt_path_fail(fdt, -EINVAL, "empty path");
	if (path[0] == '/')
		return lookup_absolute(fdt, path, len, np);
	/* An alias: its first component names a property of /aliases. */
	aliases = root_child(fdt, "aliases");
	{
		const char *slash = memchr(path, '/', len);
		size_t nlen = slash ? (size_t)(slash - path) : len;
		char name[64];

		if (aliases < 0)
			return fdt_path_fail(fdt, -ENOENT, "alias %.*s, but no "
					     "/aliases node", (int)len, path);
		if (nlen >= sizeof(name))
			return fdt_path_fail(fdt, -EINVAL, "alias %.*s is too "
					     "long", (int)len, path);
		memcpy(name, path, nlen);
		name[nlen] = '\0';
		alias = fdt_getprop(fdt, aliases, name, &alen);
		if (!alias || !alen || alias[alen - 1] || alias[0] != '/')
			return fdt_path_fail(fdt, -ENOENT, "no alias %s in "
					     "/aliases", name);
		if (slash)
			return fdt_path_fail(fdt, -EINVAL, "alias path %.*s with "
					     "components is not supported",
					     (int)len, path);
		return lookup_absolute(fdt, alias, alen - 1, np);
	}
}

int fdt_stdout_node(const struct fdt *fdt, struct fdt_node_path *np,
		    const char **options)
{
	int chosen = root_child(fdt, "chosen");
	const char *path = NULL, *colon;
	uint32_t len = 0;

	if (chosen >= 0) {
		path = fdt_getprop(fdt, chosen, "stdout-path", &len);
		/* The older name, which some boards' trees still use. */
		if (!path)
			path = fdt_getprop(fdt, chosen, "linux,stdout-path",
					   &len);
	}
	if (!path)
		return fdt_path_fail(fdt, -ENOENT, "no /chosen/stdout-path");
	if (!len || path[len - 1])
		return fdt_path_fail(fdt, -EINVAL, "/chosen/stdout-path is not "
				     "a string");
	colon = memchr(path, ':', len);
	if (options)
		*options = colon ? colon + 1 : "";
	return fdt_lookup_path(fdt, path, len - 1, np);
}

uint32_t fdt_getprop_u32(const struct fdt *fdt, int node, const char *name,
			 uint32_t dflt)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	return p && len == 4 ? (uint32_t)fdt_read_cells(p, 1) : dflt;
}

bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat)
{
	uint32_t len, i = 0;
	const char *p = fdt_getprop(fdt, node, "compatible", &len);
	size_t want = strlen(compat) + 1;

	/* A list of NUL-terminated strings; a last one without its NUL is
	 * not a string and matches nothing. */
	while (p && i < len) {
		const char *s = p + i;
		const char *end = memchr(s, '\0', len - i);

		if (!end)
			return false;
		if ((size_t)(end - s) + 1 == want && !memcmp(s, compat, want))
			return true;
		i += (uint32_t)(end - s) + 1;
	}
	return false;
}

/* Depth-first from np->node[np->depth]'s first child. */
static bool find_compatible_below(const struct fdt *fdt, const char *compat,
				  struct fdt_node_path *np)
{
	int parent = np->node[np->depth];

	if (np->depth == FDT_MAX_DEPTH)
		return false;
	for (int c = fdt_first_child(fdt, parent); c >= 0;
	     c = fdt_next_child(fdt, c)) {
		np->node[np->depth + 1] = c;
		np->depth++;
		if (fdt_node_is_available(fdt, c) &&
		    fdt_node_is_compatible(fdt, c, compat))
			return true;
		if (find_compatible_below(fdt, compat, np))
			return true;
		np->depth--;
	}
	return false;
}

int fdt_find_compatible(const struct fdt *fdt, const char *compat,
			struct fdt_node_path *np)
{
	np->depth = 0;
	np->node[0] = fdt->root;
	if (find_compatible_below(fdt, compat, np))
		return 0;
	return fdt_path_fail(fdt, -ENOENT, "no available node is compatible "
			     "with \"%s\"", compat);
}

/* #address-cells / #size-cells of @node, as its children's reg uses them
 * (the specification's defaults when absent). */
static uint32_t address_cells(const struct fdt *fdt, int node)
{
	return fdt_getprop_u32(fdt, node, "#address-cells", 2);
}

static uint32_t size_cells(const struct fdt *fdt, int node)
{
	return fdt_getprop_u32(fdt, node, "#size-cells", 1);
}

/*
 * translate_one - @addr, an address in the bus of np->node[level] (the
 * children's space of that node), into its parent's bus through its
 * `ranges`. Return: 0, -ENOENT when the node has no ranges (the address
 * is not visible to the CPU), -ERANGE when no range covers it.
 */
static int translate_one(const struct fdt *fdt, const struct fdt_node_path *np,
			 int level, uint64_t *addr)
{
	int bus = np->node[level], parent = np->node[level - 1];
	uint32_t ca = address_cells(fdt, bus), cs = size_cells(fdt, bus);
	uint32_t pa = address_cells(fdt, parent), len, entry;
	const uint8_t *r = fdt_getprop(fdt, bus, "ranges", &len);

	if (!r)
		return fdt_path_fail(fdt, -ENOENT, "%s has no ranges: its "
				     "children are not on the CPU's bus",
				     fdt_node_name(fdt, bus));
	if (!len)
		return 0;	/* empty ranges: the same address space */
	if (ca > 2 || pa > 2 || cs > 2 || !ca || !pa)
		return fdt_path_fail(fdt, -EINVAL, "%s: ranges with %u/%u/%u "
				     "cells is not supported",
				     fdt_node_name(fdt, bus), ca, pa, cs);
	entry = 4 * (ca + pa + cs);
	if (len % entry)
		return fdt_path_fail(fdt, -EINVAL, "%s: ranges of %u bytes is "
				     "not a whole number of %u-byte entries",
				     fdt_node_name(fdt, bus), len, entry);
	for (uint32_t off = 0; off < len; off += entry) {
		uint64_t child = fdt_read_cells(r + off, ca);
		uint64_t to = fdt_read_cells(r + off + 4 * ca, pa);
		uint64_t size = cs ? fdt_read_cells(r + off + 4 * (ca + pa), cs) : 0;

		if (*addr >= child && *addr - child < size) {
			*addr = to + (*addr - child);
			return 0;
		}
	}
	return fdt_path_fail(fdt, -ERANGE, "%s: no range covers %#llx",
			     fdt_node_name(fdt, bus),
			     (unsigned long long)*addr);
}

int fdt_reg_translate(const struct fdt *fdt, const struct fdt_node_path *np,
		      unsigned int index, uint64_t *addr, uint64_t *size)
{
	int node = np->node[np->depth];
	int parent;
	uint32_t ca, cs, len;
	const uint8_t *reg;
	int err;

	if (np->depth < 1)
		return fdt_path_fail(fdt, -EINVAL, "the root has no reg");
	parent = np->node[np->depth - 1];
	ca = address_cells(fdt, parent);
	cs = size_cells(fdt, parent);
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (!reg)
		return fdt_path_fail(fdt, -ENOENT, "%s has no reg",
				     fdt_node_name(fdt, node));
	if (!ca || ca > 2 || cs > 2)
		return fdt_path_fail(fdt, -EINVAL, "%s: reg with %u/%u cells is "
				     "not supported", fdt_node_name(fdt, node),
				     ca, cs);
	if ((uint64_t)(index + 1) * 4 * (ca + cs) > len)
		return fdt_path_fail(fdt, -ENOENT, "%s: reg has no entry %u",
				     fdt_node_name(fdt, node), index);
	reg += index * 4 * (ca + cs);
	*addr = fdt_read_cells(reg, ca);
	*size = cs ? fdt_read_cells(reg + 4 * ca, cs) : 0;
	/* Up the tree: each bus between the node and the root maps it. */
	for (int level = np->depth - 1; level >= 1; level--) {
		err = translate_one(fdt, np, level, addr);
		if (err)
			return err;
	}
	return 0;
}
