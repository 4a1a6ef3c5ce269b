/*
 * atomic.h - atomics and memory barriers, on the compiler's __atomic
 * builtins, with Linux's names and Linux's ordering rules.
 *
 *   atomic_read/atomic_set          relaxed: no ordering, only atomicity
 *   atomic_read_acquire/_set_release one-sided, as their names say
 *   atomic_add/_sub/_inc/_dec       relaxed read-modify-write, no result
 *   atomic_*_return, atomic_fetch_*, fully ordered (seq_cst), as every
 *   atomic_xchg, atomic_cmpxchg     Linux RMW that returns a value
 *
 *   smp_mb()   orders all earlier loads and stores before all later ones
 *   smp_rmb()  orders earlier loads before later loads (and stores)
 *   smp_wmb()  orders earlier stores (and loads) before later stores
 *
 * Only 32- and 64-bit objects: riscv64's gcc calls libatomic for smaller
 * ones, and the kernel links no libatomic. The same header serves the host
 * build, where the "CPUs" are threads and ThreadSanitizer understands every
 * operation here.
 */
#ifndef LIB_ATOMIC_H
#define LIB_ATOMIC_H

#include <lib/types.h>

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i)		{ (i) }

/* READ_ONCE/WRITE_ONCE: one access, neither torn nor merged nor moved out
 * of a loop by the compiler; relaxed atomics, so TSan sees them too. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

#define __ATOMIC_OPS(pfx, atype, ctype)					\
static inline ctype pfx##_read(const atype *v)				\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }		\
static inline ctype pfx##_read_acquire(const atype *v)			\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static inline void pfx##_set(atype *v, ctype i)				\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_set_release(atype *v, ctype i)		\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }		\
static inline void pfx##_add(ctype i, atype *v)				\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_sub(ctype i, atype *v)				\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_inc(atype *v) { pfx##_add(1, v); }		\
static inline void pfx##_dec(atype *v) { pfx##_sub(1, v); }		\
static inline ctype pfx##_fetch_add(ctype i, atype *v)			\
{ return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline ctype pfx##_add_return(ctype i, atype *v)		\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline ctype pfx##_sub_return(ctype i, atype *v)		\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline ctype pfx##_inc_return(atype *v)				\
{ return pfx##_add_return(1, v); }					\
static inline ctype pfx##_dec_return(atype *v)				\
{ return pfx##_sub_return(1, v); }					\
static inline ctype pfx##_xchg(atype *v, ctype i)			\
{ return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); }	\
/* Return: the old value; the store happened iff it equals @old. */	\
static inline ctype pfx##_cmpxchg(atype *v, ctype old, ctype new)	\
{									\
	__atomic_compare_exchange_n(&v->counter, &old, new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	return old;							\
}

__ATOMIC_OPS(atomic, atomic_t, int)
__ATOMIC_OPS(atomic_long, atomic_long_t, long)

#undef __ATOMIC_OPS

#endif /* LIB_ATOMIC_H */
