/*
 * smp.c - every CPU up, and the locks and atomics between them:
 *
 *   smp_every_cpu_checked_in   every CPU the boot information lists (up
 *                              to NR_CPUS) is online, exactly once, with
 *                              a distinct number, the hwid the list gave
 *                              it, and its own per-CPU area; the KTAP
 *                              diagnostics name each CPU and the boot CPU
 *   smp_lock_torture           every CPU increments shared counters
 *                              under one spinlock; the totals are exact
 *                              and no two CPUs were ever inside at once
 *   smp_lock_torture_mixed     the same with the CPUs waiting both
 *                              ways at once (<smp/spinlock.h>): even
 *                              CPUs below MIXED_TICKET_CPUS take
 *                              tickets, the others test-and-set,
 *                              whichever way the boot chose
 *   smp_atomic_torture         the same with atomics alone
 *   smp_wakeup_reaches_each_cpu  where idle CPUs sleep, a wake-up sent to
 *                              each CPU is taken by that CPU
 *   smp_idle_returns           where idle CPUs sleep (ARCH_HAS_IDLE_WAKEUP),
 *                              arch_cpu_idle() with no wake-up sent still
 *                              returns, within IDLE_RETURN_NS: the boot
 *                              CPU idles so while it waits for a check-in
 *                              with a deadline (a CPU that never comes
 *                              must not hang the boot); with one CPU
 *                              online, idle was never set up, and a CPU
 *                              that spins returns at once: a skip
 *
 * They run in this order (the torture cases in the next stages).
 * Each torture case runs on every CPU at once through on_each_cpu(), from
 * a common start, for at most TORTURE_NS (TORTURE_MIXED_NS for the mixed
 * lock case) or TORTURE_MAX_ITERATIONS (so
 * that 8 emulated CPUs on 2 host cores stay within seconds) and at least
 * torture_min_iterations() (an emulated CPU the host does not run until
 * the window has closed still takes its turns), and each
 * CPU counts its own iterations in its per-CPU area:
 * the shared totals must equal the sum of those, exactly. Where the arch
 * cannot start secondary CPUs, each case says so and skips.
 */
#include <arch/smp.h>
#include <boot/cpus.h>
#include <boot/memory.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/ktap.h>
#include <selftest/selftest.h>
#include <smp/smp.h>
#include <smp/spinlock.h>

#define TORTURE_NS		(1000ULL * 1000 * 1000)
/*
 * The mixed lock case's window: it is there to show that tickets and
 * test-and-set exclude each other, which a quarter of the window shows
 * as well (each CPU still takes its minimum of turns), and every SMP
 * line of the matrix runs it.
 */
#define TORTURE_MIXED_NS	(TORTURE_NS / 4)
/*
 * The mixed case's ticket takers: the even CPUs below this. A queue of
 * tickets serves its CPUs in turn, each turn waiting until the host runs
 * that one emulated CPU, so the queue's length, not the CPU count, is
 * what the case may cost: 32 ticket takers of 64 emulated CPUs on 2 host
 * cores took 19 s of a riscv64 boot.
 */
#define MIXED_TICKET_CPUS	8
#define TORTURE_MAX_ITERATIONS	20000UL
#define TORTURE_MIN_ITERATIONS	64UL
#define TORTURE_MIN_FLOOR	8UL
#define TORTURE_MIN_TOTAL	(8 * TORTURE_MIN_ITERATIONS)

/* Written by each CPU in its own area only; read by the boot CPU after. */
struct smp_probe {
	unsigned int calls;		/* times checkin_probe ran here */
	unsigned int id;		/* smp_processor_id() it saw */
	void *self;			/* this_cpu_ptr() it saw */
	unsigned long iterations;	/* of the running torture case */
};
static DEFINE_PER_CPU(struct smp_probe, smp_probe);

/*
 * Why CPUs cannot be checked here, or NULL: the arch cannot start them,
 * or the boot information lists no CPUs (no device tree, no ACPI MADT),
 * or, for the torture cases (@race), one CPU has nobody to race.
 */
static const char *smp_untestable(bool race)
{
	const struct boot_cpus *cpus = selftest_boot_facts.cpus;

	if (smp_bringup_error() == -EOPNOTSUPP)
		return "this arch cannot start secondary CPUs "
		       "(arch_cpu_start: -EOPNOTSUPP)";
	if (!boot_info_fdt(selftest_boot_facts.proto, selftest_boot_facts.info)
	    && cpus && cpus->nr == 1)
		return "the boot information lists no CPU but the boot CPU";
	if (race && num_online_cpus() < 2)
		return "one CPU online: nothing to race";
	return NULL;
}

static void checkin_probe(void *arg)
{
	struct smp_probe *p = this_cpu_ptr(&smp_probe);

	(void)arg;
	p->calls++;
	p->id = smp_processor_id();
	p->self = p;
}

SELFTEST(smp_every_cpu_checked_in, STAGE_BOOT)
{
	const struct boot_cpus *cpus = selftest_boot_facts.cpus;
	unsigned int cpu, expect, online = num_online_cpus();
	const char *why;

	SELFTEST_EXPECT(cpus, "boot_main() recorded no CPU list");
	expect = cpus->nr < NR_CPUS ? cpus->nr : NR_CPUS;
	on_each_cpu(checkin_probe, NULL, true);
	for_each_online_cpu(cpu) {
		struct smp_probe *p = per_cpu_ptr(&smp_probe, cpu);

		ktap_diag("cpu %u: hwid %#lx%s, per-CPU area at %p", cpu,
			  cpu_hwid(cpu), cpu == 0 ? " (boot cpu)" : "",
			  (void *)p);
		SELFTEST_EXPECT(p->calls == 1, "cpu %u ran on_each_cpu's "
				"function %u times", cpu, p->calls);
		SELFTEST_EXPECT(p->id == cpu, "cpu %u calls itself %u", cpu,
				p->id);
		SELFTEST_EXPECT(p->self == p, "cpu %u reached %p, not its own "
				"area %p", cpu, p->self, (void *)p);
		SELFTEST_EXPECT(cpu >= cpus->nr ||
				cpu_hwid(cpu) == cpus->cpu[cpu].hwid,
				"cpu %u has hwid %#lx, the list says %#lx", cpu,
				cpu_hwid(cpu), cpus->cpu[cpu].hwid);
		for (unsigned int other = 0; other < cpu; other++)
			SELFTEST_EXPECT(!cpu_online(other) ||
					(per_cpu_ptr(&smp_probe, other) != p &&
					 cpu_hwid(other) != cpu_hwid(cpu)),
					"cpus %u and %u share an area or a "
					"hwid", other, cpu);
	}
	SELFTEST_EXPECT(cpu_online(0) && cpu_hwid(0) ==
			selftest_boot_facts.boot_cpu,
			"cpu 0 is not the boot CPU (hwid %#lx, booted on %#lx)",
			cpu_hwid(0), selftest_boot_facts.boot_cpu);
	why = smp_untestable(false);
	if (why)
		return selftest_skip("%s", why);
	ktap_diag("%u of %u CPUs online, boot cpu hwid %#lx", online,
		  expect, selftest_boot_facts.boot_cpu);
	SELFTEST_EXPECT(online == expect, "%u CPUs online, %u listed",
			online, expect);
	return true;
}

/* Under torture_lock. */
static DEFINE_SPINLOCK(torture_lock);
static volatile unsigned long torture_count;
static volatile unsigned long torture_double;
static volatile int torture_inside = -1;
static atomic_t torture_overlaps;

/*
 * Every CPU waits at the start line until all have arrived, and the last
 * to arrive sets the deadline: the CPUs race for the same window however
 * late each was scheduled (an emulated CPU may wait long for a host core).
 */
struct torture_arg {
	atomic_t arrived;
	uint64_t deadline;	/* store-release by the last to arrive */
	unsigned long min;	/* torture_min_iterations(), set before the call */
	bool mixed;		/* lock_torture(): see MIXED_TICKET_CPUS */
};

/*
 * The turns each CPU must take however late the window found it: 64 with
 * up to 8 CPUs, fewer with more (TORTURE_MIN_TOTAL shared out, at least
 * TORTURE_MIN_FLOOR each). With tickets (bare metal's way, and the even
 * CPUs' in the mixed case) the lock hands itself to the CPUs in
 * the order they asked, so when emulated CPUs outnumber the host's cores
 * each hand-off waits until the host runs that one CPU's thread: 64
 * emulated CPUs on 2 host cores took 154 s for 64 turns each, and what
 * bounds the time is the turns of all CPUs together.
 */
static unsigned long torture_min_iterations(void)
{
	unsigned long each = TORTURE_MIN_TOTAL / num_online_cpus();

	if (each > TORTURE_MIN_ITERATIONS)
		return TORTURE_MIN_ITERATIONS;
	return each < TORTURE_MIN_FLOOR ? TORTURE_MIN_FLOOR : each;
}

static uint64_t torture_start(struct torture_arg *t)
{
	uint64_t deadline;

	if ((unsigned int)atomic_inc_return(&t->arrived) == num_online_cpus())
		smp_store_release(&t->deadline, arch_clock_ns() +
				  (t->mixed ? TORTURE_MIXED_NS : TORTURE_NS));
	/* Acquire: pairs with the release above. */
	while (!(deadline = smp_load_acquire(&t->deadline)))
		arch_cpu_relax();
	return deadline;
}

/* Run @fn everywhere; *@sum = the iterations all CPUs counted. */
static bool torture_run(void (*fn)(void *arg), const char *what,
			bool mixed, unsigned long *sum)
{
	struct torture_arg t = { .arrived = ATOMIC_INIT(0),
				 .min = torture_min_iterations(),
				 .mixed = mixed };
	unsigned int cpu;

	/*
	 * Zeroed here, before the call (which orders these stores before
	 * each CPU runs @fn): a CPU that never ran this case shows 0, not
	 * the last case's count.
	 */
	for_each_online_cpu(cpu)
		per_cpu_ptr(&smp_probe, cpu)->iterations = 0;
	on_each_cpu(fn, &t, true);
	*sum = 0;
	for_each_online_cpu(cpu) {
		unsigned long n = per_cpu_ptr(&smp_probe, cpu)->iterations;

		ktap_diag("cpu %u: %lu %s increments", cpu, n, what);
		SELFTEST_EXPECT(n >= t.min, "cpu %u made %lu %s increments, "
				"fewer than the %lu each must", cpu, n, what,
				t.min);
		*sum += n;
	}
	return true;
}

static void lock_torture(void *arg)
{
	struct smp_probe *p = this_cpu_ptr(&smp_probe);
	int me = (int)smp_processor_id();
	struct torture_arg *t = arg;
	uint64_t deadline = torture_start(t);

	while (p->iterations < t->min ||
	       (p->iterations < TORTURE_MAX_ITERATIONS &&
		(p->iterations & 15 || arch_clock_ns() < deadline))) {
		if (!t->mixed)
			spin_lock(&torture_lock);
		else if (me & 1 || me >= MIXED_TICKET_CPUS)
			spin_lock_tas(&torture_lock);
		else
			spin_lock_ticket(&torture_lock);
		if (torture_inside != -1)
			atomic_inc(&torture_overlaps);
		torture_inside = me;
		/* Plain read-modify-writes: only the lock keeps them whole. */
		torture_count = torture_count + 1;
		torture_double = torture_double + 2;
		if (torture_inside != me)
			atomic_inc(&torture_overlaps);
		torture_inside = -1;
		spin_unlock(&torture_lock);
		p->iterations++;
	}
}

/* Every CPU through torture_lock, waiting as chosen or both ways at once. */
static bool lock_torture_case(bool mixed)
{
	const char *why = smp_untestable(true);
	unsigned long sum;

	if (why)
		return selftest_skip("%s", why);
	if (mixed)
		ktap_diag("even CPUs below %d take tickets, the others "
			  "test-and-set", MIXED_TICKET_CPUS);
	else
		ktap_diag("every CPU waits by %s, as the boot chose",
			  READ_ONCE(spin_wait_tas) ? "test-and-set" : "ticket");
	torture_count = torture_double = 0;
	atomic_set(&torture_overlaps, 0);
	if (!torture_run(lock_torture, "locked", mixed, &sum))
		return false;
	SELFTEST_EXPECT(atomic_read(&torture_overlaps) == 0, "%d times two "
			"CPUs were inside the lock", atomic_read(&torture_overlaps));
	SELFTEST_EXPECT(torture_count == sum && torture_double == 2 * sum,
			"counters %lu and %lu, expected %lu and %lu",
			torture_count, torture_double, sum, 2 * sum);
	return true;
}

SELFTEST(smp_lock_torture, STAGE_BOOT + 1)
{
	return lock_torture_case(false);
}

SELFTEST(smp_lock_torture_mixed, STAGE_BOOT + 1)
{
	return lock_torture_case(true);
}

#if CONFIG_SPINLOCK_WAIT != SPINLOCK_WAIT_AUTO
/*
 * A build that chose how CPUs wait (SPINLOCK_WAIT=) waits that way. Only
 * in such a build: elsewhere the signs choose (tests/host/smp/test_smp.c).
 */
SELFTEST(smp_lock_wait_as_built, STAGE_BOOT + 1)
{
	SELFTEST_EXPECT(READ_ONCE(spin_wait_tas) ==
			(CONFIG_SPINLOCK_WAIT == SPINLOCK_WAIT_TAS),
			"built with SPINLOCK_WAIT=%s, the CPUs wait by %s",
			CONFIG_SPINLOCK_WAIT == SPINLOCK_WAIT_TAS ? "tas" : "ticket",
			READ_ONCE(spin_wait_tas) ? "test-and-set" : "tickets");
	return true;
}
#endif

static atomic_t atomic_count;
static atomic_long_t atomic_sum;
static atomic_t atomic_cas;

static void atomic_torture(void *arg)
{
	struct smp_probe *p = this_cpu_ptr(&smp_probe);
	struct torture_arg *t = arg;
	uint64_t deadline = torture_start(t);

	while (p->iterations < t->min ||
	       (p->iterations < TORTURE_MAX_ITERATIONS &&
		(p->iterations & 63 || arch_clock_ns() < deadline))) {
		int old;

		atomic_inc(&atomic_count);
		atomic_long_add_return(3, &atomic_sum);
		do
			old = atomic_read(&atomic_cas);
		while (atomic_cmpxchg(&atomic_cas, old, old + 1) != old);
		p->iterations++;
	}
}

SELFTEST(smp_atomic_torture, STAGE_BOOT + 2)
{
	const char *why = smp_untestable(true);
	unsigned long sum;

	if (why)
		return selftest_skip("%s", why);
	atomic_set(&atomic_count, 0);
	atomic_long_set(&atomic_sum, 0);
	atomic_set(&atomic_cas, 0);
	if (!torture_run(atomic_torture, "atomic", false, &sum))
		return false;
	SELFTEST_EXPECT((unsigned long)atomic_read(&atomic_count) == sum &&
			(unsigned long)atomic_long_read(&atomic_sum) == 3 * sum &&
			(unsigned long)atomic_read(&atomic_cas) == sum,
			"inc %d, add %ld, cmpxchg %d; expected %lu, %lu, %lu",
			atomic_read(&atomic_count), atomic_long_read(&atomic_sum),
			atomic_read(&atomic_cas), sum, 3 * sum, sum);
	return true;
}

/* arch_cpu_idle() promises about a millisecond; emulation may stretch it. */
#define IDLE_SPINS	"this CPU spins when idle (arch_cpu_idle_sleeps(); " \
			"the boot log says why)"
#define IDLE_RETURN_NS		(100ULL * 1000 * 1000)
#define IDLE_ROUNDS		5

SELFTEST(smp_idle_returns, STAGE_BOOT + 3)
{
#ifdef ARCH_HAS_IDLE_WAKEUP
	/* With one CPU, arch_smp_prepare_cpus() never set idle up. */
	const char *why = smp_untestable(true);

	if (why)
		return selftest_skip("%s", why);
	/* A CPU that spins returns at once: nothing to check there. */
	if (!arch_cpu_idle_sleeps(smp_processor_id()))
		return selftest_skip("%s", IDLE_SPINS);
	for (unsigned int i = 0; i < IDLE_ROUNDS; i++) {
		uint64_t start = arch_clock_ns(), took;

		arch_cpu_idle();
		took = arch_clock_ns() - start;
		SELFTEST_EXPECT(took < IDLE_RETURN_NS, "arch_cpu_idle() took "
				"%llu ns with no wake-up sent (round %u)",
				(unsigned long long)took, i);
	}
	return true;
#else
	return selftest_skip("idle CPUs spin on this arch "
			     "(no ARCH_HAS_IDLE_WAKEUP)");
#endif
}

/* Far beyond a wake-up's delivery, even with fewer host cores than CPUs. */
#define WAKEUP_WAIT_NS		(1000ULL * 1000 * 1000)

#ifdef ARCH_HAS_IDLE_WAKEUP
static bool wakeup_taken(unsigned int cpu, unsigned long before)
{
	uint64_t start = arch_clock_ns();

	while (smp_cpu_wakeups(cpu) == before)
		if (arch_clock_ns() - start > WAKEUP_WAIT_NS)
			return false;
	return true;
}
#endif

/*
 * Each wake-up arrives: the idle timer would hide one that does not (the
 * CPU would only answer a millisecond late). Every online CPU sleeps
 * where this one does, takes a wake-up sent to it (its own count moves,
 * not its timer's), and one pending before this CPU's arch_cpu_idle()
 * is taken there (another CPU may send one too: at least one).
 */
SELFTEST(smp_wakeup_reaches_each_cpu, STAGE_BOOT + 3)
{
#ifdef ARCH_HAS_IDLE_WAKEUP
	const char *why = smp_untestable(true);
	unsigned int me = smp_processor_id(), cpu;
	unsigned long before;

	if (why)
		return selftest_skip("%s", why);
	if (!arch_cpu_idle_sleeps(me))
		return selftest_skip("%s", IDLE_SPINS);
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		SELFTEST_EXPECT(arch_cpu_idle_sleeps(cpu), "cpu %u spins when "
				"idle, cpu %u sleeps", cpu, me);
		before = smp_cpu_wakeups(cpu);
		arch_smp_send_wakeup(cpu);
		SELFTEST_EXPECT(wakeup_taken(cpu, before), "cpu %u took no "
				"wake-up within %llu ms of one sent to it", cpu,
				WAKEUP_WAIT_NS / 1000000);
	}
	before = smp_cpu_wakeups(me);
	arch_smp_send_wakeup(me);
	arch_cpu_idle();
	SELFTEST_EXPECT(smp_cpu_wakeups(me) != before, "cpu %u's "
			"arch_cpu_idle() did not take the wake-up sent to it "
			"before", me);
	return true;
#else
	return selftest_skip("idle CPUs spin on this arch "
			     "(no ARCH_HAS_IDLE_WAKEUP)");
#endif
}
