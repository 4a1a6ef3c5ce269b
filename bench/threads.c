/*
 * threads.c - the allocators on several threads at once, and (buddyboot
 * only) how often its zone lock is taken.
 *
 *   threads   @threads threads (threads=N), each doing @iters alloc+free
 *             pairs of @order at once, from a common start: variant
 *             "pairN". With cross=1, thread i allocates and hands each
 *             block to thread i+1 (mod N) through a ring (RING blocks in
 *             flight, each side's index published once per burst), which
 *             frees it: variant "crossN", every free a remote one. Emitted: ns per
 *             pair as each thread sees it (the slowest thread's time over
 *             its pairs), so per-thread throughput at N threads compares
 *             directly with 1; and "cpu_ns", the same with the thread's
 *             CPU time (CLOCK_THREAD_CPUTIME_ID), which leaves out the
 *             time a thread waited for a core. The process is unpinned
 *             first, and the host's scheduler places the threads; with
 *             pin=same every thread runs on the process's first CPU,
 *             with pin=apart thread i on the i-th CPU (wrapping), so
 *             that where the threads run is the run's choice, not the
 *             scheduler's (the variant gains "-same" or "-apart").
 *             With control=1, no allocator: each thread does the shape
 *             of a per-CPU order-0 pair (pop a slot of a 64-slot array
 *             under a count and a limit, write a state byte; check the
 *             byte, push the slot back, write it again) on memory of its
 *             own page only: variant "controlN", what N threads cost on
 *             this machine when they share nothing. With control=1 and
 *             cross=1, the ring alone: tokens instead of blocks, no
 *             allocator, variant "crossctlN", what the hand-off itself
 *             costs.
 *   zonelock  buddyboot only: a steady state of order-0 allocations and
 *             frees at random over @blocks slots, after a warm-up of as
 *             many operations; emitted: zone-lock acquisitions per 1000
 *             operations (metric "per_1000"), and the batch.
 *
 * For buddyboot every thread is a CPU with its own per-CPU lists.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "adapter.h"

#define RING	256		/* blocks in flight between two threads */
#define BURST	16		/* blocks made between two publications */

/*
 * One producer, one consumer. Each index has a line of its own, and each
 * side publishes its index once per burst of slots, not per slot: an
 * index store moves its line to the other core, and that should cost a
 * burst once, not each block.
 */
struct ring {
	void *slot[RING];
	/* Written by the producer (release), read by the consumer. */
	unsigned long head __attribute__((aligned(64)));
	/* Written by the consumer (release), read by the producer. */
	unsigned long tail __attribute__((aligned(64)));
} __attribute__((aligned(64)));

struct tctx {
	const struct bench_opts *o;
	unsigned int id, n;
	struct ring *rings;	/* [n]: ring i is consumed by thread i */
	pthread_barrier_t *start;
	uint64_t ns, cpu_ns;	/* wall and thread CPU time of the loop */
} __attribute__((aligned(64)));

/* control=1: a thread's private "list" and "state byte", a page each. */
struct control {
	unsigned long nr, limit;
	uintptr_t slot[64];
	uint8_t state __attribute__((aligned(64)));
} __attribute__((aligned(4096)));

static void *must(void *p, unsigned int order)
{
	if (!p)
		bench_die("threads: out of memory at order %u", order);
	bench_keep(p);
	return p;
}

static void pairs(struct tctx *t, unsigned int order)
{
	for (unsigned long i = 0; i < t->o->iters; i++)
		bench_free(must(bench_alloc(order), order), order);
}

/* The control loop: a pair's loads and stores, on this thread's page. */
static void control(struct tctx *t)
{
	struct control *c = aligned_alloc(4096, sizeof(*c));

	if (!c)
		bench_die("threads: out of memory for the control");
	memset(c, 0, sizeof(*c));
	c->limit = 64;
	c->nr = 32;
	for (unsigned long i = 0; i < 64; i++)
		c->slot[i] = i + 1;
	for (unsigned long i = 0; i < t->o->iters; i++) {
		unsigned long n = c->nr - 1;
		uintptr_t v;

		if (n >= __atomic_load_n(&c->limit, __ATOMIC_RELAXED))
			bench_die("threads: control list empty");
		v = c->slot[n];
		__atomic_store_n(&c->nr, n, __ATOMIC_RELAXED);
		__atomic_store_n(&c->state, 0x80, __ATOMIC_RELAXED);
		bench_keep((void *)v);
		n = c->nr;
		if (n >= __atomic_load_n(&c->limit, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&c->state, __ATOMIC_RELAXED) != 0x80)
			bench_die("threads: control list full");
		c->slot[n] = v;
		__atomic_store_n(&c->nr, n + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&c->state, 0x50, __ATOMIC_RELAXED);
	}
	free(c);
}

/* Produce @iters blocks for the next thread, free what the previous sends. */
static void cross(struct tctx *t, unsigned int order)
{
	struct ring *out = &t->rings[(t->id + 1) % t->n];
	struct ring *in = &t->rings[t->id];
	unsigned long made = 0, freed = 0, iters = t->o->iters;
	/* The producer's own copy of its head, and its last view of tail. */
	unsigned long head = 0, tail = 0;

	while (made < iters || freed < iters) {
		unsigned long h = __atomic_load_n(&in->head, __ATOMIC_ACQUIRE);
		unsigned long progress = made + freed, k = in->tail;

		for (; k != h; k++, freed++)
			if (!t->o->control)
				bench_free(in->slot[k % RING], order);
		/* Release: the slots are read before the producer reuses them. */
		if (freed + made != progress)
			__atomic_store_n(&in->tail, k, __ATOMIC_RELEASE);
		/* A stale tail only makes the ring look fuller: look again then. */
		if (head - tail > RING - BURST)
			tail = __atomic_load_n(&out->tail, __ATOMIC_ACQUIRE);
		for (int b = 0; b < BURST && made < iters && head - tail < RING;
		     b++, head++, made++)
			out->slot[head % RING] = t->o->control ?
				(void *)(uintptr_t)(made + 1) :
				must(bench_alloc(order), order);
		/* Release: the slots are written before the consumer reads them. */
		if (head != __atomic_load_n(&out->head, __ATOMIC_RELAXED))
			__atomic_store_n(&out->head, head, __ATOMIC_RELEASE);
		/* Nothing to do until the other thread runs: let it. */
		if (made + freed == progress)
			sched_yield();
	}
}

/* pin=same or pin=apart: this thread's CPU, of those the process may use. */
static void pin_thread(const struct tctx *t)
{
	cpu_set_t allowed, one;
	unsigned int nth = t->o->pin == BENCH_PIN_APART ? t->id : 0;
	int cpu;

	if (t->o->pin == BENCH_PIN_NONE)
		return;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		bench_die("threads: sched_getaffinity: %s", strerror(errno));
	nth %= (unsigned int)CPU_COUNT(&allowed);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed) && !nth--)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		bench_die("threads: cannot pin thread %u to CPU %d: %s", t->id,
			  cpu, strerror(errno));
}

static void *thread_main(void *arg)
{
	struct tctx *t = arg;
	unsigned int order = (unsigned int)t->o->order;
	struct timespec c0, c1;
	uint64_t t0;

	pin_thread(t);
	pthread_barrier_wait(t->start);
	t0 = bench_now_ns();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	if (t->o->cross)
		cross(t, order);
	else if (t->o->control)
		control(t);
	else
		pairs(t, order);
	t->ns = bench_now_ns() - t0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	t->cpu_ns = (uint64_t)(c1.tv_sec - c0.tv_sec) * 1000000000u +
		    (uint64_t)c1.tv_nsec - (uint64_t)c0.tv_nsec;
	return NULL;
}

int bench_threads(const struct bench_opts *o)
{
	unsigned int n = o->threads;
	struct tctx *t = calloc(n, sizeof(*t));
	pthread_t *th = calloc(n, sizeof(*th));
	struct ring *rings = aligned_alloc(64, n * sizeof(struct ring));
	pthread_barrier_t start;
	char variant[32];
	long base;

	if (!n || o->order < 0 || !t || !th || !rings)
		bench_die("threads: threads=N (N >= 1) and order=n are needed");
	if (o->cross && n < 2)
		bench_die("threads: cross=1 needs two threads at least");
	snprintf(variant, sizeof(variant), "%s%u%s",
		 o->cross ? (o->control ? "crossctl" : "cross") :
		 o->control ? "control" : "pair", n,
		 o->pin == BENCH_PIN_SAME ? "-same" :
		 o->pin == BENCH_PIN_APART ? "-apart" : "");
	/* Each thread may have a core of its own, as a CPU does. */
	bench_unpin();
	base = bench_fresh_heap((unsigned long)n * RING * 2 << o->order);
	for (unsigned int rep = 0; rep <= o->reps; rep++) {
		uint64_t slowest = 0, slowest_cpu = 0;

		memset(rings, 0, n * sizeof(struct ring));
		pthread_barrier_init(&start, NULL, n);
		for (unsigned int i = 0; i < n; i++) {
			t[i] = (struct tctx){ .o = o, .id = i, .n = n,
					      .rings = rings, .start = &start };
			if (pthread_create(&th[i], NULL, thread_main, &t[i]))
				bench_die("threads: cannot start thread %u", i);
		}
		for (unsigned int i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			if (t[i].ns > slowest)
				slowest = t[i].ns;
			if (t[i].cpu_ns > slowest_cpu)
				slowest_cpu = t[i].cpu_ns;
		}
		pthread_barrier_destroy(&start);
		if (!rep)
			continue;
		bench_emit("threads", variant, o->order, "pair_ns", rep,
			   (double)slowest / (double)o->iters);
		bench_emit("threads", variant, o->order, "cpu_ns", rep,
			   (double)slowest_cpu / (double)o->iters);
	}
	bench_check_restored(base, "threads", o->order);
	free(t);
	free(th);
	free(rings);
	return 0;
}

int bench_zonelock(const struct bench_opts *o)
{
	void **slot = calloc(o->blocks, sizeof(*slot));
	uint64_t rng = o->seed;
	unsigned long before = 0;
	long base;

	if (!bench_allocator.lock_count || !bench_allocator.cache_batch || !slot)
		bench_die("zonelock: only buddyboot counts its zone lock");
	base = bench_fresh_heap(o->blocks * 2);
	for (unsigned int rep = 0; rep <= o->reps; rep++) {
		/* The first pass is the warm-up that reaches the steady state. */
		before = bench_allocator.lock_count();
		for (unsigned long i = 0; i < o->iters; i++) {
			unsigned long k = bench_rand(&rng) % o->blocks;

			if (slot[k]) {
				bench_free(slot[k], 0);
				slot[k] = NULL;
			} else {
				slot[k] = must(bench_alloc(0), 0);
			}
		}
		if (!rep)
			continue;
		bench_emit("zonelock", "steady", 0, "per_1000", rep,
			   1000.0 * (double)(bench_allocator.lock_count() -
					     before) / (double)o->iters);
		bench_emit("zonelock", "steady", 0, "batch", rep,
			   (double)bench_allocator.cache_batch());
	}
	for (unsigned long k = 0; k < o->blocks; k++)
		if (slot[k])
			bench_free(slot[k], 0);
	bench_check_restored(base, "zonelock", 0);
	free(slot);
	return 0;
}
