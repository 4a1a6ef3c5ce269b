/*
 * reserve.c - reservations with reasons, applying a reader's list to
 * memblock, and the boot-time memory report.
 *
 * Overlapping reservations and reservations outside memory are warned
 * about, naming both ranges, and still reserved: real boards have them
 * (a loader's /memreserve/ covering what it loaded, a reserved-memory child
 * inside another), memblock keeps the union, and reserving too much loses
 * nothing that matters while reserving too little hands out memory that
 * is not ours. See include/boot/reserve.h.
 */
#include <boot/reserve.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>

static struct boot_reservation reservations[BOOT_RESERVATIONS_MAX];
static unsigned int nr_reservations;
static unsigned int nr_unlisted;

static unsigned long long end_of(phys_addr_t base, phys_addr_t size)
{
	return (unsigned long long)(base + size);
}

/* Bytes of [base, base + size) that memblock.memory covers. */
static phys_addr_t memory_covered(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size, covered = 0;

	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		phys_addr_t lo = MAX(base, r->base);
		phys_addr_t hi = MIN(end, r->base + r->size);

		if (lo < hi)
			covered += hi - lo;
	}
	return covered;
}

static void warn_placement(phys_addr_t base, phys_addr_t size,
			   const char *reason)
{
	phys_addr_t covered = memory_covered(base, size);

	if (covered < size)
		pr_warn("reservation [%#llx-%#llx) '%s' lies %soutside "
			"memory\n", (unsigned long long)base,
			end_of(base, size), reason, covered ? "partly " : "");
	for (unsigned int i = 0; i < nr_reservations; i++) {
		const struct boot_reservation *o = &reservations[i];

		if (base < o->base + o->size && o->base < base + size)
			pr_warn("reservation [%#llx-%#llx) '%s' overlaps "
				"[%#llx-%#llx) '%s'\n",
				(unsigned long long)base, end_of(base, size),
				reason, (unsigned long long)o->base,
				end_of(o->base, o->size), o->reason);
	}
}

static int reserve(phys_addr_t base, phys_addr_t size, const char *reason,
		   bool nomap, bool warn)
{
	struct boot_reservation *r;
	int err;

	if (size == 0)
		return 0;
	if (warn)
		warn_placement(base, size, reason);
	if (nr_reservations < BOOT_RESERVATIONS_MAX) {
		r = &reservations[nr_reservations++];
		r->base = base;
		r->size = size;
		r->nomap = nomap;
		ksnprintf(r->reason, sizeof(r->reason), "%s", reason);
	} else {
		nr_unlisted++;
	}
	err = nomap ? memblock_mark_nomap(base, size) : 0;
	if (!err)
		err = memblock_reserve(base, size);
	if (err)
		pr_err("cannot reserve [%#llx-%#llx) '%s': error %d\n",
		       (unsigned long long)base, end_of(base, size), reason,
		       err);
	return err;
}

int boot_reserve(phys_addr_t base, phys_addr_t size, const char *reason)
{
	return reserve(base, size, reason, false, true);
}

int boot_reserve_policy(phys_addr_t base, phys_addr_t size, const char *reason)
{
	return reserve(base, size, reason, false, false);
}

int boot_reserve_nomap(phys_addr_t base, phys_addr_t size, const char *reason)
{
	return reserve(base, size, reason, true, true);
}

unsigned int boot_reservation_count(void)
{
	return nr_reservations;
}

const struct boot_reservation *boot_reservation_get(unsigned int index)
{
	return index < nr_reservations ? &reservations[index] : NULL;
}

unsigned int boot_reservations_unlisted(void)
{
	return nr_unlisted;
}

void boot_reservations_reset(void)
{
	nr_reservations = 0;
	nr_unlisted = 0;
}

int bootmem_apply(const struct boot_memmap *map)
{
	const struct boot_range *r;
	int err = 0;

	for (unsigned int i = 0; !err && i < map->cnt; i++) {
		r = &map->ranges[i];
		if (r->kind == BOOT_RANGE_MEMORY) {
			err = memblock_add_node(r->base, r->size, r->nid,
						MEMBLOCK_NONE);
			if (err)
				pr_err("cannot add memory [%#llx-%#llx) '%s': "
				       "error %d\n", (unsigned long long)r->base,
				       end_of(r->base, r->size), r->reason,
				       err);
		}
	}
	for (unsigned int i = 0; !err && i < map->cnt; i++) {
		r = &map->ranges[i];
		if (r->kind == BOOT_RANGE_RESERVED)
			err = boot_reserve(r->base, r->size, r->reason);
		else if (r->kind == BOOT_RANGE_NOMAP)
			err = boot_reserve_nomap(r->base, r->size, r->reason);
	}
	return err;
}

/*
 * "128 MiB", "4 KiB", "216 bytes"; a size that is not a whole number of
 * its largest unit gets one (truncated) decimal: "126.8 MiB".
 */
static void format_size(char *buf, size_t len, phys_addr_t size)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB",
					     "TiB" };
	unsigned int u = 0;

	while (u + 1 < ARRAY_SIZE(units) && size >> (10 * (u + 1)))
		u++;
	if (u == 0 || IS_ALIGNED(size, 1ULL << (10 * u)))
		ksnprintf(buf, len, "%llu %s",
			  (unsigned long long)(size >> (10 * u)), units[u]);
	else
		ksnprintf(buf, len, "%llu.%llu %s",
			  (unsigned long long)(size >> (10 * u)),
			  (unsigned long long)(((size & ((1ULL << (10 * u)) - 1))
						* 10) >> (10 * u)), units[u]);
}

static void report_unrecorded(boot_print_fn out, phys_addr_t base,
			      phys_addr_t end)
{
	char size[32];

	format_size(size, sizeof(size), end - base);
	out("reserved: [%#llx-%#llx) %s (no reason recorded: reserved "
	    "without boot_reserve())\n", (unsigned long long)base,
	    (unsigned long long)end, size);
}

/*
 * Parts of memblock.reserved that no recorded reservation covers (an arch
 * or a driver called memblock_reserve() directly). The table is sorted.
 */
static void report_unrecorded_gaps(boot_print_fn out)
{
	for (unsigned long i = 0; i < memblock.reserved.cnt; i++) {
		const struct memblock_region *m = &memblock.reserved.regions[i];
		phys_addr_t cursor = m->base, end = m->base + m->size;

		for (unsigned int j = 0; j < nr_reservations; j++) {
			const struct boot_reservation *r = &reservations[j];

			if (r->base + r->size <= cursor || r->base >= end)
				continue;
			if (r->base > cursor)
				report_unrecorded(out, cursor, r->base);
			cursor = MAX(cursor, r->base + r->size);
		}
		if (cursor < end)
			report_unrecorded(out, cursor, end);
	}
}

static void report_reservations(boot_print_fn out)
{
	struct boot_reservation tmp;
	char size[32];

	/* Insertion sort, in place: the table is small and only printed. */
	for (unsigned int i = 1; i < nr_reservations; i++) {
		unsigned int j = i;

		tmp = reservations[i];
		for (; j > 0 && reservations[j - 1].base > tmp.base; j--)
			reservations[j] = reservations[j - 1];
		reservations[j] = tmp;
	}
	for (unsigned int i = 0; i < nr_reservations; i++) {
		const struct boot_reservation *r = &reservations[i];

		format_size(size, sizeof(size), r->size);
		out("reserved: [%#llx-%#llx) %s%s %s\n",
		    (unsigned long long)r->base, end_of(r->base, r->size), size,
		    r->nomap ? " no-map" : "", r->reason);
	}
	if (!nr_unlisted)
		report_unrecorded_gaps(out);
	if (nr_unlisted)
		out("reserved: %u more reservations not listed (table of %u "
		    "full); memblock holds them all\n", nr_unlisted,
		    BOOT_RESERVATIONS_MAX);
}

void boot_memory_report(boot_print_fn out)
{
	char size[32];

	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		format_size(size, sizeof(size), r->size);
		out("memory: [%#llx-%#llx) %s%s\n",
		    (unsigned long long)r->base, end_of(r->base, r->size), size,
		    r->flags & MEMBLOCK_NOMAP ? " no-map" : "");
	}
	report_reservations(out);
}

void boot_memory_print(void)
{
	boot_memory_report(printk);
}
