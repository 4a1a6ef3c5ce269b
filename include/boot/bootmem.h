/*
 * bootmem.h - the machine's memory as the boot-info readers find it: a list
 * of ranges, each with a kind and a reason, and the step that hands the list
 * to memblock.
 *
 * Reading and applying are kept apart. The readers (fdt_memory.c,
 * multiboot2.c, pvh.c) are pure: they validate the loader's data and append
 * ranges to a caller-provided array, touching nothing else, so the kernel,
 * the host memmap tool, the unit tests and the fuzzers all share them.
 * bootmem_apply() is the only part that calls memblock.
 */
#ifndef BOOT_BOOTMEM_H
#define BOOT_BOOTMEM_H

#include <lib/compiler.h>
#include <lib/types.h>

enum boot_range_kind {
	BOOT_RANGE_MEMORY,	/* usable RAM: memblock_add() */
	BOOT_RANGE_RESERVED,	/* not ours: memblock_reserve() */
	BOOT_RANGE_NOMAP,	/* not ours, never mapped: mark no-map + reserve */
	BOOT_RANGE_IGNORED,	/* reported by the loader, not RAM (e820 types
				 * 2..5): listed for people, left out of memblock */
};

#define BOOT_REASON_LEN	72
#define BOOT_ERROR_LEN	192

/*
 * Node ids a boot-info reader accepts (DT numa-node-id, SRAT proximity
 * domains): a larger one is malformed input, not a node.
 */
#define BOOT_MAX_NUMNODES	1024

/* @nid: the NUMA node of a memory range, or -1 (NUMA_NO_NODE): not said. */
struct boot_range {
	phys_addr_t base;
	phys_addr_t size;
	enum boot_range_kind kind;
	int nid;
	char reason[BOOT_REASON_LEN];
};

/*
 * struct boot_memmap - what a reader found.
 * @ranges/@max: the caller's array; @cnt: ranges filled in.
 * @info_size:   bytes of the boot-info blob itself (DTB totalsize,
 *               multiboot2 total_size, sizeof hvm_start_info), for the
 *               caller to reserve; the reader does not know its address.
 * @error:       on failure, one line naming the problem ("fdt: ...").
 */
struct boot_memmap {
	struct boot_range *ranges;
	unsigned int max;
	unsigned int cnt;
	phys_addr_t info_size;
	char error[BOOT_ERROR_LEN];
};

/*
 * Every reader returns 0, or one of:
 *   -EBADMSG  malformed input (truncated, bad magic, offsets past the end,
 *             unterminated strings, absurd cell counts, ...): untrustworthy;
 *   -ENOMEM   well-formed, but no usable memory in it;
 *   -ENOSPC   more ranges than the caller's array holds (nothing is dropped
 *             silently: the caller must refuse to boot on a partial list).
 * map->error then says what went wrong, and where.
 */

/* bootmem_init - point @map at @ranges[@max] and empty it. */
void bootmem_init(struct boot_memmap *map, struct boot_range *ranges,
		  unsigned int max);

/*
 * bootmem_add_range - append one range; @reason is printf-style and is cut
 * to BOOT_REASON_LEN - 1 characters. Size 0 ranges are skipped (not an
 * error). A range running past the top of the 64-bit address space is
 * refused.
 * Return: 0, -EBADMSG or -ENOSPC, with map->error set.
 */
int bootmem_add_range(struct boot_memmap *map, enum boot_range_kind kind,
		      phys_addr_t base, phys_addr_t size,
		      const char *reason, ...) __printf(5, 6);

/* bootmem_error - format map->error. Return: @err, for "return bootmem_error(...)". */
int bootmem_error(struct boot_memmap *map, int err, const char *fmt, ...)
	__printf(3, 4);

/*
 * bootmem_require_memory - the last step of every reader.
 * Return: 0 if @map holds at least one usable-memory range, else -ENOMEM
 * with "<who>: no usable memory" in map->error.
 */
int bootmem_require_memory(struct boot_memmap *map, const char *who);

/*
 * bootmem_add_e820 - an entry of an e820-typed memory map (PVH's memmap,
 * multiboot2's memory-map tag): type 1 is memory, every other type is
 * listed as not RAM. Named "<who> #<index>". Return: as bootmem_add_range.
 */
#define BOOT_E820_RAM	1
int bootmem_add_e820(struct boot_memmap *map, phys_addr_t base,
		     phys_addr_t size, uint32_t type, const char *who,
		     unsigned int index);

const char *bootmem_kind_name(enum boot_range_kind kind);

/*
 * bootmem_apply - hand a reader's list to memblock: memblock_add() every
 * usable range first, then boot_reserve() / boot_reserve_nomap() every
 * reservation (so that the overlap and outside-memory warnings see all of
 * memory). Ignored ranges are skipped.
 * Return: 0, or the first memblock error (printed).
 */
int bootmem_apply(const struct boot_memmap *map);

#endif /* BOOT_BOOTMEM_H */
