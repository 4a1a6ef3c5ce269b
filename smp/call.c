/*
 * call.c - on_each_cpu(): run a function on every online CPU and wait.
 *
 * Each CPU has a mailbox, a per-CPU variable in its own area, so that a
 * CPU polling for work reads only its own cache line. The caller, holding
 * call_lock (callers are serialised), writes the function and argument
 * into every other online CPU's mailbox and then the request number with
 * a release; each CPU, in its idle loop (smp_call_poll()), sees the new
 * number with an acquire, which makes the function and argument visible,
 * runs the function, and writes the number back into ->done with a
 * release, which makes everything the function wrote visible to the
 * caller's acquire of ->done. The caller runs the function itself too and
 * returns when every ->done has caught up.
 *
 * Secondary CPUs only idle (buddyboot runs its work on the boot CPU), so
 * a request is answered as fast as the target polls; where the arch lets
 * idle CPUs sleep (ARCH_HAS_IDLE_WAKEUP), the caller wakes each one after
 * writing its mailbox. A CPU that runs
 * something other than its idle loop does not answer until it returns
 * there: on_each_cpu() from inside a request function would wait for
 * itself, which call_running catches.
 */
#include <arch/smp.h>
#include <lib/atomic.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include "internal.h"

struct call_mailbox {
	/* Written by the on_each_cpu() caller under call_lock. */
	void (*fn)(void *arg);
	void *arg;
	unsigned long request;		/* store-release after fn, arg */
	/* Written by the mailbox's own CPU. */
	unsigned long done;		/* store-release after fn ran */
};

static DEFINE_PER_CPU(struct call_mailbox, call_mailbox);
/* This CPU is inside a request's function: written by this CPU only. */
static DEFINE_PER_CPU(bool, call_running);

static DEFINE_SPINLOCK(call_lock);
static unsigned long call_count;	/* under call_lock */

bool smp_call_poll(void)
{
	struct call_mailbox *mb = this_cpu_ptr(&call_mailbox);
	/* Acquire: pairs with the caller's release of ->request. */
	unsigned long req = smp_load_acquire(&mb->request);

	if (req == READ_ONCE(mb->done))
		return false;
	*this_cpu_ptr(&call_running) = true;
	mb->fn(mb->arg);
	*this_cpu_ptr(&call_running) = false;
	/* Release: the function's writes before the caller sees it done. */
	smp_store_release(&mb->done, req);
	return true;
}

void on_each_cpu(void (*fn)(void *arg), void *arg, bool wait)
{
	unsigned int me = smp_processor_id(), cpu;
	unsigned long req;

	if (!wait)
		panic("on_each_cpu: wait = false is not supported");
	if (*this_cpu_ptr(&call_running))
		panic("on_each_cpu: called by cpu %u from a function "
		      "on_each_cpu() runs: it would wait for itself", me);

	spin_lock(&call_lock);
	req = ++call_count;
	for_each_online_cpu(cpu) {
		struct call_mailbox *mb = per_cpu_ptr(&call_mailbox, cpu);

		if (cpu == me)
			continue;
		mb->fn = fn;
		mb->arg = arg;
		/* Release: fn and arg before the number that announces them. */
		smp_store_release(&mb->request, req);
#ifdef ARCH_HAS_IDLE_WAKEUP
		/* After the request: a CPU it wakes finds it (arch/smp.h). */
		arch_smp_send_wakeup(cpu);
#endif
	}

	*this_cpu_ptr(&call_running) = true;
	fn(arg);
	*this_cpu_ptr(&call_running) = false;

	for_each_online_cpu(cpu) {
		struct call_mailbox *mb = per_cpu_ptr(&call_mailbox, cpu);

		/* Only those asked above (->request: ours, under the lock). */
		if (cpu == me || READ_ONCE(mb->request) != req)
			continue;
		/* Acquire: pairs with the target's release of ->done. */
		while (smp_load_acquire(&mb->done) != req)
			arch_cpu_relax();
	}
	spin_unlock(&call_lock);
}
