/*
 * smp.h - what an architecture provides so that every CPU runs buddyboot.
 *
 * Inline, in <asm/smp.h>, because the hot paths of mm/ use them:
 *
 *   unsigned long arch_percpu_offset(void);
 *   void arch_set_percpu_offset(unsigned long off);
 *       This CPU's per-CPU offset (include/smp/percpu.h), kept in the
 *       architecture's register for it: riscv64 tp, aarch64 TPIDR_EL1,
 *       x86_64 the GS base. The boot CPU's is 0 from its entry on, before
 *       boot_main() (the stub zeroes the register), so per-CPU variables
 *       work from the first line of C.
 *   void arch_cpu_relax(void);
 *       Spin-wait hint (pause, yield, or nothing).
 *   unsigned long arch_local_irq_save(void);
 *   void arch_local_irq_restore(unsigned long flags);
 *       Mask this CPU's interrupts and return the previous state; put it
 *       back. buddyboot runs with interrupts masked, but spin_lock_irqsave()
 *       must still mean what it says on a port that unmasks them.
 *
 * Optional: idle CPUs that sleep instead of spinning. An arch that can
 * wake a CPU from another (an IPI) defines ARCH_HAS_IDLE_WAKEUP in
 * <asm/smp.h> and provides
 *
 *   void arch_cpu_idle(void);
 *       Wait until a wake-up that arch_smp_send_wakeup() sent after this
 *       CPU's last look at what it waits for, and return with interrupts
 *       masked as they were (riscv64 and aarch64 take none: the pending
 *       interrupt ends their wfi, and the idle code acknowledges it;
 *       x86_64 takes one across sti; hlt, whose handler only
 *       acknowledges it); returning early is allowed, losing a wake-up
 *       is not, and it must return within a millisecond or so even
 *       without one: the boot CPU also idles while it waits for a
 *       check-in with a deadline (each CPU wakes it when it checks in).
 *       The selftest smp_idle_returns checks that last promise.
 *   void arch_smp_send_wakeup(unsigned int cpu);
 *       Wake CPU @cpu. on_each_cpu() calls it after the request is
 *       written; the arch orders that write before the wake-up.
 *   bool arch_cpu_idle_sleeps(unsigned int cpu);
 *       CPU @cpu sleeps in arch_cpu_idle(); false when it spins there
 *       (no timer to bound the sleep, or no interrupt controller that
 *       answers: its boot log says which).
 *   The arch calls smp_note_wakeup() (<smp/smp.h>) on the CPU that
 *   takes a wake-up from arch_smp_send_wakeup() (not its timer's):
 *   smp_cpu_wakeups() counts them for the selftest
 *   smp_wakeup_reaches_each_cpu, which checks that every one arrives.
 *
 * Without it, idle CPUs spin with arch_cpu_relax(): correct, but an
 * emulated machine with more CPUs than the host has cores crawls.
 *
 * Optional: CPUs held by the kernel itself. An arch whose entry may be
 * reached by every CPU at once with nothing to hold the others (aarch64
 * entered at EL3 with no firmware) defines ARCH_HAS_CPUS_HELD_AT_ENTRY in
 * <asm/smp.h> and provides
 *
 *   bool arch_cpus_held_at_entry(void);
 *       True when the other CPUs entered the image with the boot CPU and
 *       wait in the kernel's own holding pen: the boot-info reader then
 *       lists them as CPU_ENABLE_HELD (<boot/cpus.h>) and
 *       arch_cpu_start() releases them from there.
 *
 * Without it, no CPU is ever held (riscv64's harts that lose its entry
 * lottery are still started through SBI HSM).
 *
 * Optional: CPUs that block outside buddyboot's code. An arch whose CPUs
 * may sit in code that is not buddyboot's, reaching no poll point, for
 * as long as they like (the host: a thread in a barrier, a join, a
 * sleep) defines ARCH_HAS_CPU_HOLD in <asm/smp.h> and provides
 *
 *   bool arch_cpu_hold(unsigned int cpu);
 *       Called by a sender that has made CPU @cpu's presence its own
 *       (smp/call.c: PRESENT -> SERVED), once a request to it has waited
 *       a millisecond. True when CPU @cpu is blocked outside buddyboot's
 *       code and, from now on, its next use of any per-CPU data first
 *       waits in smp_cpu_wait_unheld() (smp/internal.h) until the sender
 *       lets go: the sender then runs its requests on its behalf, as for
 *       a CPU that said it is away. False changes nothing for the CPU
 *       beyond, at most, one detour through that wait.
 *
 * Without it, a CPU that neither polls nor says it is away cannot answer
 * (include/smp/smp.h, "The limit").
 *
 * Optional: no inline fast paths. An arch whose hold must see every entry
 * into buddyboot's code (the host under ThreadSanitizer, which counts the
 * library's function entries) defines ARCH_NO_INLINE_FAST_PATHS to 1 in
 * <asm/smp.h>: alloc_pages(), __free_pages(), kmalloc() and kfree() then
 * call their general ways at once, which serve the same per-CPU lists and
 * slabs, instead of running inline in the caller's code
 * (<smp/percpu.h> gives the default, 0).
 *
 * Out of line, below: starting a secondary CPU, and a clock for timeouts.
 *
 * The bring-up contract. smp_init() (smp/smp.c) fills a struct
 * secondary_boot for each CPU to start, with a stack and a per-CPU area,
 * and calls arch_cpu_start(). The arch starts the CPU through the method
 * the boot information named (SBI HSM, PSCI CPU_ON, spin table,
 * INIT-SIPI-SIPI); the new CPU, in the arch's own entry code, takes
 * @boot->stack_top as its stack, installs the exception vectors, turns the
 * MMU on with the boot CPU's mappings where the arch has one, sets its
 * per-CPU register to @boot->percpu_offset, and calls
 * secondary_start(@boot), which never returns. Everything else (checking
 * in, waiting for work) is generic.
 */
#ifndef ARCH_SMP_H
#define ARCH_SMP_H

#include <lib/compiler.h>
#include <lib/types.h>
#include <asm/smp.h>

struct boot_cpus;
struct cpu_desc;

/*
 * What the boot CPU hands a secondary CPU. Written by the boot CPU before
 * arch_cpu_start(); read by the secondary from its entry on. The arch's
 * start method is the release: whatever it uses (an SBI call, PSCI, a
 * store to a spin-table address after a barrier, a SIPI) orders these
 * writes before the secondary's first read. arch_cpu_start() may move
 * stack_top and stack_bottom to where the CPU will see its stack
 * (aarch64 maps it a second time with guard pages: arch/aarch64/mmu.c).
 */
struct secondary_boot {
	unsigned int cpu;		/* logical CPU number, 1..NR_CPUS-1 */
	unsigned long hwid;		/* hart id, MPIDR affinity, APIC id */
	uintptr_t stack_top;		/* 16-byte aligned, grows down */
	uintptr_t stack_bottom;		/* lowest usable byte (above any guard) */
	unsigned long percpu_offset;	/* for arch_set_percpu_offset() */
	void *arch;			/* the arch's own per-CPU boot data */
};

#ifdef ARCH_HAS_CPUS_HELD_AT_ENTRY
bool arch_cpus_held_at_entry(void);
#else
static inline bool arch_cpus_held_at_entry(void)
{
	return false;
}
#endif

/*
 * arch_smp_prepare_cpus - called once by smp_init() before any
 * arch_cpu_start(), with the whole list: what the arch needs from it
 * beyond one CPU's entry (riscv64: the timebase for arch_clock_ns();
 * aarch64: the PSCI conduit), and whether the firmware can start CPUs.
 * Return: 0, or a negative errno (-EOPNOTSUPP: this port or firmware
 * cannot start secondary CPUs; the arch prints why) after which the boot
 * CPU runs alone.
 */
int arch_smp_prepare_cpus(const struct boot_cpus *cpus);

/*
 * arch_cpus_virtual - what the CPU or the firmware says about these CPUs
 * being a hypervisor's virtual CPUs (x86_64: CPUID's hypervisor bit and
 * the hypervisor's signature; riscv64: an SBI implementation that is a
 * hypervisor, KVM or Xen among them), or NULL when they say nothing
 * (aarch64 has no such register: its sign, PSCI over hvc, is in the boot
 * information). Called once by smp_init(), before any CPU starts, which
 * reads the boot information's own signs too and chooses how CPUs wait
 * for a spinlock (<smp/spinlock.h>). A string that lives for good.
 */
const char *arch_cpus_virtual(void);

/*
 * arch_cpu_start - start the CPU @desc describes at the arch's secondary
 * entry, with @boot as its argument. Returns once the start request is
 * made; smp_init() waits for the CPU to check in.
 * Return: 0, or a negative errno when the firmware refused (the message
 * is printed by the caller with the CPU's id and this value).
 */
int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot);

/* secondary_start - the generic C entry of every secondary CPU. */
void secondary_start(struct secondary_boot *boot) __noreturn;

/*
 * arch_clock_ns - a monotonic clock in nanoseconds, good to a few percent,
 * for timeouts (a CPU that never checks in). riscv64 reads `time` at the
 * DTB's timebase-frequency, aarch64 CNTVCT_EL0 at CNTFRQ_EL0, x86_64 the
 * TSC calibrated against the PIT.
 */
uint64_t arch_clock_ns(void);

#endif /* ARCH_SMP_H */
