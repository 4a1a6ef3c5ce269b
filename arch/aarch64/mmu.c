/*
 * mmu.c - the aarch64 identity map: MMU and caches on at the build's
 * translation granule (4K, 16K or 64K pages).
 *
 * boot_main() calls arch_mmu_init() once memblock knows the RAM (see
 * <arch/mmu.h>). This first version maps a fixed window, the first
 * 512 GiB of physical address space or the CPU's physical address size if
 * smaller (39-bit VA = PA, TTBR0 only), with the largest blocks the
 * granule has, in static tables (no memblock allocation):
 *
 *   granule  block            tables
 *   4K       1 GiB, level 1   one level-1 table, 512 blocks
 *   16K      32 MiB, level 2  a level-1 table of 8 entries -> 8 level-2
 *                             tables (16K has no level-1 blocks)
 *   64K      512 MiB, level 2 one level-2 table, 1024 blocks
 *
 * Below VIRT_RAM_BASE (QEMU virt: the PL011, the GIC, PCIe, flash) is
 * Device-nGnRnE and never executable; from VIRT_RAM_BASE up is Normal
 * write-back, executable. Blocks beyond the CPU's physical address size
 * stay invalid. RAM beyond the window is reported and removed from
 * memblock, so it is never handed out. Caveat: addresses above the end of
 * RAM are Normal too,
 * which on hardware could let the CPU speculate into MMIO placed there
 * (QEMU virt's high PCIe window); a later version should map only the
 * memory banks the DTB lists.
 */
#include <arch/geometry.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include "platform.h"
#include "sysreg.h"

#define VA_BITS		39
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
#define MAIR_VALUE	(0x00UL << (8 * MAIR_DEVICE) | 0xffUL << (8 * MAIR_NORMAL))

/* TCR_EL1: TTBR0 walks cached and inner shareable; TTBR1 walks off. */
#define TCR_T0SZ	(64UL - VA_BITS)
#define TCR_IRGN0_WBWA	(1UL << 8)
#define TCR_ORGN0_WBWA	(1UL << 10)
#define TCR_SH0_INNER	(3UL << 12)
#define TCR_EPD1	(1UL << 23)
#define TCR_IPS_SHIFT	32

#define DEVICE_BLOCK	(PTE_BLOCK | PTE_ATTRINDX(MAIR_DEVICE) | PTE_AF | \
			 PTE_PXN | PTE_UXN)
#define NORMAL_BLOCK	(PTE_BLOCK | PTE_ATTRINDX(MAIR_NORMAL) | PTE_AF | \
			 PTE_SH_INNER)

static uint64_t block_tables[NR_BLOCKS] __aligned(PAGE_SIZE_BYTES);
/* Only for 16K: the level-1 table over the level-2 block tables. */
static uint64_t top_table[NR_BLOCK_TABLES] __aligned(64);

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

static void fill_tables(unsigned int pa_bits)
{
	unsigned long nr_valid = NR_BLOCKS;

	if (pa_bits < VA_BITS)
		nr_valid = 1UL << (pa_bits - BLOCK_SHIFT);
	for (unsigned long i = 0; i < nr_valid; i++) {
		phys_addr_t pa = (phys_addr_t)i << BLOCK_SHIFT;

		block_tables[i] = pa | (pa < VIRT_RAM_BASE ? DEVICE_BLOCK
							   : NORMAL_BLOCK);
	}
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
 * Everything written so far went to memory uncached. Drop whatever the
 * caches may still hold for the image (BSS, the tables, the stacks), so
 * that nothing stale shadows it once they are on.
 */
static void invalidate_image_dcache(void)
{
	unsigned long line = 4UL << (read_sysreg(ctr_el0) >> 16 & 0xf);
	uintptr_t p = ALIGN_DOWN((uintptr_t)_start, line);

	for (; p < (uintptr_t)_end; p += line)
		__asm__ volatile("dc ivac, %0" ::"r"(p) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
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

	fill_tables(pa_range_bits[range]);
	remove_unmapped_ram((phys_addr_t)1 << MIN(pa_range_bits[range],
						 (unsigned char)VA_BITS));
	invalidate_image_dcache();
	write_sysreg(MAIR_VALUE, mair_el1);
	write_sysreg(TCR_T0SZ | TCR_IRGN0_WBWA | TCR_ORGN0_WBWA |
			     TCR_SH0_INNER | TCR_TG0 | TCR_TG1 | TCR_EPD1 |
			     (unsigned long)range << TCR_IPS_SHIFT,
		     tcr_el1);
	write_sysreg(virt_to_phys(ttbr), ttbr0_el1);
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
