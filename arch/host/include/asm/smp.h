/*
 * asm/smp.h - the host's "per-CPU register": every thread that calls in
 * is a CPU (see arch/host/smp.c and include/smp/smp.h).
 *
 * The per-CPU offset is a thread-local variable. A thread that has not
 * called in yet gets a CPU number and a per-CPU area on its first
 * this_cpu_ptr() or smp_processor_id(), so that mm/ code runs unchanged
 * on any thread; until then its offset is 0, the section itself, which
 * is no CPU's. A sender that holds a thread blocked outside buddyboot
 * (ARCH_HAS_CPU_HOLD, arch/host/cpu_hold.c) sets it to 0 too, so that the
 * thread's next use waits for it. Spinning yields the host CPU (after HOST_RELAX_SPINS
 * turns, see below): test threads outnumber the host's cores, and a
 * waiter that spins on while the holder waits for a core only burns
 * time. Interrupts do not exist: irqsave is a no-op.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#include <sched.h>
#include <lib/types.h>

/*
 * Local-exec: every host program links these into its executable (none
 * is a shared library), so each read is one %fs-relative load; the
 * default for an extern thread variable in a PIE goes through a GOT slot,
 * which the linker only turns into a constant load plus the access.
 */
#define HOST_TLS	__thread __attribute__((tls_model("local-exec")))
/*
 * This thread's offset: 0 until it calls in (the section, no CPU's),
 * and while a sender holds it; never 0 otherwise, since every CPU's area
 * is allocated apart from the section, so 0 says "ask host_cpu_register()".
 */
extern HOST_TLS unsigned long host_percpu_offset;
/* Turns of arch_cpu_relax() since this thread last yielded. */
extern HOST_TLS unsigned int host_relax_turns;

/*
 * host_cpu_register - number this thread and give it an area; for a
 * thread that has one, wait while a sender holds it and take its offset
 * back. Return: the offset.
 */
unsigned long host_cpu_register(void);
/* For tests: the section that is no CPU's is still all zero. */
bool host_percpu_section_untouched(void);

/*
 * A thread reads its offset with plain loads, which the inline fast paths
 * share between an allocation and a free as they would a register. A
 * sender writes it (cpu_hold.c) only while the thread sleeps in a call
 * into the kernel, which the compiler cannot see through, so the
 * thread's next read reloads the word; or while the thread runs, when
 * the hold fails and either value will do (0 costs one pass through
 * host_cpu_register()).
 *
 * Under ThreadSanitizer the loads are sequentially consistent atomics:
 * the hold there is decided on the library's entries and exits, and a
 * thread's entry must be seen before its next read of the offset
 * (cpu_hold.c). Its builds have no inline fast paths to share them.
 */
#if defined(__SANITIZE_THREAD__)
#define HOST_READ_PERCPU_OFFSET() \
	__atomic_load_n(&host_percpu_offset, __ATOMIC_SEQ_CST)
#else
#define HOST_READ_PERCPU_OFFSET()	host_percpu_offset
#endif

static inline unsigned long arch_percpu_offset(void)
{
	unsigned long off = HOST_READ_PERCPU_OFFSET();

	if (__builtin_expect(!off, 0))
		return host_cpu_register();
	return off;
}

/*
 * The offset without the call that numbers a new thread: 0, the section
 * that no CPU owns and nobody writes, until the thread has called in
 * (arch/host/smp.c). A fast path there finds nothing of its own and goes
 * its general way, which calls arch_percpu_offset(). A fast path that
 * used the calling form would keep its registers across that call on
 * every pass.
 */
#define ARCH_HAS_PERCPU_OFFSET_NOCALL
static inline unsigned long arch_percpu_offset_nocall(void)
{
	return HOST_READ_PERCPU_OFFSET();
}

static inline void arch_set_percpu_offset(unsigned long off)
{
	__atomic_store_n(&host_percpu_offset, off, __ATOMIC_RELAXED);
}

/*
 * A thread blocked outside buddyboot may be held: arch/host/cpu_hold.c.
 * Under ThreadSanitizer, whose runtime may itself sleep in the kernel
 * inside any memory access of buddyboot's code, a thread asleep is not
 * proven outside buddyboot: there every function of the library counts
 * its entries and exits (-finstrument-functions, mk/host.mk), and the
 * inline fast paths, which the program's own code would run uncounted,
 * are calls (ARCH_NO_INLINE_FAST_PATHS, <arch/smp.h>).
 */
#define ARCH_HAS_CPU_HOLD
bool arch_cpu_hold(unsigned int cpu);
#if defined(__SANITIZE_THREAD__)
#define ARCH_NO_INLINE_FAST_PATHS	1
#endif

/*
 * Pauses before a yield. The tests run more threads than the host has
 * cores, so there a waiter yields at every turn (1): the holder may be
 * waiting for its core. The benchmarks run a thread per core at most, as
 * a CPU is, and build with HOST_RELAX_SPINS=1024 (mk/bench.mk): tens of
 * microseconds of pauses, longer than a zone or cache lock is held while
 * its holder runs, so that a contended wait costs what it would on a real
 * CPU and not a system call per turn.
 */
#ifndef HOST_RELAX_SPINS
#define HOST_RELAX_SPINS	1
#endif

static inline void arch_cpu_relax(void)
{
	if (++host_relax_turns < HOST_RELAX_SPINS) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ volatile("yield" ::: "memory");
#endif
		return;
	}
	host_relax_turns = 0;
	sched_yield();
}

static inline unsigned long arch_local_irq_save(void)
{
	return 0;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	(void)flags;
}

#endif /* ASM_SMP_H */
