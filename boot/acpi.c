/*
 * acpi.c - RSDP -> XSDT/RSDT -> a table by signature (ACPI 6.5, 5.2), all
 * little-endian, every field loaded byte by byte (no alignment assumed):
 *
 *   RSDP  0 "RSD PTR "  8 u8 checksum (bytes 0-19)  9 OEMID[6]
 *         15 u8 revision  16 u32 RSDT address
 *         revision >= 2:  20 u32 length  24 u64 XSDT address
 *                         32 u8 extended checksum (all @length bytes)
 *   header (every table, 36 bytes)  0 signature[4]  4 u32 length
 *         8 u8 revision  9 u8 checksum (all @length bytes)  10 OEMID[6]
 *         16 OEM table id[8]  24 OEM revision  28 creator id  32 creator rev
 *   RSDT  header, then u32 table addresses;  XSDT  header, then u64 ones.
 *
 * Policy: nothing is trusted before it is checked. A length is compared
 * with its header's size and with ACPI_TABLE_MAX before the bytes it
 * covers are mapped; a table is mapped whole before its checksum is
 * summed; the source refuses ranges it cannot read or that wrap. The XSDT
 * is preferred when the RSDP names one (its 64-bit addresses are what
 * ACPI 2.0+ firmware means; the RSDT may be a 32-bit subset), as Linux
 * does unless told otherwise.
 */
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define RSDP_SIGNATURE	"RSD PTR "
#define RSDP_MAX_SIZE	4096u	/* a longer RSDP is refused as absurd */

int acpi_error(struct acpi_tables *t, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(t->error, sizeof(t->error), fmt, ap);
	va_end(ap);
	return err;
}

const void *acpi_buffer_map(const struct acpi_source *src, uint64_t addr,
			    size_t len)
{
	uint64_t off = addr - src->phys;

	if (addr < src->phys || off > src->size || len > src->size - off)
		return NULL;
	return (const uint8_t *)src->base + off;
}

static const uint8_t *acpi_map(const struct acpi_tables *t, uint64_t addr,
			       size_t len)
{
	if (addr + len < addr)
		return NULL;
	return t->src->map(t->src, addr, len);
}

static uint8_t checksum(const uint8_t *p, size_t len)
{
	uint8_t sum = 0;

	while (len--)
		sum += *p++;
	return sum;
}

/* The RSDP's own checks, on @len readable bytes at @p. */
static bool rsdp_valid(const uint8_t *p, size_t len)
{
	uint32_t ext;

	if (len < ACPI_RSDP_V1_SIZE || memcmp(p, RSDP_SIGNATURE, 8) ||
	    checksum(p, ACPI_RSDP_V1_SIZE))
		return false;
	if (p[15] < 2)
		return true;
	ext = len >= ACPI_RSDP_V2_SIZE ? load_le32(p + 20) : 0;
	return ext >= ACPI_RSDP_V2_SIZE && ext <= len && !checksum(p, ext);
}

uint64_t acpi_rsdp_scan(const void *area, size_t len, uint64_t phys)
{
	const uint8_t *p = area;

	for (size_t off = 0; len >= ACPI_RSDP_V1_SIZE &&
			     off <= len - ACPI_RSDP_V1_SIZE; off += 16)
		if (rsdp_valid(p + off, len - off))
			return phys + off;
	return 0;
}

/*
 * map_table - the table at @addr, header first: its length checked, then
 * all of it mapped and summed. @what names it in messages.
 */
static int map_table(struct acpi_tables *t, uint64_t addr, const char *what,
		     const uint8_t **table, uint32_t *len)
{
	const uint8_t *h = acpi_map(t, addr, ACPI_HEADER_SIZE);
	uint32_t n;

	if (!h)
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: its header "
				  "is not readable",
				  what, (unsigned long long)addr);
	n = load_le32(h + 4);
	if (n < ACPI_HEADER_SIZE)
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: length %u "
				  "is smaller than its %u-byte header", what,
				  (unsigned long long)addr, n,
				  ACPI_HEADER_SIZE);
	if (n > ACPI_TABLE_MAX)
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: length %u "
				  "is absurd (more than %u)", what,
				  (unsigned long long)addr, n, ACPI_TABLE_MAX);
	h = acpi_map(t, addr, n);
	if (!h)
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: length %u "
				  "runs past what is readable", what,
				  (unsigned long long)addr, n);
	if (checksum(h, n))
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: bad "
				  "checksum (bytes sum to %#x, not 0)", what,
				  (unsigned long long)addr, checksum(h, n));
	*table = h;
	*len = n;
	return 0;
}

/* The RSDP at @rsdp: fills t->rsdp_revision, oem_id, root and xsdt. */
static int open_rsdp(struct acpi_tables *t, uint64_t rsdp)
{
	const uint8_t *p = acpi_map(t, rsdp, ACPI_RSDP_V1_SIZE);
	uint32_t len;

	if (!p)
		return acpi_error(t, -EINVAL, "acpi: RSDP at %#llx is not "
				  "readable", (unsigned long long)rsdp);
	if (memcmp(p, RSDP_SIGNATURE, 8))
		return acpi_error(t, -EINVAL, "acpi: no \"RSD PTR \" "
				  "signature at %#llx",
				  (unsigned long long)rsdp);
	if (checksum(p, ACPI_RSDP_V1_SIZE))
		return acpi_error(t, -EINVAL, "acpi: RSDP at %#llx: bad "
				  "checksum over its first %u bytes",
				  (unsigned long long)rsdp, ACPI_RSDP_V1_SIZE);
	t->rsdp_revision = p[15];
	memcpy(t->oem_id, p + 9, 6);
	t->oem_id[6] = '\0';
	t->root = load_le32(p + 16);
	t->xsdt = false;
	if (t->rsdp_revision < 2)
		return 0;

	p = acpi_map(t, rsdp, ACPI_RSDP_V2_SIZE);
	if (!p)
		return acpi_error(t, -EINVAL, "acpi: RSDP revision %u at "
				  "%#llx: its %u bytes are not readable",
				  t->rsdp_revision, (unsigned long long)rsdp,
				  ACPI_RSDP_V2_SIZE);
	len = load_le32(p + 20);
	if (len < ACPI_RSDP_V2_SIZE || len > RSDP_MAX_SIZE)
		return acpi_error(t, -EINVAL, "acpi: RSDP revision %u at "
				  "%#llx: length %u is not between %u and %u",
				  t->rsdp_revision, (unsigned long long)rsdp,
				  len, ACPI_RSDP_V2_SIZE, RSDP_MAX_SIZE);
	p = acpi_map(t, rsdp, len);
	if (!p)
		return acpi_error(t, -EINVAL, "acpi: RSDP at %#llx: length "
				  "%u runs past what is readable",
				  (unsigned long long)rsdp, len);
	if (checksum(p, len))
		return acpi_error(t, -EINVAL, "acpi: RSDP at %#llx: bad "
				  "extended checksum over %u bytes",
				  (unsigned long long)rsdp, len);
	if (load_le64(p + 24)) {
		t->root = load_le64(p + 24);
		t->xsdt = true;
	}
	return 0;
}

int acpi_open(struct acpi_tables *t, const struct acpi_source *src,
	      uint64_t rsdp)
{
	const char *name;
	const uint8_t *root;
	uint32_t len, entry;
	int err;

	memset(t, 0, sizeof(*t));
	t->src = src;
	t->rsdp = rsdp;
	if (!rsdp)
		return acpi_error(t, -ENOENT, "acpi: no RSDP: the loader gave "
				  "none and none was found");
	err = open_rsdp(t, rsdp);
	if (err)
		return err;
	name = t->xsdt ? "XSDT" : "RSDT";
	if (!t->root)
		return acpi_error(t, -EINVAL, "acpi: RSDP at %#llx names no "
				  "RSDT and no XSDT", (unsigned long long)rsdp);
	err = map_table(t, t->root, name, &root, &len);
	if (err)
		return err;
	if (memcmp(root, name, 4))
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx has "
				  "signature \"%.4s\"", name,
				  (unsigned long long)t->root,
				  (const char *)root);
	entry = t->xsdt ? 8 : 4;
	if ((len - ACPI_HEADER_SIZE) % entry)
		return acpi_error(t, -EINVAL, "acpi: %s at %#llx: its last "
				  "entry runs past its length %u (entries of "
				  "%u bytes)", name,
				  (unsigned long long)t->root, len, entry);
	t->nr_entries = (len - ACPI_HEADER_SIZE) / entry;
	return 0;
}

int acpi_find_table(struct acpi_tables *t, const char *sig,
		    unsigned int instance, const uint8_t **table,
		    uint32_t *len)
{
	/* acpi_open() checked the root whole: map it again, same length. */
	const uint8_t *root = acpi_map(t, t->root, ACPI_HEADER_SIZE +
				       (size_t)t->nr_entries * (t->xsdt ? 8 : 4));
	char what[16];

	if (!root)
		return acpi_error(t, -EINVAL, "acpi: root table at %#llx is "
				  "no longer readable",
				  (unsigned long long)t->root);
	for (uint32_t i = 0; i < t->nr_entries; i++) {
		const uint8_t *e = root + ACPI_HEADER_SIZE +
				   i * (t->xsdt ? 8 : 4);
		uint64_t addr = t->xsdt ? load_le64(e) : load_le32(e);
		const uint8_t *h;

		if (!addr)
			continue;
		h = acpi_map(t, addr, 4);
		if (!h)
			return acpi_error(t, -EINVAL, "acpi: %s entry %u: "
					  "table at %#llx is not readable",
					  t->xsdt ? "XSDT" : "RSDT", i,
					  (unsigned long long)addr);
		if (memcmp(h, sig, 4) || instance--)
			continue;
		ksnprintf(what, sizeof(what), "%.4s", sig);
		return map_table(t, addr, what, table, len);
	}
	return acpi_error(t, -ENOENT, "acpi: no %.4s table in the %s", sig,
			  t->xsdt ? "XSDT" : "RSDT");
}

int acpi_check_entries(struct acpi_tables *t, const uint8_t *table,
		       uint32_t len, uint32_t start,
		       uint8_t (*min_len)(uint8_t type))
{
	const char *sig = (const char *)table;

	if (len < start)
		return acpi_error(t, -EINVAL, "acpi: %.4s length %u is "
				  "smaller than its %u-byte header", sig, len,
				  start);
	for (uint32_t at = start; at < len; at += table[at + 1]) {
		uint8_t type = table[at], n = len - at < 2 ? 0 : table[at + 1];
		const char *why = NULL;

		if (len - at < 2)
			why = "has no room for its type and length";
		else if (n < 2)
			why = "is shorter than its own type and length";
		else if (n > len - at)
			why = "runs past the end of the table";
		else if (n < min_len(type))
			why = "is too short for its type";
		if (why)
			return acpi_error(t, -EINVAL, "acpi: %.4s entry at "
					  "offset %u (type %u, length %u) %s",
					  sig, at, type, n, why);
	}
	return 0;
}
