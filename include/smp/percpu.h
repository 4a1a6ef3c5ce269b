/*
 * percpu.h - per-CPU variables, Linux's way.
 *
 * DEFINE_PER_CPU(type, name) puts the variable in the per-CPU section
 * ("bb_percpu"; __per_cpu_start..__per_cpu_end in each linker script, the
 * linker's __start_bb_percpu..__stop_bb_percpu on the host). That section
 * is the boot CPU's copy, zeroed with BSS (on the host, no CPU's: a
 * thread not yet numbered reads it, see arch/host/smp.c); every other
 * CPU gets a zeroed copy of the same size, at an offset from the section
 * kept in the architecture's per-CPU register (arch_percpu_offset(),
 * <asm/smp.h>).
 * Per-CPU variables therefore start zero on every CPU: initialise them
 * in code, not in the definition.
 *
 *   this_cpu_ptr(&var)      this CPU's copy: one register read and an add
 *   per_cpu_ptr(&var, cpu)  CPU @cpu's copy
 *   per_cpu(var, cpu)       the same, as an lvalue
 *
 * Who may touch another CPU's copy, and under which lock, is for each
 * variable's owner to say next to its definition.
 */
#ifndef SMP_PERCPU_H
#define SMP_PERCPU_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <asm/smp.h>

#define PER_CPU_SECTION		"bb_percpu"

/* At least 8-byte aligned, more when the type asks (a cache line). */
#define DEFINE_PER_CPU(type, name)					\
	__section(PER_CPU_SECTION)					\
	__aligned(__alignof__(type) > 8 ? __alignof__(type) : 8)	\
	__typeof__(type) name
#define DECLARE_PER_CPU(type, name)					\
	extern __typeof__(type) name

/* __per_cpu_offset[cpu]: CPU @cpu's offset; 0 for a kernel's boot CPU. */
extern unsigned long __per_cpu_offset[];

/* The section itself (the host's linker names it). */
#ifdef CONFIG_HOST
extern char __start_bb_percpu[], __stop_bb_percpu[];
#define __per_cpu_start		__start_bb_percpu
#define __per_cpu_end		__stop_bb_percpu
#else
extern char __per_cpu_start[], __per_cpu_end[];
#endif

/* Integer arithmetic: the copies are other objects than the variable. */
#define __percpu_shift(ptr, off)					\
	((__typeof__(ptr))((uintptr_t)(ptr) + (off)))

#define this_cpu_ptr(ptr)	__percpu_shift(ptr, arch_percpu_offset())

/*
 * arch_percpu_offset_nocall() - this CPU's offset, for a fast path: no
 * call, however the arch finds it. On the kernel targets it is the
 * per-CPU register. On the host a thread that has not called in yet
 * reads offset 0, the section itself, which no CPU owns and nobody
 * writes (arch/host/smp.c): a fast path finds nothing there (no slab, an
 * empty list) and takes its general way, which numbers the thread.
 */
#ifndef ARCH_HAS_PERCPU_OFFSET_NOCALL
static inline unsigned long arch_percpu_offset_nocall(void)
{
	return arch_percpu_offset();
}
#endif
/* Inline fast paths in the callers' code, unless the arch says not (<arch/smp.h>). */
#ifndef ARCH_NO_INLINE_FAST_PATHS
#define ARCH_NO_INLINE_FAST_PATHS	0
#endif
#define per_cpu_ptr(ptr, cpu)	__percpu_shift(ptr, __per_cpu_offset[cpu])
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

/*
 * cpu_has_percpu_area - whether CPU @cpu has its own copy yet. Until it is
 * brought up (on the host: until a thread takes its number) its offset is
 * 0, and per_cpu_ptr() would reach the section: the boot CPU's copy on
 * the kernel targets, no CPU's on the host. Work on the copy of a CPU
 * that has none is for nobody: its copy starts zeroed when it comes.
 */
static inline bool cpu_has_percpu_area(unsigned int cpu)
{
#ifdef CONFIG_HOST
	return __per_cpu_offset[cpu] != 0;
#else
	return cpu == 0 || __per_cpu_offset[cpu] != 0;	/* 0: the boot CPU */
#endif
}

/* The size of one CPU's copy, and its alignment (a cache line). */
size_t percpu_area_size(void);
#define PERCPU_AREA_ALIGN	64

#endif /* SMP_PERCPU_H */
