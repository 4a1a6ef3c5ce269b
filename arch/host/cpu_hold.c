/*
 * cpu_hold.c - holding a host thread that blocks outside buddyboot
 * (ARCH_HAS_CPU_HOLD, <arch/smp.h>). A thread that waits in a barrier, a
 * join or a sleep reaches no poll point, and a program need not say so
 * (smp_cpu_away()): a sender whose request to it has waited a
 * millisecond asks here whether it may run the request on its behalf.
 *
 * It may when the thread sleeps in the kernel (state S in
 * /proc/self/task/<tid>/stat) and not in one of buddyboot's own blocking
 * calls, which bracket themselves with host_blocking_begin() and
 * host_blocking_end() (the console's writes, cpus_lock, the look at /proc
 * below): buddyboot's code makes no other system call that sleeps, so a
 * thread asleep outside those is in its program's code, between two calls
 * into buddyboot, with its per-CPU data at rest. (A kmem_cache constructor
 * that blocks would break this: constructors must not block.)
 *
 * ThreadSanitizer's runtime may sleep inside any memory access of
 * buddyboot's, so its builds ask another question: is the thread in
 * buddyboot's code at all? Every function of the library is compiled
 * there with -finstrument-functions (mk/host.mk), whose hooks below count
 * this thread's nesting and publish, at 0 <-> 1, whether it is inside;
 * host_blocking_begin() counts as an entry and host_blocking_end() as
 * its exit; the inline fast paths are calls (<asm/smp.h>). A thread is
 * held there when it is outside and asleep in the kernel, as elsewhere:
 * not while it runs its program's code, which may be in the middle of
 * its own per-CPU data (a test's, which its requests touch). The
 * thread's entry (inside = 1, then its offset read) and the sender's look
 * (offset = 0, then inside read) are sequentially consistent, so one of
 * them sees the other: a thread that enters after a look that found it
 * outside reads offset 0 and waits.
 *
 * Before the sender looks, it clears the thread's per-CPU offset. A
 * thread that wakes after the look finds 0 at its next this_cpu_ptr(),
 * smp_processor_id() or inline fast path (which sees no lists and no slab
 * at offset 0 and goes its general way): all lead to host_cpu_register(),
 * which waits in smp_cpu_wait_unheld() while the sender holds the CPU and
 * then takes the offset back itself, so only the thread ever restores it.
 * The look is trusted only if, after it, the offset is still 0 (the
 * thread did not take it back meanwhile, on an earlier hold's release)
 * and the thread's blocking count has not moved (it did not enter or
 * leave a blocking call of ours). A thread that runs (state R, even
 * preempted in a fast path) is never held; the cleared offset then only
 * costs it one pass through host_cpu_register().
 *
 * Who writes what: cpu_offset[] by the CPU's thread when it takes its
 * number (release, after its hwid, which on the host is its tid) and
 * when it leaves, read by a sender only while it holds the CPU SERVED
 * (smp/call.c), which the leaving thread waits out in smp_cpu_away()
 * before it forgets its slot; blocking_seq[] by the thread alone (odd
 * while in a blocking call), read by senders; under ThreadSanitizer
 * cpu_inside[] as cpu_offset[], and what it points at, the thread's
 * mm_inside, by the thread alone (release, or sequentially consistent on
 * entry), read by senders (sequentially consistent).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arch/smp.h>
#include <smp/nr_cpus.h>
#include <smp/smp.h>
#include "cpu_hold.h"

static unsigned long *cpu_offset[NR_CPUS];	/* &host_percpu_offset of its thread */

#ifdef __SANITIZE_THREAD__
static __thread unsigned int mm_nest;	/* this thread's depth in the library */
static __thread int mm_inside;		/* mm_nest != 0, for senders */
static int *cpu_inside[NR_CPUS];	/* &mm_inside of its thread */
#endif

void host_cpu_hold_register(unsigned int cpu)
{
#ifdef __SANITIZE_THREAD__
	__atomic_store_n(&cpu_inside[cpu], &mm_inside, __ATOMIC_RELEASE);
#endif
	/* Release: the hwid (the tid) before the slot that says it is there. */
	__atomic_store_n(&cpu_offset[cpu], &host_percpu_offset, __ATOMIC_RELEASE);
}

void host_cpu_hold_forget(unsigned int cpu)
{
	__atomic_store_n(&cpu_offset[cpu], NULL, __ATOMIC_RELEASE);
}

/* Whether thread @tid of this process sleeps in the kernel (state S). */
static bool thread_asleep(pid_t tid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "tid (comm) S ...": comm may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

#ifdef __SANITIZE_THREAD__
#define NO_HOOK	__attribute__((no_instrument_function))

static NO_HOOK void mm_enter(void)
{
	if (mm_nest++)
		return;
	/*
	 * Sequentially consistent, as the offset's reads are here (<asm/smp.h>):
	 * inside before any of them, see the top of the file.
	 */
	__atomic_store_n(&mm_inside, 1, __ATOMIC_SEQ_CST);
}

static NO_HOOK void mm_exit(void)
{
	/* Release: this CPU's writes before a sender that finds it outside. */
	if (!--mm_nest)
		__atomic_store_n(&mm_inside, 0, __ATOMIC_RELEASE);
}

/* -finstrument-functions' hooks, on entry to and exit from every function. */
void __cyg_profile_func_enter(void *fn, void *site) NO_HOOK;
void __cyg_profile_func_exit(void *fn, void *site) NO_HOOK;

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
	mm_enter();
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	mm_exit();
}

NO_HOOK void host_blocking_begin(void)
{
	mm_enter();
}

NO_HOOK void host_blocking_end(void)
{
	mm_exit();
}

/*
 * Whether CPU @cpu's thread is outside buddyboot's code, and a mark to
 * tell after the look that it has stayed there (outside_still(), whose
 * sequentially consistent read follows the offset's store: the entry's
 * half of the pairing at the top of the file).
 */
static bool outside_mark(unsigned int cpu, unsigned long *mark)
{
	int *inside = __atomic_load_n(&cpu_inside[cpu], __ATOMIC_ACQUIRE);

	*mark = 0;
	return inside && !__atomic_load_n(inside, __ATOMIC_SEQ_CST);
}

static bool outside_still(unsigned int cpu, unsigned long mark)
{
	(void)mark;
	return !__atomic_load_n(__atomic_load_n(&cpu_inside[cpu], __ATOMIC_ACQUIRE),
				__ATOMIC_SEQ_CST);
}

#else /* !__SANITIZE_THREAD__ */
static unsigned long blocking_seq[NR_CPUS];

void host_blocking_begin(void)
{
	int cpu = host_cpu_of_thread();

	if (cpu >= 0)
		__atomic_fetch_add(&blocking_seq[cpu], 1, __ATOMIC_SEQ_CST);
}

void host_blocking_end(void)
{
	host_blocking_begin();	/* even again */
}

/* As under ThreadSanitizer, by the count of buddyboot's blocking calls. */
static bool outside_mark(unsigned int cpu, unsigned long *mark)
{
	*mark = __atomic_load_n(&blocking_seq[cpu], __ATOMIC_SEQ_CST);
	return !(*mark & 1);
}

static bool outside_still(unsigned int cpu, unsigned long mark)
{
	return __atomic_load_n(&blocking_seq[cpu], __ATOMIC_SEQ_CST) == mark;
}
#endif /* __SANITIZE_THREAD__ */

bool arch_cpu_hold(unsigned int cpu)
{
	unsigned long *offset = __atomic_load_n(&cpu_offset[cpu], __ATOMIC_ACQUIRE);
	unsigned long mark;
	bool asleep;

	if (!offset || !outside_mark(cpu, &mark))
		return false;
	/* Before the look: a thread that wakes or enters after it finds 0. */
	__atomic_store_n(offset, 0, __ATOMIC_SEQ_CST);
	host_blocking_begin();
	asleep = thread_asleep((pid_t)cpu_hwid(cpu));
	host_blocking_end();
	/* Offset still 0: the thread did not take it back on an earlier release. */
	return asleep && outside_still(cpu, mark) &&
	       !__atomic_load_n(offset, __ATOMIC_SEQ_CST);
}
