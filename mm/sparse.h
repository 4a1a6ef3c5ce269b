/*
 * sparse.h - setting up the per-page metadata (mm/ only).
 */
#ifndef MM_SPARSE_H
#define MM_SPARSE_H

/*
 * sparse_init - find the present sections, allocate and reserve their
 * struct pages, the section tables and room for @nr_runs deferred runs
 * from memblock. The struct page bytes are left for the hand-off to write.
 * Return: 0, or a negative errno (reported) with nothing set up.
 */
int sparse_init(unsigned long nr_runs);

#endif /* MM_SPARSE_H */
