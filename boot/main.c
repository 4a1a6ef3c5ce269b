/*
 * main.c - the generic boot flow, the same on every target.
 *
 *   boot stub (arch/<arch>/) -> boot_main()
 *     -> console, banner
 *     -> boot_memory_init(): boot info -> memblock, every reservation
 *        (boot/memory.c)
 *     -> arch_mmu_init(): map all RAM
 *     -> boot_cpus_init(), boot_numa_init_topology(): find the CPUs and
 *        the NUMA nodes (memblock's node ids, cpu_to_node, distances)
 *     -> memblock_free_all(): the hand-off to the buddy allocator
 *     -> smp_init(): start the other CPUs (their stacks and per-CPU
 *        areas come from the allocator)
 *     -> selftests, which print KTAP
 *     -> arch_poweroff() with the verdict
 */
#include <arch/console.h>
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/poweroff.h>
#include <boot/cpus.h>
#include <boot/memory.h>
#include <lib/printk.h>
#include <mm/mm.h>
#include <smp/smp.h>
#include "../tests/selftest/boot_state.h"
#include "../tests/selftest/selftest.h"

extern char __bss_start[], __bss_end[];

/* The CPU list: read once by the boot CPU, read-only after smp_init(). */
static struct boot_cpus boot_cpus;

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
	uint64_t start = arch_counter();

	smp_init(&boot_cpus);
	/* The per-CPU pagesets' batch and high for the CPUs now online. */
	setup_per_cpu_pageset();
	selftest_boot_state.counter_smp_online = arch_counter();
	printk("smp: %u CPUs online, %llu counter ticks after boot_main()'s "
	       "entry, %llu of them in smp_init()\n", num_online_cpus(),
	       (unsigned long long)(selftest_boot_state.counter_smp_online -
				    selftest_boot_state.counter_entry),
	       (unsigned long long)(selftest_boot_state.counter_smp_online -
				    start));
}

void boot_main(enum boot_protocol proto, phys_addr_t info,
	       unsigned long boot_cpu)
{
	/* Before anything writes a static variable. */
	bool bss_clear = bss_is_clear();
	unsigned long pages;

	selftest_boot_state.counter_entry = arch_counter();
	smp_prepare_boot_cpu(boot_cpu);

	arch_console_init();
	printk("\nbuddyboot %s: PAGE_SIZE=%lu MAX_PAGE_ORDER=%d "
	       "NR_PAGE_ORDERS=%d SECTION_SIZE_BITS=%d\n",
	       CONFIG_ARCH_NAME, PAGE_SIZE, MAX_PAGE_ORDER, NR_PAGE_ORDERS,
	       SECTION_SIZE_BITS);
	printk("boot cpu %lu, boot info: %s at %#llx, image %p-%p\n",
	       boot_cpu, proto_name(proto), (unsigned long long)info,
	       (void *)_start, (void *)_end);

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
	selftest_record_boot_state(proto, info);
	pages = memblock_free_all();
	/* The reason was printed; an empty allocator tests nothing. */
	if (!pages)
		boot_refuse("no usable memory: nothing to hand to the buddy "
			    "allocator");
	selftest_boot_state.counter_allocator_ready = arch_counter();
	printk("hand-off: %lu pages to the buddy allocator\n", pages);
	show_buddyinfo();
	boot_smp();

	selftest_boot_facts.bss_was_clear = bss_clear;
	selftest_boot_facts.proto = proto;
	selftest_boot_facts.info = info;
	selftest_boot_facts.boot_cpu = boot_cpu;
	selftest_boot_facts.cpus = &boot_cpus;

#ifdef CONFIG_SELFTEST_FAULT_early_poweroff
	selftest_fault_early();
#endif
#ifdef CONFIG_BENCH
	arch_poweroff(bench_run_all() ? POWEROFF_PASS : POWEROFF_FAIL);
#endif
	bool ok = selftest_run_all();

	show_slabinfo();
	arch_poweroff(ok ? POWEROFF_PASS : POWEROFF_FAIL);
}
