/*
 * buddy_check.h - what the buddy cases check again and again: the free
 * counts before and after, where a block lies, patterns written into
 * blocks, and a chain of allocated blocks kept inside the blocks.
 *
 * Every check that fails explains itself through selftest_fail(), naming
 * the block (pfn, order, physical range) and what is wrong, and returns
 * false.
 */
#ifndef TESTS_SELFTEST_BUDDY_CHECK_H
#define TESTS_SELFTEST_BUDDY_CHECK_H

#include <mm/mm.h>

/*
 * The allocator's counters, as /proc/buddyinfo and nr_free_pages() see
 * them, once every CPU's cached blocks are back on the buddy lists:
 * buddy_counts_take() drains them first (drain_all_pages()).
 */
struct buddy_counts {
	unsigned long nr_free;
	unsigned long blocks[NR_PAGE_ORDERS];
};

void buddy_counts_take(struct buddy_counts *c);

/*
 * buddy_counts_predict - how many blocks of @order can be allocated from
 * @c: every free block of order j >= @order splits into 2^(j - @order).
 */
unsigned long buddy_counts_predict(const struct buddy_counts *c,
				   unsigned int order);

/*
 * buddy_restored - the state after a case is exactly @before: nr_free_pages()
 * and every per-order count equal, page_alloc_check() finds nothing, and a
 * top-order block, if @before had one, can be allocated (and is freed).
 * @when names the moment for the messages ("after order 3").
 */
bool buddy_restored(const struct buddy_counts *before, const char *when);

/*
 * order_allocatable - a block of @order can be allocated, is placed
 * correctly (block_placement_ok), and is freed again.
 */
bool order_allocatable(unsigned int order, const char *when);

/*
 * block_placement_ok - @page of @order is naturally aligned, its struct
 * page and pfn agree, and [phys, phys + size) lies inside one usable
 * (mapped, not no-map) memblock.memory region, intersecting neither
 * memblock.reserved nor any reservation recorded at boot.
 */
bool block_placement_ok(struct page *page, unsigned int order);

/*
 * Patterns: word i of a block filled with @seed holds a value derived from
 * @seed and i, so a word written to the wrong place, or twice from two
 * owners, reads wrong. pattern_mismatch returns the first wrong word's
 * index, or -1 when all @bytes read as written.
 */
void pattern_fill(void *p, size_t bytes, uint64_t seed);
long pattern_mismatch(const void *p, size_t bytes, uint64_t seed);
uint64_t pattern_word(uint64_t seed, size_t i);

/*
 * A chain of allocated blocks: each block's first word points at the
 * block pushed before it. No array to size, however much memory there is.
 */
struct block_chain {
	void *head;
	unsigned long count;
};

static inline void chain_push(struct block_chain *c, void *block)
{
	*(void **)block = c->head;
	c->head = block;
	c->count++;
}

static inline void *chain_pop(struct block_chain *c)
{
	void *block = c->head;

	if (block) {
		c->head = *(void **)block;
		c->count--;
	}
	return block;
}

/* chain_free - free every block of the chain, all of @order. */
void chain_free(struct block_chain *c, unsigned int order);

/*
 * hold_all_but - take blocks of orders @lowest to MAX_PAGE_ORDER (none
 * when @lowest is above it), largest first, into @held[order], while at least
 * @keep_pages pages stay free: what a case leaves to itself when the
 * machine is larger than it needs. Return: the pages held.
 * release_held - free them all, each chain at its order.
 */
unsigned long hold_all_but(struct block_chain held[NR_PAGE_ORDERS],
			   unsigned long keep_pages, unsigned int lowest);
void release_held(struct block_chain held[NR_PAGE_ORDERS]);

#endif /* TESTS_SELFTEST_BUDDY_CHECK_H */
