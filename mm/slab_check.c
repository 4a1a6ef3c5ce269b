/*
 * slab_check.c - the slab allocator's invariant checker and its
 * /proc/slabinfo view (include/mm/slab.h). Both walk every cache and
 * every slab, other CPUs' current and partial slabs included, and hold
 * every other CPU still meanwhile (smp_stop_others(), as
 * page_alloc_check() does): they may run while other CPUs allocate.
 */
#include <stdarg.h>
#include <lib/bitops.h>
#include <lib/printk.h>
#include "slab_state.h"

#define SLAB_REPORT_LIMIT	16

static unsigned int problems;

static void __printf(2, 3) problem(const struct kmem_cache *cache,
				   const char *fmt, ...)
{
	va_list ap;

	if (problems++ >= SLAB_REPORT_LIMIT)
		return;
	pr_err("slab_check: cache %s: ", cache->name);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

/*
 * How many times CPUs hold @s, as their current slab or on their partial
 * list, and which CPU last; *@current: whether as that CPU's current one.
 */
static unsigned int current_holders(const struct slab *s, int *cpu_out,
				    bool *current)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu) {
		struct slab_pcpu *pc = per_cpu_ptr(&slab_pcpu, cpu);

		if (cpu_slab(&pc->c[s->cache->slot]) == s) {
			*cpu_out = (int)cpu;
			*current = true;
			n++;
		}
		for (int i = 0; i < SLAB_CPU_PARTIAL; i++) {
			if (pc->partial[s->cache->slot][i] == s) {
				*cpu_out = (int)cpu;
				*current = false;
				n++;
			}
		}
	}
	return n;
}

static bool on_list(const struct slab_list *head, const struct slab_list *node)
{
	for (const struct slab_list *p = head->next; p != head; p = p->next)
		if (p == node)
			return true;
	return false;
}

/* The table must name @s over all its units, and nothing else there. */
static bool tab_describes(const struct kmem_cache *cache, const struct slab *s)
{
	uint8_t *t = slab_tab_entry(virt_to_phys(s));
	unsigned long units = 1UL << (cache->order - slab_tab.min_order);

	if (!t)
		return false;
	for (unsigned long i = 0; i < units; i++)
		if (t[i] != SLAB_TAB_SLAB(cache->order + PAGE_SHIFT) ||
		    (slab_tab.obj && slab_tab.obj[t - slab_tab.tab + i] !=
		     slab_obj_entry(cache)))
			return false;
	return true;
}

static void check_slab(struct kmem_cache *cache, struct slab *s)
{
	unsigned long free = 0, remote = 0;
	struct page *page = virt_to_page(s);
	int state = slab_state_of(s), cpu = -1;
	bool current = false;
	unsigned int holders;

	if (!page || page->state != (PG_ALLOC | cache->order) ||
	    virt_to_phys(s) & (slab_bytes(cache) - 1)) {
		problem(cache, "slab %p is not an allocated, aligned block of "
			"order %u", (void *)s, cache->order);
		return;
	}
	if (!slab_header_ok(s) || s->cache != cache) {
		problem(cache, "slab %p: header does not describe it", (void *)s);
		return;
	}
	if (!tab_describes(cache, s))
		problem(cache, "slab %p: the slab table does not name it over "
			"its %lu bytes", (void *)s, slab_bytes(cache));
	for (unsigned int w = 0; w < cache->map_words; w++) {
		unsigned long a = *slab_aword(s, w), f = *slab_fword(s, w);
		unsigned long r = *slab_rword(s, w), m = a | f;
		unsigned long mask = slab_word_mask(cache, w);

		if ((m | r) & ~mask)
			problem(cache, "slab %p word %u: bits outside its "
				"objects %u..%u", (void *)s, w, cache->first,
				cache->nr_objects - 1);
		if (a & f)
			problem(cache, "slab %p word %u: objects both ready "
				"and freed (%#lx)", (void *)s, w, a & f);
		if (m & r)
			problem(cache, "slab %p word %u: objects both free and "
				"freed remotely (%#lx)", (void *)s, w, m & r);
		free += hweight_long(m & mask);
		remote += hweight_long(r & mask);
	}
	if (((atomic_long_read(slab_sc(s)) & ((1L << 28) - 1)) -
	     slab_remote(s)->collected) %
	    (1L << 28) != (long)remote)
		problem(cache, "slab %p: remote frees counted and taken back "
			"disagree with the %lu in its remote words", (void *)s,
			remote);
	holders = current_holders(s, &cpu, &current);
	if (holders != (state == SLAB_ACTIVE))
		problem(cache, "slab %p in state %d is held by CPUs %u times",
			(void *)s, state, holders);
	if (state == SLAB_ACTIVE && s->owner != cpu)
		problem(cache, "slab %p: owner %d, held by CPU %d",
			(void *)s, s->owner, cpu);
	if (state == SLAB_ACTIVE && holders == 1) {
		struct slab_pcpu *pc = per_cpu_ptr(&slab_pcpu, (unsigned int)cpu);
		struct kmem_cache_cpu *c = &pc->c[cache->slot];
		uintptr_t at = (uintptr_t)c->word - (uintptr_t)s->map;
		unsigned long w = (unsigned long)(at / (SLAB_MAP_LONGS * sizeof(long)));

		if (current &&
		    ((uintptr_t)c->word < (uintptr_t)s->map ||
		     w >= cache->map_words || at % (SLAB_MAP_LONGS * sizeof(long)) ||
		     c->base != (char *)slab_object(s, w * 64)))
			problem(cache, "slab %p: CPU %d's cursor is not one of "
				"its %u words", (void *)s, cpu, cache->map_words);
		if (s->owner_pc != pc)
			problem(cache, "slab %p: held by CPU %d, not marked "
				"as its", (void *)s, cpu);
	} else if (s->owner_pc) {
		problem(cache, "slab %p in state %d marked as a CPU's current "
			"slab", (void *)s, state);
	}
	if ((state == SLAB_PARTIAL) != on_list(&cache->partial, &s->list))
		problem(cache, "slab %p in state %d is%s on the partial list",
			(void *)s, state, state == SLAB_PARTIAL ? " not" : "");
	if (state == SLAB_PARTIAL && free + remote == slab_capacity(cache))
		problem(cache, "slab %p: empty, but kept on the partial list",
			(void *)s);
	if (state == SLAB_FULL && (free || remote >= cache->full_relist))
		problem(cache, "slab %p: let go as full with %lu free objects "
			"(it is listed at %u)", (void *)s, free + remote,
			cache->full_relist);
	if ((state == SLAB_SPARE) != (cache->spare == s))
		problem(cache, "slab %p in state %d: the spare is %p", (void *)s,
			state, (void *)cache->spare);
	if (state == SLAB_SPARE && free != slab_capacity(cache))
		problem(cache, "slab %p: the spare has %lu objects in use",
			(void *)s, slab_capacity(cache) - free);
	if (state < SLAB_ACTIVE || state > SLAB_SPARE)
		problem(cache, "slab %p: state %d", (void *)s, state);
	if (CONFIG_SLAB_DEBUG)
		problems += (unsigned int)slab_debug_check_slab(s);
}

static void check_cache(struct kmem_cache *cache)
{
	unsigned long slabs = 0, partial = 0;

	spin_lock(&cache->lock);
	for (struct slab_list *p = cache->slabs.next; p != &cache->slabs;
	     p = p->next) {
		check_slab(cache, slab_entry(p, all));
		if (++slabs > (1UL << 40))
			break;
	}
	for (struct slab_list *p = cache->partial.next; p != &cache->partial;
	     p = p->next)
		partial++;
	if (slabs != cache->nr_slabs || partial != cache->nr_partial)
		problem(cache, "%lu slabs and %lu partial listed, counts say "
			"%lu and %lu", slabs, partial, cache->nr_slabs,
			cache->nr_partial);
	spin_unlock(&cache->lock);
}

int slab_check(void)
{
	unsigned int missed;

	if (!slab_setup())
		return 0;	/* no cache, no slab: nothing to break */
	problems = 0;
	/*
	 * The cache list first, waiting with polling (a stopper may be
	 * stopping this CPU): no CPU stopped below then holds it. Then every
	 * other CPU still (at a poll point, which no CPU reaches inside a
	 * cache->lock section, or away): their slabs and cursors at rest.
	 */
	spin_lock_polling(&slab_caches_lock);
	missed = smp_stop_others(NULL);
	if (missed) {
		smp_resume_others();
		spin_unlock(&slab_caches_lock);
		pr_err("slab_check: %u CPU%s did not stop: nothing checked\n",
		       missed, missed > 1 ? "s" : "");
		return (int)missed;
	}
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		check_cache(container_of(p, struct kmem_cache, caches));
	smp_resume_others();
	spin_unlock(&slab_caches_lock);
	if (problems > SLAB_REPORT_LIMIT)
		pr_err("slab_check: %u problems in all\n", problems);
	return (int)problems;
}

unsigned long slab_nr_slabs(void)
{
	unsigned long n = 0;

	if (!slab_setup())
		return 0;
	spin_lock_polling(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		n += container_of(p, struct kmem_cache, caches)->nr_slabs;
	spin_unlock(&slab_caches_lock);
	return n;
}

unsigned long slab_nr_pages(void)
{
	unsigned long n = 0;

	if (!slab_setup())
		return 0;
	spin_lock_polling(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next) {
		const struct kmem_cache *c = container_of(p, struct kmem_cache, caches);

		n += READ_ONCE(c->nr_slabs) << c->order;
	}
	spin_unlock(&slab_caches_lock);
	return n + slab_nr_large_pages();
}

void show_slabinfo(void)
{
	unsigned int missed;

	printk("slabinfo - version: 2.1\n");
	printk("# name            <active_objs> <num_objs> <objsize> "
	       "<objperslab> <pagesperslab> : tunables <limit> <batchcount> "
	       "<sharedfactor> : slabdata <active_slabs> <num_slabs> "
	       "<sharedavail>\n");
	if (!slab_setup()) {
		printk("# no caches: %s\n", SLAB_NOT_SET_UP);
		return;
	}
	/* As slab_check(): the cache list, then every other CPU still. */
	spin_lock_polling(&slab_caches_lock);
	missed = smp_stop_others(NULL);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next) {
		struct kmem_cache *cache = container_of(p, struct kmem_cache, caches);
		unsigned long active = 0, active_slabs = 0;

		spin_lock(&cache->lock);
		for (struct slab_list *q = cache->slabs.next; q != &cache->slabs;
		     q = q->next) {
			unsigned long n = slab_capacity(cache);
			struct slab *s = slab_entry(q, all);

			for (unsigned int w = 0; w < cache->map_words; w++)
				n -= hweight_long(
					slab_owner_free(s, w) |
					__atomic_load_n(slab_rword(s, w),
							__ATOMIC_RELAXED));
			active += n;
			active_slabs += n != 0;
		}
		printk("%-17s %6lu %6lu %6u %4u %4lu : tunables %4u %4u %4u : "
		       "slabdata %6lu %6lu %6u\n", cache->name, active,
		       cache->nr_slabs * slab_capacity(cache), cache->size,
		       slab_capacity(cache), 1UL << cache->order, 0, 0, 0,
		       active_slabs, cache->nr_slabs, 0);
		spin_unlock(&cache->lock);
	}
	smp_resume_others();
	spin_unlock(&slab_caches_lock);
	if (missed)
		printk("# %u CPU%s did not stop: their counts may have moved\n",
		       missed, missed > 1 ? "s" : "");
	printk("# large kmalloc: %lu pages\n", slab_nr_large_pages());
}
