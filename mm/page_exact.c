/*
 * page_exact.c - alloc_pages_exact() and free_pages_exact(), with Linux's
 * names and meanings: a run of whole pages whose length is not a power of
 * two. The block of the next order up is cut into naturally aligned
 * blocks, the binary digits of the run's length, and the blocks past the
 * run go back at once: a 36 KiB run holds 9 pages (8 + 1), not 16.
 *
 * The cut writes head bytes only (PG_ALLOC | order) into pages that were
 * TAIL of a block this caller holds alone: no lock is needed, and a merge
 * elsewhere that reads one of them sees an allocated head or a tail,
 * never a free one. Every piece gets its head before any is freed, so at
 * each step the map describes whole allocated blocks.
 *
 * The pieces go back to the buddy lists, not to this CPU's lists, under
 * one acquisition of the zone lock: the tail at the cut, the run when it
 * is freed. So they merge at once, with each other and with the rest of
 * the block: a run that comes back leaves its whole block free for the
 * next one, where pieces cached one by one (a list per order) would wait
 * there unmerged while the next run splits another block. The block to
 * cut comes from the buddy lists too (__GFP_BUDDY_ONLY), even at an order
 * the CPU's lists cache: taken from them, it would leave its buddies
 * there, which the run's pieces could not merge with, and each refill
 * would split another block for runs that never come back to the lists.
 * A run that is a whole block (a power of two of pages) is an ordinary
 * block both ways: the CPU's lists first, when its order is cached.
 */
#include <lib/printk.h>
#include <mm/mm.h>
#include "page_state.h"

/*
 * The order of the piece at page @i of a run being cut, which ends at
 * page @end: as large as @i's alignment and the room left allow.
 */
static unsigned int piece_order(unsigned long i, unsigned long end)
{
	unsigned int o = 63U - (unsigned int)__builtin_clzl(end - i);

	if (i && (unsigned int)__builtin_ctzl(i) < o)
		o = (unsigned int)__builtin_ctzl(i);
	return o;
}

void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	unsigned long nr = (size + PAGE_SIZE - 1) >> PAGE_SHIFT, end, i;
	unsigned int order, o;
	struct zone *zone;
	struct page *page;

	if (!size)
		return NULL;
	order = (unsigned int)get_order(size);
	end = 1UL << order;
	/* alloc_pages() refuses an order too large. */
	page = alloc_pages(nr == end ? gfp : gfp | __GFP_BUDDY_ONLY, order);
	if (!page)
		return NULL;
	if (nr == end)
		return page_address(page);
	for (i = 0; i < end; i += 1UL << o) {
		o = piece_order(i, i < nr ? nr : end);
		set_pg_state(page + i, PG_ALLOC | o);
	}
	/* The block is ours: its pieces are one zone's, their heads good. */
	zone = map_zone(page);
	zone_lock(zone);
	for (i = nr; i < end; i += 1UL << o) {
		o = piece_order(i, end);
		__free_one_page(zone, page + i, o);
	}
	zone_unlock(zone);
	return page_address(page);
}

/*
 * Free the checked pieces [0, @n) of a run to the buddy lists under one
 * zone-lock acquisition, when they are all one zone's and (under the lock,
 * against a racing free) still allocated heads. Return: false, with
 * nothing freed, otherwise.
 */
static bool free_pieces_locked(struct page *const *piece,
			       const unsigned int *order, unsigned int n)
{
	struct zone *zone = map_zone(piece[0]);
	unsigned int k;

	for (k = 1; k < n; k++)
		if (map_zone(piece[k]) != zone)
			return false;
	zone_lock(zone);
	for (k = 0; k < n; k++)
		if (pg_state(piece[k]) != (PG_ALLOC | order[k])) {
			zone_unlock(zone);
			return false;
		}
	while (n--)
		__free_one_page(zone, piece[n], order[n]);
	zone_unlock(zone);
	return true;
}

void free_pages_exact(void *virt, size_t size)
{
	unsigned long nr = (size + PAGE_SIZE - 1) >> PAGE_SHIFT, pfn, i;
	struct page *page, *piece[NR_PAGE_ORDERS];
	unsigned int o, order[NR_PAGE_ORDERS], n = 0;

	if (!virt || !nr)
		return;
	page = virt_to_page(virt);
	if (!page || ((uintptr_t)virt & (PAGE_SIZE - 1))) {
		/* free_pages() says why: out of range or misaligned. */
		free_pages((unsigned long)virt, piece_order(0, nr));
		return;
	}
	/*
	 * Every piece is checked before any is freed, each found by its pfn
	 * (a size too large may run past the block, even past memory): a
	 * wrong size or a pointer that is no such run changes nothing, and
	 * the first bad piece is refused, with the reason, by the page
	 * allocator's own checks (an order above MAX_PAGE_ORDER matches no
	 * state byte). A run's pieces are the binary digits of its length,
	 * each at most MAX_PAGE_ORDER: NR_PAGE_ORDERS of them at most.
	 */
	pfn = page_to_pfn(page);
	for (i = 0; i < nr; i += 1UL << o) {
		struct page *p = pfn_to_page(pfn + i);

		o = piece_order(i, nr);
		/* Past MAX_PAGE_ORDER the state check below has refused. */
		if (n == NR_PAGE_ORDERS)
			panic("free_pages_exact: a run of more than %d pieces",
			      NR_PAGE_ORDERS);
		if (!p || pg_state(p) != (PG_ALLOC | o)) {
			if (p)
				free_pages_checked(p, o);
			else
				free_pages((unsigned long)virt + (i << PAGE_SHIFT), o);
			return;
		}
		piece[n] = p;
		order[n++] = o;
	}
	/* A whole block: freed as alloc_pages() gave it. */
	if (n == 1) {
		__free_pages(piece[0], order[0]);
		return;
	}
	/*
	 * Pieces of two zones (blocks allocated apart, freed as one run) or
	 * one freed meanwhile: one by one, each refused or freed as ever.
	 */
	if (!free_pieces_locked(piece, order, n))
		while (n--)
			__free_pages(piece[n], order[n]);
}
