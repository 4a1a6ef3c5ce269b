/*
 * test_model.c - thousands of random alloc/free steps against a shadow
 * model, with the invariant checker after every step.
 *
 * The machine has PFN 0, an unaligned end and a reservation in the middle.
 * The model owns one byte per page (who holds it) and the list of held
 * blocks; each step must agree with it: a new block is naturally aligned,
 * inside memory, outside every held block and outside reserved memory; a
 * held block's stamp survives until it is freed; a refused free changes no
 * counter; nr_free_pages() is always managed minus held.
 *
 * Fixed seeds run by default. BB_SEED=n runs only seed n (what a failure
 * prints), BB_STEPS=n changes the number of steps.
 *
 * The concurrent mode (model_concurrent_*) runs one model per thread, each
 * thread a CPU with its own per-CPU lists, on one machine: the owner bytes
 * are shared and claimed with atomic exchanges, so a page handed to two
 * threads fails at the step that takes it; page_alloc_check(), which may
 * run while others allocate, runs every 64 steps; the counts are checked
 * once all threads are done. Bad frees there are of the kinds that leave
 * the block with its owner (wrong order, a page inside it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <smp/smp.h>
#include "machine.h"

#define NR_HELD		4096

struct held {
	struct page *page;
	unsigned int order;
	uint8_t stamp;
};

struct model {
	uint64_t rng;
	struct held held[NR_HELD];
	unsigned int nr_held;
	unsigned long held_pages;
	unsigned long managed;
	unsigned char *owner;		/* per pfn: 0 free/reserved, 1 held */
	unsigned long nr_pfns;
	bool concurrent;		/* owner shared with other threads */
};

static uint64_t next_rand(struct model *m)
{
	/* xorshift64* */
	m->rng ^= m->rng >> 12;
	m->rng ^= m->rng << 25;
	m->rng ^= m->rng >> 27;
	return m->rng * 0x2545f4914f6cdd1dULL;
}

static unsigned int rand_below(struct model *m, unsigned int n)
{
	return (unsigned int)(next_rand(m) % n);
}

static bool counters_unchanged(const unsigned long *before)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		if (before[o] != nr_free_blocks(o))
			return false;
	return before[NR_PAGE_ORDERS] == nr_free_pages();
}

static void save_counters(unsigned long *c)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		c[o] = nr_free_blocks(o);
	c[NR_PAGE_ORDERS] = nr_free_pages();
}

static bool step_alloc(struct model *m)
{
	/* Orders 0..MAX_PAGE_ORDER + 1: the last must always be refused. */
	unsigned int order = rand_below(m, NR_PAGE_ORDERS + 1);
	gfp_t gfp = __GFP_NOWARN | (rand_below(m, 8) ? 0 : __GFP_ZERO);
	struct page *p;
	unsigned long pfn, n = 1UL << order;
	unsigned char *a;

	if (m->nr_held == NR_HELD)
		return true;
	p = alloc_pages(gfp, order);
	if (order > MAX_PAGE_ORDER) {
		EXPECT(!p, "order %u handed out", order);
		return true;
	}
	if (!p) {
		/* Others may free between the refusal and the counts. */
		for (unsigned int k = order; k <= MAX_PAGE_ORDER && !m->concurrent; k++)
			EXPECT(!nr_free_blocks(k), "order %u refused while order "
			       "%u has free blocks", order, k);
		return true;
	}
	pfn = page_to_pfn(p);
	EXPECT((pfn & (n - 1)) == 0, "pfn %#lx order %u misaligned", pfn, order);
	EXPECT(pfn + n <= m->nr_pfns, "pfn %#lx outside memory", pfn);
	EXPECT(!memblock_is_region_reserved(PFN_PHYS(pfn), PFN_PHYS(n)),
	       "pfn %#lx order %u overlaps reserved memory", pfn, order);
	for (unsigned long i = 0; i < n; i++)
		EXPECT(!__atomic_exchange_n(&m->owner[pfn + i], 1, __ATOMIC_ACQ_REL),
		       "pfn %#lx handed out twice", pfn + i);
	a = page_address(p);
	if (gfp & __GFP_ZERO)
		EXPECT(a[0] == 0 && a[PFN_PHYS(n) - 1] == 0, "not zeroed");
	m->held[m->nr_held] = (struct held){ p, order, (uint8_t)next_rand(m) };
	a[0] = a[PFN_PHYS(n) - 1] = m->held[m->nr_held].stamp;
	m->nr_held++;
	m->held_pages += n;
	return true;
}

static bool release(struct model *m, unsigned int i)
{
	struct held h = m->held[i];
	unsigned char *a = page_address(h.page);
	unsigned long n = 1UL << h.order;

	EXPECT(a[0] == h.stamp && a[PFN_PHYS(n) - 1] == h.stamp,
	       "block at pfn %#lx order %u was overwritten",
	       page_to_pfn(h.page), h.order);
	/* Released before the free: after it, another thread may own it. */
	for (unsigned long k = 0; k < n; k++)
		__atomic_store_n(&m->owner[page_to_pfn(h.page) + k], 0,
				 __ATOMIC_RELEASE);
	EXPECT(free_pages_checked(h.page, h.order) == 0, "free refused");
	m->held[i] = m->held[--m->nr_held];
	m->held_pages -= n;
	return true;
}

static bool step_free(struct model *m)
{
	return !m->nr_held || release(m, rand_below(m, m->nr_held));
}

/* A bad free of some kind: refused, and no counter moves. */
static bool step_bad_free(struct model *m)
{
	unsigned long before[NR_PAGE_ORDERS + 1];
	struct held h;
	int err;

	if (!m->nr_held)
		return true;
	h = m->held[rand_below(m, m->nr_held)];
	save_counters(before);
	switch (rand_below(m, m->concurrent ? 2 : 3)) {
	case 0:
		err = free_pages_checked(h.page, h.order ? h.order - 1
							 : h.order + 1);
		break;
	case 1:
		if (!h.order)
			return true;
		err = free_pages_checked(h.page + (1UL << (h.order - 1)), 0);
		break;
	default:
		/* Free it properly, then once more. */
		for (unsigned int i = 0; i < m->nr_held; i++)
			if (m->held[i].page == h.page && !release(m, i))
				return false;
		save_counters(before);
		err = free_pages_checked(h.page, h.order);
		EXPECT(err == FREE_REFUSED_DOUBLE_FREE ||
		       err == FREE_REFUSED_NOT_BLOCK_START, "double free: %d", err);
		break;
	}
	EXPECT(err < 0, "bad free of pfn %#lx accepted", page_to_pfn(h.page));
	EXPECT(m->concurrent || counters_unchanged(before),
	       "a refused free changed counters");
	return true;
}

static bool run_seed(uint64_t seed, unsigned long steps)
{
	static struct model m;
	unsigned long banks_end = 3 * TOP_PAGES + 11;

	memset(&m, 0, sizeof(m));
	m.rng = seed ? seed : 1;
	machine_map(PFN_PHYS(banks_end) + SZ_1M);
	EXPECT(memblock_add(0, PFN_PHYS(banks_end)) == 0, "bank at PFN 0");
	EXPECT(memblock_reserve(PFN_PHYS(TOP_PAGES + 3), 2 * PAGE_SIZE) == 0, "r");
	m.managed = memblock_free_all();
	EXPECT(m.managed, "hand-off");
	m.nr_pfns = banks_end;
	m.owner = calloc(banks_end, 1);

	for (unsigned long s = 0; s < steps; s++) {
		unsigned int op = rand_below(&m, 100);
		bool ok = op < 50 ? step_alloc(&m)
			: op < 92 ? step_free(&m) : step_bad_free(&m);

		if (!ok || page_alloc_check() != 0 ||
		    nr_free_pages() != m.managed - m.held_pages) {
			printf("# step %lu of seed %llu failed; reproduce with "
			       "BB_SEED=%llu\n", s, (unsigned long long)seed,
			       (unsigned long long)seed);
			return false;
		}
	}
	while (m.nr_held)
		if (!release(&m, m.nr_held - 1))
			return false;
	EXPECT(nr_free_pages() == m.managed && page_alloc_check() == 0, "end");
	free(m.owner);
	return true;
}

struct concurrent {
	struct model m;
	pthread_t thread;
	unsigned long steps;
	bool ok;
};

static void *model_thread(void *arg)
{
	struct concurrent *c = arg;
	struct model *m = &c->m;

	c->ok = false;
	for (unsigned long s = 0; s < c->steps; s++) {
		unsigned int op = rand_below(m, 100);
		bool ok = op < 50 ? step_alloc(m)
			: op < 92 ? step_free(m) : step_bad_free(m);

		if (!ok || (!(s & 63) && page_alloc_check() != 0)) {
			printf("# thread seed %llu: step %lu failed\n",
			       (unsigned long long)m->rng, s);
			return NULL;
		}
	}
	while (m->nr_held)
		if (!release(m, m->nr_held - 1))
			return NULL;
	c->ok = true;
	return NULL;
}

static bool run_concurrent(unsigned int n, uint64_t seed, unsigned long steps)
{
	static struct concurrent c[16];
	unsigned long banks_end = 4 * TOP_PAGES + 11, managed;
	unsigned char *owner;

	machine_map(PFN_PHYS(banks_end) + SZ_1M);
	EXPECT(memblock_add(0, PFN_PHYS(banks_end)) == 0, "bank at PFN 0");
	EXPECT(memblock_reserve(PFN_PHYS(TOP_PAGES + 3), 2 * PAGE_SIZE) == 0, "r");
	managed = memblock_free_all();
	EXPECT(managed, "hand-off");
	owner = calloc(banks_end, 1);
	for (unsigned int i = 0; i < n; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].m.rng = seed * 1000 + i + 1;
		c[i].m.owner = owner;
		c[i].m.nr_pfns = banks_end;
		c[i].m.managed = managed;
		c[i].m.concurrent = true;
		c[i].steps = steps;
		EXPECT(!pthread_create(&c[i].thread, NULL, model_thread, &c[i]),
		       "thread %u", i);
	}
	/* Away while it waits: page_alloc_check() stops every other CPU. */
	smp_cpu_away();
	for (unsigned int i = 0; i < n; i++)
		pthread_join(c[i].thread, NULL);
	smp_cpu_back();
	for (unsigned int i = 0; i < n; i++)
		EXPECT(c[i].ok, "thread %u failed; reproduce with BB_SEED=%llu",
		       i, (unsigned long long)seed);
	/* The threads are gone, their lists drained when each exited. */
	EXPECT(nr_free_pages() == managed && page_alloc_check() == 0, "end");
	free(owner);
	return true;
}

static unsigned long steps_from_env(void)
{
	const char *s = getenv("BB_STEPS");

	return s ? strtoul(s, NULL, 0) : 4000;
}

#define SEED_TEST(n)							\
	static bool model_seed_##n(void)				\
	{								\
		return run_seed(n, steps_from_env());			\
	}

SEED_TEST(1)
SEED_TEST(2)
SEED_TEST(3)
SEED_TEST(20240101)

static uint64_t env_seed;

static bool model_concurrent_2(void)
{
	return run_concurrent(2, 7, steps_from_env());
}

static bool model_concurrent_8(void)
{
	return run_concurrent(8, 8, steps_from_env() / 2);
}

static bool model_seed_from_env(void)
{
	return run_seed(env_seed, steps_from_env());
}

int main(void)
{
	static const struct host_test fixed[] = {
		HOST_TEST(model_seed_1),
		HOST_TEST(model_seed_2),
		HOST_TEST(model_seed_3),
		HOST_TEST(model_seed_20240101),
		HOST_TEST(model_concurrent_2),
		HOST_TEST(model_concurrent_8),
	};
	static const struct host_test from_env[] = {
		HOST_TEST(model_seed_from_env),
	};
	const char *s = getenv("BB_SEED");

	if (s) {
		env_seed = strtoull(s, NULL, 0);
		return host_test_main(from_env, 1);
	}
	return host_test_main(fixed, sizeof(fixed) / sizeof(fixed[0]));
}
