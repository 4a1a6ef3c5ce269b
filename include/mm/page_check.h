/*
 * page_check.h - the buddy allocator's invariant checker.
 */
#ifndef MM_PAGE_CHECK_H
#define MM_PAGE_CHECK_H

/*
 * page_alloc_check - walk every struct page and every free list, and
 * report (pr_err, the first few in full) each broken invariant:
 *   - a page in no block or in two (a TAIL with no head, a head inside
 *     another block), or a struct page byte that encodes nothing;
 *   - a block not naturally aligned, or crossing a section;
 *   - two free buddies of one order left unmerged;
 *   - a free-list node that is corrupt or not a free head of its order;
 *   - counts that disagree: list lengths, free_area[].nr_free, free
 *     blocks found in the map, nr_free_pages(), nr_managed_pages().
 * Return: the number of problems found, 0 when the state is sound.
 */
int page_alloc_check(void);

#endif /* MM_PAGE_CHECK_H */
