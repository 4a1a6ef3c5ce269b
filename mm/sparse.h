/*
 * sparse.h - setting up the per-page metadata (mm/ only).
 */
#ifndef MM_SPARSE_H
#define MM_SPARSE_H

/*
 * sparse_init - find the present sections, allocate and reserve their
 * struct pages and the section tables from memblock, mark every page
 * RESERVED. Return: 0, or a negative errno (reported) with nothing set up.
 */
int sparse_init(void);

#endif /* MM_SPARSE_H */
