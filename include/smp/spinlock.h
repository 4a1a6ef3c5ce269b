/*
 * spinlock.h - spinlocks, Linux's API: one lock word pair, two ways to
 * wait for it.
 *
 * The lock is a ticket lock: @next is the next ticket to hand out,
 * @serving the ticket that holds it; it is free when they are equal.
 * A free lock that nobody waits for is taken with one compare-and-swap.
 * How a CPU waits otherwise is chosen once at boot
 * (spinlock_choose_wait(), from smp_init(), before any other CPU runs),
 * by the signs of virtual CPUs, or by the build (SPINLOCK_WAIT=, below):
 *
 *   ticket        take the next ticket with one atomic add and wait until
 *                 the lock serves it: CPUs get the lock in the order they
 *                 asked, and none starves. For CPUs that always run: bare
 *                 metal.
 *   test-and-set  take a ticket only while the lock is free (nobody
 *                 holds it, nobody waits: spin_trylock()), and retry
 *                 when it looks free again: whichever running CPU sees
 *                 it free takes it. For a hypervisor's virtual CPUs,
 *                 which the host may stop at any instruction: with
 *                 tickets, every hand-off to a waiter the host is not
 *                 running waits until the host runs it, while the CPUs
 *                 that do run spin (Linux's virt_spin_lock() makes the
 *                 same choice on x86 without paravirtual spinlocks).
 *
 * The two mix safely, whatever each CPU uses: test-and-set takes a
 * ticket only when @next == @serving, which no queued waiter allows, and
 * the unlock is the same. The lock torture selftest runs them mixed.
 *
 *   spin_lock()      acquire: the holder's critical section cannot move
 *                    before it (the wait ends with a load-acquire, or the
 *                    successful compare-and-swap's acquire)
 *   spin_unlock()    release: nothing in the critical section moves after
 *                    it (a store-release of the next ticket)
 *   spin_trylock()   the lock if it is free now, else false at once
 *   spin_lock_irqsave(lock, flags) / spin_unlock_irqrestore(lock, flags)
 *                    the same with this CPU's interrupts masked
 *
 * With CONFIG_DEBUG_SPINLOCK (on unless the build sets it to 0: the
 * benchmarks do) the lock remembers its holder, and a CPU that takes a
 * lock it holds, or releases one another CPU holds (or nobody), panics
 * with both CPU ids.
 */
#ifndef SMP_SPINLOCK_H
#define SMP_SPINLOCK_H

#include <lib/atomic.h>
#include <lib/compiler.h>
#include <asm/smp.h>

#ifndef CONFIG_DEBUG_SPINLOCK
#define CONFIG_DEBUG_SPINLOCK	1
#endif

typedef struct spinlock {
	atomic_t next;		/* the next ticket to hand out */
	atomic_t serving;	/* the ticket that holds the lock; written
				 * only by the holder, in spin_unlock() */
#if CONFIG_DEBUG_SPINLOCK
	int holder;		/* CPU holding it + 1, 0 when free (so that
				 * a zeroed lock, in BSS or a per-CPU area,
				 * is a free one); written by the holder only */
#endif
} spinlock_t;

#if CONFIG_DEBUG_SPINLOCK
#define __SPIN_LOCK_UNLOCKED	{ ATOMIC_INIT(0), ATOMIC_INIT(0), 0 }
#else
#define __SPIN_LOCK_UNLOCKED	{ ATOMIC_INIT(0), ATOMIC_INIT(0) }
#endif
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	*lock = (spinlock_t)__SPIN_LOCK_UNLOCKED;
}

#if CONFIG_DEBUG_SPINLOCK
/* smp/spinlock.c: the checks, and the panic naming both CPUs. */
void spin_debug_before_lock(spinlock_t *lock);
void spin_debug_after_lock(spinlock_t *lock);
void spin_debug_unlock(spinlock_t *lock);
#else
static inline void spin_debug_before_lock(spinlock_t *lock) { (void)lock; }
static inline void spin_debug_after_lock(spinlock_t *lock) { (void)lock; }
static inline void spin_debug_unlock(spinlock_t *lock) { (void)lock; }
#endif

/*
 * How CPUs wait here: false for tickets, true for test-and-set. Written
 * once by spinlock_choose_wait() (smp/spinlock.c) on the boot CPU before
 * any other CPU runs, only read after (READ_ONCE).
 */
extern bool spin_wait_tas;

/*
 * The build's say in the choice (make SPINLOCK_WAIT=ticket|tas, for a
 * machine whose signs mislead: a board's firmware that looks like a
 * hypervisor's, or virtual CPUs pinned one to a host core, where tickets
 * are fair and cost nothing):
 *   SPINLOCK_WAIT_AUTO    chosen at boot by the signs (the default)
 *   SPINLOCK_WAIT_TICKET  tickets, whatever the signs
 *   SPINLOCK_WAIT_TAS     test-and-set, whatever the signs
 */
#define SPINLOCK_WAIT_AUTO	0
#define SPINLOCK_WAIT_TICKET	1
#define SPINLOCK_WAIT_TAS	2
#ifndef CONFIG_SPINLOCK_WAIT
#define CONFIG_SPINLOCK_WAIT	SPINLOCK_WAIT_AUTO
#endif

/*
 * spinlock_choose_wait - test-and-set from now on when @virtual_why says
 * what makes the CPUs virtual (printed on the boot line), tickets when
 * it is NULL; unless the build chose (CONFIG_SPINLOCK_WAIT), which the
 * boot line then says, with the signs it overrides. smp_init() calls it
 * once, before any other CPU runs.
 */
void spinlock_choose_wait(const char *virtual_why);

/* The same with the build's choice @built (SPINLOCK_WAIT_*): for tests. */
void spinlock_choose_wait_as(int built, const char *virtual_why);

/*
 * The ticket after @t. Tickets wrap (the atomic add wraps them too): the
 * sum is taken unsigned, where int's would overflow, undefined, after
 * 2^31 acquisitions.
 */
static inline int ticket_after(int t)
{
	return (int)((unsigned int)t + 1u);
}

/* Take the lock if it is free now (nobody holds it, nobody waits). */
static inline bool __spin_trylock(spinlock_t *lock)
{
	/*
	 * Acquire: this load reads the last holder's release in spin_unlock(),
	 * so its critical section happens before ours. The CAS below is on
	 * @next, which no unlock releases.
	 */
	int serving = atomic_read_acquire(&lock->serving);

	/* Free iff next == serving; take the ticket only then (acquire). */
	return __atomic_compare_exchange_n(&lock->next.counter, &serving,
					   ticket_after(serving), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Wait in line: the next ticket, then until the lock serves it. */
static inline void __spin_lock_ticket(spinlock_t *lock)
{
	/* Relaxed: the acquire is the load below that sees our ticket. */
	int ticket = __atomic_fetch_add(&lock->next.counter, 1, __ATOMIC_RELAXED);

	while (atomic_read_acquire(&lock->serving) != ticket)
		arch_cpu_relax();
}

/*
 * Test and set: try, and while it is held (or waited for) only read it,
 * so that waiters do not take its line from the holder with writes.
 */
static inline void __spin_lock_tas(spinlock_t *lock)
{
	while (!__spin_trylock(lock))
		while (atomic_read(&lock->next) != atomic_read(&lock->serving))
			arch_cpu_relax();
}

/*
 * spin_lock_ticket, spin_lock_tas - spin_lock() waiting the one way or
 * the other, whatever the boot chose: for the lock torture selftest,
 * which runs them mixed.
 */
static inline void spin_lock_ticket(spinlock_t *lock)
{
	spin_debug_before_lock(lock);
	__spin_lock_ticket(lock);
	spin_debug_after_lock(lock);
}

static inline void spin_lock_tas(spinlock_t *lock)
{
	spin_debug_before_lock(lock);
	__spin_lock_tas(lock);
	spin_debug_after_lock(lock);
}

/*
 * A free lock with nobody waiting is taken at once, either way (one
 * compare-and-swap, as one ticket would take it): how to wait is looked
 * up only when it is not.
 */
static inline void spin_lock(spinlock_t *lock)
{
	spin_debug_before_lock(lock);
	if (unlikely(!__spin_trylock(lock))) {
		if (READ_ONCE(spin_wait_tas))
			__spin_lock_tas(lock);
		else
			__spin_lock_ticket(lock);
	}
	spin_debug_after_lock(lock);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	if (!__spin_trylock(lock))
		return false;
	spin_debug_after_lock(lock);
	return true;
}

static inline void spin_unlock(spinlock_t *lock)
{
	spin_debug_unlock(lock);
	/* Only the holder writes @serving: a plain read, a release store. */
	atomic_set_release(&lock->serving,
			   ticket_after(__atomic_load_n(&lock->serving.counter,
							__ATOMIC_RELAXED)));
}

#define spin_lock_irqsave(lock, flags)					\
	do {								\
		(flags) = arch_local_irq_save();			\
		spin_lock(lock);					\
	} while (0)

#define spin_unlock_irqrestore(lock, flags)				\
	do {								\
		spin_unlock(lock);					\
		arch_local_irq_restore(flags);				\
	} while (0)

/* spin_is_locked - a snapshot, for assertions only. */
static inline bool spin_is_locked(spinlock_t *lock)
{
	return atomic_read(&lock->next) != atomic_read(&lock->serving);
}

#endif /* SMP_SPINLOCK_H */
