/*
 * fdt_memory.c - what a device tree says about memory: the RAM banks and
 * everything in them that is not ours.
 *
 *   /memory*  (device_type = "memory")     -> memory, one range per reg entry,
 *                                             in its numa-node-id's node
 *   /reserved-memory/<child> with reg      -> reserved, or no-map
 *   /memreserve/ entries (header block)    -> reserved
 *   /chosen linux,initrd-start..end        -> reserved ("initrd")
 *
 * The DTB blob itself is reserved by the caller (it knows the address;
 * map->info_size gives the size). Disabled nodes (status other than "okay")
 * are skipped, as Linux does. Dynamic reserved-memory children (a "size"
 * but no "reg") are allocated by drivers later: nothing to keep here.
 */
#include <boot/fdt.h>
#include <boot/readers.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define FDT_PATH_LEN	BOOT_REASON_LEN

struct fdt_cells {
	uint32_t addr;
	uint32_t size;
};

/*
 * A #address-cells / #size-cells property: absent -> @dflt; otherwise one
 * cell, at most 4 (the largest any binding uses).
 */
static int fdt_cells_prop(const struct fdt *fdt, struct boot_memmap *map,
			  int node, const char *path, const char *name,
			  uint32_t dflt, uint32_t *out)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	*out = dflt;
	if (!p)
		return 0;
	if (len != 4)
		return bootmem_error(map, -EBADMSG, "fdt: %s: %s is %u bytes, "
				     "not one cell", path, name, len);
	*out = (uint32_t)fdt_read_cells(p, 1);
	if (*out > 4)
		return bootmem_error(map, -EBADMSG, "fdt: %s: %s = %u is "
				     "absurd (at most 4)", path, name, *out);
	return 0;
}

static int fdt_node_cells(const struct fdt *fdt, struct boot_memmap *map,
			  int node, const char *path,
			  const struct fdt_cells *dflt, struct fdt_cells *out)
{
	int err = fdt_cells_prop(fdt, map, node, path, "#address-cells",
				 dflt->addr, &out->addr);

	return err ?: fdt_cells_prop(fdt, map, node, path, "#size-cells",
				     dflt->size, &out->size);
}

/*
 * The node of a memory node: its "numa-node-id" (one cell, below
 * BOOT_MAX_NUMNODES), or -1 when it has none. Return: 0 or -EBADMSG.
 */
static int fdt_numa_node_id(const struct fdt *fdt, struct boot_memmap *map,
			    int node, const char *path, int *nid)
{
	uint32_t len, v;
	const uint8_t *p = fdt_getprop(fdt, node, "numa-node-id", &len);

	*nid = -1;
	if (!p)
		return 0;
	if (len != 4)
		return bootmem_error(map, -EBADMSG, "fdt: %s: numa-node-id is "
				     "%u bytes, not one cell", path, len);
	v = (uint32_t)fdt_read_cells(p, 1);
	if (v >= BOOT_MAX_NUMNODES)
		return bootmem_error(map, -EBADMSG, "fdt: %s: numa-node-id %u "
				     "is not below %u", path, v,
				     BOOT_MAX_NUMNODES);
	*nid = (int)v;
	return 0;
}

/*
 * Every (address, size) pair of @node's reg, as @kind ranges named @path;
 * memory ranges carry the node's numa-node-id.
 */
static int fdt_parse_reg(const struct fdt *fdt, struct boot_memmap *map,
			 int node, const char *path,
			 const struct fdt_cells *cells,
			 enum boot_range_kind kind)
{
	uint32_t len, entry;
	const uint8_t *reg = fdt_getprop(fdt, node, "reg", &len);
	int err, nid = -1;

	if (!reg)
		return 0;
	if (cells->addr < 1 || cells->addr > 2 || cells->size < 1 ||
	    cells->size > 2)
		return bootmem_error(map, -EBADMSG, "fdt: %s: reg with "
				     "#address-cells %u and #size-cells %u "
				     "(1 or 2 each are read)", path,
				     cells->addr, cells->size);
	if (kind == BOOT_RANGE_MEMORY) {
		err = fdt_numa_node_id(fdt, map, node, path, &nid);
		if (err)
			return err;
	}
	entry = 4 * (cells->addr + cells->size);
	if (len % entry)
		return bootmem_error(map, -EBADMSG, "fdt: %s: reg is %u bytes, "
				     "not a whole number of %u-byte entries "
				     "(#address-cells %u, #size-cells %u)",
				     path, len, entry, cells->addr, cells->size);
	for (uint32_t off = 0; off < len; off += entry) {
		uint64_t base = fdt_read_cells(reg + off, cells->addr);
		uint64_t size = fdt_read_cells(reg + off + 4 * cells->addr,
					       cells->size);

		unsigned int before = map->cnt;

		err = bootmem_add_range(map, kind, base, size, "%s", path);
		if (err)
			return err;
		/* A size-0 entry adds nothing. */
		if (map->cnt > before)
			map->ranges[before].nid = nid;
	}
	return 0;
}

static void fdt_child_path(char *buf, const char *parent, const char *name)
{
	ksnprintf(buf, FDT_PATH_LEN, "%s/%s", parent, name);
}

static int fdt_parse_reserved_memory(const struct fdt *fdt,
				     struct boot_memmap *map, int node,
				     const struct fdt_cells *root_cells)
{
	char path[FDT_PATH_LEN];
	struct fdt_cells cells;
	uint32_t len;
	int err = fdt_node_cells(fdt, map, node, "/reserved-memory",
				 root_cells, &cells);

	for (int c = fdt_first_child(fdt, node); !err && c >= 0;
	     c = fdt_next_child(fdt, c)) {
		if (!fdt_node_is_available(fdt, c))
			continue;
		fdt_child_path(path, "/reserved-memory", fdt_node_name(fdt, c));
		err = fdt_parse_reg(fdt, map, c, path, &cells,
				    fdt_getprop(fdt, c, "no-map", &len) ?
				    BOOT_RANGE_NOMAP : BOOT_RANGE_RESERVED);
	}
	return err;
}

static int fdt_initrd_prop(const struct fdt *fdt, struct boot_memmap *map,
			   int node, const char *name, uint64_t *out)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4 && len != 8)
		return bootmem_error(map, -EBADMSG, "fdt: /chosen: %s is %u "
				     "bytes (4 or 8 are read)", name, len);
	*out = fdt_read_cells(p, len / 4);
	return 0;
}

static int fdt_parse_chosen(const struct fdt *fdt, struct boot_memmap *map,
			    int node)
{
	uint64_t start, end;
	int s = fdt_initrd_prop(fdt, map, node, "linux,initrd-start", &start);
	int e = fdt_initrd_prop(fdt, map, node, "linux,initrd-end", &end);

	if (s == -EBADMSG || e == -EBADMSG)
		return -EBADMSG;
	if (s == -ENOENT && e == -ENOENT)
		return 0;
	if (s || e)
		return bootmem_error(map, -EBADMSG, "fdt: /chosen: %s without "
				     "%s", s ? "linux,initrd-end" :
				     "linux,initrd-start",
				     s ? "linux,initrd-start" :
				     "linux,initrd-end");
	if (end < start)
		return bootmem_error(map, -EBADMSG, "fdt: /chosen: initrd end "
				     "%#llx is below its start %#llx",
				     (unsigned long long)end,
				     (unsigned long long)start);
	return bootmem_add_range(map, BOOT_RANGE_RESERVED, start, end - start,
				 "initrd");
}

static int fdt_parse_rsvmap(const struct fdt *fdt, struct boot_memmap *map)
{
	uint64_t base, size;
	int err = 0;

	for (unsigned int i = 0; !err && fdt_rsvmap_entry(fdt, i, &base, &size);
	     i++)
		err = bootmem_add_range(map, BOOT_RANGE_RESERVED, base, size,
					"/memreserve/ #%u", i);
	return err;
}

static bool fdt_name_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && (name[n] == '\0' || name[n] == '@');
}

int fdt_memory_parse(const void *blob, size_t avail, struct boot_memmap *map)
{
	static const struct fdt_cells spec_default = { 2, 1 };
	char path[FDT_PATH_LEN];
	struct fdt_cells cells;
	struct fdt fdt;
	int err;

	err = fdt_open(&fdt, blob, avail, map->error);
	if (err)
		return err;
	map->info_size = fdt.totalsize;
	err = fdt_node_cells(&fdt, map, fdt.root, "/", &spec_default, &cells);

	for (int n = fdt_first_child(&fdt, fdt.root); !err && n >= 0;
	     n = fdt_next_child(&fdt, n)) {
		const char *name = fdt_node_name(&fdt, n);

		if (fdt_prop_is_string(&fdt, n, "device_type", "memory")) {
			if (!fdt_node_is_available(&fdt, n))
				continue;
			fdt_child_path(path, "", name);
			err = fdt_parse_reg(&fdt, map, n, path, &cells,
					    BOOT_RANGE_MEMORY);
		} else if (!strcmp(name, "reserved-memory")) {
			err = fdt_parse_reserved_memory(&fdt, map, n, &cells);
		} else if (fdt_name_is(name, "chosen")) {
			err = fdt_parse_chosen(&fdt, map, n);
		}
	}
	if (!err)
		err = fdt_parse_rsvmap(&fdt, map);
	if (!err)
		err = bootmem_require_memory(map, "fdt");
	return err;
}
