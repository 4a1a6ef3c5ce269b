/*
 * map.h - simulated RAM for the buddy allocator on the host.
 */
#ifndef BENCH_MAP_H
#define BENCH_MAP_H

#include <stdint.h>

/*
 * bench_map - reserve @bytes of address space aligned to @align (a power of
 * two), MAP_NORESERVE, so that only what the allocator touches is backed.
 * Return: the base address; exits on failure.
 */
uint64_t bench_map(unsigned long bytes, unsigned long align);

#endif /* BENCH_MAP_H */
