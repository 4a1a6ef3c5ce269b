/*
 * slab_check.c - the slab allocator's invariant checker and its
 * /proc/slabinfo view (include/mm/slab.h). Both walk every cache and
 * every slab, and expect no CPU to be allocating meanwhile.
 */
#include <stdarg.h>
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

/* How many CPUs hold @s as their current slab, and which one last. */
static unsigned int current_holders(const struct slab *s, int *cpu_out)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu)
		if (per_cpu_ptr(&slab_pcpu, cpu)->c[s->cache->slot].slab == s) {
			*cpu_out = (int)cpu;
			n++;
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

static void check_slab(struct kmem_cache *cache, struct slab *s)
{
	const unsigned long *rmap = slab_rmap(s);
	unsigned long free = 0, remote = 0;
	struct page *page = virt_to_page(s);
	int state = slab_state_of(s), cpu = -1;
	unsigned int holders;

	if (!page || page->state != (PG_ALLOC | SLAB_ORDER) ||
	    virt_to_phys(s) & (SLAB_SIZE - 1)) {
		problem(cache, "slab %p is not an allocated, aligned block of "
			"order %d", (void *)s, SLAB_ORDER);
		return;
	}
	if (!slab_header_ok(s) || s->cache != cache ||
	    s->obj0 != (char *)s + cache->obj0) {
		problem(cache, "slab %p: header does not describe it", (void *)s);
		return;
	}
	for (unsigned int w = 0; w < cache->map_words; w++) {
		unsigned long m = s->map[w], r = rmap[w];
		unsigned long mask = slab_word_mask(cache, w);

		if ((m | r) & ~mask)
			problem(cache, "slab %p word %u: bits beyond its %u "
				"objects", (void *)s, w, cache->nr_objects);
		if (m & r)
			problem(cache, "slab %p word %u: objects both free and "
				"freed remotely (%#lx)", (void *)s, w, m & r);
		if (w < s->cursor && m)
			problem(cache, "slab %p: free objects below its cursor "
				"(word %u)", (void *)s, w);
		free += (unsigned long)__builtin_popcountl(m & mask);
		remote += (unsigned long)__builtin_popcountl(r & mask);
	}
	if (s->cursor >= cache->map_words)
		problem(cache, "slab %p: cursor %u past its %u words", (void *)s,
			s->cursor, cache->map_words);
	if (s->inuse != cache->nr_objects - free)
		problem(cache, "slab %p: %u objects in use by its count, %lu by "
			"its bitmap", (void *)s, s->inuse, cache->nr_objects - free);
	if (((atomic_long_read(&s->sc) & ((1L << 28) - 1)) - s->collected) %
	    (1L << 28) != (long)remote)
		problem(cache, "slab %p: remote frees counted and taken back "
			"disagree with the %lu in its remote bitmap", (void *)s,
			remote);
	holders = current_holders(s, &cpu);
	if (holders != (state == SLAB_ACTIVE))
		problem(cache, "slab %p in state %d is the current slab of %u "
			"CPUs", (void *)s, state, holders);
	if (state == SLAB_ACTIVE && s->owner != cpu)
		problem(cache, "slab %p: owner %d, current slab of CPU %d",
			(void *)s, s->owner, cpu);
	if ((state == SLAB_PARTIAL) != on_list(&cache->partial, &s->list))
		problem(cache, "slab %p in state %d is%s on the partial list",
			(void *)s, state, state == SLAB_PARTIAL ? " not" : "");
	if (state == SLAB_PARTIAL && free + remote == cache->nr_objects)
		problem(cache, "slab %p: empty, but kept on the partial list",
			(void *)s);
	if (state == SLAB_FULL && (free || remote))
		problem(cache, "slab %p: let go as full with %lu free objects",
			(void *)s, free + remote);
	if ((state == SLAB_SPARE) != (cache->spare == s))
		problem(cache, "slab %p in state %d: the spare is %p", (void *)s,
			state, (void *)cache->spare);
	if (state == SLAB_SPARE && free != cache->nr_objects)
		problem(cache, "slab %p: the spare has %lu objects in use",
			(void *)s, cache->nr_objects - free);
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
	kmem_cache_init();
	problems = 0;
	spin_lock(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		check_cache(container_of(p, struct kmem_cache, caches));
	spin_unlock(&slab_caches_lock);
	if (problems > SLAB_REPORT_LIMIT)
		pr_err("slab_check: %u problems in all\n", problems);
	return (int)problems;
}

unsigned long slab_nr_slabs(void)
{
	unsigned long n = 0;

	kmem_cache_init();
	spin_lock(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next)
		n += container_of(p, struct kmem_cache, caches)->nr_slabs;
	spin_unlock(&slab_caches_lock);
	return n;
}

void show_slabinfo(void)
{
	kmem_cache_init();
	printk("slabinfo - version: 2.1\n");
	printk("# name            <active_objs> <num_objs> <objsize> "
	       "<objperslab> <pagesperslab> : tunables <limit> <batchcount> "
	       "<sharedfactor> : slabdata <active_slabs> <num_slabs> "
	       "<sharedavail>\n");
	spin_lock(&slab_caches_lock);
	for (struct slab_list *p = slab_caches.next; p != &slab_caches; p = p->next) {
		struct kmem_cache *cache = container_of(p, struct kmem_cache, caches);
		unsigned long active = 0, active_slabs = 0;

		spin_lock(&cache->lock);
		for (struct slab_list *q = cache->slabs.next; q != &cache->slabs;
		     q = q->next) {
			unsigned long n = cache->nr_objects;
			struct slab *s = slab_entry(q, all);
			const unsigned long *rmap = slab_rmap(s);

			for (unsigned int w = 0; w < cache->map_words; w++)
				n -= (unsigned long)__builtin_popcountl(
					READ_ONCE(s->map[w]) |
					__atomic_load_n(&rmap[w], __ATOMIC_RELAXED));
			active += n;
			active_slabs += n != 0;
		}
		printk("%-17s %6lu %6lu %6u %4u %4lu : tunables %4u %4u %4u : "
		       "slabdata %6lu %6lu %6u\n", cache->name, active,
		       cache->nr_slabs * cache->nr_objects, cache->size,
		       cache->nr_objects, SLAB_PAGES, 0, 0, 0, active_slabs,
		       cache->nr_slabs, 0);
		spin_unlock(&cache->lock);
	}
	spin_unlock(&slab_caches_lock);
	printk("# large kmalloc: %lu pages\n", slab_nr_large_pages());
}
