/*
 * slab_large.c - kmalloc() above KMALLOC_MAX_CACHE_SIZE: whole blocks from
 * alloc_pages(), and a record of which blocks they are, so that kfree()
 * refuses a block that alloc_pages() handed to someone else.
 *
 * The record is one bit per struct page of the buddy allocator's map (by
 * map index), in chunks of one page each, with a one-page table of chunks.
 * Both are taken on the first large kmalloc and kept: about one bit per
 * page of RAM (32 KiB of bitmap per GiB at 4K pages).
 */
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/mm.h>
#include "slab_state.h"

#define CHUNK_BITS	(PAGE_SIZE * 8)

/* large_lock: the record, and the count of pages in large blocks. */
static DEFINE_SPINLOCK(large_lock);
static unsigned long **large_chunks;	/* [large_nr_chunks] */
static unsigned long large_nr_chunks;
static unsigned long large_pages;
static bool large_failed;

/* Make the record; large_lock held. Return: whether it exists. */
static bool large_record_init(void)
{
	struct page *page;

	if (large_chunks)
		return true;
	if (large_failed)
		return false;
	large_nr_chunks = (nr_map_pages() + CHUNK_BITS - 1) / CHUNK_BITS;
	if (large_nr_chunks > PAGE_SIZE / sizeof(unsigned long *)) {
		pr_err("kmalloc: %lu struct pages are more than the large "
		       "block record covers: large kmalloc is off\n",
		       nr_map_pages());
		large_failed = true;
		return false;
	}
	page = alloc_pages(__GFP_ZERO | __GFP_NOWARN, 0);
	if (!page)
		return false;
	large_chunks = page_address(page);
	for (unsigned long i = 0; i < large_nr_chunks; i++) {
		page = alloc_pages(__GFP_ZERO | __GFP_NOWARN, 0);
		if (!page) {
			while (i--)
				__free_pages(virt_to_page(large_chunks[i]), 0);
			__free_pages(virt_to_page(large_chunks), 0);
			large_chunks = NULL;
			return false;
		}
		large_chunks[i] = page_address(page);
	}
	return true;
}

static unsigned long *large_word(const struct page *page, unsigned long *bit)
{
	unsigned long idx = page_index(page);

	*bit = 1UL << (idx % 64);
	return &large_chunks[idx / CHUNK_BITS][idx % CHUNK_BITS / 64];
}

void *kmalloc_large(size_t size, gfp_t gfp)
{
	int order = get_order(size);
	struct page *page;
	unsigned long *word, bit;

	if (order > MAX_PAGE_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("kmalloc: %zu bytes is above KMALLOC_MAX_SIZE "
				"(%lu): refused\n", size, KMALLOC_MAX_SIZE);
		return NULL;
	}
	spin_lock(&large_lock);
	if (!large_record_init()) {
		spin_unlock(&large_lock);
		return NULL;
	}
	spin_unlock(&large_lock);
	page = alloc_pages(gfp, (unsigned int)order);
	if (!page)
		return NULL;
	spin_lock(&large_lock);
	word = large_word(page, &bit);
	*word |= bit;
	large_pages += 1UL << order;
	spin_unlock(&large_lock);
	return page_address(page);
}

int kfree_large(const void *p, struct page *page)
{
	unsigned long *word, bit;
	unsigned int order;

	if ((page->state & PG_KIND_MASK) != PG_ALLOC)
		return 0;
	order = pg_order(page->state);
	spin_lock(&large_lock);
	if (!large_chunks) {
		spin_unlock(&large_lock);
		return 0;
	}
	word = large_word(page, &bit);
	if (!(*word & bit)) {
		spin_unlock(&large_lock);
		return 0;
	}
	*word &= ~bit;
	large_pages -= 1UL << order;
	spin_unlock(&large_lock);
	(void)p;
	__free_pages(page, order);
	return 1;
}

size_t ksize_large(struct page *page)
{
	unsigned long *word, bit;
	size_t size = 0;

	if ((page->state & PG_KIND_MASK) != PG_ALLOC)
		return 0;
	spin_lock(&large_lock);
	if (large_chunks) {
		word = large_word(page, &bit);
		if (*word & bit)
			size = PAGE_SIZE << pg_order(page->state);
	}
	spin_unlock(&large_lock);
	return size;
}

unsigned long slab_nr_large_pages(void)
{
	return READ_ONCE(large_pages);
}

void slab_large_reset(void)
{
	large_chunks = NULL;
	large_nr_chunks = 0;
	large_pages = 0;
	large_failed = false;
}
