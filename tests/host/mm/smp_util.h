/*
 * smp_util.h - what the concurrent host tests share: threads as CPUs,
 * an atomic ownership bitmap in which a page handed to two owners fails
 * at once, a per-block pattern, and a first-failure record that any
 * thread may write.
 */
#ifndef TESTS_HOST_MM_SMP_UTIL_H
#define TESTS_HOST_MM_SMP_UTIL_H

#include <pthread.h>
#include <lib/atomic.h>
#include "machine.h"

/* One bit per page of [@base_pfn, @base_pfn + @nr): set while owned. */
struct owners {
	unsigned long base_pfn, nr;
	unsigned long *bits;
};

void owners_init(struct owners *o, unsigned long base_pfn, unsigned long nr);
void owners_free(struct owners *o);
/* Claim or release every page of a block. Return: false on a conflict
 * (a page already owned, or released while not owned), recorded. */
bool owners_claim(struct owners *o, struct page *page, unsigned int order);
bool owners_release(struct owners *o, struct page *page, unsigned int order);

/* A pattern in (a sample of) the block's pages, from its pfn and @token. */
void pattern_write(struct page *page, unsigned int order, uint64_t token);
bool pattern_check(struct page *page, unsigned int order, uint64_t token);

/* The first failure any thread saw, printed by smp_failed(). */
void __attribute__((format(printf, 1, 2))) smp_fail(const char *fmt, ...);
bool smp_failed(void);
/* The same, printing nothing: for threads that stop early. */
bool smp_failed_quiet(void);
void smp_fail_reset(void);

static inline uint64_t xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* Cached pages on CPUs other than this one (a snapshot). */
unsigned long pcp_pages_elsewhere(void);

/*
 * Blocking waits as a CPU does them: away (smp_cpu_away(), smp.h), so that
 * other CPUs' requests (drain_all_pages(), page_alloc_check()) are served
 * for it meanwhile instead of waiting for it.
 */
int smp_barrier_wait(pthread_barrier_t *b);
void smp_join(pthread_t t);

#endif /* TESTS_HOST_MM_SMP_UTIL_H */
