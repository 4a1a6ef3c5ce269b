/*
 * call.c - asking other CPUs to do something: per-CPU requests (every
 * target), and on_each_cpu() (bare metal; the host's is arch/host/smp.c).
 *
 * Per-CPU requests (include/smp/smp.h has the contract). Each CPU has a
 * request box in its per-CPU area: one slot per possible sender, so that
 * senders never share a slot and a slot needs no lock, and a presence
 * word (PRESENT, AWAY, SERVED). A sender writes fn and arg into its slot
 * of each target, then the slot's state FREE -> POSTED (release, after fn
 * and arg), then adds one to the target's smp_requests_pending (a
 * read-modify-write with release: every sender's add is in one release
 * sequence, so the target's exchange below synchronises with all of
 * them). Whoever runs a request first claims its slot POSTED -> CLAIMED
 * by compare-and-swap, which makes exactly one runner, then stores DONE
 * (release: fn's writes before the sender's acquire of DONE); the sender
 * sets FREE again. A target polls by exchanging its pending count with 0
 * (acquire) and scanning its slots: a post that lands after the exchange
 * leaves the count non-zero, so the next poll finds it.
 *
 * Presence is written PRESENT -> AWAY by its CPU (compare-and-swap,
 * release: what it did to its data before going away is seen by whoever
 * serves it), AWAY -> SERVED by a sender with compare-and-swap (acquire),
 * SERVED -> AWAY by that sender (release), and AWAY -> PRESENT by its CPU
 * with compare-and-swap (acquire: it sees what the sender did). So at any
 * time either the CPU or one sender owns the CPU's data, never both.
 * Where the arch says a CPU may block outside buddyboot's code
 * (ARCH_HAS_CPU_HOLD, <arch/smp.h>: a host thread in a barrier), a sender
 * whose request has waited SMP_HOLD_AFTER_NS also tries PRESENT -> SERVED
 * (compare-and-swap, acquire) and asks the arch to hold the CPU there:
 * if it cannot, the sender puts PRESENT back at once; if it can, the CPU
 * waits at its next use of its data (smp_cpu_wait_unheld()) until the
 * sender's SERVED -> PRESENT (release). Its own PRESENT -> AWAY waits the
 * same way, so that a CPU held there never goes away under its sender.
 *
 * Waits poll this CPU's own box and relax; each has a deadline of
 * smp_request_timeout_ns, after which a request still POSTED is withdrawn
 * (POSTED -> FREE by compare-and-swap; one that lost to a claim is running
 * and is waited for: request functions are short).
 */
#include <arch/smp.h>
#include <lib/atomic.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include "internal.h"

enum { SLOT_FREE, SLOT_POSTED, SLOT_CLAIMED, SLOT_DONE };
enum { CPU_PRESENT, CPU_AWAY, CPU_SERVED };

struct request_slot {
	smp_request_fn fn;	/* written by the sender while FREE */
	void *arg;
	int state;		/* SLOT_*, transitions as above */
};

/* A cache line apart from other per-CPU data: waiting senders read it. */
struct request_box {
	int presence;		/* CPU_*: see above */
	bool in_fn;		/* this CPU runs a request: its own only */
	struct request_slot slot[NR_CPUS];	/* [sender] */
} __aligned(64);

/* Added to by senders (release), exchanged with 0 by the owner (acquire). */
DEFINE_PER_CPU(unsigned int, smp_requests_pending);
static DEFINE_PER_CPU(struct request_box, request_box);

uint64_t smp_request_timeout_ns = SMP_REQUEST_TIMEOUT_NS;

/*
 * smp_on_request_posted()'s functions: filled in order, each slot once,
 * by a compare-and-swap from NULL (release); read with acquire, up to
 * the first NULL.
 */
#define MAX_REQUEST_POSTED_FNS	4
static void (*request_posted_fns[MAX_REQUEST_POSTED_FNS])(unsigned int cpu);

/* Run @s's request for CPU @cpu if it is still posted: one runner only. */
static bool run_slot(struct request_slot *s, unsigned int cpu)
{
	struct request_box *me = this_cpu_ptr(&request_box);
	int posted = SLOT_POSTED;
	bool nested = me->in_fn;

	/* Acquire: fn, arg. Release: a stopper that sees CLAIMED sees what
	 * this CPU did to its data before (smp_stop_others()). */
	if (!__atomic_compare_exchange_n(&s->state, &posted, SLOT_CLAIMED,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return false;
	me->in_fn = true;
	s->fn(cpu, s->arg);
	me->in_fn = nested;
	/* Release: fn's writes before the sender sees DONE. */
	__atomic_store_n(&s->state, SLOT_DONE, __ATOMIC_RELEASE);
	return true;
}

void smp_request_poll(void)
{
	struct request_box *box = this_cpu_ptr(&request_box);
	unsigned int cpu = smp_processor_id();

	/* Acquire: pairs with every sender's release add (see above). */
	if (!__atomic_exchange_n(this_cpu_ptr(&smp_requests_pending), 0,
				 __ATOMIC_ACQUIRE))
		return;
	for (unsigned int from = 0; from < NR_CPUS; from++)
		if (__atomic_load_n(&box->slot[from].state, __ATOMIC_RELAXED) ==
		    SLOT_POSTED)
			run_slot(&box->slot[from], cpu);
}

void smp_request_poll_opened(void)
{
	/*
	 * A read-modify-write, not a load (a fence would do, but
	 * ThreadSanitizer knows none): a sender whose add (post(), acquire
	 * and release too) comes after ours in the word's order closes the
	 * gate after the caller's opening; one whose add comes before is
	 * seen here.
	 */
	if (__atomic_fetch_or(this_cpu_ptr(&smp_requests_pending), 0U,
			      __ATOMIC_ACQ_REL))
		smp_request_poll();
}

/* How long a request waits before its sender tries to hold a CPU blocked
 * elsewhere (ARCH_HAS_CPU_HOLD), and then between tries. */
#define SMP_HOLD_AFTER_NS	1000000ULL

/*
 * This CPU's own presence change @from -> @to (compare-and-swap with
 * @order), waiting while a sender holds it SERVED; nothing to do when it
 * is @to already.
 */
static void move_own_presence(int from, int to, int order)
{
	int *presence = &this_cpu_ptr(&request_box)->presence;

	for (;;) {
		int seen = from;

		if (__atomic_compare_exchange_n(presence, &seen, to, false,
						order, __ATOMIC_RELAXED) ||
		    seen == to)
			return;
		arch_cpu_relax();	/* SERVED: a sender is at work */
	}
}

void smp_cpu_away(void)
{
	/* Release: this CPU's work on its data before anyone serves it. */
	move_own_presence(CPU_PRESENT, CPU_AWAY, __ATOMIC_RELEASE);
}

void smp_cpu_wait_unheld(unsigned int cpu)
{
	int *presence = &per_cpu_ptr(&request_box, cpu)->presence;

	/* Acquire: what the sender did on this CPU's behalf. */
	while (__atomic_load_n(presence, __ATOMIC_ACQUIRE) == CPU_SERVED)
		arch_cpu_relax();
}

void smp_cpu_back(void)
{
	/* Acquire: what a sender did on our behalf. */
	move_own_presence(CPU_AWAY, CPU_PRESENT, __ATOMIC_ACQUIRE);
}

/* How a sender holds a CPU: not, because it said it is away, or because
 * the arch found it blocked elsewhere. */
enum held { NOT_HELD, HELD_AWAY, HELD_BLOCKED };

/*
 * Take CPU @cpu for this sender, if it is away, or, once *@next_try has
 * come (then pushed SMP_HOLD_AFTER_NS on), if the arch finds it blocked
 * outside buddyboot's code. The sender then runs the CPU's requests and
 * release_cpu()s it.
 */
static enum held hold_cpu(unsigned int cpu, uint64_t *next_try)
{
	int *presence = &per_cpu_ptr(&request_box, cpu)->presence;
	int seen = CPU_AWAY;

	if (__atomic_load_n(presence, __ATOMIC_RELAXED) == CPU_AWAY &&
	    __atomic_compare_exchange_n(presence, &seen, CPU_SERVED, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return HELD_AWAY;
#ifdef ARCH_HAS_CPU_HOLD
	if (arch_clock_ns() < *next_try)
		return NOT_HELD;
	*next_try = arch_clock_ns() + SMP_HOLD_AFTER_NS;
	seen = CPU_PRESENT;
	if (__atomic_compare_exchange_n(presence, &seen, CPU_SERVED, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (arch_cpu_hold(cpu))
			return HELD_BLOCKED;
		__atomic_store_n(presence, CPU_PRESENT, __ATOMIC_RELAXED);
	}
#else
	(void)next_try;
#endif
	return NOT_HELD;
}

static void release_cpu(unsigned int cpu, enum held how)
{
	/* Release: what this sender did on the CPU's behalf. */
	__atomic_store_n(&per_cpu_ptr(&request_box, cpu)->presence,
			 how == HELD_AWAY ? CPU_AWAY : CPU_PRESENT,
			 __ATOMIC_RELEASE);
}

/* When a sender first tries to hold a CPU blocked elsewhere. */
static uint64_t first_hold_try(void)
{
	return arch_clock_ns() + SMP_HOLD_AFTER_NS;
}

static void post(unsigned int cpu, unsigned int me, smp_request_fn fn,
		 void *arg)
{
	struct request_slot *s = &per_cpu_ptr(&request_box, cpu)->slot[me];
	if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) != SLOT_FREE)
		panic("smp: cpu %u sends cpu %u a request while its previous "
		      "one is outstanding", me, cpu);
	s->fn = fn;
	s->arg = arg;
	/* Release: fn and arg before the state that announces them. */
	__atomic_store_n(&s->state, SLOT_POSTED, __ATOMIC_RELEASE);
	/*
	 * Release, and in one release sequence with the other senders'.
	 * Acquire: the gate's closing below comes after whatever the target
	 * did before a read-modify-write of the count that precedes ours
	 * (its opening, smp.h): either it sees our count, or our closing
	 * comes after its opening.
	 */
	__atomic_fetch_add(per_cpu_ptr(&smp_requests_pending, cpu), 1,
			   __ATOMIC_ACQ_REL);
	for (unsigned int i = 0; i < MAX_REQUEST_POSTED_FNS; i++) {
		void (*posted_fn)(unsigned int cpu) =
			__atomic_load_n(&request_posted_fns[i], __ATOMIC_ACQUIRE);

		if (!posted_fn)
			break;
		posted_fn(cpu);
	}
}

void smp_on_request_posted(void (*fn)(unsigned int cpu))
{
	for (unsigned int i = 0; i < MAX_REQUEST_POSTED_FNS; i++) {
		void (*seen)(unsigned int cpu) = NULL;

		/* Release: what @fn reads is set up before it can be run. */
		if (__atomic_compare_exchange_n(&request_posted_fns[i], &seen, fn,
						false, __ATOMIC_RELEASE,
						__ATOMIC_ACQUIRE) ||
		    seen == fn)
			return;
	}
	panic("smp: more than %u functions for smp_on_request_posted()",
	      MAX_REQUEST_POSTED_FNS);
}

/* Withdraw a request nobody claimed: true if it was still posted. */
static bool withdraw(struct request_slot *s)
{
	int posted = SLOT_POSTED;

	return __atomic_compare_exchange_n(&s->state, &posted, SLOT_FREE,
					   false, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED);
}

static void not_answered(unsigned int cpu, const char *what)
{
	printk("smp: cpu %u did not %s within %llu ms: it reached no poll "
	       "point and was not away\n", cpu, what,
	       (unsigned long long)(READ_ONCE(smp_request_timeout_ns) / 1000000));
}

/* Wait a little, answering this CPU's own requests meanwhile. */
static void wait_answering(void)
{
	smp_request_poll();
	arch_cpu_relax();
}

static uint64_t deadline_from_now(void)
{
	return arch_clock_ns() + READ_ONCE(smp_request_timeout_ns);
}

unsigned int smp_request_cpus(const cpumask_t *cpus, smp_request_fn fn,
			      void *arg, cpumask_t *missed)
{
	unsigned int me = smp_processor_id(), cpu, nr_missed = 0;
	bool others = false;
	uint64_t deadline = 0;

	if (this_cpu_ptr(&request_box)->in_fn)
		panic("smp: cpu %u sends a request from a request function",
		      me);
	for_each_online_cpu(cpu) {
		if (cpu != me && cpumask_test_cpu(cpu, cpus)) {
			post(cpu, me, fn, arg);
			others = true;
		}
	}
	if (cpumask_test_cpu(me, cpus)) {
		this_cpu_ptr(&request_box)->in_fn = true;
		fn(me, arg);
		this_cpu_ptr(&request_box)->in_fn = false;
	}
	if (others)
		deadline = deadline_from_now();
	for (cpu = 0; others && cpu < NR_CPUS; cpu++) {
		struct request_slot *s;
		uint64_t next_hold;
		enum held how;

		if (cpu == me || !cpumask_test_cpu(cpu, cpus))
			continue;
		s = &per_cpu_ptr(&request_box, cpu)->slot[me];
		if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) == SLOT_FREE)
			continue;
		next_hold = first_hold_try();
		/* Acquire: pairs with the runner's release of DONE. */
		while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SLOT_DONE) {
			how = hold_cpu(cpu, &next_hold);
			if (how != NOT_HELD) {
				run_slot(s, cpu);
				release_cpu(cpu, how);
				continue;
			}
			/* Gone (a host thread's exit): its hooks emptied it. */
			if (!cpu_online(cpu) && withdraw(s))
				break;
			if (arch_clock_ns() > deadline && withdraw(s)) {
				not_answered(cpu, "answer a request");
				if (missed)
					cpumask_set_cpu(cpu, missed);
				nr_missed++;
				break;
			}
			wait_answering();
		}
		__atomic_store_n(&s->state, SLOT_FREE, __ATOMIC_RELAXED);
	}
	return nr_missed;
}

void spin_lock_polling(spinlock_t *lock)
{
	while (!spin_trylock(lock))
		wait_answering();
}

/*
 * Stopping the others: a request whose function parks its CPU until the
 * stopper resumes it. A CPU that is away, or blocked elsewhere
 * (ARCH_HAS_CPU_HOLD), is held SERVED instead. The stopper learns that a
 * CPU stopped from its slot: CLAIMED (the claim's release makes what that
 * CPU did before visible), or held by itself.
 * Everything below is the stopper's, under stop_lock.
 */
static DEFINE_SPINLOCK(stop_lock);
static unsigned long stop_gen;		/* written by the stopper */
/* Asked to stop; held by the stopper (away, or blocked elsewhere). */
static cpumask_t stop_posted, stop_held, stop_held_blocked;

static void park(unsigned int cpu, void *arg)
{
	(void)cpu;
	/* Acquire: pairs with smp_resume_others()'s release. */
	while (__atomic_load_n(&stop_gen, __ATOMIC_ACQUIRE) ==
	       (unsigned long)arg)
		arch_cpu_relax();
}

unsigned int smp_stop_others(cpumask_t *stopped)
{
	unsigned int me = smp_processor_id(), cpu, nr_missed = 0;
	uint64_t deadline = 0;

	if (this_cpu_ptr(&request_box)->in_fn)
		panic("smp: cpu %u stops the others from a request function",
		      me);
	spin_lock_polling(&stop_lock);
	cpumask_clear(&stop_posted);
	cpumask_clear(&stop_held);
	cpumask_clear(&stop_held_blocked);
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		post(cpu, me, park, (void *)stop_gen);
		cpumask_set_cpu(cpu, &stop_posted);
		if (!deadline)
			deadline = deadline_from_now();
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct request_slot *s;
		uint64_t next_hold;
		enum held how;

		if (!cpumask_test_cpu(cpu, &stop_posted))
			continue;
		s = &per_cpu_ptr(&request_box, cpu)->slot[me];
		next_hold = first_hold_try();
		/* Acquire: pairs with the claim (run_slot()). */
		while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) ==
		       SLOT_POSTED) {
			how = hold_cpu(cpu, &next_hold);
			if (how != NOT_HELD) {
				/* Ours alone while held: no claim can race. */
				__atomic_store_n(&s->state, SLOT_CLAIMED,
						 __ATOMIC_RELAXED);
				cpumask_set_cpu(cpu, &stop_held);
				if (how == HELD_BLOCKED)
					cpumask_set_cpu(cpu, &stop_held_blocked);
				break;
			}
			if ((!cpu_online(cpu) || arch_clock_ns() > deadline) &&
			    withdraw(s)) {
				if (cpu_online(cpu)) {
					not_answered(cpu, "stop");
					nr_missed++;
				}
				cpumask_clear_cpu(cpu, &stop_posted);
				break;
			}
			wait_answering();
		}
	}
	if (stopped) {
		*stopped = stop_posted;
		cpumask_set_cpu(me, stopped);
	}
	return nr_missed;
}

void smp_stop_wait(void)
{
	spin_lock_polling(&stop_lock);
	spin_unlock(&stop_lock);
}

void smp_resume_others(void)
{
	unsigned int me = smp_processor_id();

	/* Release: the stopper's writes before the parked CPUs go on. */
	__atomic_store_n(&stop_gen, stop_gen + 1, __ATOMIC_RELEASE);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct request_slot *s;

		if (!cpumask_test_cpu(cpu, &stop_posted))
			continue;
		s = &per_cpu_ptr(&request_box, cpu)->slot[me];
		if (cpumask_test_cpu(cpu, &stop_held)) {
			release_cpu(cpu, cpumask_test_cpu(cpu, &stop_held_blocked)
					 ? HELD_BLOCKED : HELD_AWAY);
		} else {
			while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) !=
			       SLOT_DONE)
				arch_cpu_relax();
		}
		__atomic_store_n(&s->state, SLOT_FREE, __ATOMIC_RELAXED);
	}
	spin_unlock(&stop_lock);
}

#ifndef CONFIG_HOST
/*
 * on_each_cpu(): each CPU has a mailbox, a per-CPU variable in its own
 * area, so that a CPU polling for work reads only its own cache line. The
 * caller, holding call_lock (callers are serialised), writes the function
 * and argument into every other online CPU's mailbox and then the request
 * number with a release; each CPU, in its idle loop (smp_call_poll()),
 * sees the new number with an acquire, which makes the function and
 * argument visible, runs the function, and writes the number back into
 * ->done with a release, which makes everything the function wrote
 * visible to the caller's acquire of ->done. The caller runs the function
 * itself too and returns when every ->done has caught up.
 *
 * Secondary CPUs only idle (buddyboot runs its work on the boot CPU), so
 * a request is answered as fast as the target polls; where the arch lets
 * idle CPUs sleep (ARCH_HAS_IDLE_WAKEUP), the caller wakes each one after
 * writing its mailbox. A CPU that runs something other than its idle loop
 * does not answer until it returns there: on_each_cpu() from inside a
 * request function would wait for itself, which call_running catches.
 * Waiting for call_lock and for the others, the caller answers per-CPU
 * requests: a CPU it waits for may be waiting for its answer.
 */
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

bool smp_call_pending(void)
{
	struct call_mailbox *mb = this_cpu_ptr(&call_mailbox);

	return READ_ONCE(mb->request) != READ_ONCE(mb->done);
}

bool smp_call_poll(void)
{
	struct call_mailbox *mb = this_cpu_ptr(&call_mailbox);
	/* Acquire: pairs with the caller's release of ->request. */
	unsigned long req = smp_load_acquire(&mb->request);

	smp_request_poll();
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

	spin_lock_polling(&call_lock);
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
			wait_answering();
	}
	spin_unlock(&call_lock);
}
#endif /* !CONFIG_HOST */
