/*
 * test_smp.c - the per-CPU and lock layer on the host, where every thread
 * is a CPU (arch/host/smp.c), under ThreadSanitizer: a data race in any
 * of it fails the suite.
 *
 *   locks: N threads, one spinlock, plain increments: exact totals
 *   atomics: the same with atomics alone, cmpxchg loops included
 *   per-CPU areas: distinct numbers and areas for live threads, each
 *     zeroed and cache-line aligned, this_cpu_ptr == per_cpu_ptr(own id);
 *     a thread not yet numbered reads the section, no CPU's, which stays
 *     zero
 *   cpu-dead hooks: run on the exiting thread with its number, after
 *     which the number is offline and handed out again
 *   panics, each in a child process: a recursive lock, an unlock by the
 *     wrong CPU, an unlock of a free lock, more threads than NR_CPUS
 *   per-CPU requests: many senders at once, to CPUs that poll or go away,
 *     each request run exactly once and never beside its CPU's own work;
 *     a CPU that neither polls nor is away is named and given up after
 *     the timeout; stopped CPUs do not move until resumed
 *   request-posted hooks: each given function runs once per request
 *     posted, in the order given, one given twice runs once; a fifth
 *     distinct one panics
 */
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lib/atomic.h>
#include <smp/percpu.h>
#include <smp/smp.h>
#include <smp/spinlock.h>
#include <arch/smp.h>
#include "../../../arch/host/cpu_hold.h"
#include "../mm/harness.h"

/* A race report ends the run at once, with a status the runner reads. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:exitcode=66";
}

#define THREADS		8
#define ITERATIONS	20000

static void run_threads(unsigned int n, void *(*fn)(void *), void *arg)
{
	pthread_t t[NR_CPUS];

	for (unsigned int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, arg))
			abort();
	for (unsigned int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static DEFINE_SPINLOCK(count_lock);
static unsigned long locked_count;	/* under count_lock */
static unsigned long locked_double;	/* under count_lock */

/* 0: spin_lock(); 1: every thread test-and-set; 2: odd threads do. */
static int wait_mode;
static atomic_t wait_threads;

static void *lock_worker(void *arg)
{
	bool tas = wait_mode == 1 ||
		   (wait_mode == 2 && (atomic_inc_return(&wait_threads) & 1));

	(void)arg;
	for (int i = 0; i < ITERATIONS; i++) {
		if (!wait_mode)
			spin_lock(&count_lock);
		else if (tas)
			spin_lock_tas(&count_lock);
		else
			spin_lock_ticket(&count_lock);
		locked_count++;
		locked_double += 2;
		spin_unlock(&count_lock);
	}
	return NULL;
}

/*
 * THREADS threads through count_lock, waiting as @mode says (wait_mode):
 * the counts are exact, so no two were ever inside at once.
 */
static bool locked_counts_exact(int mode)
{
	static const char *const how[] = { "spin_lock()", "test-and-set",
					    "mixed" };

	wait_mode = mode;
	atomic_set(&wait_threads, 0);
	locked_count = locked_double = 0;
	run_threads(THREADS, lock_worker, NULL);
	EXPECT(locked_count == THREADS * ITERATIONS &&
	       locked_double == 2UL * THREADS * ITERATIONS,
	       "%s: %lu and %lu after %d threads x %d", how[mode],
	       locked_count, locked_double, THREADS, ITERATIONS);
	EXPECT(!spin_is_locked(&count_lock), "%s: the lock is still held",
	       how[mode]);
	return true;
}

static bool spinlock_counts_exactly(void)
{
	unsigned long flags;

	if (!locked_counts_exact(0))
		return false;
	EXPECT(spin_trylock(&count_lock), "a free lock was refused");
	EXPECT(!spin_trylock(&count_lock), "a held lock was taken again");
	spin_unlock(&count_lock);
	spin_lock_irqsave(&count_lock, flags);
	spin_unlock_irqrestore(&count_lock, flags);
	return true;
}

/*
 * Both ways of waiting (<smp/spinlock.h>), alone and mixed: the counts
 * stay exact, so no two threads were inside at once. And spin_lock()
 * follows the choice.
 */
static bool spinlock_waits_both_ways(void)
{
	if (!locked_counts_exact(1) || !locked_counts_exact(2))
		return false;
	spinlock_choose_wait("a host test");
	EXPECT(spin_wait_tas, "the choice of test-and-set did not stick");
	/* spin_lock() by the choice, which it reads only when it waits. */
	if (!locked_counts_exact(0))
		return false;
	spinlock_choose_wait(NULL);
	EXPECT(!spin_wait_tas, "the choice of tickets did not stick");
	/* The build's choice wins over the signs, either way. */
	spinlock_choose_wait_as(SPINLOCK_WAIT_TICKET, "a host test");
	EXPECT(!spin_wait_tas, "SPINLOCK_WAIT=ticket lost to the signs");
	spinlock_choose_wait_as(SPINLOCK_WAIT_TAS, NULL);
	EXPECT(spin_wait_tas, "SPINLOCK_WAIT=tas lost to no sign");
	spinlock_choose_wait_as(SPINLOCK_WAIT_AUTO, NULL);
	EXPECT(!spin_wait_tas, "no build choice and no sign: not tickets");
	return true;
}

/*
 * Tickets wrap: a lock taken and released 2^32 times is as good as new.
 * Started just below the top of int, each way of taking it crosses the
 * wrap (UBSan, in the asan build, stops at a signed overflow).
 */
static bool tickets_wrap(void)
{
	spinlock_t lock = __SPIN_LOCK_UNLOCKED;

	atomic_set(&lock.next, INT_MAX - 2);
	atomic_set(&lock.serving, INT_MAX - 2);
	for (int i = 0; i < 4; i++) {
		spin_lock_ticket(&lock);
		spin_unlock(&lock);
		spin_lock_tas(&lock);
		spin_unlock(&lock);
		spin_lock(&lock);
		EXPECT(!spin_trylock(&lock), "a held lock was taken again "
		       "at ticket %d", atomic_read(&lock.serving));
		spin_unlock(&lock);
	}
	EXPECT(!spin_is_locked(&lock) && atomic_read(&lock.next) == INT_MIN + 9,
	       "next %d, serving %d after 12 turns from INT_MAX - 2",
	       atomic_read(&lock.next), atomic_read(&lock.serving));
	return true;
}

static atomic_t a_count;
static atomic_long_t a_sum;
static atomic_t a_cas;

static void *atomic_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ITERATIONS; i++) {
		int old;

		atomic_inc(&a_count);
		atomic_long_add_return(3, &a_sum);
		do
			old = atomic_read(&a_cas);
		while (atomic_cmpxchg(&a_cas, old, old + 1) != old);
	}
	return NULL;
}

static bool atomics_count_exactly(void)
{
	atomic_set(&a_count, 0);
	atomic_long_set(&a_sum, 0);
	atomic_set(&a_cas, 0);
	run_threads(THREADS, atomic_worker, NULL);
	EXPECT(atomic_read(&a_count) == THREADS * ITERATIONS &&
	       atomic_long_read(&a_sum) == 3L * THREADS * ITERATIONS &&
	       atomic_read(&a_cas) == THREADS * ITERATIONS,
	       "inc %d, add %ld, cmpxchg %d", atomic_read(&a_count),
	       atomic_long_read(&a_sum), atomic_read(&a_cas));
	EXPECT(atomic_xchg(&a_cas, 7) == THREADS * ITERATIONS &&
	       atomic_dec_return(&a_cas) == 6, "xchg or dec_return");
	return true;
}

/* Written by each thread in its own copy only. */
static DEFINE_PER_CPU(unsigned long, mine);

struct percpu_seen {
	pthread_barrier_t all_alive;	/* nobody exits before all looked */
	unsigned int id[THREADS];
	unsigned long *copy[THREADS];
	unsigned long first[THREADS];	/* the copy's value on first sight */
	atomic_t slot;
};

static void *percpu_worker(void *arg)
{
	struct percpu_seen *s = arg;
	int slot = atomic_fetch_add(1, &s->slot);
	unsigned int id = smp_processor_id();
	unsigned long *p = this_cpu_ptr(&mine);

	s->id[slot] = id;
	s->copy[slot] = p;
	s->first[slot] = *p;
	if (p != per_cpu_ptr(&mine, id) || *this_cpu_ptr(&cpu_number) != id ||
	    !cpu_online(id))
		s->copy[slot] = NULL;
	for (int i = 0; i < 1000; i++)
		(*this_cpu_ptr(&mine))++;
	pthread_barrier_wait(&s->all_alive);
	return NULL;
}

static bool percpu_areas_are_distinct(void)
{
	struct percpu_seen s = { .slot = ATOMIC_INIT(0) };

	smp_processor_id();	/* this thread is a CPU too */
	pthread_barrier_init(&s.all_alive, NULL, THREADS);
	run_threads(THREADS, percpu_worker, &s);
	pthread_barrier_destroy(&s.all_alive);
	EXPECT(percpu_area_size() % PERCPU_AREA_ALIGN == 0 &&
	       percpu_area_size() >= sizeof(unsigned long),
	       "area size %zu", percpu_area_size());
	for (int i = 0; i < THREADS; i++) {
		EXPECT(s.copy[i], "thread %d: its copy is not its cpu's", i);
		EXPECT(s.id[i] != smp_processor_id() && s.id[i] < NR_CPUS,
		       "thread %d has the main thread's number %u", i, s.id[i]);
		EXPECT(((uintptr_t)s.copy[i] - ((uintptr_t)&mine -
					       (uintptr_t)__per_cpu_start)) %
		       PERCPU_AREA_ALIGN == 0,
		       "cpu %u's area is not cache-line aligned", s.id[i]);
		EXPECT(*s.copy[i] == s.first[i] + 1000, "cpu %u: %lu",
		       s.id[i], *s.copy[i]);
		for (int j = 0; j < i; j++)
			EXPECT(s.id[i] != s.id[j] && s.copy[i] != s.copy[j],
			       "threads %d and %d share cpu %u", j, i,
			       s.id[i]);
	}
	return true;
}

/*
 * Before it calls in, a thread's fast-path offset is 0: the section, no
 * CPU's, where @mine reads 0 however much the CPUs have counted; after,
 * its own area's.
 */
static void *unnumbered_worker(void *arg)
{
	bool *ok = arg;
	unsigned long before = arch_percpu_offset_nocall();
	unsigned long seen = *__percpu_shift(&mine, before);
	unsigned int id = smp_processor_id();

	*ok = before == 0 && seen == 0 &&
	      arch_percpu_offset_nocall() == __per_cpu_offset[id] &&
	      __per_cpu_offset[id] != 0;
	return NULL;
}

static bool unnumbered_thread_reads_no_cpus_area(void)
{
	bool ok = false;

	(*this_cpu_ptr(&mine))++;
	run_threads(1, unnumbered_worker, &ok);
	EXPECT(ok, "a new thread's offset is not 0 before it calls in, or "
	       "not its own after");
	EXPECT(host_percpu_section_untouched(),
	       "the per-CPU section, no CPU's, was written");
	return true;
}

/*
 * Written by the hook, read by the main thread after the join. The hook
 * stays registered for the rest of the run, and every later thread's exit
 * runs it: it records only while this test watches (dead_watching, set and
 * cleared by the main thread around its own workers), so later tests'
 * threads, which exit concurrently, leave these alone.
 */
static bool dead_watching;
static unsigned int dead_cpu = ~0u;
static unsigned long dead_mine;
static bool dead_on_own_cpu;

static void cpu_dead(unsigned int cpu)
{
	if (!smp_load_acquire(&dead_watching))
		return;
	dead_cpu = cpu;
	dead_mine = *per_cpu_ptr(&mine, cpu);
	dead_on_own_cpu = smp_processor_id() == cpu && cpu_online(cpu);
}

static unsigned int thread_cpu;

static void *dying_worker(void *arg)
{
	thread_cpu = smp_processor_id();
	*this_cpu_ptr(&mine) = (unsigned long)(uintptr_t)arg;
	return NULL;
}

static bool cpu_dead_hook_runs_and_the_number_returns(void)
{
	static bool registered;
	unsigned int first;

	if (!registered)
		smp_register_cpu_dead(cpu_dead);
	registered = true;
	smp_processor_id();
	/* Only this test's one worker exits while watching: run_threads()
	 * joins it, which orders its hook's writes before the reads below. */
	smp_store_release(&dead_watching, true);
	run_threads(1, dying_worker, (void *)0x5eed);
	WRITE_ONCE(dead_watching, false);
	EXPECT(dead_cpu == thread_cpu, "the hook saw cpu %u, the thread was "
	       "cpu %u", dead_cpu, thread_cpu);
	EXPECT(dead_mine == 0x5eed && dead_on_own_cpu, "the hook ran off "
	       "its cpu (%d) or saw %#lx", dead_on_own_cpu, dead_mine);
	EXPECT(!cpu_online(thread_cpu), "cpu %u is online after its thread "
	       "exited", thread_cpu);
	first = thread_cpu;
	run_threads(1, dying_worker, (void *)0x2);
	EXPECT(thread_cpu == first, "the next thread got cpu %u, not the "
	       "free cpu %u", thread_cpu, first);
	return true;
}

/* Run @fn in a child; its status and output (stdout and stderr). */
static int in_child(void (*fn)(void), char *out, size_t size)
{
	int fd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fd))
		abort();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		host_console_capture_stop();
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (len + 1 < size && (n = read(fd[0], out + len,
					   size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define EXPECT_CHILD_PANIC(fn, needle)					\
	do {								\
		char out[1024];						\
		int st = in_child(fn, out, sizeof(out));		\
		EXPECT(st == 1 && strstr(out, "PANIC: ") &&		\
		       strstr(out, needle), "exit status %d, output "	\
		       "'%s', expected a panic saying '%s'", st,	\
		       strstr(out, "PANIC: ") ? strstr(out, "PANIC: ") + 7 \
					     : out, needle);		\
	} while (0)

static DEFINE_SPINLOCK(child_lock);

static void lock_twice(void)
{
	spin_lock(&child_lock);
	spin_lock(&child_lock);
}

static void *take_child_lock(void *arg)
{
	(void)arg;
	spin_lock(&child_lock);
	return NULL;
}

/* The lock is left held by cpu 1, whose thread then exits. */
static void unlock_anothers(void)
{
	run_threads(1, take_child_lock, NULL);
	spin_unlock(&child_lock);
}

static void unlock_free(void)
{
	spin_unlock(&child_lock);
}

static bool debug_checks_panic_with_both_cpus(void)
{
	/* The main thread is cpu 0 in the child as here. */
	smp_processor_id();
	EXPECT_CHILD_PANIC(lock_twice, "cpu 0 takes it again, and cpu 0 "
			   "holds it");
	EXPECT_CHILD_PANIC(unlock_anothers, "cpu 0 releases it, but cpu 1 "
			   "holds it");
	EXPECT_CHILD_PANIC(unlock_free, "cpu 0 releases it, but no cpu "
			   "holds it");
	return true;
}

static pthread_barrier_t crowd;

static void *crowd_worker(void *arg)
{
	(void)arg;
	smp_processor_id();
	pthread_barrier_wait(&crowd);	/* all alive at once */
	pthread_barrier_wait(&crowd);
	return NULL;
}

/* NR_CPUS - 1 threads besides this one hold every number; one more. */
static void one_thread_too_many(void)
{
	pthread_t t[NR_CPUS];

	smp_processor_id();
	pthread_barrier_init(&crowd, NULL, NR_CPUS);
	for (int i = 0; i < NR_CPUS - 1; i++)
		pthread_create(&t[i], NULL, crowd_worker, NULL);
	pthread_barrier_wait(&crowd);
	run_threads(1, dying_worker, NULL);
}

static bool more_threads_than_nr_cpus_panics(void)
{
	char want[64];

	snprintf(want, sizeof(want), "more than NR_CPUS=%d threads", NR_CPUS);
	EXPECT_CHILD_PANIC(one_thread_too_many, want);
	return true;
}

/*
 * Per-CPU requests. Each CPU owns a counter that it and its requests add
 * to with plain loads and stores: ThreadSanitizer fails the suite if a
 * request ever runs while its CPU touches the counter, and the totals
 * fail it if a request is lost or runs twice.
 */
#define REQ_ADD		1000UL
#define REQ_ROUNDS	200

static DEFINE_PER_CPU(unsigned long, owned_count);	/* its CPU's, or a request's */
static unsigned long req_local_total, req_sent_total;	/* atomics */
static bool req_stop_flag, req_busy_go;			/* atomics */
static unsigned int req_missed;				/* atomic */
static pthread_barrier_t req_start;

static void add_to_owned(unsigned int cpu, void *arg)
{
	per_cpu(owned_count, cpu) += (unsigned long)arg;
}

/* The owner's "fast path": a poll point, then plain work on its data. */
static void owner_step(void)
{
	if (smp_request_pending())
		smp_request_poll();
	(*this_cpu_ptr(&owned_count))++;
}

/* Work, go away for a moment, send requests to everyone: all at once. */
static void *request_worker(void *arg)
{
	unsigned long local = 0, sent = 0;
	uint64_t rng = (uintptr_t)arg * 2654435761u + 1;
	unsigned int cpu;

	*this_cpu_ptr(&owned_count) = 0;
	/* Every worker online before any sends: the counts below hold. */
	smp_cpu_away();
	pthread_barrier_wait(&req_start);
	smp_cpu_back();
	for (unsigned int r = 0; r < REQ_ROUNDS; r++) {
		cpumask_t all;

		for (unsigned int i = 0; i < 50; i++, local++)
			owner_step();
		rng = rng * 6364136223846793005ULL + 1;
		if (rng >> 62 == 0) {
			smp_cpu_away();
			usleep(100);
			smp_cpu_back();
		}
		cpumask_clear(&all);
		for_each_online_cpu(cpu)
			cpumask_set_cpu(cpu, &all);
		__atomic_fetch_add(&req_missed, smp_request_cpus(&all,
				   add_to_owned, (void *)REQ_ADD, NULL),
				   __ATOMIC_RELAXED);
		for_each_online_cpu(cpu)
			sent++;
	}
	/* Keep answering until every sender is done. */
	__atomic_fetch_add(&req_local_total, local, __ATOMIC_RELAXED);
	__atomic_fetch_add(&req_sent_total, sent, __ATOMIC_RELAXED);
	smp_cpu_away();
	while (!__atomic_load_n(&req_stop_flag, __ATOMIC_ACQUIRE))
		usleep(1000);
	smp_cpu_back();
	__atomic_fetch_add(&req_local_total, 0, __ATOMIC_RELAXED);
	return NULL;
}

static unsigned long owned_sum;		/* under the hook's own CPU */

static void sum_owned(unsigned int cpu)
{
	__atomic_fetch_add(&owned_sum, per_cpu(owned_count, cpu),
			   __ATOMIC_RELAXED);
}

static bool requests_run_once_everywhere(void)
{
	static bool hooked;
	pthread_t t[THREADS];

	if (!hooked)
		smp_register_cpu_dead(sum_owned);
	hooked = true;
	req_local_total = req_sent_total = owned_sum = 0;
	req_missed = 0;
	__atomic_store_n(&req_stop_flag, false, __ATOMIC_RELAXED);
	*this_cpu_ptr(&owned_count) = 0;
	pthread_barrier_init(&req_start, NULL, THREADS);
	for (uintptr_t i = 0; i < THREADS; i++)
		EXPECT(!pthread_create(&t[i], NULL, request_worker, (void *)i),
		       "thread");
	/* This CPU too gets requests: away, its senders serve them. */
	smp_cpu_away();
	/* All sent once every worker has added its totals. */
	while (__atomic_load_n(&req_sent_total, __ATOMIC_RELAXED) <
	       THREADS * REQ_ROUNDS * 2UL ||
	       __atomic_load_n(&req_local_total, __ATOMIC_RELAXED) <
	       THREADS * REQ_ROUNDS * 50UL)
		usleep(1000);
	__atomic_store_n(&req_stop_flag, true, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	smp_cpu_back();
	pthread_barrier_destroy(&req_start);
	owned_sum += *this_cpu_ptr(&owned_count);
	EXPECT(req_missed == 0, "%u requests not answered", req_missed);
	EXPECT(owned_sum == req_local_total + REQ_ADD * req_sent_total,
	       "counters %lu, expected %lu local + %lu requests", owned_sum,
	       req_local_total, req_sent_total);
	return true;
}

/* A CPU busy in a loop with no poll point: the sender gives up, says so. */
static void *busy_worker(void *arg)
{
	(void)arg;
	*this_cpu_ptr(&owned_count) = 0;
	__atomic_store_n(&req_busy_go, true, __ATOMIC_RELEASE);
	host_busy_begin();
	while (!__atomic_load_n(&req_stop_flag, __ATOMIC_ACQUIRE))
		;
	host_busy_end();
	owner_step();		/* a poll now finds the request withdrawn */
	return NULL;
}

static bool unanswered_request_times_out(void)
{
	uint64_t saved = smp_request_timeout_ns;
	cpumask_t all, missed;
	unsigned int cpu, n;
	pthread_t t;
	char want[96];

	owned_sum = 0;
	__atomic_store_n(&req_stop_flag, false, __ATOMIC_RELAXED);
	__atomic_store_n(&req_busy_go, false, __ATOMIC_RELAXED);
	EXPECT(!pthread_create(&t, NULL, busy_worker, NULL), "thread");
	while (!__atomic_load_n(&req_busy_go, __ATOMIC_ACQUIRE))
		usleep(100);
	smp_request_timeout_ns = 100 * 1000 * 1000;
	cpumask_clear(&all);
	cpumask_clear(&missed);
	for_each_online_cpu(cpu)
		cpumask_set_cpu(cpu, &all);
	console_clear();
	n = smp_request_cpus(&all, add_to_owned, (void *)REQ_ADD, &missed);
	EXPECT(n == 1, "%u CPUs did not answer, 1 expected", n);
	for (cpu = 0; cpu < NR_CPUS && !cpumask_test_cpu(cpu, &missed); cpu++)
		;
	snprintf(want, sizeof(want), "smp: cpu %u did not answer a request "
		 "within 100 ms", cpu);
	EXPECT(console_says(want), "no \"%s\"", want);
	snprintf(want, sizeof(want), "smp: cpu %u did not stop within 100 ms",
		 cpu);
	EXPECT(smp_stop_others(NULL) == 1 && console_says(want), "no \"%s\"",
	       want);
	smp_resume_others();
	smp_request_timeout_ns = saved;
	__atomic_store_n(&req_stop_flag, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	/* The busy CPU counted its one step, never the withdrawn request. */
	EXPECT(owned_sum == 1, "the busy CPU's counter is %lu, 1 expected",
	       owned_sum);
	return true;
}

/*
 * A CPU asleep in its program's own wait, which it did not say it is
 * away for: its senders hold it there and run their requests for it,
 * and a stopper holds it still (arch/host/cpu_hold.c); asleep inside one
 * of buddyboot's own blocking calls (host_blocking_begin()), it is left
 * alone and the request times out, as for a busy CPU.
 */
struct sleeper {
	pthread_barrier_t asleep, wake;
	unsigned int cpu;
	bool in_ours;
	unsigned long owned;	/* its counter at the end */
};

static void *sleep_in_barrier(void *arg)
{
	struct sleeper *sl = arg;

	*this_cpu_ptr(&owned_count) = 0;
	sl->cpu = smp_processor_id();
	if (sl->in_ours)
		host_blocking_begin();
	pthread_barrier_wait(&sl->asleep);
	pthread_barrier_wait(&sl->wake);
	if (sl->in_ours)
		host_blocking_end();
	owner_step();		/* its own step; a poll finds nothing left */
	sl->owned = *this_cpu_ptr(&owned_count);
	return NULL;
}

/* Send @sl's CPU a request and stop it, asleep; true when both missed. */
static bool ask_sleeper(struct sleeper *sl, uint64_t timeout_ns,
			unsigned int *missed, uint64_t *took)
{
	uint64_t saved = smp_request_timeout_ns, t0;
	cpumask_t one;
	pthread_t t;

	sl->owned = 0;
	pthread_barrier_init(&sl->asleep, NULL, 2);
	pthread_barrier_init(&sl->wake, NULL, 2);
	if (pthread_create(&t, NULL, sleep_in_barrier, sl))
		return false;
	pthread_barrier_wait(&sl->asleep);
	usleep(20 * 1000);	/* into the second wait */
	smp_request_timeout_ns = timeout_ns;
	cpumask_clear(&one);
	cpumask_set_cpu(sl->cpu, &one);
	t0 = arch_clock_ns();
	*missed = smp_request_cpus(&one, add_to_owned, (void *)REQ_ADD, NULL);
	*missed += smp_stop_others(NULL);
	smp_resume_others();
	*took = arch_clock_ns() - t0;
	smp_request_timeout_ns = saved;
	pthread_barrier_wait(&sl->wake);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&sl->asleep);
	pthread_barrier_destroy(&sl->wake);
	return true;
}

static bool asleep_cpu_is_held(void)
{
	struct sleeper sl = { .in_ours = false };
	unsigned int missed;
	uint64_t took;

	EXPECT(ask_sleeper(&sl, 2000ULL * 1000 * 1000, &missed, &took),
	       "thread");
	EXPECT(missed == 0, "cpu %u asleep in a barrier missed %u of a "
	       "request and a stop", sl.cpu, missed);
	EXPECT(took < 1000ULL * 1000 * 1000, "%llu ms for cpu %u asleep in a "
	       "barrier", (unsigned long long)(took / 1000000), sl.cpu);
	EXPECT(sl.owned == REQ_ADD + 1, "cpu %u's counter is %lu, %lu "
	       "expected", sl.cpu, sl.owned, REQ_ADD + 1);
	return true;
}

static bool cpu_asleep_in_ours_is_not_held(void)
{
	struct sleeper sl = { .in_ours = true };
	unsigned int missed;
	uint64_t took;

	/* Without a hold at all, nothing here could fail. */
	console_clear();
	EXPECT(ask_sleeper(&sl, 100ULL * 1000 * 1000, &missed, &took),
	       "thread");
	EXPECT(missed == 2, "cpu %u asleep in a call of buddyboot's missed "
	       "%u of a request and a stop, 2 expected", sl.cpu, missed);
	EXPECT(sl.owned == 1, "cpu %u's counter is %lu: a request ran while "
	       "it slept in a call of buddyboot's", sl.cpu, sl.owned);
	return true;
}

/* Stopped CPUs do not move: their counters read twice are equal. */
static void *stepping_worker(void *arg)
{
	(void)arg;
	*this_cpu_ptr(&owned_count) = 0;
	while (!__atomic_load_n(&req_stop_flag, __ATOMIC_ACQUIRE)) {
		owner_step();
		if ((*this_cpu_ptr(&owned_count) & 1023) == 0) {
			smp_cpu_away();
			usleep(50);
			smp_cpu_back();
		}
	}
	return NULL;
}

static bool stopped_cpus_stay_still(void)
{
	pthread_t t[4];
	unsigned int cpu;

	owned_sum = 0;
	__atomic_store_n(&req_stop_flag, false, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < 4; i++)
		EXPECT(!pthread_create(&t[i], NULL, stepping_worker, NULL),
		       "thread");
	for (unsigned int round = 0; round < 50; round++) {
		unsigned long a = 0, b = 0;
		cpumask_t stopped;

		usleep(200);
		EXPECT(smp_stop_others(&stopped) == 0, "a CPU did not stop");
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (cpumask_test_cpu(cpu, &stopped))
				a += per_cpu(owned_count, cpu);
		usleep(200);
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (cpumask_test_cpu(cpu, &stopped))
				b += per_cpu(owned_count, cpu);
		smp_resume_others();
		EXPECT(a == b, "round %u: counters moved while stopped", round);
	}
	__atomic_store_n(&req_stop_flag, true, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return true;
}

/*
 * smp_on_request_posted(): the hooks run on the sender, once per request
 * posted to another CPU, in the order given. Only the test's own hooks
 * are given (this suite links no allocator): the registry is empty
 * before, and the panic of a fifth runs in a child.
 */
static unsigned int posted_calls[2], posted_cpu[2], posted_seq;	/* sender's */
static bool posted_worker_go, posted_worker_stop;			/* atomics */

static void posted_first(unsigned int cpu)
{
	posted_calls[0]++;
	posted_cpu[0] = cpu;
	posted_seq = posted_seq * 10 + 1;
}

static void posted_second(unsigned int cpu)
{
	posted_calls[1]++;
	posted_cpu[1] = cpu;
	posted_seq = posted_seq * 10 + 2;
}

static void posted_third(unsigned int cpu)
{
	(void)cpu;
}

static void posted_fourth(unsigned int cpu)
{
	(void)cpu;
}

static void posted_fifth(unsigned int cpu)
{
	(void)cpu;
}

static unsigned int posted_worker_cpu;

/* A CPU that is away: its requests run on the sender. */
static void *posted_worker(void *arg)
{
	(void)arg;
	posted_worker_cpu = smp_processor_id();
	smp_cpu_away();
	__atomic_store_n(&posted_worker_go, true, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&posted_worker_stop, __ATOMIC_ACQUIRE))
		usleep(100);
	smp_cpu_back();
	return NULL;
}

static void five_posted_hooks(void)
{
	smp_on_request_posted(posted_first);
	smp_on_request_posted(posted_second);
	smp_on_request_posted(posted_third);
	smp_on_request_posted(posted_fourth);
	smp_on_request_posted(posted_fifth);
}

static bool request_posted_hooks_run_in_order(void)
{
	cpumask_t one;
	pthread_t t;
	unsigned int n;

	EXPECT_CHILD_PANIC(five_posted_hooks, "more than 4 functions for "
			   "smp_on_request_posted()");
	smp_on_request_posted(posted_first);
	smp_on_request_posted(posted_second);
	smp_on_request_posted(posted_first);	/* again: nothing added */
	__atomic_store_n(&posted_worker_go, false, __ATOMIC_RELAXED);
	__atomic_store_n(&posted_worker_stop, false, __ATOMIC_RELAXED);
	EXPECT(!pthread_create(&t, NULL, posted_worker, NULL), "thread");
	while (!__atomic_load_n(&posted_worker_go, __ATOMIC_ACQUIRE))
		usleep(100);
	cpumask_clear(&one);
	cpumask_set_cpu(posted_worker_cpu, &one);
	n = smp_request_cpus(&one, add_to_owned, (void *)0, NULL);
	/* This CPU alone: posted to nobody, so no hook runs. */
	cpumask_clear(&one);
	cpumask_set_cpu(smp_processor_id(), &one);
	n += smp_request_cpus(&one, add_to_owned, (void *)0, NULL);
	__atomic_store_n(&posted_worker_stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	EXPECT(n == 0, "%u CPUs did not answer", n);
	EXPECT(posted_calls[0] == 1 && posted_calls[1] == 1,
	       "hooks ran %u and %u times, once each expected",
	       posted_calls[0], posted_calls[1]);
	EXPECT(posted_seq == 12, "hooks ran in the order %u, 12 expected",
	       posted_seq);
	EXPECT(posted_cpu[0] == posted_worker_cpu &&
	       posted_cpu[1] == posted_worker_cpu,
	       "hooks were given cpus %u and %u, cpu %u expected",
	       posted_cpu[0], posted_cpu[1], posted_worker_cpu);
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(spinlock_counts_exactly),
	HOST_TEST(spinlock_waits_both_ways),
	HOST_TEST(tickets_wrap),
	HOST_TEST(atomics_count_exactly),
	HOST_TEST(percpu_areas_are_distinct),
	HOST_TEST(unnumbered_thread_reads_no_cpus_area),
	HOST_TEST(cpu_dead_hook_runs_and_the_number_returns),
	HOST_TEST(debug_checks_panic_with_both_cpus),
	HOST_TEST(more_threads_than_nr_cpus_panics),
	HOST_TEST(requests_run_once_everywhere),
	HOST_TEST(unanswered_request_times_out),
	HOST_TEST(asleep_cpu_is_held),
	HOST_TEST(cpu_asleep_in_ours_is_not_held),
	HOST_TEST(stopped_cpus_stay_still),
	HOST_TEST(request_posted_hooks_run_in_order),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
