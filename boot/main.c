/*
 * main.c - the generic boot flow, the same on every target.
 *
 *   boot stub (arch/<arch>/) -> boot_main()
 *     -> early console, banner; platform_init(): the board's console
 *        and exit device from its device tree (platform/)
 *     -> boot_memory_init(): boot info -> memblock, every reservation
 *        (boot/memory.c)
 *     -> arch_mmu_init(): map all RAM
 *     -> boot_cpus_init(), boot_numa_init_topology(): find the CPUs and
 *        the NUMA nodes (memblock's node ids, cpu_to_node, distances)
 *     -> memblock_free_all(): the hand-off to the buddy allocator
 *     -> kmem_cache_init(): the slab allocator's table, for good
 *     -> smp_init(): start the other CPUs (their stacks and per-CPU
 *        areas come from the allocator)
 *     -> boot_selftests(): the image's variant decides the verdict
 *     -> arch_poweroff() with the verdict
 *
 * The tests watch through one interface (boot/selftests.h): boot_observe()
 * at fixed points and boot_selftests() at the end; nothing here knows
 * which variant the image is.
 */
#include <arch/console.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/poweroff.h>
#include <boot/cpus.h>
#include <boot/memory.h>
#include <boot/selftests.h>
#include <lib/printk.h>
#include <mm/mm.h>
#include <platform/console.h>
#include <platform/platform.h>
#include <smp/smp.h>

extern char __bss_start[], __bss_end[];

/* The CPU list: read once by the boot CPU, read-only after smp_init(). */
static struct boot_cpus boot_cpus;

/* What the boot learned, for boot_observe() and boot_selftests(). */
static struct boot_facts facts = { .cpus = &boot_cpus };

static bool bss_is_clear(void)
{
	for (const char *p = __bss_start; p < __bss_end; p++)
		if (*p)
			return false;
	return true;
}

static const char *proto_name(enum boot_protocol proto)
{
	switch (proto) {
	case BOOT_PROTO_FDT:		return "device tree";
	case BOOT_PROTO_MULTIBOOT2:	return "multiboot2";
	case BOOT_PROTO_PVH:		return "PVH";
	case BOOT_PROTO_EFI:		return "EFI memory map";
	default:			return "none";
	}
}

/*
 * Find the CPUs and say what was found; then the NUMA topology, which
 * needs the CPU list (SRAT names CPUs by APIC id).
 */
static void boot_topology(enum boot_protocol proto, phys_addr_t info,
			  unsigned long boot_cpu)
{
	int err = boot_cpus_init(proto, info, boot_cpu, &boot_cpus);

	if (err)
		boot_refuse("the CPU list in the %s cannot be read (error %d)",
			    proto_name(proto), err);
	printk("cpus: %u usable (boot cpu hwid %#lx%s), %u unusable, %u "
	       "beyond NR_CPUS=%d\n", boot_cpus.nr, boot_cpu,
	       boot_cpus.boot_cpu_found ? "" : ", not listed",
	       boot_cpus.nr_unusable, boot_cpus.nr_over, NR_CPUS);
	boot_numa_init_topology(proto, info, &boot_cpus);
}

/* Start the CPUs boot_topology() found. */
static void boot_smp(void)
{
	boot_observe(BOOT_SMP_STARTING, &facts);
	smp_init(&boot_cpus);
	/* The per-CPU pagesets' batch and high for the CPUs now online. */
	setup_per_cpu_pageset();
	boot_observe(BOOT_SMP_ONLINE, &facts);
}

void boot_main(enum boot_protocol proto, phys_addr_t info,
	       unsigned long boot_cpu)
{
	/* Before anything writes a static variable. */
	bool bss_clear = bss_is_clear();
	unsigned long pages;

	facts.bss_was_clear = bss_clear;
	facts.proto = proto;
	facts.info = info;
	facts.boot_cpu = boot_cpu;
	boot_observe(BOOT_ENTERED, &facts);
	smp_prepare_boot_cpu(boot_cpu);

	/* The build's early console (EARLYCON), then the board's own. */
	console_early_init();
	printk("\nbuddyboot %s: PAGE_SIZE=%lu MAX_PAGE_ORDER=%d "
	       "NR_PAGE_ORDERS=%d SECTION_SIZE_BITS=%d\n",
	       CONFIG_ARCH_NAME, PAGE_SIZE, MAX_PAGE_ORDER, NR_PAGE_ORDERS,
	       SECTION_SIZE_BITS);
	printk("boot cpu %lu, boot info: %s at %#llx, image %p-%p\n",
	       boot_cpu, proto_name(proto), (unsigned long long)info,
	       (void *)_start, (void *)_end);
	platform_init(proto, info);

	boot_memory_init(proto, info);
	arch_mmu_init();
	/* All RAM is mapped now, so memblock may place grown arrays anywhere. */
	memblock_allow_resize();
	/*
	 * The CPUs and the NUMA nodes, before the hand-off: memblock's
	 * regions carry their nodes when the page allocator takes them.
	 */
	boot_topology(proto, info, boot_cpu);
	/* Checksums of what must survive, before any page is handed out. */
	boot_observe(BOOT_BEFORE_HANDOFF, &facts);
	pages = memblock_free_all();
	/* The reason was printed; an empty allocator tests nothing. */
	if (!pages)
		boot_refuse("no usable memory: nothing to hand to the buddy "
			    "allocator");
	boot_observe(BOOT_ALLOCATOR_READY, &facts);
	printk("hand-off: %lu pages to the buddy allocator\n", pages);
	/*
	 * The slab table lives as long as the machine (three bytes a page
	 * of RAM's span): made now, as Linux's mm_core_init() does, its
	 * blocks come from the top of memory next to the page map, where
	 * memblock put every other table. Made at the first kmalloc()
	 * instead, after other work had mixed the free lists, they could
	 * land in any gigabyte and keep it from alloc_contig_pages().
	 */
	kmem_cache_init();
	show_buddyinfo();
	boot_smp();

	arch_poweroff(boot_selftests(&facts) ? POWEROFF_PASS : POWEROFF_FAIL);
}
