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
 * that blocks would break this: constructors must not block. So does
 * ThreadSanitizer's runtime, which may sleep inside any memory access of
 * buddyboot's: its builds have no hold, <asm/smp.h>.)
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
 * while in a blocking call), read by senders.
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
static unsigned long blocking_seq[NR_CPUS];

void host_cpu_hold_register(unsigned int cpu)
{
	/* Release: the hwid (the tid) before the slot that says it is there. */
	__atomic_store_n(&cpu_offset[cpu], &host_percpu_offset, __ATOMIC_RELEASE);
}

void host_cpu_hold_forget(unsigned int cpu)
{
	__atomic_store_n(&cpu_offset[cpu], NULL, __ATOMIC_RELEASE);
}

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

#ifdef ARCH_HAS_CPU_HOLD
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

bool arch_cpu_hold(unsigned int cpu)
{
	unsigned long *offset = __atomic_load_n(&cpu_offset[cpu], __ATOMIC_ACQUIRE);
	unsigned long seq = __atomic_load_n(&blocking_seq[cpu], __ATOMIC_SEQ_CST);
	bool asleep;

	if (!offset || (seq & 1))
		return false;
	/* Before the look: a thread that wakes after it finds 0. */
	__atomic_store_n(offset, 0, __ATOMIC_SEQ_CST);
	host_blocking_begin();
	asleep = thread_asleep((pid_t)cpu_hwid(cpu));
	host_blocking_end();
	return asleep &&
	       __atomic_load_n(&blocking_seq[cpu], __ATOMIC_SEQ_CST) == seq &&
	       !__atomic_load_n(offset, __ATOMIC_SEQ_CST);
}
#endif /* ARCH_HAS_CPU_HOLD */
