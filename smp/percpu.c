/*
 * percpu.c - per-CPU areas: the offsets, the size of one copy, and this
 * CPU's number.
 *
 * The section bb_percpu (__per_cpu_start..__per_cpu_end) is the boot
 * CPU's copy, zeroed with BSS. Every other CPU gets a zeroed copy of
 * percpu_area_size() bytes, aligned to PERCPU_AREA_ALIGN so that no two
 * CPUs' variables share a cache line; its offset from the section is
 * __per_cpu_offset[cpu] and sits in that CPU's per-CPU register.
 * smp_init() (kernel) and arch/host/smp.c (host) hand the areas out.
 */
#include <smp/percpu.h>
#include <smp/smp.h>

/*
 * Written by the CPU that brings CPU n up (the boot CPU in smp_init(), a
 * registering thread on the host) before CPU n runs; read by anyone
 * after that. Entry 0 stays 0: the boot CPU's copy is the section.
 */
unsigned long __per_cpu_offset[NR_CPUS];

/* This CPU's logical number; written once, before the CPU runs C code
 * that reads it (the boot CPU's is 0 from BSS). */
DEFINE_PER_CPU(unsigned int, cpu_number);

size_t percpu_area_size(void)
{
	return ALIGN_UP((size_t)(__per_cpu_end - __per_cpu_start),
			(size_t)PERCPU_AREA_ALIGN);
}
