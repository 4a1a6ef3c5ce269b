/*
 * slab_large.c - kmalloc() above KMALLOC_MAX_CACHE_SIZE: whole pages from
 * the page allocator (whose small orders come from this CPU's page cache),
 * and a mark in slab_tab on the first unit (SLAB_TAB_LARGE | order, the
 * order of the block the pages came from), so that kfree() knows the
 * pages are a large kmalloc and refuses pages that alloc_pages() handed
 * to someone else, an interior pointer, or a second free. A size that is
 * not a power of two of pages takes only the pages it needs
 * (alloc_pages_exact(): 9 pages for 36 KiB, not 16), and the run's
 * length in pages goes in the unit's slab_tab.obj entry; without that
 * array (the table in chunks), the whole block. No lock: the allocating
 * CPU owns the unit's byte and entry until the pages are handed out;
 * kfree() clears the byte with a compare-and-swap, so of two racing frees
 * exactly one frees them.
 */
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include "slab_state.h"

/* Pages of large blocks counted on CPUs that went away (atomic add). */
static long large_pages_gone;

/*
 * This CPU's count: only it writes its own (the cpu-dead hook runs on the
 * CPU going away), other CPUs read it (slab_nr_large_pages()): a plain
 * read and a single store.
 */
static void large_pages_add(long n)
{
	long *v = &this_cpu_ptr(&slab_pcpu)->large_pages;

	WRITE_ONCE(*v, *v + n);
}

/* @t's unit's index in slab_tab.obj. */
static unsigned long tab_unit(const uint8_t *t)
{
	return (unsigned long)(t - slab_tab.tab);
}

void *kmalloc_large(size_t size, gfp_t gfp)
{
	int order = get_order(size);
	unsigned long unit_pages, nr;
	struct page *page;
	bool exact;
	void *p;
	uint8_t *t;

	if (order > MAX_PAGE_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("kmalloc: %zu bytes is above KMALLOC_MAX_SIZE "
				"(%lu): refused\n", size, KMALLOC_MAX_SIZE);
		return NULL;
	}
	if (!smp_load_acquire(&slab_tab.units))
		return NULL;
	/* A block owns its table unit alone: at least one unit long. */
	if ((unsigned int)order < slab_tab.min_order)
		order = (int)slab_tab.min_order;
	/* A run: whole units, so that no other block shares its last one. */
	unit_pages = 1UL << slab_tab.min_order;
	nr = ((size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	nr = (nr + unit_pages - 1) & ~(unit_pages - 1);
	exact = slab_tab.obj && nr < (1UL << order);
	for (int pass = 0; pass < 2; pass++) {
		gfp_t g = pass ? gfp : gfp | __GFP_NOWARN;

		/* Exhausted: give back the empty slabs everywhere, retry. */
		if (pass)
			slab_shrink_everywhere();
		if (exact) {
			p = alloc_pages_exact(nr << PAGE_SHIFT, g);
		} else {
			page = alloc_pages(g, (unsigned int)order);
			p = page ? page_address(page) : NULL;
		}
		if (p)
			break;
	}
	if (!p)
		return NULL;
	/* At most one lookup in the page map: the linear map gives the rest. */
	t = slab_tab_entry(virt_to_phys(p));
	if (slab_tab.obj)
		WRITE_ONCE(slab_tab.obj[tab_unit(t)], (uint16_t)(exact ? nr : 0));
	WRITE_ONCE(*t, (uint8_t)(SLAB_TAB_LARGE | order));
	large_pages_add(exact ? (long)nr : 1L << order);
	return p;
}

/* The pages of the large kmalloc whose first unit's byte is @t, value @v. */
static unsigned long large_pages_of(const uint8_t *t, uint8_t v)
{
	unsigned long nr = slab_tab.obj ? READ_ONCE(slab_tab.obj[tab_unit(t)]) : 0;

	return nr ? nr : 1UL << (v & ~SLAB_TAB_LARGE);
}

/* The table byte of the large block starting at @p, or NULL. */
static uint8_t *large_entry(const void *p, uint8_t *v)
{
	phys_addr_t phys = virt_to_phys(p);
	uint8_t *t;

	if (phys & (((phys_addr_t)1 << slab_tab.shift) - 1))
		return NULL;
	t = slab_tab_entry(phys);
	if (!t)
		return NULL;
	*v = READ_ONCE(*t);
	return (*v & SLAB_TAB_LARGE) ? t : NULL;
}

/*
 * Clear table byte @t if it still holds @v. A compare-and-swap of the
 * aligned 32-bit word around it (not every target has a byte-wide one):
 * a neighbour's byte changing meanwhile only makes it try again.
 */
static bool tab_clear_if(uint8_t *t, uint8_t v)
{
	uint32_t *w = (uint32_t *)((uintptr_t)t & ~(uintptr_t)3);
	unsigned int at = (unsigned int)((uintptr_t)t & 3);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	unsigned int sh = (3 - at) * 8;
#else
	unsigned int sh = at * 8;
#endif
	uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);

	do {
		if (((old >> sh) & 0xff) != v)
			return false;
	} while (!__atomic_compare_exchange_n(w, &old, old & ~(0xffU << sh),
					      false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

int kfree_large(const void *p)
{
	uint8_t v, *t = large_entry(p, &v);
	unsigned int order;
	unsigned long nr;

	if (!t || !tab_clear_if(t, v))
		return 0;
	/* Ours alone now: the byte is clear, the pages not yet given back. */
	order = v & ~SLAB_TAB_LARGE;
	nr = large_pages_of(t, v);
	large_pages_add(-(long)nr);
	if (nr == 1UL << order) {
		__free_pages(virt_to_page(p), order);
		return 1;
	}
	WRITE_ONCE(slab_tab.obj[tab_unit(t)], (uint16_t)0);
	free_pages_exact((void *)p, nr << PAGE_SHIFT);
	return 1;
}

size_t ksize_large(const void *p)
{
	uint8_t v, *t = large_entry(p, &v);

	return t ? large_pages_of(t, v) << PAGE_SHIFT : 0;
}

/* A CPU goes away: keep its count. */
void slab_large_cpu_dead(unsigned int cpu)
{
	struct slab_pcpu *pc = per_cpu_ptr(&slab_pcpu, cpu);

	__atomic_fetch_add(&large_pages_gone, pc->large_pages, __ATOMIC_RELAXED);
	WRITE_ONCE(pc->large_pages, 0);
}

unsigned long slab_nr_large_pages(void)
{
	long n = __atomic_load_n(&large_pages_gone, __ATOMIC_RELAXED);
	unsigned int cpu;

	for_each_online_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(&slab_pcpu, cpu)->large_pages);
	return n < 0 ? 0 : (unsigned long)n;
}

void slab_large_reset(void)
{
	large_pages_gone = 0;
}
