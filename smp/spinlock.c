/*
 * spinlock.c - how CPUs wait for a spinlock (chosen once, at boot, or by
 * the build: SPINLOCK_WAIT=), and the debug checks of spinlock_t
 * (CONFIG_DEBUG_SPINLOCK).
 *
 * The lock remembers its holder in ->holder (CPU + 1; 0, as in a zeroed
 * lock, is nobody): written by the holder only
 * (after taking the lock, and before releasing it), read by anyone. The
 * reads of another CPU's write are racy by design, so every access is a
 * relaxed atomic: a CPU asking "do I hold it?" gets an exact answer
 * whatever others do, because only it could have written its own id.
 *
 *   taking a lock this CPU holds       -> panic: it would wait forever
 *   releasing a lock another CPU holds -> panic: that CPU's section breaks
 *   releasing a free lock              -> panic: the tickets go wrong
 *
 * Each message names the lock and both CPU ids.
 */
#include <lib/printk.h>
#include <smp/smp.h>
#include <smp/spinlock.h>

/* Tickets until spinlock_choose_wait(): the host's tests, and early boot. */
bool spin_wait_tas;

void spinlock_choose_wait_as(int built, const char *virtual_why)
{
	bool tas = built == SPINLOCK_WAIT_AUTO ? virtual_why != NULL
					       : built == SPINLOCK_WAIT_TAS;

	WRITE_ONCE(spin_wait_tas, tas);
	if (built != SPINLOCK_WAIT_AUTO)
		printk("spinlock: %s waiting, as built (SPINLOCK_WAIT=%s); "
		       "%s%s%s\n", tas ? "test-and-set" : "ticket",
		       tas ? "tas" : "ticket",
		       virtual_why ? "the signs said virtual CPUs (" :
				     "no sign of a hypervisor",
		       virtual_why ? virtual_why : "", virtual_why ? ")" : "");
	else if (tas)
		printk("spinlock: test-and-set waiting, for virtual CPUs (%s)\n",
		       virtual_why);
	else
		printk("spinlock: ticket waiting (first come, first served): "
		       "no sign of a hypervisor\n");
}

void spinlock_choose_wait(const char *virtual_why)
{
	_Static_assert(CONFIG_SPINLOCK_WAIT >= SPINLOCK_WAIT_AUTO &&
		       CONFIG_SPINLOCK_WAIT <= SPINLOCK_WAIT_TAS,
		       "CONFIG_SPINLOCK_WAIT is one of SPINLOCK_WAIT_*");
	spinlock_choose_wait_as(CONFIG_SPINLOCK_WAIT, virtual_why);
}

#if CONFIG_DEBUG_SPINLOCK

void spin_debug_before_lock(spinlock_t *lock)
{
	int me = (int)smp_processor_id();

	if (READ_ONCE(lock->holder) == me + 1)
		panic("spinlock %p: cpu %d takes it again, and cpu %d "
		      "holds it: recursive locking", (void *)lock, me, me);
}

void spin_debug_after_lock(spinlock_t *lock)
{
	WRITE_ONCE(lock->holder, (int)smp_processor_id() + 1);
}

void spin_debug_unlock(spinlock_t *lock)
{
	int me = (int)smp_processor_id();
	int holder = READ_ONCE(lock->holder) - 1;

	if (holder == -1)
		panic("spinlock %p: cpu %d releases it, but no cpu holds it",
		      (void *)lock, me);
	if (holder != me)
		panic("spinlock %p: cpu %d releases it, but cpu %d holds it",
		      (void *)lock, me, holder);
	WRITE_ONCE(lock->holder, 0);
}

#endif /* CONFIG_DEBUG_SPINLOCK */
