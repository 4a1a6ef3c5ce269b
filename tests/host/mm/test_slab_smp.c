/*
 * test_slab_smp.c - kmalloc and kmem_cache on many CPUs at once: every
 * host thread is a CPU. Built under ThreadSanitizer (a data race fails
 * the suite) and under ASan and UBSan.
 *
 *   cross_cpu_churn      N threads allocate objects of every class and of
 *                        a shared cache, write each with a pattern of its
 *                        own, and swap them through a shared table, so
 *                        that most objects are freed by another CPU than
 *                        the one that allocated them. An atomic ownership
 *                        bitmap (one bit per 8 bytes of the bank) fails
 *                        the run at once if an object is handed out while
 *                        another holder still has it.
 *   threads_come_and_go  rounds of short-lived threads: each exit runs the
 *                        cpu-dead hook, whose CPU number the next thread
 *                        reuses; the slabs they held go to the shared lists
 *   producer_consumer    one thread allocates, the others free everything
 *                        (every free remote): empty slabs still go back
 *   check_while_churning slab_check() and show_slabinfo() over and over
 *                        while 6 threads churn: each holds the others
 *                        still and finds nothing wrong
 *   others_empty_slabs_on_exhaustion  a CPU that made and freed objects
 *                        keeps empty slabs; while it waits away, this CPU
 *                        exhausts memory, which takes them back
 *   remote_free_in_flight_keeps_the_slab  a remote free has set its bit
 *                        but not yet counted itself: its slab, empty once
 *                        the bit is taken back, is neither given back nor
 *                        made the spare (by a shrink, or by its CPU going
 *                        away) until the count lands
 *   full_slab_waits_for_its_share  a slab its owner let go full goes back
 *                        on the partial list at its full_relist-th remote
 *                        free, not before; one with fewer is listed when
 *                        the page allocator is exhausted, and its free
 *                        object is handed out
 *   fast_path_answers_requests  a CPU that only runs kmalloc() and kfree()
 *                        pairs inline answers a request in time: the
 *                        sender closes its gate
 *   no_cpus_area_stays_zero  after all those threads' first kmalloc() and
 *                        kfree() on the per-CPU section (no CPU's), it
 *                        is still all zero
 * Each ends with every object freed, kmem_cache_shrink_all(), and the
 * free page count, page_alloc_check() and slab_check() as before.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arch/smp.h>
#include "machine.h"
#include "../../../mm/slab_state.h"

const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:exitcode=66";
}

#define BANK_MIB	64
#define TABLE		4096

static char *bank;
static uint64_t *owned;			/* one bit per 8 bytes of the bank */
static int failed;			/* atomic: the first failure's line */
static void *table[TABLE];		/* atomic exchange only */
static struct kmem_cache *shared;
/* ThreadSanitizer runs several times slower: fewer operations there. */
#ifdef __SANITIZE_THREAD__
static unsigned long ops_per_thread = 8000;
#else
static unsigned long ops_per_thread = 40000;
#endif

static void fail_at(int line)
{
	int zero = 0;

	__atomic_compare_exchange_n(&failed, &zero, line, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

#define CHECK(cond) do { if (!(cond)) { fail_at(__LINE__); return NULL; } } while (0)

/* The bank handed off, the slab allocator not set up yet. */
static bool machine_fresh(void)
{
	machine_map(4 * SZ_1G);
	bank = phys_to_virt(2 * SZ_1G);
	EXPECT(memblock_add(2 * SZ_1G, BANK_MIB * SZ_1M) == 0, "bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	owned = calloc(BANK_MIB * SZ_1M / 8 / 64, sizeof(uint64_t));
	memset(table, 0, sizeof(table));
	failed = 0;
	return owned != NULL;
}

static bool machine(void)
{
	if (!machine_fresh())
		return false;
	kmem_cache_init();	/* the slab table, kept */
	return true;
}

/* Object header: its size and a seed; the rest a pattern of both. */
struct obj {
	uint32_t size;
	uint32_t seed;
	unsigned char bytes[];
};

static bool own(void *p, bool take)
{
	unsigned long bit = (unsigned long)((char *)p - bank) / 8;
	uint64_t mask = 1ULL << (bit % 64), old;

	if (take)
		old = __atomic_fetch_or(&owned[bit / 64], mask, __ATOMIC_SEQ_CST);
	else
		old = ~__atomic_fetch_and(&owned[bit / 64], ~mask, __ATOMIC_SEQ_CST);
	return !(old & mask);
}

static struct obj *make(uint64_t *rng)
{
	unsigned int r;
	struct obj *o;
	uint32_t size;

	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	r = (unsigned int)(*rng >> 33);
	if (r % 8 == 0) {
		o = kmem_cache_alloc(shared, GFP_KERNEL);
		size = 72;
	} else {
		size = 8 + (r >> 4) % (8U << (r % 9));
		if (size > KMALLOC_MAX_CACHE_SIZE + 100)
			size = 16;
		o = kmalloc(size, GFP_KERNEL);
	}
	if (!o)
		return NULL;
	if (!own(o, true))
		return (struct obj *)1;		/* handed out twice */
	o->size = size;
	o->seed = r;
	memset(o->bytes, (int)(r & 0xff), size - 8);
	return o;
}

static bool release(struct obj *o)
{
	for (uint32_t i = 0; i < o->size - 8; i++)
		if (o->bytes[i] != (unsigned char)(o->seed & 0xff))
			return false;
	if (!own(o, false))
		return false;
	if (o->size == 72 && ksize(o) == 72)
		kmem_cache_free(shared, o);
	else
		kfree(o);
	return true;
}

static void *churn_worker(void *arg)
{
	uint64_t rng = (uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;

	for (unsigned long i = 0; i < ops_per_thread && !__atomic_load_n(&failed, __ATOMIC_RELAXED); i++) {
		struct obj *o = make(&rng), *old;

		CHECK(o && o != (struct obj *)1);
		old = __atomic_exchange_n(&table[(rng >> 20) % TABLE], o,
					  __ATOMIC_SEQ_CST);
		if (old)
			CHECK(release(old));
	}
	return NULL;
}

static void run_threads(unsigned int n, void *(*fn)(void *))
{
	pthread_t t[64];

	for (unsigned int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)(uintptr_t)(i + 1)))
			abort();
	for (unsigned int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static bool drain_and_check(unsigned long free_before)
{
	for (unsigned int i = 0; i < TABLE; i++)
		if (table[i]) {
			EXPECT(release(table[i]), "table object %u", i);
			table[i] = NULL;
		}
	kmem_cache_destroy(shared);
	free(owned);
	return slab_given_back(free_before);
}

static bool cross_cpu_churn(void)
{
	unsigned long before;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("smp-72", 72, 0, 0, NULL);
	run_threads(8, churn_worker);
	EXPECT(!failed, "a worker failed at test_slab_smp.c:%d", failed);
	EXPECT(slab_check() == 0, "slab_check with objects held");
	return drain_and_check(before);
}

static bool threads_come_and_go(void)
{
	unsigned long before, saved = ops_per_thread;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("smp-72", 72, 0, 0, NULL);
	ops_per_thread = saved / 10;
	for (int round = 0; round < 12; round++) {
		run_threads(3 + round % 4, churn_worker);
		EXPECT(!failed, "round %d: a worker failed at line %d", round, failed);
		EXPECT(slab_check() == 0, "round %d: slab_check", round);
	}
	ops_per_thread = saved;
	return drain_and_check(before);
}

/* Thread 1 allocates into the table; the others take and free. */
static unsigned long produced;

static void *producer_consumer_worker(void *arg)
{
	uint64_t rng = (uintptr_t)arg * 77;

	if ((uintptr_t)arg == 1) {
		for (unsigned long i = 0; i < ops_per_thread * 2; i++) {
			struct obj *o = make(&rng), *old;

			CHECK(o && o != (struct obj *)1);
			while ((old = __atomic_load_n(&table[i % TABLE], __ATOMIC_ACQUIRE)))
				if (__atomic_load_n(&failed, __ATOMIC_RELAXED))
					return NULL;
			__atomic_store_n(&table[i % TABLE], o, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&produced, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	for (;;) {
		bool done = __atomic_load_n(&produced, __ATOMIC_ACQUIRE), any = false;

		for (unsigned int i = (unsigned int)(uintptr_t)arg - 2; i < TABLE; i += 3) {
			struct obj *o = __atomic_exchange_n(&table[i], NULL, __ATOMIC_ACQ_REL);

			if (o) {
				CHECK(release(o));
				any = true;
			}
		}
		if (done && !any)
			return NULL;
	}
}

static bool producer_consumer(void)
{
	unsigned long before, peak;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("smp-72", 72, 0, 0, NULL);
	produced = 0;
	/* Three consumers, each its own third of the table (i % 3). */
	run_threads(4, producer_consumer_worker);
	EXPECT(!failed, "a worker failed at line %d", failed);
	peak = before - nr_free_pages();
	/* Remote frees gave the empty slabs back as they emptied. */
	EXPECT(peak < 4 * NR_KMALLOC_CACHES * (1UL << SLAB_MAX_ORDER), "%lu pages still "
	       "taken with nothing allocated", peak);
	return drain_and_check(before);
}

/* slab_check() while other CPUs allocate and free: they are held still. */
static bool check_while_churning(void)
{
	unsigned long before;
	unsigned int checks = 0, bad = 0, running = 6;
	bool joined[6] = { false };
	pthread_t t[6];

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("smp-72", 72, 0, 0, NULL);
	for (unsigned int i = 0; i < 6; i++)
		if (pthread_create(&t[i], NULL, churn_worker, (void *)(uintptr_t)(i + 1)))
			abort();
	/* Check over and over until every worker is done (8 times at least). */
	while (running || checks < 8) {
		if (slab_check())
			bad++;
		if (checks++ % 16 == 0)
			show_slabinfo();
		/* Let the workers run between two stops. */
		usleep(1000);
		for (unsigned int i = 0; i < 6; i++)
			if (!joined[i] && pthread_tryjoin_np(t[i], NULL) == 0) {
				joined[i] = true;
				running--;
			}
	}
	EXPECT(!failed, "a worker failed at test_slab_smp.c:%d", failed);
	EXPECT(bad == 0, "%u of %u checks found problems", bad, checks);
	EXPECT(slab_check() == 0, "slab_check afterwards");
	return drain_and_check(before);
}

/*
 * Exhaustion takes back the empty slabs other CPUs hold. The holder
 * makes and frees enough kmalloc-64 objects to keep empty slabs (its
 * current one and partial ones), then waits away; this CPU takes page-
 * sized objects until there is no memory, and the holder has none left.
 */
static unsigned int holder_cpu;
static bool holder_ready, holder_go;	/* atomics */

/* On the holder: make and free enough kmalloc-64 objects to keep empty
 * slabs, and say which CPU it is. */
static void *make_empty_slabs(void)
{
	static void *p[4096];	/* one holder at a time */

	for (unsigned int i = 0; i < 4096; i++)
		CHECK((p[i] = kmalloc(64, GFP_KERNEL)) != NULL);
	for (unsigned int i = 0; i < 4096; i++)
		kfree(p[i]);
	holder_cpu = smp_processor_id();
	return NULL;
}

static void *hold_empty_slabs(void *arg)
{
	(void)arg;
	make_empty_slabs();
	smp_cpu_away();
	__atomic_store_n(&holder_ready, true, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&holder_go, __ATOMIC_ACQUIRE))
		usleep(100);
	smp_cpu_back();
	return NULL;
}

/* The slabs @pc holds of kmalloc-64: current and partial. */
static unsigned int slabs_held(struct slab_pcpu *pc)
{
	unsigned int slot = kmalloc_caches[6 - KMALLOC_SHIFT_LOW].slot, n = 0;

	n += pc->c[slot].word != NULL;
	for (int i = 0; i < SLAB_CPU_PARTIAL; i++)
		n += pc->partial[slot][i] != NULL;
	return n;
}

static bool others_empty_slabs_on_exhaustion(void)
{
	unsigned long before, n = 0;
	void *head = NULL, *p;
	struct slab_pcpu *pc;
	unsigned int held;
	pthread_t t;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = NULL;
	__atomic_store_n(&holder_ready, false, __ATOMIC_RELAXED);
	__atomic_store_n(&holder_go, false, __ATOMIC_RELAXED);
	EXPECT(!pthread_create(&t, NULL, hold_empty_slabs, NULL), "thread");
	while (!__atomic_load_n(&holder_ready, __ATOMIC_ACQUIRE))
		usleep(100);
	EXPECT(!failed, "the holder failed at line %d", failed);
	pc = per_cpu_ptr(&slab_pcpu, holder_cpu);
	held = slabs_held(pc);
	EXPECT(held > 1, "the holder keeps %u slabs", held);
	while ((p = kmalloc(KMALLOC_MAX_CACHE_SIZE, __GFP_NOWARN))) {
		*(void **)p = head;
		head = p;
		n++;
	}
	held = slabs_held(pc);
	while (head) {
		p = head;
		head = *(void **)p;
		kfree(p);
	}
	__atomic_store_n(&holder_go, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	EXPECT(n > 0, "no object at all");
	EXPECT(held == 0, "the waiting CPU kept %u slabs through exhaustion",
	       held);
	return drain_and_check(before);
}

/*
 * The same with a holder that blocks in its own barrier and does not say
 * it is away: the CPUs that need it hold it while it sleeps there
 * (arch/host/cpu_hold.c). slab_check() stops it at once, and exhaustion
 * takes its empty slabs. Without the hold, both would wait out the
 * request timeout (2 s here) and the slabs would stay.
 */
static pthread_barrier_t blocked_ready, blocked_go;

static void *block_with_empty_slabs(void *arg)
{
	(void)arg;
	make_empty_slabs();
	pthread_barrier_wait(&blocked_ready);
	pthread_barrier_wait(&blocked_go);
	/* Back from the hold: its own slabs again, an object each way. */
	kfree(kmalloc(64, GFP_KERNEL));
	return NULL;
}

static bool blocked_cpu_gives_its_empty_slabs(void)
{
	uint64_t saved = smp_request_timeout_ns, took;
	unsigned long before, n = 0;
	unsigned int held_before, held;
	void *head = NULL, *p;
	bool checked;
	pthread_t t;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = NULL;
	pthread_barrier_init(&blocked_ready, NULL, 2);
	pthread_barrier_init(&blocked_go, NULL, 2);
	EXPECT(!pthread_create(&t, NULL, block_with_empty_slabs, NULL), "thread");
	pthread_barrier_wait(&blocked_ready);
	held_before = slabs_held(per_cpu_ptr(&slab_pcpu, holder_cpu));
	smp_request_timeout_ns = 2000ULL * 1000 * 1000;
	took = arch_clock_ns();
	checked = slab_check() == 0;
	took = arch_clock_ns() - took;
	while ((p = kmalloc(KMALLOC_MAX_CACHE_SIZE, __GFP_NOWARN))) {
		*(void **)p = head;
		head = p;
		n++;
	}
	held = slabs_held(per_cpu_ptr(&slab_pcpu, holder_cpu));
	smp_request_timeout_ns = saved;
	while (head) {
		p = head;
		head = *(void **)p;
		kfree(p);
	}
	/* Let the thread go before any verdict: later cases need it gone. */
	pthread_barrier_wait(&blocked_go);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&blocked_ready);
	pthread_barrier_destroy(&blocked_go);
	EXPECT(!failed, "the holder failed at line %d", failed);
	EXPECT(held_before > 1, "the holder keeps %u slabs", held_before);
	EXPECT(checked, "slab_check with cpu %u blocked in a barrier",
	       holder_cpu);
	EXPECT(took < 1000ULL * 1000 * 1000, "slab_check took %llu ms: it "
	       "waited for cpu %u", (unsigned long long)(took / 1000000),
	       holder_cpu);
	EXPECT(n > 0, "no object at all");
	EXPECT(held == 0, "the blocked CPU kept %u slabs through exhaustion",
	       held);
	return drain_and_check(before);
}

/*
 * A remote free is two steps (slab_free_remote()): the object's bit in
 * the slab's remote word, then the count in its state word. Here they are made by
 * hand, with the owner's paths run in between: a slab given back (or
 * reset as the spare) there would take the second step's write to a
 * free page, the race check_while_churning hit about once in a hundred
 * runs. Return: the slab of the object freed halfway.
 */
static struct slab *remote_free_first_half(void *p)
{
	struct slab *s = slab_of(p);
	unsigned long idx = (unsigned long)((char *)p - (char *)s) / shared->size;

	__atomic_fetch_or(slab_rword(s, (unsigned int)(idx / 64)),
			  1UL << (idx % 64), __ATOMIC_SEQ_CST);
	return s;
}

/* The second half: the count (low bits of the state word), the free's last write. */
static void remote_free_second_half(struct slab *s)
{
	__atomic_fetch_add(&slab_sc(s)->counter, 1, __ATOMIC_SEQ_CST);
}

/* A count of the shared cache (nr_slabs, nr_partial), read under its lock. */
static unsigned long shared_count(const unsigned long *count)
{
	unsigned long n;

	spin_lock(&shared->lock);
	n = *count;
	spin_unlock(&shared->lock);
	return n;
}

#define slabs_of_shared()	shared_count(&shared->nr_slabs)
#define partial_of_shared()	shared_count(&shared->nr_partial)

static struct slab *in_flight_slab;

/* A CPU that frees its one object halfway and goes away (slab_cpu_dead). */
static void *free_halfway_and_go(void *arg)
{
	void *p = kmem_cache_alloc(shared, GFP_KERNEL);

	(void)arg;
	CHECK(p != NULL);
	in_flight_slab = remote_free_first_half(p);
	return NULL;
}

static bool remote_free_in_flight_keeps_the_slab(void)
{
	unsigned long before;
	struct slab *s;
	pthread_t t;
	void *p;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("in-flight-72", 72, 0, 0, NULL);
	EXPECT(shared != NULL, "cache");

	/* This CPU's current slab, and kmem_cache_shrink(). */
	p = kmem_cache_alloc(shared, GFP_KERNEL);
	EXPECT(p != NULL, "object");
	s = remote_free_first_half(p);
	kmem_cache_shrink(shared);
	EXPECT(slabs_of_shared() == 1 && slab_state_of(s) == SLAB_ACTIVE,
	       "a shrink gave back a slab whose remote free has not counted "
	       "(%lu slabs, state %d)", slabs_of_shared(), slab_state_of(s));
	remote_free_second_half(s);
	kmem_cache_shrink(shared);
	EXPECT(slabs_of_shared() == 0, "the settled empty slab was kept");

	/* A CPU going away with its slab (slab_cpu_dead(), slab_deactivate()). */
	EXPECT(!pthread_create(&t, NULL, free_halfway_and_go, NULL), "thread");
	pthread_join(t, NULL);
	EXPECT(!failed, "the thread failed at line %d", failed);
	s = in_flight_slab;
	EXPECT(slabs_of_shared() == 1 && slab_state_of(s) == SLAB_PARTIAL,
	       "a CPU going away gave back or reset a slab whose remote free "
	       "has not counted (%lu slabs, state %d)", slabs_of_shared(),
	       slab_state_of(s));
	/*
	 * The count would hand its CPU the job of giving the slab back
	 * (SLAB_RECLAIM); made by hand, it leaves the slab listed, settled,
	 * for the shrink to take.
	 */
	remote_free_second_half(s);
	kmem_cache_shrink(shared);
	EXPECT(slabs_of_shared() == 0, "the settled listed slab was kept");
	return drain_and_check(before);
}

/*
 * A CPU fills slabs of a 1024-byte cache until it has let two go full,
 * and goes away: its full slabs stay on no list, the others go to the
 * cache's partial list (the cpu-dead hook).
 */
#define FULL_OBJECTS	4096
static void *full_objects[FULL_OBJECTS];
static unsigned int full_made;

static void *fill_until_two_full(void *arg)
{
	unsigned int full = 0;

	(void)arg;
	for (full_made = 0; full_made < FULL_OBJECTS && full < 2; full_made++) {
		CHECK((full_objects[full_made] = kmem_cache_alloc(shared, GFP_KERNEL)));
		full = 0;
		for (unsigned int i = 0; i <= full_made; i += slab_capacity(shared))
			full += slab_state_of(slab_of(full_objects[i])) == SLAB_FULL;
	}
	return NULL;
}

/* Free (on this CPU: remote) @n objects of @s from full_objects[]. */
static unsigned int free_of_slab(struct slab *s, unsigned int n)
{
	unsigned int done = 0;

	for (unsigned int i = 0; i < full_made && done < n; i++) {
		if (full_objects[i] && slab_of(full_objects[i]) == s) {
			kmem_cache_free(shared, full_objects[i]);
			full_objects[i] = NULL;
			done++;
		}
	}
	return done;
}

static bool full_slab_waits_for_its_share(void)
{
	struct slab *first = NULL, *second = NULL;
	unsigned long before, listed;
	void **got, *freed = NULL;
	struct page *pages = NULL, *page;
	unsigned int relist, n = 0;
	bool found = false;
	pthread_t t;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = kmem_cache_create("full-1024", 1024, 0, 0, NULL);
	EXPECT(shared != NULL, "cache");
	relist = shared->full_relist;
	EXPECT(relist > 1 && relist < slab_capacity(shared),
	       "a slab of %u objects is listed at %u remote frees",
	       slab_capacity(shared), relist);
	EXPECT(!pthread_create(&t, NULL, fill_until_two_full, NULL), "thread");
	pthread_join(t, NULL);
	EXPECT(!failed, "the filler failed at line %d", failed);
	for (unsigned int i = 0; i < full_made; i += slab_capacity(shared)) {
		struct slab *s = slab_of(full_objects[i]);

		if (slab_state_of(s) != SLAB_FULL || s == first)
			continue;
		if (!first)
			first = s;
		else if (!second)
			second = s;
	}
	EXPECT(first && second, "two full slabs in %u objects", full_made);

	/* Listed at the relist-th remote free, not one before. */
	listed = partial_of_shared();
	EXPECT(free_of_slab(first, relist - 1) == relist - 1, "objects");
	EXPECT(slab_state_of(first) == SLAB_FULL && partial_of_shared() == listed,
	       "a full slab was listed after %u remote frees (state %d)",
	       relist - 1, slab_state_of(first));
	EXPECT(slab_check() == 0, "slab_check with a full slab given frees");
	EXPECT(free_of_slab(first, 1) == 1, "object");
	EXPECT(slab_state_of(first) == SLAB_PARTIAL &&
	       partial_of_shared() == listed + 1,
	       "a full slab was not listed at its %u-th remote free (state %d)",
	       relist, slab_state_of(first));

	/*
	 * One remote free into the second: not listed until the page
	 * allocator is exhausted; then this CPU's allocations, having taken
	 * every listed object, find it there.
	 */
	for (unsigned int i = 0; i < full_made && !freed; i++)
		if (full_objects[i] && slab_of(full_objects[i]) == second)
			freed = full_objects[i];
	EXPECT(free_of_slab(second, 1) == 1, "object");
	EXPECT(slab_state_of(second) == SLAB_FULL, "listed at one free");
	while ((page = alloc_pages(__GFP_NOWARN, 0))) {
		*(struct page **)page_address(page) = pages;
		pages = page;
	}
	got = calloc(FULL_OBJECTS * 2, sizeof(void *));
	EXPECT(got != NULL, "calloc");
	while (n < FULL_OBJECTS * 2 &&
	       (got[n] = kmem_cache_alloc(shared, __GFP_NOWARN)))
		found |= got[n++] == freed;
	EXPECT(found, "the object freed into a full slab was not handed out "
	       "with the pages exhausted (%u objects were)", n);
	EXPECT(slab_check() == 0, "slab_check when exhausted");
	while (n--)
		kmem_cache_free(shared, got[n]);
	free(got);
	while (pages) {
		page = pages;
		pages = *(struct page **)page_address(page);
		__free_pages(page, 0);
	}
	for (unsigned int i = 0; i < full_made; i++)
		if (full_objects[i])
			kmem_cache_free(shared, full_objects[i]);
	return drain_and_check(before);
}

/*
 * A CPU that only ever takes kmalloc()'s and kfree()'s inline paths (a
 * pair of one size: the alloc word's bits, then the freed word's taken
 * back inline) reaches no poll point of its own: a sender's request must
 * close its gate, so that its next kmalloc() goes the general way and
 * answers. Without that, the request times out.
 */
static int spinner_cpu = -1;		/* atomic: set once it has pairs going */
static bool spinner_stop;		/* atomic */
static unsigned int spinner_answered;	/* atomic: the request's runs */

static void *pair_spinner(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; !__atomic_load_n(&spinner_stop, __ATOMIC_RELAXED); i++) {
		void *p = kmalloc(32, GFP_KERNEL);

		CHECK(p);
		kfree(p);
		if (i == 1000)
			__atomic_store_n(&spinner_cpu, (int)smp_processor_id(),
					 __ATOMIC_RELEASE);
	}
	return NULL;
}

static void count_answer(unsigned int cpu, void *arg)
{
	(void)cpu;
	(void)arg;
	__atomic_fetch_add(&spinner_answered, 1, __ATOMIC_RELAXED);
}

static bool fast_path_answers_requests(void)
{
	uint64_t saved = smp_request_timeout_ns;
	unsigned long before;
	unsigned int missed;
	cpumask_t one;
	pthread_t t;
	int cpu;

	if (!machine())
		return false;
	before = nr_free_pages();
	shared = NULL;		/* kmalloc() only: nothing for drain_and_check() */
	spinner_cpu = -1;
	spinner_stop = false;
	spinner_answered = 0;
	EXPECT(pthread_create(&t, NULL, pair_spinner, NULL) == 0, "thread");
	while ((cpu = __atomic_load_n(&spinner_cpu, __ATOMIC_ACQUIRE)) < 0 &&
	       !__atomic_load_n(&failed, __ATOMIC_RELAXED))
		sched_yield();
	cpumask_clear(&one);
	if (cpu >= 0)
		cpumask_set_cpu((unsigned int)cpu, &one);
	smp_request_timeout_ns = 2ULL * 1000 * 1000 * 1000;
	missed = cpu >= 0 ? smp_request_cpus(&one, count_answer, NULL, NULL) : 1;
	smp_request_timeout_ns = saved;
	__atomic_store_n(&spinner_stop, true, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	EXPECT(!failed, "the spinner failed at test_slab_smp.c:%d", failed);
	EXPECT(missed == 0 && spinner_answered == 1,
	       "cpu %d, in kmalloc()'s and kfree()'s inline paths, did not "
	       "answer (%u missed, %u runs)", cpu, missed, spinner_answered);
	return drain_and_check(before);
}

/*
 * Threads whose very first call into the allocator is kmalloc(), all at
 * once, on a fresh machine: one of them sets the slab allocator up while
 * the others' fast paths and general ways look at it. ThreadSanitizer
 * fails the suite if any of them reads what the set-up writes without
 * waiting for it.
 */
#define FIRST_THREADS	8

static pthread_barrier_t first_start;

static void *first_kmallocs(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;

	pthread_barrier_wait(&first_start);
	for (unsigned int i = 0; i < 100; i++) {
		void *p = kmalloc(8U << ((t + i) % 10), GFP_KERNEL);

		CHECK(p != NULL);
		kfree(p);
	}
	return NULL;
}

static bool first_kmallocs_at_once(void)
{
	pthread_t t[FIRST_THREADS];

	if (!machine_fresh())
		return false;
	pthread_barrier_init(&first_start, NULL, FIRST_THREADS);
	for (unsigned int i = 0; i < FIRST_THREADS; i++)
		EXPECT(!pthread_create(&t[i], NULL, first_kmallocs,
				       (void *)(uintptr_t)i), "thread %u", i);
	for (unsigned int i = 0; i < FIRST_THREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&first_start);
	free(owned);
	EXPECT(!failed, "a thread failed at test_slab_smp.c:%d", failed);
	EXPECT(slab_check() == 0 && page_alloc_check() == 0, "checks");
	return true;
}

/*
 * Every thread above began with a fast path on the per-CPU section, no
 * CPU's (arch/host/smp.c): none of them may have written it.
 */
static bool no_cpus_area_stays_zero(void)
{
	EXPECT(host_percpu_section_untouched(),
	       "the per-CPU section, no CPU's, was written");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(first_kmallocs_at_once),
	HOST_TEST(cross_cpu_churn),
	HOST_TEST(threads_come_and_go),
	HOST_TEST(producer_consumer),
	HOST_TEST(check_while_churning),
	HOST_TEST(others_empty_slabs_on_exhaustion),
	HOST_TEST(blocked_cpu_gives_its_empty_slabs),
	HOST_TEST(remote_free_in_flight_keeps_the_slab),
	HOST_TEST(full_slab_waits_for_its_share),
	HOST_TEST(fast_path_answers_requests),
	HOST_TEST(no_cpus_area_stays_zero),
};

int main(void)
{
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
