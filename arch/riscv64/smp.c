/*
 * smp.c - riscv64's part of bringing harts up (include/arch/smp.h).
 *
 * Harts are started through the SBI HSM extension: hart_start(hartid,
 * riscv_secondary_entry, its struct secondary_boot). Any hart may be the
 * boot hart, 0 or not: the list comes from the device tree, the boot
 * hart's id from OpenSBI in a0.
 *
 * The lottery. OpenSBI (fw_jump and fw_dynamic alike, 1.1 and later)
 * runs its own cold-boot lottery and sends only the winner to _start; the
 * others wait in its HSM, STOPPED, until hart_start. A loader that sends
 * every hart to _start instead (as some do for Linux) meets entry.S's
 * lottery: the first hart there boots, and every other waits in
 * riscv_lottery_wait for an entry with its hart id in riscv_release[].
 * arch_cpu_start() writes that entry before it asks the SBI, so either
 * way ends in riscv_secondary_entry: hart_start succeeds for a STOPPED
 * hart, and answers "already available" for one that is running, which
 * here means it is waiting in the table and has just been released.
 * Built with LOTTERY=1 (CONFIG_RISCV_START_AT_IMAGE_ENTRY), hart_start
 * sends every secondary hart to _start instead, where it loses the
 * lottery: the matrix boots that to prove the waiting path.
 *
 * arch_clock_ns() reads the `time` CSR at the device tree's
 * timebase-frequency.
 */
#include <arch/memory.h>
#include <arch/smp.h>
#include <boot/cpus.h>
#include <lib/atomic.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <smp/smp.h>
#include "csr.h"
#include "sbi.h"
#include "smp.h"

void riscv_secondary_entry(void);
extern char _start[];

#ifdef CONFIG_RISCV_START_AT_IMAGE_ENTRY
#define SECONDARY_START_ADDR	((unsigned long)virt_to_phys(_start))
#else
#define SECONDARY_START_ADDR	((unsigned long)virt_to_phys(riscv_secondary_entry))
#endif

_Static_assert(__builtin_offsetof(struct secondary_boot, stack_top) ==
			       SB_STACK_TOP &&
		       __builtin_offsetof(struct secondary_boot,
					  percpu_offset) == SB_PERCPU_OFFSET,
	       "smp.h offsets must match struct secondary_boot.");

struct riscv_release {
	unsigned long hartid;
	struct secondary_boot *boot;	/* store-release after hartid */
};

_Static_assert(sizeof(struct riscv_release) == RELEASE_SIZE &&
		       __builtin_offsetof(struct riscv_release, boot) ==
			       RELEASE_BOOT,
	       "smp.h offsets must match struct riscv_release.");

/*
 * In .data, not BSS: harts that lost the lottery read it while the boot
 * hart clears BSS. Entry n is written once, by the boot hart, for CPU n.
 */
__section(".data.riscv_release") struct riscv_release riscv_release[NR_CPUS];

/* QEMU's virt and most boards tick at 10 MHz; the device tree says. */
#define DEFAULT_TIMEBASE_HZ	10000000ULL

/* Written by the boot hart in arch_smp_prepare_cpus(), read after. */
static uint64_t timebase_hz = DEFAULT_TIMEBASE_HZ;
/* The SBI has a TIME extension: arch_cpu_idle() may sleep (a timer). */
static bool sbi_has_time;

int arch_smp_prepare_cpus(const struct boot_cpus *cpus)
{
	struct sbiret ret;

	if (cpus->timebase_hz)
		timebase_hz = cpus->timebase_hz;
	else
		printk("smp: no timebase-frequency in /cpus: timeouts assume "
		       "%llu Hz\n", DEFAULT_TIMEBASE_HZ);
	ret = sbi_call(SBI_EXT_BASE, SBI_BASE_PROBE_EXTENSION, SBI_EXT_TIME,
		       0, 0);
	sbi_has_time = !ret.error && ret.value;
	/* The boot hart's wake-ups too (secondaries: secondary.S). */
	csr_set(sie, SIE_SSIE | SIE_STIE);
	ret = sbi_call(SBI_EXT_BASE, SBI_BASE_PROBE_EXTENSION, SBI_EXT_HSM,
		       0, 0);
	if (ret.error || !ret.value) {
		printk("smp: the SBI firmware has no HSM extension: harts "
		       "cannot be started\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The SBI implementations that are hypervisors (the SBI specification's
 * implementation ids): a hart they run is a virtual one.
 */
const char *arch_cpus_virtual(void)
{
	struct sbiret ret = sbi_call(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID,
				     0, 0, 0);

	if (ret.error)
		return NULL;
	switch (ret.value) {
	case 2:		return "SBI implementation: Xvisor";
	case 3:		return "SBI implementation: KVM";
	case 5:		return "SBI implementation: Diosix";
	case 7:		return "SBI implementation: Xen";
	case 11:	return "SBI implementation: bhyve";
	default:	return NULL;
	}
}

static int sbi_errno(long error)
{
	switch (error) {
	case SBI_ERR_INVALID_PARAM:	return -EINVAL;
	case SBI_ERR_INVALID_ADDRESS:	return -EFAULT;
	default:			return -EIO;
	}
}

int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot)
{
	struct riscv_release *rel = &riscv_release[boot->cpu];
	struct sbiret ret;

	if (desc->method != CPU_ENABLE_SBI_HSM)
		return -EINVAL;
	/* For a hart waiting in riscv_lottery_wait: id, then the release. */
	WRITE_ONCE(rel->hartid, desc->hwid);
	smp_store_release(&rel->boot, boot);

	/* The MMU is off: these addresses are physical as they are. */
	ret = sbi_call(SBI_EXT_HSM, SBI_HSM_HART_START, desc->hwid,
		       SECONDARY_START_ADDR, (unsigned long)virt_to_phys(boot));
	if (ret.error == SBI_ERR_ALREADY_AVAILABLE)
		return 0;	/* running: the release above starts it */
	if (ret.error) {
		printk("smp: SBI hart_start(%lu) failed: SBI error %ld\n",
		       desc->hwid, ret.error);
		return sbi_errno(ret.error);
	}
	return 0;
}

/*
 * arch_cpu_idle - wfi until a supervisor software interrupt (a wake-up
 * from arch_smp_send_wakeup()) or the timer is pending, then clear the
 * former. Neither is taken: sie enables them, sstatus.SIE stays 0, so
 * they only end the wfi. wfi returns at once if one is already pending,
 * so a wake-up sent between the caller's last look and the wfi is not
 * lost; one sent after the clear is seen at the caller's next look,
 * because it was sent after what it announces was written. The timer,
 * set IDLE_TICK_DIVISOR-th of a second ahead, brings back a caller that
 * watches a deadline (smp_init() waiting for a check-in). Without the
 * SBI TIME extension there is no timer: spin instead.
 */
#define IDLE_TICK_DIVISOR	1000

void arch_cpu_idle(void)
{
	unsigned long sip;

	if (!sbi_has_time) {
		arch_cpu_relax();
		return;
	}
	sbi_call(SBI_EXT_TIME, SBI_TIME_SET_TIMER,
		 csr_read(time) + timebase_hz / IDLE_TICK_DIVISOR, 0, 0);
	__asm__ volatile("wfi\n\t"
			 "csrrc %0, sip, %1"
			 : "=r"(sip) : "r"(SIP_SSIP) : "memory");
	if (sip & SIP_SSIP)
		smp_note_wakeup();
}

bool arch_cpu_idle_sleeps(unsigned int cpu)
{
	(void)cpu;
	return sbi_has_time;
}

void arch_smp_send_wakeup(unsigned int cpu)
{
	/* The request before the IPI: OpenSBI raises it with an MMIO write. */
	__asm__ volatile("fence iorw, iorw" ::: "memory");
	sbi_call(SBI_EXT_IPI, SBI_IPI_SEND_IPI, 1, cpu_hwid(cpu), 0);
}

uint64_t arch_clock_ns(void)
{
	uint64_t t = csr_read(time);

	return t / timebase_hz * 1000000000ULL +
	       t % timebase_hz * 1000000000ULL / timebase_hz;
}
