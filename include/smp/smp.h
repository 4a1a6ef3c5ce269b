/*
 * smp.h - every CPU of the machine: numbering, the online set, and running
 * a function everywhere. Linux's names and meanings.
 *
 * CPUs are numbered 0..NR_CPUS-1 in the order smp_init() found them; the
 * boot CPU is 0. A CPU is online from the moment it checks in (secondary
 * CPUs) and stays online: buddyboot never takes a CPU down.
 *
 * On the host (arch/host) every thread that calls in is a CPU of its own,
 * numbered on its first call, with no registration; a thread's number is
 * given back when it exits, after the hooks of smp_register_cpu_dead() ran.
 */
#ifndef SMP_SMP_H
#define SMP_SMP_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <mm/gfp.h>
#include <smp/nr_cpus.h>
#include <smp/percpu.h>

DECLARE_PER_CPU(unsigned int, cpu_number);

/* smp_processor_id - this CPU's number: one per-CPU load. */
#ifdef CONFIG_HOST
unsigned int smp_processor_id(void);
#else
static inline unsigned int smp_processor_id(void)
{
	return *this_cpu_ptr(&cpu_number);
}
#endif

/* The online CPUs: a bitmap written only by each CPU as it checks in. */
bool cpu_online(unsigned int cpu);
unsigned int num_online_cpus(void);
/* The first online CPU at or after @cpu, or NR_CPUS. */
unsigned int cpumask_next_online(unsigned int cpu);

#define for_each_online_cpu(cpu)					\
	for ((cpu) = cpumask_next_online(0); (cpu) < NR_CPUS;		\
	     (cpu) = cpumask_next_online((cpu) + 1))

/* The hwid (hart id, MPIDR, APIC id) of logical CPU @cpu. */
unsigned long cpu_hwid(unsigned int cpu);

/*
 * on_each_cpu - run @fn(@arg) on every online CPU, this one included, at
 * once, and return when all have returned. @wait is accepted for Linux's
 * signature and must be true. Callers are serialised; @fn must not call
 * on_each_cpu() itself (that panics). A CPU runs @fn when it polls, in
 * its idle loop: secondary CPUs only idle, so only the boot CPU may call.
 *
 * On the host, @fn runs on the calling thread only: another thread
 * cannot be interrupted to run it. Code that must reach every CPU's data
 * there uses per_cpu_ptr() under the lock that data's owner names.
 */
void on_each_cpu(void (*fn)(void *arg), void *arg, bool wait);

/*
 * cpumask_t - a set of CPU numbers, Linux's name; a plain bitmap that its
 * user owns (no atomics).
 */
#define CPUMASK_WORDS	((NR_CPUS + 63) / 64)
typedef struct {
	unsigned long bits[CPUMASK_WORDS];
} cpumask_t;

static inline void cpumask_clear(cpumask_t *m)
{
	for (unsigned int i = 0; i < CPUMASK_WORDS; i++)
		m->bits[i] = 0;
}

static inline void cpumask_set_cpu(unsigned int cpu, cpumask_t *m)
{
	m->bits[cpu / 64] |= 1UL << (cpu % 64);
}

static inline void cpumask_clear_cpu(unsigned int cpu, cpumask_t *m)
{
	m->bits[cpu / 64] &= ~(1UL << (cpu % 64));
}

static inline bool cpumask_test_cpu(unsigned int cpu, const cpumask_t *m)
{
	return cpu < NR_CPUS && (m->bits[cpu / 64] >> (cpu % 64) & 1);
}

/*
 * Per-CPU requests: asking other CPUs to act on data each CPU owns alone.
 *
 * Data that only its CPU touches (the page allocator's per-CPU lists, the
 * slab allocator's per-CPU caches) needs no lock and no atomic on its fast
 * paths: plain loads and stores, as interrupts are masked (on the host a
 * thread is a CPU). When another CPU needs something done to it (emptied,
 * retuned, looked at while still), it asks:
 *
 *   smp_request_cpus(&cpus, fn, arg)   runs fn(cpu, arg) once for each
 *       online CPU in @cpus, to act on CPU cpu's data (per_cpu_ptr(x, cpu)),
 *       and returns when every one has run. This CPU's own runs at once.
 *       Another CPU runs it itself at its next poll point; or, when that
 *       CPU is away (below), the asking CPU runs it on its behalf, holding
 *       it away meanwhile, so that the two never touch the data at once.
 *
 * Poll points: a fast path checks smp_request_pending() (one plain load of
 * a per-CPU word) and calls smp_request_poll() when it is set, before it
 * touches its per-CPU data; the idle loop and every wait in this file
 * poll too. So a CPU waiting for others' answers answers its own requests:
 * two CPUs asking each other at once (two CPUs exhausting memory, callers
 * of on_each_cpu() waiting for call_lock) do not deadlock.
 *
 * Away: smp_cpu_away() says "this CPU reaches no poll point and touches no
 * per-CPU data until smp_cpu_back()": secondary CPUs while they idle, a
 * host thread around a blocking wait (a barrier, a join). Requests to it
 * are then run by their senders; smp_cpu_back() waits for one in progress.
 * Where the arch can tell that a CPU is blocked outside buddyboot's code
 * (ARCH_HAS_CPU_HOLD, <arch/smp.h>: the host), a sender whose request has
 * waited a millisecond holds such a CPU as if it were away, without its
 * saying so, and the CPU waits for it at its next use of per-CPU data.
 *
 * The limit: a CPU that is neither away, nor held, nor reaches a poll
 * point (one busy in a loop that polls nothing) cannot answer. A sender
 * waits up to smp_request_timeout_ns, then withdraws its request, names
 * the CPU on the console and counts it in the return value: never a
 * hang, never a silent success. Its caller says what that CPU keeps.
 *
 * Rules for @fn: it runs at a poll point of the target, or on the sender
 * for an away or held target, so it must only touch CPU @cpu's own data and take
 * leaf locks (the zone lock), never wait for another CPU and never send a
 * request itself (that panics). Senders hold no lock across
 * smp_request_cpus() that a poll point's CPU may be spinning for, except
 * through spin_lock_polling().
 */
typedef void (*smp_request_fn)(unsigned int cpu, void *arg);

DECLARE_PER_CPU(unsigned int, smp_requests_pending);

/* Whether this CPU has requests to answer: one plain (relaxed) load. */
static inline bool smp_request_pending(void)
{
	return __builtin_expect(__atomic_load_n(this_cpu_ptr(&smp_requests_pending),
						__ATOMIC_RELAXED) != 0, 0);
}

/* smp_request_poll - answer this CPU's pending requests, if any. */
void smp_request_poll(void);

/*
 * smp_on_request_posted - have the sender run @fn(cpu) after each request
 * it posts to CPU @cpu, once smp_requests_pending counts it (an add with
 * acquire and release): a fast path that reads a gate of its own instead
 * of smp_requests_pending has its senders close that gate (the page
 * allocator's per-CPU lists, mm/page_pcp.c; kmalloc(), mm/slab.c); the
 * CPU opens it again, then calls smp_request_poll_opened(), so that
 * either it sees the request or the closing comes after its opening.
 * @fn runs on the sender, must not wait or send, and may touch only that
 * gate. Each function given runs, in the order given; giving one again
 * (as every CPU that sets up its gate does) adds nothing. Up to four; a
 * fifth panics. None can be taken away.
 */
void smp_on_request_posted(void (*fn)(unsigned int cpu));

/*
 * smp_request_poll_opened - on this CPU, just after it opened a gate of
 * its own (above): read smp_requests_pending with a read-modify-write
 * (acquire and release) and answer what is pending.
 */
void smp_request_poll_opened(void);

/*
 * smp_request_cpus - run @fn(cpu, @arg) for each online CPU in @cpus, as
 * above. Return: the number of CPUs that did not answer in time (each
 * named on the console, and cleared in @missed when given); 0 when all ran.
 */
unsigned int smp_request_cpus(const cpumask_t *cpus, smp_request_fn fn,
			      void *arg, cpumask_t *missed);

/* How long a sender waits for a CPU that is neither away nor polling. */
extern uint64_t smp_request_timeout_ns;
#define SMP_REQUEST_TIMEOUT_NS	(5ULL * 1000 * 1000 * 1000)

void smp_cpu_away(void);
void smp_cpu_back(void);

/*
 * smp_stop_others - hold every other online CPU still: each stops at its
 * next poll point (or is held away) and waits there, answering nothing,
 * until smp_resume_others(). For a checker that must see every CPU's data
 * at rest. One stopper at a time (others wait, answering requests); a CPU
 * that comes online meanwhile waits until the resume. @stopped, when
 * given, is set to the CPUs now still, this one included. A CPU that does
 * not stop in time is named and counted, as for smp_request_cpus(); the
 * others are still held, so the caller calls smp_resume_others() in every
 * case. Return: the number that did not stop.
 */
unsigned int smp_stop_others(cpumask_t *stopped);
void smp_resume_others(void);

/*
 * spin_lock_polling - spin_lock() that answers this CPU's requests while
 * it waits: for a lock whose holder may wait for this CPU's answer
 * (call_lock, a lock held across smp_request_cpus()).
 */
struct spinlock;
void spin_lock_polling(struct spinlock *lock);

/*
 * smp_prepare_boot_cpu - record the boot CPU's hwid as CPU 0's and mark it
 * online. boot_main() calls it first, so that an exception or a panic
 * from then on can name the CPU it happened on.
 */
void smp_prepare_boot_cpu(unsigned long hwid);

/*
 * smp_init - find the CPUs in the boot information and start them all;
 * each that does not check in within a timeout is reported by its id and
 * the others go on. Called by boot_main() after the hand-off (stacks and
 * per-CPU areas come from the page allocator).
 * Return: the number of CPUs online.
 */
struct boot_cpus;
unsigned int smp_init(const struct boot_cpus *cpus);

/*
 * smp_cpu_mem_alloc - @size bytes of a CPU's own memory (a stack, a
 * per-CPU area), page-aligned and contiguous, from the page allocator:
 * one block of the order that holds @size, or, above MAX_PAGE_ORDER, a
 * contiguous run of just the pages @size needs (alloc_contig_pages()).
 * Return: its address, or 0. smp_cpu_mem_bytes(@size) says how many
 * bytes it holds; smp_cpu_mem_free(addr, @size) gives it back.
 */
unsigned long smp_cpu_mem_alloc(size_t size, gfp_t gfp);
size_t smp_cpu_mem_bytes(size_t size);
void smp_cpu_mem_free(unsigned long addr, size_t size);

/*
 * smp_note_wakeup - arch code: this CPU took a wake-up that
 * arch_smp_send_wakeup() sent it (not its idle timer). smp_cpu_wakeups -
 * how many CPU @cpu took, read by any CPU: the selftest
 * smp_wakeup_reaches_each_cpu checks with it that every wake-up arrives,
 * which the idle timer would otherwise hide.
 */
void smp_note_wakeup(void);
unsigned long smp_cpu_wakeups(unsigned int cpu);

/*
 * smp_bringup_error - why smp_init() started no secondary CPU at all: 0,
 * or the arch's negative errno (-EOPNOTSUPP: this port or its firmware
 * cannot start CPUs). Selftests skip, naming it, rather than fail.
 */
int smp_bringup_error(void);

/*
 * smp_register_cpu_dead - @fn(cpu) runs when CPU @cpu goes away: on the
 * host, when a thread that called in exits (mm/ drains that CPU's caches
 * there). Never on a bare-metal target, where CPUs stay online.
 */
void smp_register_cpu_dead(void (*fn)(unsigned int cpu));

#endif /* SMP_SMP_H */
