/*
 * slab_smp.c - kmalloc and kmem_cache on every CPU at once.
 *
 *   slab_every_cpu_at_once   every CPU (on_each_cpu) allocates objects of
 *                            every kmalloc class and of a shared cache and
 *                            swaps them through one table with the others,
 *                            so that most objects are freed on another CPU
 *                            than the one that allocated them. Ownership
 *                            lives in each object's first word, changed
 *                            only by atomic exchange: an allocation that
 *                            finds the word still owned, or a free that
 *                            finds it not owned by a live holder, is an
 *                            object handed out twice. Then every slab is
 *                            given back and the counts, page_alloc_check()
 *                            and slab_check() are as before.
 *                            The classes are the smallest ones whose
 *                            slabs, one of each per CPU, fit in a quarter
 *                            of free memory: with 64K pages a kmalloc-32768
 *                            slab is 4 MiB, and eight CPUs owning one each
 *                            of every class would need more than 64 MiB.
 * A machine with one CPU skips it.
 */
#include <lib/printk.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include "../../mm/slab_state.h"
#include "buddy_check.h"

#define SMP_TABLE	512
#define SMP_ROUNDS	3000
#define OWNED		0x4f574e4544000000ULL	/* "OWNED" and CPU, round */
#define OWNED_MASK	0xffffffffff000000ULL
#define FREED		0x4652454544464545ULL

static struct {
	void *table[SMP_TABLE];		/* atomic exchange only */
	struct kmem_cache *cache;
	unsigned int nr_classes;	/* kmalloc classes used: 8 << 0.. */
	unsigned int errors;		/* atomic */
	void *bad;			/* the first object handed out twice */
} smp;

static void handed_twice(void *p)
{
	if (__atomic_fetch_add(&smp.errors, 1, __ATOMIC_SEQ_CST) == 0)
		smp.bad = p;
}

static void give_back(void *p)
{
	uint64_t old = __atomic_exchange_n((uint64_t *)p, FREED, __ATOMIC_SEQ_CST);

	if ((old & OWNED_MASK) != OWNED)
		handed_twice(p);
	if (ksize(p) == 24)
		kmem_cache_free(smp.cache, p);
	else
		kfree(p);
}

static void every_cpu(void *arg)
{
	unsigned int cpu = smp_processor_id();
	uint64_t rng = cpu * 0x9e3779b97f4a7c15ULL + 1;

	(void)arg;
	for (unsigned int i = 0; i < SMP_ROUNDS; i++) {
		unsigned int k = (unsigned int)(rng >> 40) % (smp.nr_classes + 1);
		void *p, *old;
		uint64_t was;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		p = k == smp.nr_classes ? kmem_cache_alloc(smp.cache, GFP_KERNEL)
					: kmalloc(8UL << k, GFP_KERNEL);
		if (!p) {
			handed_twice(NULL);
			return;
		}
		was = __atomic_exchange_n((uint64_t *)p, OWNED | cpu << 16 | (i & 0xffff),
					  __ATOMIC_SEQ_CST);
		if ((was & OWNED_MASK) == OWNED)
			handed_twice(p);
		old = __atomic_exchange_n(&smp.table[(rng >> 20) % SMP_TABLE], p,
					  __ATOMIC_SEQ_CST);
		if (old)
			give_back(old);
	}
}

/*
 * How many kmalloc classes, from the smallest, the test can use: every
 * CPU may own a slab of each at once, and their pages (with the test
 * cache's) stay within a quarter of free memory.
 */
static unsigned int classes_that_fit(void)
{
	unsigned long budget = nr_free_pages() / 4 / num_online_cpus();
	unsigned long pages = 1UL << smp.cache->order;
	unsigned int k;

	for (k = 0; k < NR_KMALLOC_CACHES; k++) {
		pages += 1UL << kmalloc_caches[k].order;
		if (pages > budget)
			break;
	}
	return k;
}

static void shrink_here(void *arg)
{
	(void)arg;
	kmem_cache_shrink_all();
}

SELFTEST(slab_every_cpu_at_once, STAGE_SLAB)
{
	struct buddy_counts before;
	int problems;

	if (num_online_cpus() < 2)
		return selftest_skip("one CPU online");
	on_each_cpu(shrink_here, NULL, true);
	buddy_counts_take(&before);
	smp.cache = kmem_cache_create("selftest-smp", 24, 0, 0, NULL);
	SELFTEST_EXPECT(smp.cache, "kmem_cache_create");
	smp.nr_classes = classes_that_fit();
	if (!smp.nr_classes) {
		kmem_cache_destroy(smp.cache);
		return selftest_skip("%lu free pages: no room for a slab of "
				     "the smallest class on each of %u CPUs",
				     nr_free_pages(), num_online_cpus());
	}
	on_each_cpu(every_cpu, NULL, true);
	SELFTEST_EXPECT(!smp.errors, "%u objects handed out twice or not at "
			"all (the first: %p)", smp.errors, smp.bad);
	problems = slab_check();
	SELFTEST_EXPECT(!problems, "slab_check() found %d problems with every "
			"CPU's objects held", problems);
	for (unsigned int i = 0; i < SMP_TABLE; i++)
		if (smp.table[i]) {
			give_back(smp.table[i]);
			smp.table[i] = NULL;
		}
	SELFTEST_EXPECT(!smp.errors, "an object handed out twice");
	kmem_cache_destroy(smp.cache);
	on_each_cpu(shrink_here, NULL, true);
	problems = slab_check();
	SELFTEST_EXPECT(!problems, "slab_check() found %d problems", problems);
	SELFTEST_EXPECT(!slab_nr_slabs(), "%lu slabs still held", slab_nr_slabs());
	printk("# slab_every_cpu_at_once: %u CPUs, %u objects each, sizes 8 "
	       "to %lu and %u\n", num_online_cpus(), SMP_ROUNDS,
	       8UL << (smp.nr_classes - 1), kmem_cache_size(smp.cache));
	return buddy_restored(&before, "after every CPU");
}
