/*
 * small.c - small objects: buddyboot's kmalloc()/kfree() against malloc()/
 * free() of glibc, jemalloc and mimalloc (mi_malloc/mi_free), from the same
 * code (bench_malloc/bench_mfree in each adapter).
 *
 *   kpair      a malloc+free pair of one size, over and over, for each size
 *              8, 16, ... 4096 (order=n: only 8 << n, which may pass
 *              PAGE_SIZE: the large blocks): ns per pair
 *   workload   work=NAME threads=T: the mimalloc-bench workloads that need
 *              no third-party program, rewritten on bench_malloc/bench_mfree:
 *       larson         server churn: each thread replaces random slots of
 *                      its array with new objects of 16..512 bytes; after
 *                      every round the arrays move to the next thread, so
 *                      most frees are of another thread's objects
 *       xmalloc        Lever and Boreham's xmalloc-test: producers fill
 *                      batches of 4096 objects of 16..256 bytes and hand
 *                      each whole batch, under a mutex, to a bag that
 *                      consumers empty a batch at a time, freeing every
 *                      object: every free remote
 *       alloc-test     each thread keeps a window of 1000 objects of 8..1024
 *                      bytes, freeing and allocating at random positions
 *       cache-scratch  each thread frees an object the main thread gave it,
 *                      then allocates 8-byte objects and writes them many
 *                      times (passive false sharing shows as slowness)
 *       glibc-simple   glibc's bench-malloc-simple: 100 objects of one
 *                      size allocated then freed, for sizes 16, 128, 1024
 *       mstress        mimalloc's stress test, smaller: threads keep 500
 *                      live objects of mostly small and sometimes large
 *                      sizes, and trade some through a shared array
 *              Emits the wall time (ms); with memory=1, the peak memory
 *              instead: for buddyboot, pages taken from its buddy allocator
 *              (sampled) and the peak RSS added; for the others, the peak
 *              RSS added (VmHWM). The sampler is a third thread on the
 *              workload's cores, so a run that samples is not timed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "adapter.h"

/* ---- kpair ---------------------------------------------------------- */

int bench_kpair(const struct bench_opts *o)
{
	unsigned int lo = o->order < 0 ? 0 : (unsigned int)o->order;
	unsigned int hi = o->order < 0 ? 9 : lo;

	/* 8 << hi must be a size_t: 8 is 2^3. */
	if (hi >= sizeof(size_t) * 8 - 3)
		bench_die("kpair: order=%u: 8 << order bytes is no size", hi);
	bench_fresh_heap(1UL << 14);
	for (unsigned int k = lo; k <= hi; k++) {
		size_t size = 8UL << k;
		void *first = bench_malloc(size);

		/* Every pair must allocate: a NULL would time nothing. */
		if (!first)
			bench_die("kpair: %zu bytes: the allocator has none", size);
		bench_mfree(first);
		for (unsigned int rep = 0; rep <= o->reps; rep++) {
			uint64_t t0 = bench_now_ns();

			for (unsigned long i = 0; i < o->iters; i++) {
				void *p = bench_malloc(size);

				bench_keep(p);
				bench_mfree(p);
			}
			if (rep)
				bench_emit("kpair", "size", (int)size, "pair_ns", rep,
					   (double)(bench_now_ns() - t0) /
						   (double)o->iters);
		}
	}
	return 0;
}

/* ---- workloads ------------------------------------------------------ */

/*
 * xmalloc-test's batch, and its bag, where a producer waits while it is
 * full: one batch, not its 100, so that what is in flight (at most three
 * batches: one being filled, the bag's, one being freed; about 2 MiB)
 * stays far below the heap, and the peak memory measures allocators more
 * than how far ahead the producer ran.
 */
#define XBATCH_OBJECTS	4096
#define XBAG_BATCHES	1

struct xbatch {
	unsigned int n;
	void *objects[XBATCH_OBJECTS];
};

struct work {
	const struct bench_opts *o;
	unsigned int threads;
	pthread_barrier_t start;
	/* larson: the arrays, handed round; mstress: the trade slots. */
	void **arrays[64];
	void *trade[1024];
	/* xmalloc: the bag of full batches, producers to consumers. */
	pthread_mutex_t lock;
	pthread_cond_t bag_nonempty, bag_nonfull;
	struct xbatch *bag[XBAG_BATCHES];
	unsigned int in_bag, producers_done;
	/* cache-scratch: one object per thread from the main thread. */
	void *given[64];
};

static struct work W;

#define LARSON_SLOTS	1000

static uint64_t seed_of(unsigned int t)
{
	return W.o->seed * 0x9e3779b97f4a7c15ULL + t;
}

static void touch(void *p, size_t size)
{
	memset(p, 0xa5, size < 64 ? size : 64);
}

static void *larson(unsigned int t)
{
	uint64_t rng = seed_of(t);
	unsigned long per = W.o->iters / W.threads;

	for (unsigned int round = 0; round < 10; round++) {
		void **a = W.arrays[(t + round) % W.threads];

		for (unsigned long i = 0; i < per / 10; i++) {
			unsigned int s = bench_rand(&rng) % LARSON_SLOTS;
			size_t size = 16 + bench_rand(&rng) % 497;

			bench_mfree(a[s]);
			a[s] = bench_malloc(size);
			touch(a[s], size);
		}
		pthread_barrier_wait(&W.start);
	}
	return NULL;
}

static void xmalloc_free_batch(struct xbatch *b)
{
	for (unsigned int i = 0; i < b->n; i++)
		bench_mfree(b->objects[i]);
	free(b);
}

/*
 * A producer (even @t) allocates W.o->iters / threads * 2 objects in
 * batches, a consumer (odd @t) frees whole batches until every producer
 * is done and the bag is empty. Alone, the one thread frees each batch
 * it made. The batches themselves are the harness's (malloc), as the
 * bag is: only the objects are the allocator's under test.
 */
static void *xmalloc(unsigned int t)
{
	uint64_t rng = seed_of(t);
	unsigned long per = W.o->iters / W.threads * 2;
	unsigned int producers = (W.threads + 1) / 2;

	if (t % 2 == 0 || W.threads == 1) {
		for (unsigned long done = 0; done < per;) {
			struct xbatch *b = malloc(sizeof(*b));

			if (!b)
				bench_die("xmalloc: no memory for a batch");
			for (b->n = 0; b->n < XBATCH_OBJECTS && done < per; done++) {
				size_t size = 16 + bench_rand(&rng) % 241;

				b->objects[b->n] = bench_malloc(size);
				touch(b->objects[b->n++], size);
			}
			if (W.threads == 1) {
				xmalloc_free_batch(b);
				continue;
			}
			pthread_mutex_lock(&W.lock);
			while (W.in_bag == XBAG_BATCHES)
				pthread_cond_wait(&W.bag_nonfull, &W.lock);
			W.bag[W.in_bag++] = b;
			pthread_cond_signal(&W.bag_nonempty);
			pthread_mutex_unlock(&W.lock);
		}
		pthread_mutex_lock(&W.lock);
		W.producers_done++;
		pthread_cond_broadcast(&W.bag_nonempty);
		pthread_mutex_unlock(&W.lock);
		return NULL;
	}
	for (;;) {
		struct xbatch *b;

		pthread_mutex_lock(&W.lock);
		while (!W.in_bag && W.producers_done < producers)
			pthread_cond_wait(&W.bag_nonempty, &W.lock);
		if (!W.in_bag) {
			pthread_mutex_unlock(&W.lock);
			return NULL;
		}
		b = W.bag[--W.in_bag];
		pthread_cond_signal(&W.bag_nonfull);
		pthread_mutex_unlock(&W.lock);
		xmalloc_free_batch(b);
	}
}

static void *alloc_test(unsigned int t)
{
	uint64_t rng = seed_of(t);
	void *win[1000] = { NULL };
	unsigned long per = W.o->iters / W.threads;

	for (unsigned long i = 0; i < per; i++) {
		unsigned int s = bench_rand(&rng) % 1000;
		size_t size = 8 + bench_rand(&rng) % 1017;

		bench_mfree(win[s]);
		win[s] = bench_malloc(size);
		touch(win[s], size);
	}
	for (unsigned int s = 0; s < 1000; s++)
		bench_mfree(win[s]);
	return NULL;
}

/* Its time is mostly the inner loop: see -falign-loops in mk/bench.mk. */
static void *cache_scratch(unsigned int t)
{
	unsigned long per = W.o->iters / W.threads / 10;

	bench_mfree(W.given[t]);
	for (unsigned long i = 0; i < per; i++) {
		volatile char *p = bench_malloc(8);

		for (int j = 0; j < 50; j++)
			for (int k = 0; k < 8; k++)
				p[k] = (char)(p[k] + 1);
		bench_mfree((void *)p);
	}
	return NULL;
}

static void *glibc_simple(unsigned int t)
{
	static const size_t sizes[] = { 16, 128, 1024 };
	void *p[100];

	(void)t;
	for (unsigned int s = 0; s < 3; s++)
		for (unsigned long r = 0; r < W.o->iters / W.threads / 300; r++) {
			for (int i = 0; i < 100; i++)
				p[i] = bench_malloc(sizes[s]);
			for (int i = 0; i < 100; i++)
				bench_mfree(p[i]);
		}
	return NULL;
}

static size_t mstress_size(uint64_t *rng)
{
	uint64_t r = bench_rand(rng);

	if (r % 100 == 0)
		return 4096 + r % (60 * 1024);	/* the odd large one */
	return 8 + (r >> 8) % (r % 4 ? 120 : 1000);
}

static void *mstress(unsigned int t)
{
	uint64_t rng = seed_of(t);
	void *live[500] = { NULL };
	unsigned long per = W.o->iters / W.threads;

	for (unsigned long i = 0; i < per; i++) {
		unsigned int s = bench_rand(&rng) % 500;
		size_t size = mstress_size(&rng);

		if (bench_rand(&rng) % 10 == 0) {
			void *old = __atomic_exchange_n(&W.trade[bench_rand(&rng) % 1024],
							live[s], __ATOMIC_ACQ_REL);

			live[s] = old;
			continue;
		}
		bench_mfree(live[s]);
		live[s] = bench_malloc(size);
		touch(live[s], size);
	}
	for (unsigned int s = 0; s < 500; s++)
		bench_mfree(live[s]);
	return NULL;
}

static const struct {
	const char *name;
	void *(*fn)(unsigned int t);
} works[] = {
	{ "larson", larson }, { "xmalloc", xmalloc },
	{ "alloc-test", alloc_test }, { "cache-scratch", cache_scratch },
	{ "glibc-simple", glibc_simple }, { "mstress", mstress },
};

static void *(*work_fn)(unsigned int t);

static void *thread_main(void *arg)
{
	return work_fn((unsigned int)(uintptr_t)arg);
}

/* "VmHWM:" or "VmRSS:" of this process, in KiB. */
static unsigned long status_kib(const char *key)
{
	unsigned long kib = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			kib = strtoul(line + strlen(key), NULL, 10);
	fclose(f);
	return kib;
}

/*
 * Peak pages kmalloc's slabs and large blocks hold, sampled while the work
 * runs (memory=1 only: a thread that wakes every 100 µs takes turns on the
 * workload's cores, and would slow the workload it measures). Its own
 * count, not the page allocator's free pages: those move between the
 * per-CPU lists and the free lists in batches, and a sample taken across
 * such a move would be off by the batch.
 */
static volatile int sampling;
static long pages_base, pages_high;

static void *sampler(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&sampling, __ATOMIC_ACQUIRE)) {
		long n = bench_allocator.object_pages();

		if (n > pages_high)
			pages_high = n;
		usleep(100);
	}
	return NULL;
}

int bench_workload(const struct bench_opts *o)
{
	unsigned int n = o->threads ? o->threads : 2;
	pthread_t t[64], mon;
	unsigned long rss0;
	uint64_t t0, t1;
	bool sample;
	size_t k;

	if (n > 64)
		bench_die("workload: at most 64 threads");
	for (k = 0; k < sizeof(works) / sizeof(works[0]); k++)
		if (!strcmp(o->work, works[k].name))
			break;
	if (k == sizeof(works) / sizeof(works[0]))
		bench_die("workload: unknown work=%s", o->work);
	bench_unpin();
	bench_fresh_heap(1UL << 16);
	memset(&W, 0, sizeof(W));
	W.o = o;
	W.threads = n;
	pthread_mutex_init(&W.lock, NULL);
	pthread_cond_init(&W.bag_nonempty, NULL);
	pthread_cond_init(&W.bag_nonfull, NULL);
	pthread_barrier_init(&W.start, NULL, n);
	work_fn = works[k].fn;
	for (unsigned int i = 0; i < n; i++) {
		W.arrays[i] = calloc(LARSON_SLOTS, sizeof(void *));
		W.given[i] = bench_malloc(8);
	}
	/*
	 * Both baselines after the same set-up: the peers' RSS counts from
	 * here (their start-up and these first objects before it), and so
	 * do the pages buddyboot's kmalloc takes (its slab table, made by
	 * the first kmalloc, and these objects' slab before it).
	 */
	sample = o->memory && bench_allocator.object_pages;
	if (sample)
		pages_base = pages_high = bench_allocator.object_pages();
	rss0 = status_kib("VmRSS:");
	sampling = 1;
	if (sample)
		pthread_create(&mon, NULL, sampler, NULL);
	t0 = bench_now_ns();
	for (unsigned int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(uintptr_t)i);
	for (unsigned int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	t1 = bench_now_ns();
	__atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);
	if (sample)
		pthread_join(mon, NULL);
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int s = 0; s < LARSON_SLOTS; s++)
			bench_mfree(W.arrays[i][s]);
		free(W.arrays[i]);
	}
	for (unsigned int i = 0; i < 1024; i++)
		bench_mfree(W.trade[i]);
	if (work_fn != cache_scratch)
		for (unsigned int i = 0; i < n; i++)
			bench_mfree(W.given[i]);
	if (!o->memory)
		bench_emit("workload", o->work, (int)n, "time_ms", 1,
			   (double)(t1 - t0) / 1e6);
	else
		bench_emit("workload", o->work, (int)n, "peak_rss_kib", 1,
			   (double)(status_kib("VmHWM:") - rss0));
	if (sample)
		bench_emit("workload", o->work, (int)n, "peak_pages_kib", 1,
			   (double)(pages_high - pages_base) * BENCH_PAGE_SIZE / 1024);
	return 0;
}
