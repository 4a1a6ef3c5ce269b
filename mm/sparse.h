/*
 * sparse.h - setting up the per-page metadata (mm/ only).
 */
#ifndef MM_SPARSE_H
#define MM_SPARSE_H

/*
 * sparse_init - find the present sections, allocate and reserve their
 * struct pages, the section and chunk tables and room for @nr_runs
 * deferred runs (run_table) and @nr_segments zone segments from memblock.
 * The struct page bytes, chunk zones and segments are left for the
 * hand-off to write (chunk_zone[] starts all CHUNK_NO_ZONE).
 * Return: 0, or a negative errno (reported) with nothing set up.
 */
int sparse_init(unsigned long nr_runs, unsigned long nr_segments);

#endif /* MM_SPARSE_H */
