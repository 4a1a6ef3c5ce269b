/*
 * mmu.c - the aarch64 identity map: MMU and caches on at the build's
 * translation granule (4K, 16K or 64K pages).
 *
 * boot_main() calls arch_mmu_init() once memblock knows the RAM (see
 * <arch/mmu.h>). The map covers a fixed window, the first 512 GiB of
 * physical address space or the CPU's physical address size if smaller
 * (39-bit VA = PA, TTBR0 only), with the largest blocks the granule has,
 * in a static top table:
 *
 *   granule  block            tables
 *   4K       1 GiB, level 1   one level-1 table, 512 blocks
 *   16K      32 MiB, level 2  a level-1 table of 8 entries -> 8 level-2
 *                             tables (16K has no level-1 blocks)
 *   64K      512 MiB, level 2 one level-2 table, 1024 blocks
 *
 * What is Normal comes from the memory map, not from a constant: a block
 * is Normal write-back (executable) when memblock's memory (the DTB's
 * memory nodes, the EFI map) covers all of it, Device-nGnRnE (never
 * executable) when it covers none of it; a block it covers in part is
 * split into a next-level table, down to pages, whose tables come from
 * memblock. So a board with RAM at 0 and its peripherals right above RAM
 * in the same 1 GiB (Raspberry Pi 3: RAM to 0x3c000000, MMIO from
 * 0x3f000000) gets both right, and nothing past the end of RAM is Normal,
 * where the CPU could otherwise speculate into MMIO. A page that RAM
 * covers only in part is Device (the allocator never uses a part-page).
 * no-map regions are Device too: never cached, never speculated into,
 * and the allocator never hands them out; the image's own memory is
 * Normal whatever the map says (holds_image()). Blocks beyond the CPU's
 * physical address size stay invalid. RAM beyond the window is reported
 * and removed from memblock, so it is never handed out.
 */
#include <arch/geometry.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include <mm/page_alloc.h>
#include "stack_alias.h"
#include "sysreg.h"
#include "translate.h"

#define PAGE_SIZE_BYTES	(1UL << PAGE_SHIFT)

#if PAGE_SHIFT == 12
#define BLOCK_SHIFT	30
#define TCR_TG0		(0UL << 14)
#define TCR_TG1		(2UL << 30)
#elif PAGE_SHIFT == 14
#define BLOCK_SHIFT	25
#define TCR_TG0		(2UL << 14)
#define TCR_TG1		(1UL << 30)
#elif PAGE_SHIFT == 16
#define BLOCK_SHIFT	29
#define TCR_TG0		(1UL << 14)
#define TCR_TG1		(3UL << 30)
#endif

#define NR_BLOCKS		(1UL << (VA_BITS - BLOCK_SHIFT))
#define ENTRIES_PER_TABLE	(PAGE_SIZE_BYTES / 8)
/* 16K: the blocks need several level-2 tables under a small level-1. */
#define NR_BLOCK_TABLES	\
	((NR_BLOCKS + ENTRIES_PER_TABLE - 1) / ENTRIES_PER_TABLE)

/* Descriptor bits (VMSAv8-64, stage 1). */
#define PTE_TABLE	0x3UL
#define PTE_BLOCK	0x1UL
#define PTE_ATTRINDX(i)	((unsigned long)(i) << 2)
#define PTE_SH_INNER	(3UL << 8)
#define PTE_AF		(1UL << 10)
#define PTE_PXN		(1UL << 53)
#define PTE_UXN		(1UL << 54)

/* MAIR_EL1: index 0 Device-nGnRnE, index 1 Normal write-back RW-allocate. */
#define MAIR_DEVICE	0
#define MAIR_NORMAL	1
#define MAIR_VALUE	(MAIR_ATTR_DEVICE_nGnRnE << (8 * MAIR_DEVICE) | \
			 MAIR_ATTR_NORMAL_WB << (8 * MAIR_NORMAL))

/* TCR_EL1: both halves 39 bits, walks cached and inner shareable. */
#define TCR_T0SZ	(64UL - VA_BITS)
#define TCR_IRGN0_WBWA	(1UL << 8)
#define TCR_ORGN0_WBWA	(1UL << 10)
#define TCR_SH0_INNER	(3UL << 12)
#define TCR_T1SZ	((64UL - VA_BITS) << 16)
#define TCR_IRGN1_WBWA	(1UL << 24)
#define TCR_ORGN1_WBWA	(1UL << 26)
#define TCR_SH1_INNER	(3UL << 28)
#define TCR_IPS_SHIFT	32

/* A block or page's attributes; PTE_BLOCK or PTE_PAGE makes it a leaf. */
#define DEVICE_ATTRS	(PTE_ATTRINDX(MAIR_DEVICE) | PTE_AF | PTE_PXN | PTE_UXN)
#define NORMAL_ATTRS	(PTE_ATTRINDX(MAIR_NORMAL) | PTE_AF | PTE_SH_INNER)
/* A stack page: Normal like the identity map's RAM, never executable. */
#define STACK_PAGE	(PTE_PAGE | PTE_ATTRINDX(MAIR_NORMAL) | PTE_AF | \
			 PTE_SH_INNER | PTE_PXN | PTE_UXN)
#define PTE_PAGE	0x3UL
#define PTE_ADDR_MASK	(((1UL << 48) - 1) & ~(PAGE_SIZE_BYTES - 1))

/*
 * The upper half's tables: levels of PAGE_SHIFT - 3 bits each down to
 * pages, over VA_BITS. 4K: 3 levels, a 512-entry top; 16K: 3 levels, an
 * 8-entry top; 64K: 2 levels, a 1024-entry top.
 */
#define LEVEL_BITS	(PAGE_SHIFT - 3)
#define NR_LEVELS	((VA_BITS - PAGE_SHIFT + LEVEL_BITS - 1) / LEVEL_BITS)
#define LEVEL_SHIFT(l)	(PAGE_SHIFT + (NR_LEVELS - 1 - (l)) * LEVEL_BITS)
#define TOP_ENTRIES	(1UL << (VA_BITS - LEVEL_SHIFT(0)))

static uint64_t block_tables[NR_BLOCKS] __aligned(PAGE_SIZE_BYTES);
/* Only for 16K: the level-1 table over the level-2 block tables. */
static uint64_t top_table[NR_BLOCK_TABLES] __aligned(64);
/*
 * TTBR1's top table; the tables under it come from the page allocator.
 * Written by the boot CPU only (aarch64_map_stack()), walked by all.
 */
static uint64_t stack_top_table[TOP_ENTRIES]
	__aligned(MAX(TOP_ENTRIES * 8, 64));

/*
 * ID_AA64MMFR0_EL1.PARange, capped at 48 bits (52 needs more set-up);
 * TCR_EL1.IPS takes the same encoding.
 */
static unsigned int pa_range(unsigned long mmfr0)
{
	return MIN(mmfr0 & 0xf, 5UL);
}

static const unsigned char pa_range_bits[] = { 32, 36, 40, 42, 44, 48 };

/* Whether ID_AA64MMFR0_EL1 lists the build's granule. */
static bool granule_supported(unsigned long mmfr0)
{
	unsigned int tgran4 = mmfr0 >> 28 & 0xf, tgran64 = mmfr0 >> 24 & 0xf;
	unsigned int tgran16 = mmfr0 >> 20 & 0xf;

	switch (PAGE_SHIFT) {
	case 12: return tgran4 != 0xf;		/* 0 or 1 (52-bit) */
	case 14: return tgran16 == 1 || tgran16 == 2;
	default: return tgran64 != 0xf;		/* 0 */
	}
}

enum ram_cover { COVER_NONE, COVER_PART, COVER_ALL };

/* How much of [@start, @end) the mapped RAM (memory, not no-map) covers. */
static enum ram_cover ram_cover(phys_addr_t start, phys_addr_t end)
{
	phys_addr_t covered = 0, rs, re;
	uint64_t i;

	for_each_mem_range(i, &rs, &re) {
		if (re <= start)
			continue;
		if (rs >= end)
			break;
		covered += MIN(re, end) - MAX(rs, start);
	}
	return !covered ? COVER_NONE
			: covered == end - start ? COVER_ALL : COVER_PART;
}

/*
 * The image runs from RAM whatever the memory map says: a map may leave
 * it out, or a /reserved-memory no-map region may cover it (then the
 * boot stops with "no usable memory", and must run to say so). A block
 * with no RAM that holds part of the image is Normal whole, as the image
 * needs no table for that; in a block that RAM covers in part, the
 * image's pages are Normal.
 */
static bool holds_image(phys_addr_t start, phys_addr_t end)
{
	return start < (phys_addr_t)(uintptr_t)_end &&
	       (phys_addr_t)(uintptr_t)_start < end;
}

/*
 * Drop whatever the caches may hold for [@p, @p + @len): it was written
 * with the MMU and caches off, straight to memory, and nothing stale may
 * shadow it once they are on.
 */
static void invalidate_dcache_range(uintptr_t p, size_t len)
{
	unsigned long line = 4UL << (read_sysreg(ctr_el0) >> 16 & 0xf);
	uintptr_t end = p + len;

	for (p = ALIGN_DOWN(p, line); p < end; p += line)
		__asm__ volatile("dc ivac, %0" ::"r"(p) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
}

/* Written by the boot CPU in arch_mmu_init() only; translate.h. */
phys_addr_t aarch64_mmu_limit;
unsigned int aarch64_mmu_split_tables;

/*
 * Fill @nr entries of @table, entry i mapping @base + (i << @shift),
 * as the memory map says (see the top of this file).
 */
static void map_entries(uint64_t *table, unsigned long nr, phys_addr_t base,
			unsigned int shift)
{
	uint64_t leaf = shift == PAGE_SHIFT ? PTE_PAGE : PTE_BLOCK;

	for (unsigned long i = 0; i < nr; i++) {
		phys_addr_t pa = base + ((phys_addr_t)i << shift);
		enum ram_cover cover = ram_cover(pa, pa + (1UL << shift));
		uint64_t *next;
		phys_addr_t next_pa;

		if (holds_image(pa, pa + (1UL << shift)) &&
		    (cover == COVER_NONE || shift == PAGE_SHIFT))
			cover = COVER_ALL;

		if (cover != COVER_PART || shift == PAGE_SHIFT) {
			table[i] = pa | leaf | (cover == COVER_ALL ? NORMAL_ATTRS
								  : DEVICE_ATTRS);
			continue;
		}
		/* Identity-mapped and the MMU off: the address is the table. */
		next_pa = memblock_phys_alloc(PAGE_SIZE_BYTES, PAGE_SIZE_BYTES);
		if (!next_pa)
			panic("no memory for a page table splitting the block "
			      "at %#llx into RAM and device memory",
			      (unsigned long long)pa);
		next = phys_to_virt(next_pa);
		map_entries(next, ENTRIES_PER_TABLE, pa, shift - LEVEL_BITS);
		invalidate_dcache_range((uintptr_t)next, PAGE_SIZE_BYTES);
		table[i] = next_pa | PTE_TABLE;
		aarch64_mmu_split_tables++;
	}
}

static void fill_tables(unsigned int pa_bits)
{
	unsigned long nr_valid = NR_BLOCKS;

	if (pa_bits < VA_BITS)
		nr_valid = 1UL << (pa_bits - BLOCK_SHIFT);
	map_entries(block_tables, nr_valid, 0, BLOCK_SHIFT);
	if (NR_BLOCK_TABLES == 1)
		return;
	for (unsigned long t = 0; t < NR_BLOCK_TABLES; t++)
		top_table[t] = virt_to_phys(&block_tables[t * ENTRIES_PER_TABLE]) |
			       PTE_TABLE;
}

/* RAM the window does not reach: report it, and never hand it out. */
static void remove_unmapped_ram(phys_addr_t limit)
{
	phys_addr_t end = memblock_end_of_DRAM();

	if (end <= limit)
		return;
	pr_warn("RAM %#llx-%#llx lies beyond the identity map; not used\n",
		(unsigned long long)limit, (unsigned long long)end - 1);
	/* Cannot fail before the hand-off; never leaves RAM above. */
	memblock_cap_memory(limit);
}

/*
 * Everything written so far went to memory uncached: the image's BSS,
 * tables and stacks as well.
 */
static void invalidate_image_dcache(void)
{
	invalidate_dcache_range((uintptr_t)_start, _end - _start);
}

void arch_mmu_init(void)
{
	unsigned long mmfr0 = read_sysreg(id_aa64mmfr0_el1);
	unsigned int range = pa_range(mmfr0);
	uint64_t *ttbr = NR_BLOCK_TABLES > 1 ? top_table : block_tables;

	if (!granule_supported(mmfr0))
		panic("this CPU has no %lu KiB translation granule "
		      "(ID_AA64MMFR0_EL1 %#lx): build with another PAGE_SIZE, "
		      "or run on a CPU that has it (QEMU: -cpu max)",
		      PAGE_SIZE_BYTES >> 10, mmfr0);

	aarch64_mmu_limit = (phys_addr_t)1 << MIN(pa_range_bits[range],
						  (unsigned char)VA_BITS);
	/* First, so that no split table comes from RAM the map cannot reach. */
	remove_unmapped_ram(aarch64_mmu_limit);
	fill_tables(pa_range_bits[range]);
	invalidate_image_dcache();
	write_sysreg(MAIR_VALUE, mair_el1);
	write_sysreg(TCR_T0SZ | TCR_IRGN0_WBWA | TCR_ORGN0_WBWA |
			     TCR_SH0_INNER | TCR_TG0 | TCR_T1SZ |
			     TCR_IRGN1_WBWA | TCR_ORGN1_WBWA | TCR_SH1_INNER |
			     TCR_TG1 | (unsigned long)range << TCR_IPS_SHIFT,
		     tcr_el1);
	write_sysreg(virt_to_phys(ttbr), ttbr0_el1);
	write_sysreg(virt_to_phys(stack_top_table), ttbr1_el1);
	isb();
	__asm__ volatile("tlbi vmalle1\n"
			 "dsb nsh\n"
			 "ic iallu\n"
			 "dsb nsh\n"
			 "isb" ::: "memory");
	write_sysreg(read_sysreg(sctlr_el1) | SCTLR_M | SCTLR_C | SCTLR_I,
		     sctlr_el1);
	isb();
}

/* The index of @v (an offset in the upper half) in its level-@l table. */
static unsigned long table_index(uintptr_t v, unsigned int l)
{
	unsigned long entries = l ? 1UL << LEVEL_BITS : TOP_ENTRIES;

	return v >> LEVEL_SHIFT(l) & (entries - 1);
}

/*
 * The table @entry points to, made (zeroed) if it is not there yet.
 * Return: the table, or NULL when no page is left for it.
 */
static uint64_t *next_table(uint64_t *entry)
{
	uint64_t desc = READ_ONCE(*entry);
	unsigned long page;

	if (desc & 1)
		return phys_to_virt(desc & PTE_ADDR_MASK);
	page = get_zeroed_page(GFP_KERNEL);
	if (!page)
		return NULL;
	/* The zeroed table is visible to every walker before the entry. */
	__asm__ volatile("dsb ishst" ::: "memory");
	WRITE_ONCE(*entry, virt_to_phys((void *)page) | PTE_TABLE);
	return (uint64_t *)page;
}

int aarch64_map_stack(unsigned int slot, phys_addr_t pa, size_t size,
		      uintptr_t *base)
{
	uintptr_t va = STACK_ALIAS_BASE + (uintptr_t)(slot + 1) * STACK_SLOT_SIZE -
		       size;

	if (!IS_ALIGNED(pa | size, PAGE_SIZE_BYTES) || !size ||
	    size > STACK_SLOT_SIZE - PAGE_SIZE_BYTES ||
	    slot >= STACK_ALIAS_SIZE / STACK_SLOT_SIZE) {
		pr_err("cannot map a stack of %#zx bytes at %#llx in slot %u: "
		       "pages only, at most %#lx bytes, slot below %lu\n",
		       size, (unsigned long long)pa, slot,
		       STACK_SLOT_SIZE - PAGE_SIZE_BYTES,
		       STACK_ALIAS_SIZE / STACK_SLOT_SIZE);
		return -EINVAL;
	}
	*base = va;
	for (size_t off = 0; off < size; off += PAGE_SIZE_BYTES) {
		/* The offset into the upper half, which TTBR1 translates. */
		uintptr_t v = (va + off) & (STACK_ALIAS_SIZE - 1);
		uint64_t *table = stack_top_table;

		for (unsigned int l = 0; l < NR_LEVELS - 1 && table; l++)
			table = next_table(&table[table_index(v, l)]);
		if (!table) {
			pr_err("no page left for a stack's page table\n");
			return -ENOMEM;
		}
		WRITE_ONCE(table[table_index(v, NR_LEVELS - 1)],
			   (pa + off) | STACK_PAGE);
	}
	/*
	 * Every new entry is visible to the table walkers of every CPU before
	 * the caller hands the address on (to a CPU it starts next, which
	 * then walks the tables itself): invalid to valid needs no TLB
	 * invalidation.
	 */
	__asm__ volatile("dsb ishst\n"
			 "isb" ::: "memory");
	return 0;
}
