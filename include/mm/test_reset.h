/*
 * test_reset.h - host builds only: return memblock and the buddy allocator
 * to their boot-time state, so that one test program runs many scenarios.
 * Kernel builds have neither function.
 */
#ifndef MM_TEST_RESET_H
#define MM_TEST_RESET_H

#ifdef CONFIG_HOST
void memblock_reset_for_test(void);
void page_alloc_reset_for_test(void);
void slab_reset_for_test(void);
#endif

#endif /* MM_TEST_RESET_H */
