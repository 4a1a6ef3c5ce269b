/*
 * smp_util.c - ownership bitmap, block patterns and failure records for
 * the concurrent host tests (smp_util.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <smp/smp.h>
#include "../../../mm/page_pcp.h"
#include "smp_util.h"

void owners_init(struct owners *o, unsigned long base_pfn, unsigned long nr)
{
	o->base_pfn = base_pfn;
	o->nr = nr;
	o->bits = calloc((nr + 63) / 64, sizeof(unsigned long));
}

void owners_free(struct owners *o)
{
	free(o->bits);
	o->bits = NULL;
}

/* Apply @set (claim) or clear to pages [@i, @i + @n) of the bitmap. */
static bool owners_update(struct owners *o, unsigned long i, unsigned long n,
			  bool set)
{
	while (n) {
		unsigned long bit = i % 64, len = MIN(n, 64 - bit);
		unsigned long mask = len == 64 ? ~0UL : ((1UL << len) - 1) << bit;
		unsigned long *w = &o->bits[i / 64], old;

		old = set ? __atomic_fetch_or(w, mask, __ATOMIC_ACQ_REL)
			  : __atomic_fetch_and(w, ~mask, __ATOMIC_ACQ_REL);
		if (set ? (old & mask) : (old & mask) != mask) {
			smp_fail("pfn %#lx: %s", o->base_pfn + i +
				 (unsigned long)__builtin_ctzl(set ? old & mask
								   : ~old & mask),
				 set ? "handed to two owners" :
				 "released but not owned");
			return false;
		}
		i += len;
		n -= len;
	}
	return true;
}

static bool owners_range(struct owners *o, struct page *page,
			 unsigned int order, unsigned long *i)
{
	unsigned long pfn = page_to_pfn(page);

	if (pfn < o->base_pfn || pfn + (1UL << order) > o->base_pfn + o->nr) {
		smp_fail("pfn %#lx order %u outside the test's memory", pfn,
			 order);
		return false;
	}
	*i = pfn - o->base_pfn;
	return true;
}

bool owners_claim(struct owners *o, struct page *page, unsigned int order)
{
	unsigned long i;

	return owners_range(o, page, order, &i) &&
	       owners_update(o, i, 1UL << order, true);
}

bool owners_release(struct owners *o, struct page *page, unsigned int order)
{
	unsigned long i;

	return owners_range(o, page, order, &i) &&
	       owners_update(o, i, 1UL << order, false);
}

/* Every page of a block up to 16 pages, else 16 spread and the last. */
#define PATTERN_PAGES	16

static uint64_t *pattern_word(struct page *page, unsigned long i)
{
	return (uint64_t *)((char *)page_address(page) + i * PAGE_SIZE);
}

static unsigned long pattern_step(unsigned int order)
{
	unsigned long n = 1UL << order;

	return n <= PATTERN_PAGES ? 1 : n / PATTERN_PAGES;
}

void pattern_write(struct page *page, unsigned int order, uint64_t token)
{
	unsigned long n = 1UL << order, pfn = page_to_pfn(page);

	for (unsigned long i = 0; i < n; i += pattern_step(order))
		*pattern_word(page, i) = token ^ (pfn + i);
	*pattern_word(page, n - 1) = token ^ (pfn + n - 1);
}

bool pattern_check(struct page *page, unsigned int order, uint64_t token)
{
	unsigned long n = 1UL << order, pfn = page_to_pfn(page);

	for (unsigned long i = 0; i < n; i += pattern_step(order))
		if (*pattern_word(page, i) != (token ^ (pfn + i)))
			goto bad;
	if (*pattern_word(page, n - 1) == (token ^ (pfn + n - 1)))
		return true;
bad:
	smp_fail("block at pfn %#lx order %u: its pattern was overwritten",
		 pfn, order);
	return false;
}

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static char fail_msg[256];
static int failed;

void smp_fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (!failed) {
		va_start(ap, fmt);
		vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
		va_end(ap);
	}
	__atomic_store_n(&failed, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&fail_lock);
}

bool smp_failed(void)
{
	if (!__atomic_load_n(&failed, __ATOMIC_ACQUIRE))
		return false;
	pthread_mutex_lock(&fail_lock);
	printf("# first failure: %s\n", fail_msg);
	pthread_mutex_unlock(&fail_lock);
	return true;
}

bool smp_failed_quiet(void)
{
	return __atomic_load_n(&failed, __ATOMIC_ACQUIRE);
}

void smp_fail_reset(void)
{
	pthread_mutex_lock(&fail_lock);
	failed = 0;
	fail_msg[0] = '\0';
	pthread_mutex_unlock(&fail_lock);
}

unsigned long pcp_pages_elsewhere(void)
{
	unsigned int me = smp_processor_id(), cpu;
	unsigned long n = 0;

	for_each_online_cpu(cpu)
		for (unsigned int id = 0; id < MAX_ZONE_IDS; id++)
			if (cpu != me && page_allocator.zone_table[id])
				for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
					n += (unsigned long)READ_ONCE(zone_pcp(
						page_allocator.zone_table[id],
						cpu)->lists[o].nr) << o;
	return n;
}

int smp_barrier_wait(pthread_barrier_t *b)
{
	int ret;

	smp_cpu_away();
	ret = pthread_barrier_wait(b);
	smp_cpu_back();
	return ret;
}

void smp_join(pthread_t t)
{
	smp_cpu_away();
	pthread_join(t, NULL);
	smp_cpu_back();
}
