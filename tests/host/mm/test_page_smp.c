/*
 * test_page_smp.c - the allocator on many CPUs at once: threads are CPUs
 * (arch/host/smp.c), each with its own per-CPU lists.
 *
 *   stress_N            N threads (2, 4, 8, 16) allocate and free every
 *                       order at random, hand blocks to each other to
 *                       free, write and check a pattern in each block,
 *                       and claim every page in an atomic bitmap, so that
 *                       a page handed to two owners fails at once.
 *   exhaust_one_*       one thread takes every block of each order while
 *                       other threads hold cached pages: it gets exactly
 *                       the count the free counts promised.
 *   exhaust_together    all threads take every block of each order at
 *                       once: together, exactly the promised count.
 *   double_free_cached  a second free of a block cached on this CPU, or on
 *                       another CPU, is refused as a double free and
 *                       changes nothing.
 *   checker_sees_pcp    page_alloc_check() notices broken per-CPU lists.
 *   depot_hands_batches_on  a CPU that frees more than its list holds
 *                       leaves whole batches in the zone's depot (still
 *                       cached: counted, checked, a second free refused),
 *                       a CPU with an empty list takes one, and
 *                       drain_all_pages() empties the depot.
 *   depot_gathers_small_batches  on a small machine (batch 1), the blocks
 *                       each free past a full list hands the depot
 *                       gather into full batches, and a refill takes
 *                       from the newest one's top.
 *   busy_cpu_keeps_its_pages  a CPU busy with no poll point and not away
 *                       keeps its cached pages: an exhaustion gets all the
 *                       others after a bounded wait and names it.
 *
 * At the end of each case every block is back, the threads are gone (their
 * caches drained by the CPU-dead hook), the free count is what was handed
 * off and page_alloc_check() finds nothing. BB_SEED=n changes the seeds,
 * BB_STEPS=n the steps per thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <arch/smp.h>
#include <smp/smp.h>
#include "../../../mm/page_pcp.h"
#include "smp_util.h"

/* 64 MiB of 4 KiB pages, and at least two top-order blocks. */
#define NR_TOP		MAX(16384UL >> MAX_PAGE_ORDER, 2UL)
#define HELD_MAX	64
#define MAILBOX		32

static uint64_t base_seed = 1;
static unsigned long steps_per_thread = 4000;

struct blk {
	struct page *page;
	unsigned int order;
	uint64_t token;
};

struct worker {
	pthread_t thread;
	unsigned int id;
	uint64_t rng;
	struct blk held[HELD_MAX];
	unsigned int nr_held;
	pthread_mutex_t mail_lock;
	struct blk mail[MAILBOX];	/* under mail_lock */
	unsigned int nr_mail;		/* under mail_lock */
	struct stress *s;
};

struct stress {
	struct owners own;
	struct worker *w;
	unsigned int n;
	pthread_barrier_t barrier;
};

static unsigned long managed;

/* The standard machine, its pages in the ownership bitmap. */
static bool smp_machine(struct owners *own)
{
	if (!std_machine(NR_TOP))
		return false;
	managed = nr_free_pages();
	owners_init(own, PHYS_PFN(STD_BASE), NR_TOP * TOP_PAGES);
	smp_fail_reset();
	return true;
}

/* Everything back: counts, merged state, invariants. */
static bool all_back(struct owners *own)
{
	EXPECT(!smp_failed(), "a thread failed");
	EXPECT(nr_free_pages() == managed, "%lu free pages, %lu handed off",
	       nr_free_pages(), managed);
	EXPECT_SOUND();
	drain_all_pages();
	EXPECT(nr_free_blocks(MAX_PAGE_ORDER) == NR_TOP,
	       "%lu top-order blocks after draining, %lu expected",
	       nr_free_blocks(MAX_PAGE_ORDER), NR_TOP);
	for (unsigned long i = 0; i < (own->nr + 63) / 64; i++)
		EXPECT(!own->bits[i], "pages still owned at word %lu", i);
	owners_free(own);
	return true;
}

static bool take(struct owners *own, struct blk *b)
{
	return owners_claim(own, b->page, b->order) &&
	       (pattern_write(b->page, b->order, b->token), true);
}

static bool give_back(struct owners *own, struct blk *b)
{
	int err;

	if (!pattern_check(b->page, b->order, b->token) ||
	    !owners_release(own, b->page, b->order))
		return false;
	err = free_pages_checked(b->page, b->order);
	if (err) {
		smp_fail("free of pfn %#lx order %u refused: %d",
			 page_to_pfn(b->page), b->order, err);
		return false;
	}
	return true;
}

static unsigned int random_order(uint64_t *rng)
{
	/* Mostly the cached orders, where the per-CPU lists are. */
	if (xorshift(rng) % 4)
		return (unsigned int)(xorshift(rng) % NR_PCP_ORDERS);
	return (unsigned int)(xorshift(rng) % NR_PAGE_ORDERS);
}

static bool empty_mailbox(struct worker *w)
{
	struct blk got[MAILBOX];
	unsigned int n;

	pthread_mutex_lock(&w->mail_lock);
	n = w->nr_mail;
	memcpy(got, w->mail, n * sizeof(got[0]));
	w->nr_mail = 0;
	pthread_mutex_unlock(&w->mail_lock);
	for (unsigned int i = 0; i < n; i++)
		if (!give_back(&w->s->own, &got[i]))
			return false;
	return true;
}

static bool stress_step(struct worker *w)
{
	struct stress *s = w->s;
	unsigned int r = (unsigned int)(xorshift(&w->rng) % 100), i;
	struct worker *to;
	struct blk b;

	if (r < 45) {
		b.order = random_order(&w->rng);
		b.page = alloc_pages(__GFP_NOWARN, b.order);
		b.token = xorshift(&w->rng);
		if (!b.page)
			return !w->nr_held || give_back(&s->own, &w->held[--w->nr_held]);
		if (!take(&s->own, &b))
			return false;
		if (w->nr_held == HELD_MAX &&
		    !give_back(&s->own, &w->held[--w->nr_held]))
			return false;
		w->held[w->nr_held++] = b;
		return true;
	}
	if (!w->nr_held)
		return empty_mailbox(w);
	i = (unsigned int)(xorshift(&w->rng) % w->nr_held);
	if (r < 75) {
		b = w->held[i];
		w->held[i] = w->held[--w->nr_held];
		return give_back(&s->own, &b);
	}
	if (r < 90 && s->n > 1) {
		/* Hand it to another thread, which frees it on its CPU. */
		to = &s->w[(w->id + 1 + xorshift(&w->rng) % (s->n - 1)) % s->n];
		pthread_mutex_lock(&to->mail_lock);
		if (to->nr_mail < MAILBOX) {
			to->mail[to->nr_mail++] = w->held[i];
			w->held[i] = w->held[--w->nr_held];
		}
		pthread_mutex_unlock(&to->mail_lock);
		return true;
	}
	return empty_mailbox(w);
}

static void *stress_thread(void *arg)
{
	struct worker *w = arg;
	unsigned long step;

	for (step = 0; step < steps_per_thread && !smp_failed_quiet(); step++)
		if (!stress_step(w))
			break;
	/* No more hand-offs after this: then free what each holds. */
	smp_barrier_wait(&w->s->barrier);
	empty_mailbox(w);
	while (w->nr_held)
		if (!give_back(&w->s->own, &w->held[--w->nr_held]))
			break;
	return NULL;
}

static bool stress(unsigned int n)
{
	struct stress s = { .n = n };

	if (!smp_machine(&s.own))
		return false;
	s.w = calloc(n, sizeof(*s.w));
	pthread_barrier_init(&s.barrier, NULL, n);
	for (unsigned int i = 0; i < n; i++) {
		s.w[i] = (struct worker){ .id = i, .s = &s,
					  .rng = base_seed * 7919 + i + 1 };
		pthread_mutex_init(&s.w[i].mail_lock, NULL);
	}
	for (unsigned int i = 0; i < n; i++)
		EXPECT(!pthread_create(&s.w[i].thread, NULL, stress_thread,
				       &s.w[i]), "thread %u", i);
	for (unsigned int i = 0; i < n; i++)
		smp_join(s.w[i].thread);
	pthread_barrier_destroy(&s.barrier);
	free(s.w);
	return all_back(&s.own);
}

static bool stress_2(void) { return stress(2); }
static bool stress_4(void) { return stress(4); }
static bool stress_8(void) { return stress(8); }
static bool stress_16(void) { return stress(16); }

/*
 * Blocks of @order the buddy lists can make once every cached block is
 * back and merged: what an exhaustion must yield.
 */
static unsigned long promised(unsigned int order)
{
	unsigned long n = 0;

	drain_all_pages();
	for (unsigned int k = order; k <= MAX_PAGE_ORDER; k++)
		n += nr_free_blocks(k) << (k - order);
	return n;
}

/* Holders: fill their caches with every cached order, then wait. */
struct holders {
	pthread_barrier_t go, filled, done;
	unsigned int rounds;
	uint64_t seed;
};

static void *holder_thread(void *arg)
{
	struct holders *h = arg;
	uint64_t rng = h->seed;
	struct page *p[64];
	unsigned int ord[64];

	for (unsigned int r = 0; r < h->rounds; r++) {
		smp_barrier_wait(&h->go);
		for (unsigned int i = 0; i < 64; i++) {
			ord[i] = (unsigned int)(xorshift(&rng) % NR_PCP_ORDERS);
			p[i] = alloc_pages(__GFP_NOWARN, ord[i]);
		}
		for (unsigned int i = 0; i < 64; i++)
			if (p[i])
				__free_pages(p[i], ord[i]);
		smp_barrier_wait(&h->filled);
		/* The main thread exhausts memory now; we hold cached pages. */
		smp_barrier_wait(&h->done);
	}
	return NULL;
}

static bool exhaust_one(unsigned int nr_holders)
{
	struct holders h = { .rounds = NR_PAGE_ORDERS, .seed = base_seed };
	pthread_t t[8];
	struct page **pages = calloc(NR_TOP * TOP_PAGES + 1, sizeof(*pages));
	struct owners own;

	if (!smp_machine(&own))
		return false;
	pthread_barrier_init(&h.go, NULL, nr_holders + 1);
	pthread_barrier_init(&h.filled, NULL, nr_holders + 1);
	pthread_barrier_init(&h.done, NULL, nr_holders + 1);
	for (unsigned int i = 0; i < nr_holders; i++)
		EXPECT(!pthread_create(&t[i], NULL, holder_thread, &h), "thread");
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long want = promised(o), got = 0, cached;

		smp_barrier_wait(&h.go);
		smp_barrier_wait(&h.filled);
		cached = pcp_pages_elsewhere();
		EXPECT(cached > 0, "order %u: other CPUs cache nothing", o);
		EXPECT(nr_free_pages() == managed, "free count");
		while ((pages[got] = alloc_pages(__GFP_NOWARN, o))) {
			EXPECT(owners_claim(&own, pages[got], o), "order %u", o);
			EXPECT(++got <= want, "order %u: more than %lu blocks", o,
			       want);
		}
		EXPECT(got == want, "order %u: %lu blocks, the counts promised "
		       "%lu (%lu pages were cached on other CPUs)", o, got, want,
		       cached);
		EXPECT(nr_free_pages() == 0, "order %u: %lu pages left", o,
		       nr_free_pages());
		while (got) {
			got--;
			EXPECT(owners_release(&own, pages[got], o), "release");
			__free_pages(pages[got], o);
		}
		smp_barrier_wait(&h.done);
	}
	for (unsigned int i = 0; i < nr_holders; i++)
		smp_join(t[i]);
	free(pages);
	return all_back(&own);
}

static bool exhaust_one_1_holder(void) { return exhaust_one(1); }
static bool exhaust_one_3_holders(void) { return exhaust_one(3); }

/* Everyone exhausts each order at once. */
struct together {
	pthread_barrier_t barrier;
	struct owners *own;
	unsigned int n;
	unsigned long got[16];
	struct page **pages[16];
};

struct together_arg {
	struct together *t;
	unsigned int id;
};

static void *together_thread(void *arg)
{
	struct together_arg *a = arg;
	struct together *t = a->t;
	struct page **pages = t->pages[a->id];

	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long got = 0;

		smp_barrier_wait(&t->barrier);	/* promised() is done */
		while ((pages[got] = alloc_pages(__GFP_NOWARN, o)))
			if (!owners_claim(t->own, pages[got++], o))
				break;
		t->got[a->id] = got;
		smp_barrier_wait(&t->barrier);	/* main counts */
		smp_barrier_wait(&t->barrier);
		while (got) {
			got--;
			owners_release(t->own, pages[got], o);
			__free_pages(pages[got], o);
		}
		smp_barrier_wait(&t->barrier);	/* all back */
	}
	return NULL;
}

static bool exhaust_together(unsigned int n)
{
	struct together t = { .n = n };
	struct together_arg args[16];
	pthread_t th[16];
	struct owners own;

	if (!smp_machine(&own))
		return false;
	t.own = &own;
	pthread_barrier_init(&t.barrier, NULL, n + 1);
	for (unsigned int i = 0; i < n; i++) {
		t.pages[i] = calloc(NR_TOP * TOP_PAGES + 1, sizeof(struct page *));
		args[i] = (struct together_arg){ &t, i };
		EXPECT(!pthread_create(&th[i], NULL, together_thread, &args[i]),
		       "thread");
	}
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long want = promised(o), sum = 0;

		smp_barrier_wait(&t.barrier);
		smp_barrier_wait(&t.barrier);
		for (unsigned int i = 0; i < n; i++)
			sum += t.got[i];
		if (sum != want)
			smp_fail("order %u: %u threads got %lu blocks together, "
				 "the counts promised %lu", o, n, sum, want);
		smp_barrier_wait(&t.barrier);
		smp_barrier_wait(&t.barrier);
	}
	for (unsigned int i = 0; i < n; i++) {
		smp_join(th[i]);
		free(t.pages[i]);
	}
	return all_back(&own);
}

static bool exhaust_together_2(void) { return exhaust_together(2); }
static bool exhaust_together_8(void) { return exhaust_together(8); }

/* A free refused as a double free, with the message, changing nothing. */
static bool refused_cached(struct page *p, unsigned int order,
			   const char *why)
{
	unsigned long free_before = nr_free_pages();
	unsigned long cached_before = pcp_count_pages(NULL);
	uint8_t state = p->state;
	char msg[160];

	console_clear();
	EXPECT(free_pages_checked(p, order) == FREE_REFUSED_DOUBLE_FREE,
	       "not refused as a double free");
	snprintf(msg, sizeof(msg), "refused free of pfn %#lx order %u: %s",
		 page_to_pfn(p), order, why);
	EXPECT(console_says(msg), "no \"%s\" on the console", msg);
	EXPECT(p->state == state && nr_free_pages() == free_before &&
	       pcp_count_pages(NULL) == cached_before, "state changed");
	EXPECT_SOUND();
	return true;
}

struct other_cpu {
	pthread_barrier_t barrier;
	struct page *p;
	unsigned int order;
};

static void *cache_one_and_wait(void *arg)
{
	struct other_cpu *c = arg;

	c->p = alloc_pages(0, c->order);
	__free_pages(c->p, c->order);
	smp_barrier_wait(&c->barrier);	/* cached here now */
	smp_barrier_wait(&c->barrier);	/* main has tried */
	return NULL;
}

static bool double_free_cached(void)
{
	struct owners own;

	if (!smp_machine(&own))
		return false;
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
		struct page *p = alloc_pages(0, o);
		struct other_cpu c = { .order = o };
		pthread_t t;
		char why[96];

		/* This CPU's own cache. */
		__free_pages(p, o);
		EXPECT(p->state == (PG_PCP | o), "order %u: cached", o);
		snprintf(why, sizeof(why), "double free (free block of order %u, "
			 "in a per-CPU list)", o);
		if (!refused_cached(p, o, why))
			return false;
		if (o) {
			snprintf(why, sizeof(why), "double free (inside the free "
				 "block at pfn %#lx order %u, in a per-CPU list)",
				 page_to_pfn(p), o);
			if (!refused_cached(p + 1, 0, why))
				return false;
		}
		/* Another CPU's cache, that CPU alive and holding it. */
		pthread_barrier_init(&c.barrier, NULL, 2);
		EXPECT(!pthread_create(&t, NULL, cache_one_and_wait, &c), "thread");
		smp_barrier_wait(&c.barrier);
		EXPECT(c.p->state == (PG_PCP | o), "order %u: cached there", o);
		snprintf(why, sizeof(why), "double free (free block of order %u, "
			 "in a per-CPU list)", o);
		if (!refused_cached(c.p, o, why))
			return false;
		smp_barrier_wait(&c.barrier);
		smp_join(t);
		pthread_barrier_destroy(&c.barrier);
	}
	return all_back(&own);
}

/*
 * The depot. A worker CPU takes more order-0 blocks than a list holds
 * and hands them here; this CPU frees them all, so its full list leaves
 * batches in the depot. A second worker, whose list is empty, gets its
 * block from the newest batch.
 */
struct depot_worker {
	struct page **pages;
	unsigned long n;
	unsigned int order;
};

static void *depot_take_many(void *arg)
{
	struct depot_worker *d = arg;

	for (unsigned long i = 0; i < d->n; i++)
		d->pages[i] = alloc_pages(0, d->order);
	return NULL;
}

static void *depot_take_one(void *arg)
{
	struct depot_worker *d = arg;

	d->pages[0] = alloc_pages(0, d->order);
	return NULL;
}

static bool depot_hands_batches_on(void)
{
	struct depot_worker many, one;
	struct page *newest[PCP_LIST_SLOTS], *got = NULL;
	unsigned long nr_newest, cached;
	struct pcp_depot *d;
	struct zone *zone;
	struct owners own;
	unsigned int batches;
	pthread_t t;
	char why[96];

	if (!smp_machine(&own))
		return false;
	many.n = 4UL * (unsigned long)pcp_high();
	many.order = 0;
	many.pages = calloc(many.n, sizeof(*many.pages));
	EXPECT(many.pages && pcp_batch() > 1, "batch %d", pcp_batch());
	EXPECT(!pthread_create(&t, NULL, depot_take_many, &many), "thread");
	smp_join(t);
	for (unsigned long i = 0; i < many.n; i++) {
		EXPECT(many.pages[i], "block %lu of %lu", i, many.n);
		EXPECT(owners_claim(&own, many.pages[i], 0), "block %lu", i);
		EXPECT(owners_release(&own, many.pages[i], 0), "block %lu", i);
		__free_pages(many.pages[i], 0);
	}
	zone = page_zone(many.pages[0]);
	d = &zone->pcp_depot;
	batches = d->nr;
	EXPECT(batches > 0, "no batch in the depot after %lu frees, high %d",
	       many.n, pcp_high());
	/* Still cached: counted as free, sound, a second free refused. */
	EXPECT(nr_free_pages() == managed, "%lu free pages, %lu handed off",
	       nr_free_pages(), managed);
	cached = pcp_count_pages(NULL);
	EXPECT(cached >= (unsigned long)d->blocks[0], "%lu cached pages",
	       cached);
	console_clear();
	show_pcp_lists();
	EXPECT(console_says("Depot: Node 0, zone"), "show_pcp_lists() does "
	       "not show the depot");
	EXPECT_SOUND();
	snprintf(why, sizeof(why), "double free (free block of order 0, in a "
		 "per-CPU list)");
	if (!refused_cached(pcp_depot_batch(zone, batches - 1)[0], 0, why))
		return false;
	/* A CPU with an empty list: its block comes from the newest batch. */
	nr_newest = d->blocks[batches - 1];
	memcpy(newest, pcp_depot_batch(zone, batches - 1),
	       nr_newest * sizeof(newest[0]));
	one.n = 1;
	one.order = 0;
	one.pages = &got;
	EXPECT(!pthread_create(&t, NULL, depot_take_one, &one), "thread");
	smp_join(t);
	EXPECT(d->nr == batches - 1, "%u batches after a refill, %u expected",
	       d->nr, batches - 1);
	EXPECT(got && got == newest[nr_newest - 1], "the block is not the "
	       "newest batch's top one");
	__free_pages(got, 0);
	/* The checker reads the depot: a bad entry is named. */
	if (d->nr) {
		struct page *keep = pcp_depot_batch(zone, 0)[0];

		keep->state = PG_FREE | 0;
		console_clear();
		EXPECT(page_alloc_check() > 0 && console_says("depot batch 0 "
		       "entry 0"), "a depot entry not cached");
		keep->state = PG_PCP | 0;
	}
	/* Two batches in one row of pointers: named too. */
	EXPECT(d->nr >= 2, "%u batches left, 2 wanted", d->nr);
	{
		uint8_t row = d->row[1];

		d->row[1] = d->row[0];
		console_clear();
		EXPECT(page_alloc_check() > 0 && console_says("depot batches 0 "
		       "and 1 share row"), "two batches in one row");
		d->row[1] = row;
	}
	EXPECT_SOUND();
	drain_all_pages();
	EXPECT(d->nr == 0, "%u batches after drain_all_pages()", d->nr);
	free(many.pages);
	return all_back(&own);
}

/*
 * A small machine (7168 pages: batch 1, a list of 57 pages, 7 blocks of
 * order 3): each free past a full list hands the depot one block. They
 * gather into the newest batch of their order, up to its 64 pages, so
 * that the depot's four batches are not filled by one block each; a CPU
 * whose list is empty takes a refill's worth (one block here) from the
 * top of the newest.
 */
#define SMALL_PAGES	7168UL

static bool depot_gathers_small_batches(void)
{
	const unsigned int order = 3;
	struct depot_worker many, one;
	struct page *got = NULL, *top;
	unsigned long overflow, blocks = 0;
	unsigned int list, room;
	struct pcp_depot *d;
	struct zone *zone;
	struct owners own;
	pthread_t t;

	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(STD_BASE, SMALL_PAGES * PAGE_SIZE) == 0, "bank");
	EXPECT(memblock_add(3 * SZ_1G, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	managed = nr_free_pages();
	owners_init(&own, PHYS_PFN(STD_BASE), PHYS_PFN(3 * SZ_1G + SZ_1M - STD_BASE));
	smp_fail_reset();
	drain_all_pages();
	got = alloc_pages(0, order);
	EXPECT(got, "a block of order %u", order);
	zone = page_zone(got);
	__free_pages(got, order);
	got = NULL;
	drain_all_pages();
	room = pcp_depot_batch_blocks(zone, order);
	list = (unsigned int)pcp_high() >> order;
	EXPECT(pcp_batch() == 1 && list > 1 && list < room,
	       "batch %d, high %d: %u blocks of order %u a list, %u a depot "
	       "batch", pcp_batch(), pcp_high(), list, order, room);
	overflow = 2UL * room;
	many.n = list + overflow;
	many.order = order;
	many.pages = calloc(many.n, sizeof(*many.pages));
	EXPECT(many.pages, "calloc");
	EXPECT(!pthread_create(&t, NULL, depot_take_many, &many), "thread");
	smp_join(t);
	for (unsigned long i = 0; i < many.n; i++) {
		EXPECT(many.pages[i], "block %lu of %lu", i, many.n);
		EXPECT(owners_claim(&own, many.pages[i], order), "block %lu", i);
		EXPECT(owners_release(&own, many.pages[i], order), "block %lu", i);
		__free_pages(many.pages[i], order);
	}
	EXPECT(page_zone(many.pages[0]) == zone, "blocks of two zones");
	d = &zone->pcp_depot;
	for (unsigned int i = 0; i < d->nr; i++)
		blocks += d->blocks[i];
	EXPECT(d->nr == 2 && d->order[0] == order &&
	       d->blocks[0] == room && d->blocks[1] == room,
	       "%lu blocks of order %u in %u depot batches (the first of %u) "
	       "after %lu frees onto a list of %u; %lu expected in 2, both "
	       "full", blocks, order, d->nr, d->blocks[0],
	       many.n, list, overflow);
	EXPECT_SOUND();
	/* A CPU with an empty list: a refill's worth from the newest's top. */
	top = pcp_depot_batch(zone, 1)[d->blocks[1] - 1];
	one.n = 1;
	one.order = order;
	one.pages = &got;
	EXPECT(!pthread_create(&t, NULL, depot_take_one, &one), "thread");
	smp_join(t);
	EXPECT(got == top && d->nr == 2 && d->blocks[1] == room - 1,
	       "the refill took %p (the newest batch's top: %p), leaving %u "
	       "batches, the newest of %u", (void *)got, (void *)top, d->nr,
	       d->blocks[1]);
	__free_pages(got, order);
	EXPECT_SOUND();
	drain_all_pages();
	EXPECT(d->nr == 0, "%u batches after drain_all_pages()", d->nr);
	EXPECT(nr_free_pages() == managed, "%lu free pages, %lu handed off",
	       nr_free_pages(), managed);
	EXPECT_SOUND();
	free(many.pages);
	owners_free(&own);
	return !smp_failed();
}

/*
 * A machine with room for it (1 GiB: managed / 128 above PCP_HIGH_MAX
 * pages) sets @high to PCP_HIGH_MAX, and each list holds @high pages'
 * worth up to its PCP_LIST_SLOTS blocks: 64 blocks of order 0, and 64 of
 * the highest cached order too, where a cap of 64 pages would hold 4.
 */
#define ROOMY_BYTES	SZ_1G

/* The roomy machine, handed off, its lists empty. */
static bool roomy_machine(void)
{
	machine_map(4 * SZ_1G);
	EXPECT(memblock_add(STD_BASE, ROOMY_BYTES) == 0, "bank");
	EXPECT(memblock_add(3 * SZ_1G + SZ_1G / 2, SZ_1M) == 0, "metadata bank");
	EXPECT(memblock_free_all() > 0, "hand-off");
	managed = nr_free_pages();
	smp_fail_reset();
	drain_all_pages();
	return true;
}

/* Every page back in the buddy lists once the lists are drained. */
static bool roomy_all_back(void)
{
	drain_all_pages();
	EXPECT(nr_free_pages() == managed, "%lu free pages, %lu handed off",
	       nr_free_pages(), managed);
	EXPECT_SOUND();
	return !smp_failed();
}

static bool lists_hold_high_pages_up_to_slots(void)
{
	const unsigned int top = NR_PCP_ORDERS - 1;
	const unsigned int orders[] = { 0, top };
	struct page *pages[PCP_LIST_SLOTS + 1];
	struct per_cpu_pages *pcp;

	if (!roomy_machine())
		return false;
	EXPECT(pcp_high() == PCP_HIGH_MAX, "high %d, %d expected on %lu pages",
	       pcp_high(), PCP_HIGH_MAX, managed);
	for (unsigned int k = 0; k < 2; k++) {
		unsigned int o = orders[k];

		for (unsigned int i = 0; i <= PCP_LIST_SLOTS; i++) {
			pages[i] = alloc_pages(0, o);
			EXPECT(pages[i], "order %u block %u", o, i);
		}
		drain_local_pages();
		pcp = this_zone_pcp(page_zone(pages[0]));
		EXPECT(pcp_list_max(pcp, o) == PCP_LIST_SLOTS,
		       "order %u: a list of %u blocks, high %d", o,
		       pcp_list_max(pcp, o), pcp->high);
		for (unsigned int i = 0; i < PCP_LIST_SLOTS; i++)
			__free_pages(pages[i], o);
		EXPECT(pcp->lists[o].nr == PCP_LIST_SLOTS,
		       "order %u: %lu blocks listed after %u frees", o,
		       pcp->lists[o].nr, PCP_LIST_SLOTS);
		EXPECT_SOUND();
		/* One more: a hand-off's worth leaves first. */
		__free_pages(pages[PCP_LIST_SLOTS], o);
		EXPECT(pcp->lists[o].nr == PCP_LIST_SLOTS + 1 -
		       pcp_handoff_blocks(page_zone(pages[0]), pcp, o),
		       "order %u: %lu blocks listed past a full list, batch %d",
		       o, pcp->lists[o].nr, pcp_batch());
		EXPECT_SOUND();
	}
	return roomy_all_back();
}

/*
 * A hand-off between a list and the zone counts blocks: on the roomy
 * machine (batch 64 pages), PCP_BATCH_MIN_BLOCKS blocks of order 3 at a
 * time, not 8, and a depot batch holds as many. So 256 blocks of order 3
 * allocated in a row, then freed, take the zone lock about 256 / 32
 * times each way, where 64 pages a hand-off took it 32 times.
 */
static bool handoffs_count_blocks(void)
{
	enum { N = 256 };
	const unsigned int order = 3;
	struct page *pages[N];
	unsigned long locks, most = N / PCP_BATCH_MIN_BLOCKS + 1;
	struct per_cpu_pages *pcp;
	struct zone *zone;

	if (!roomy_machine())
		return false;
	locks = zone_lock_acquisitions();
	for (unsigned int i = 0; i < N; i++) {
		pages[i] = alloc_pages(0, order);
		EXPECT(pages[i], "block %u of order %u", i, order);
	}
	locks = zone_lock_acquisitions() - locks;
	zone = page_zone(pages[0]);
	pcp = this_zone_pcp(zone);
	EXPECT(pcp_batch() >= (int)PCP_BATCH_MIN_BLOCKS &&
	       pcp_handoff_blocks(zone, pcp, order) == PCP_BATCH_MIN_BLOCKS &&
	       pcp_depot_batch_blocks(zone, order) == PCP_BATCH_MIN_BLOCKS,
	       "batch %d: hand-offs of %u blocks of order %u, depot batches "
	       "of %u, %u expected", pcp_batch(),
	       pcp_handoff_blocks(zone, pcp, order),
	       order, pcp_depot_batch_blocks(zone, order), PCP_BATCH_MIN_BLOCKS);
	EXPECT(locks <= most, "%u allocations of order %u took the zone lock "
	       "%lu times, %lu at most", N, order, locks, most);
	EXPECT_SOUND();
	locks = zone_lock_acquisitions();
	for (unsigned int i = 0; i < N; i++)
		__free_pages(pages[i], order);
	locks = zone_lock_acquisitions() - locks;
	EXPECT(locks <= most, "%u frees of order %u took the zone lock %lu "
	       "times, %lu at most", N, order, locks, most);
	return roomy_all_back();
}

/*
 * A CPU that holds cached pages and then neither allocates nor is away
 * (busy in a loop with no poll point) cannot be drained: the exhaustion
 * gets every page but those, after the bounded wait, and says so; the
 * checker says it could not stop that CPU. Nothing hangs.
 */
struct busy_cpu {
	bool cached, go;	/* atomics */
	unsigned int cpu;
};

static void *cache_then_spin(void *arg)
{
	struct busy_cpu *b = arg;
	struct page *p = alloc_pages(0, 0);

	__free_pages(p, 0);
	b->cpu = smp_processor_id();
	__atomic_store_n(&b->cached, true, __ATOMIC_RELEASE);
	host_busy_begin();
	while (!__atomic_load_n(&b->go, __ATOMIC_ACQUIRE))
		;
	host_busy_end();
	return NULL;
}

static bool busy_cpu_keeps_its_pages(void)
{
	uint64_t saved = smp_request_timeout_ns;
	struct busy_cpu b = { 0 };
	unsigned long want, got = 0, cached;
	struct page **pages;
	struct owners own;
	char msg[96];
	pthread_t t;

	if (!smp_machine(&own))
		return false;
	want = promised(0);
	pages = calloc(want + 1, sizeof(*pages));
	EXPECT(!pthread_create(&t, NULL, cache_then_spin, &b), "thread");
	while (!__atomic_load_n(&b.cached, __ATOMIC_ACQUIRE))
		usleep(100);
	cached = pcp_pages_elsewhere();
	EXPECT(cached > 0, "the busy CPU caches nothing");
	smp_request_timeout_ns = 100 * 1000 * 1000;
	console_clear();
	while ((pages[got] = alloc_pages(__GFP_NOWARN, 0)))
		EXPECT(++got <= want, "more than %lu pages", want);
	EXPECT(got == want - cached, "%lu pages, %lu promised less %lu cached "
	       "on the busy CPU", got, want, cached);
	snprintf(msg, sizeof(msg), "drain_all_pages: cpu %u keeps its %lu "
		 "cached pages", b.cpu, cached);
	EXPECT(console_says(msg), "no \"%s\"", msg);
	EXPECT(page_alloc_check() > 0 && console_says("did not stop"),
	       "the checker ran with a CPU it could not stop");
	smp_request_timeout_ns = saved;
	while (got)
		__free_pages(pages[--got], 0);
	free(pages);
	__atomic_store_n(&b.go, true, __ATOMIC_RELEASE);
	smp_join(t);
	return all_back(&own);
}

/*
 * A CPU that holds cached pages and then blocks in its
 * program's own wait (a plain barrier: it does not say it is away) is
 * held by the CPUs that need it (arch/host/cpu_hold.c): the checker stops
 * it at once, and the exhaustion drains it and gets every page promised.
 * With the hold gone, each would wait out the request timeout (2 s here)
 * and the exhaustion would come up short by what that CPU caches.
 */
struct blocked_cpu {
	pthread_barrier_t cached, done;
	unsigned int cpu;
};

static void *cache_then_block(void *arg)
{
	struct blocked_cpu *b = arg;
	struct page *p[8];

	for (unsigned int i = 0; i < 8; i++)
		p[i] = alloc_pages(0, i % NR_PCP_ORDERS);
	for (unsigned int i = 0; i < 8; i++)
		__free_pages(p[i], i % NR_PCP_ORDERS);
	b->cpu = smp_processor_id();
	pthread_barrier_wait(&b->cached);
	pthread_barrier_wait(&b->done);
	/* Back from the hold: its own lists again, with a block each way. */
	p[0] = alloc_pages(0, 0);
	__free_pages(p[0], 0);
	return NULL;
}

static bool blocked_cpu_gives_its_pages(void)
{
	uint64_t saved = smp_request_timeout_ns, took;
	struct blocked_cpu b = { 0 };
	unsigned long want, got = 0, cached;
	struct page **pages;
	struct owners own;
	bool checked, unanswered;
	pthread_t t;

	if (!smp_machine(&own))
		return false;
	pthread_barrier_init(&b.cached, NULL, 2);
	pthread_barrier_init(&b.done, NULL, 2);
	EXPECT(!pthread_create(&t, NULL, cache_then_block, &b), "thread");
	pthread_barrier_wait(&b.cached);
	cached = pcp_pages_elsewhere();
	smp_request_timeout_ns = 2000ULL * 1000 * 1000;
	console_clear();
	took = arch_clock_ns();
	checked = page_alloc_check() == 0;
	took = arch_clock_ns() - took;
	want = promised(0);
	pages = calloc(want + 1, sizeof(*pages));
	while (got <= want && (pages[got] = alloc_pages(__GFP_NOWARN, 0)))
		got++;
	unanswered = console_says("did not");
	smp_request_timeout_ns = saved;
	for (unsigned long i = got; i; i--)
		__free_pages(pages[i - 1], 0);
	free(pages);
	/* Let the thread go before any verdict: later cases need it gone. */
	pthread_barrier_wait(&b.done);
	smp_join(t);
	pthread_barrier_destroy(&b.cached);
	pthread_barrier_destroy(&b.done);
	EXPECT(cached > 0, "the blocked CPU caches nothing");
	EXPECT(checked, "a check with cpu %u blocked in a barrier", b.cpu);
	EXPECT(took < 1000ULL * 1000 * 1000, "the check took %llu ms: it "
	       "waited for cpu %u", (unsigned long long)(took / 1000000), b.cpu);
	EXPECT(got == want, "%lu pages of %lu promised, with %lu cached on "
	       "the blocked cpu %u", got, want, cached, b.cpu);
	EXPECT(!unanswered, "a request went unanswered");
	return all_back(&own);
}

static bool checker_sees_pcp(void)
{
	struct per_cpu_pages *pcp;
	struct owners own;
	struct page *p;
	unsigned long n;
	int high;

	if (!smp_machine(&own))
		return false;
	p = alloc_pages(0, 0);
	__free_pages(p, 0);
	pcp = this_zone_pcp(page_zone(p));
	n = pcp->lists[0].nr;
	high = pcp->high;
	EXPECT(n && pcp->lists[0].slot[n - 1] == p, "p on top");
	EXPECT_SOUND();

	pcp->lists[0].nr--;				/* a cached head unlisted */
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("cached heads"), "count");
	pcp->lists[0].nr++;
	p->state = PG_FREE | 0;			/* listed, but not cached */
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("not a cached block"),
	       "state");
	p->state = PG_PCP | 0;
	pcp->lists[0].slot[pcp->lists[0].nr - 1] = (struct page *)&own;	/* no page */
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("not a cached block"),
	       "entry");
	pcp->lists[0].slot[pcp->lists[0].nr - 1] = p;
	pcp->high = (int)n - 1;			/* above its limit */
	console_clear();
	EXPECT(page_alloc_check() > 0 && console_says("its limit is"), "limit");
	pcp->high = high;
	EXPECT_SOUND();
	return all_back(&own);
}

int main(void)
{
	static const struct host_test tests[] = {
		HOST_TEST(double_free_cached),
		HOST_TEST(checker_sees_pcp),
		HOST_TEST(depot_hands_batches_on),
		HOST_TEST(depot_gathers_small_batches),
		HOST_TEST(lists_hold_high_pages_up_to_slots),
		HOST_TEST(handoffs_count_blocks),
		HOST_TEST(busy_cpu_keeps_its_pages),
		HOST_TEST(blocked_cpu_gives_its_pages),
		HOST_TEST(exhaust_one_1_holder),
		HOST_TEST(exhaust_one_3_holders),
		HOST_TEST(exhaust_together_2),
		HOST_TEST(exhaust_together_8),
		HOST_TEST(stress_2),
		HOST_TEST(stress_4),
		HOST_TEST(stress_8),
		HOST_TEST(stress_16),
	};
	const char *s = getenv("BB_SEED");

	if (s)
		base_seed = strtoull(s, NULL, 0);
	s = getenv("BB_STEPS");
	if (s)
		steps_per_thread = strtoul(s, NULL, 0);
	return host_test_main(tests, sizeof(tests) / sizeof(tests[0]));
}
