/*
 * spinlock.h - fair spinlocks (ticket locks), Linux's API.
 *
 * A CPU takes the next ticket with one atomic add and waits until the
 * lock serves that ticket, so CPUs get the lock in the order they asked
 * for it: no CPU starves under contention, which the lock torture
 * selftest relies on when every CPU hammers one lock.
 *
 *   spin_lock()      acquire: the holder's critical section cannot move
 *                    before it (the wait ends with a load-acquire)
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

static inline void spin_lock(spinlock_t *lock)
{
	int ticket;

	spin_debug_before_lock(lock);
	/* Relaxed: the acquire is the load below that sees our ticket. */
	ticket = __atomic_fetch_add(&lock->next.counter, 1, __ATOMIC_RELAXED);
	while (atomic_read_acquire(&lock->serving) != ticket)
		arch_cpu_relax();
	spin_debug_after_lock(lock);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	/*
	 * Acquire: this load reads the last holder's release in spin_unlock(),
	 * so its critical section happens before ours. The CAS below is on
	 * @next, which no unlock releases.
	 */
	int serving = atomic_read_acquire(&lock->serving);

	/* Free iff next == serving; take the ticket only then (acquire). */
	if (!__atomic_compare_exchange_n(&lock->next.counter, &serving,
					 serving + 1, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	spin_debug_after_lock(lock);
	return true;
}

static inline void spin_unlock(spinlock_t *lock)
{
	spin_debug_unlock(lock);
	/* Only the holder writes @serving: a plain read, a release store. */
	atomic_set_release(&lock->serving,
			   __atomic_load_n(&lock->serving.counter,
					   __ATOMIC_RELAXED) + 1);
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
