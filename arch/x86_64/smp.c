/*
 * smp.c - x86_64's part of bringing CPUs up (include/arch/smp.h).
 *
 * The per-CPU self-offset word that %gs:0 reads (asm/smp.h), and the
 * clock: the TSC, at the rate CPUID leaf 0x15 states (crystal clock times
 * its ratio) where the CPU says it, else measured once against the PIT's
 * channel 2 over 10 ms. The bring-up itself (INIT-SIPI-SIPI) is not
 * written yet: arch_cpu_start() says so, and the boot CPU runs alone.
 */
#include <arch/smp.h>
#include <asm/x86.h>
#include <boot/cpus.h>
#include <lib/compiler.h>
#include <lib/errno.h>

/* Its own area's offset from the section, first in every CPU's area. */
__section(PER_CPU_FIRST_SECTION) __aligned(8) unsigned long this_cpu_off;

int arch_smp_prepare_cpus(const struct boot_cpus *cpus)
{
	(void)cpus;
	return 0;
}

int arch_cpu_start(const struct cpu_desc *desc, struct secondary_boot *boot)
{
	(void)desc;
	(void)boot;
	return -EOPNOTSUPP;
}

#define PIT_HZ			1193182
#define PIT_CH2			0x42
#define PIT_CMD			0x43
#define PIT_PORT_B		0x61	/* bit 0: gate 2, 1: speaker, 5: OUT2 */
#define PIT_CALIBRATE_MS	10
#define PIT_POLL_LIMIT		100000000UL

/* The TSC rate in kHz from CPUID 0x15, or 0 when it does not say. */
static uint64_t tsc_khz_from_cpuid(void)
{
	struct cpuid_regs r;

	if (cpuid(0, 0).eax < 0x15)
		return 0;
	r = cpuid(0x15, 0);
	if (!r.eax || !r.ebx || !r.ecx)
		return 0;
	return (uint64_t)r.ecx * r.ebx / r.eax / 1000;
}

/* Count TSC ticks while the PIT's channel 2 counts 10 ms down. */
static uint64_t tsc_khz_from_pit(void)
{
	uint32_t latch = PIT_HZ / (1000 / PIT_CALIBRATE_MS);
	uint64_t start, end;
	unsigned long polls = 0;

	/* Gate on, speaker off; mode 0, binary, low then high byte. */
	outb((uint8_t)((inb(PIT_PORT_B) & ~0x02) | 0x01), PIT_PORT_B);
	outb(0xb0, PIT_CMD);
	outb((uint8_t)latch, PIT_CH2);
	outb((uint8_t)(latch >> 8), PIT_CH2);
	start = rdtsc();
	while (!(inb(PIT_PORT_B) & 0x20) && ++polls < PIT_POLL_LIMIT)
		;
	end = rdtsc();
	if (polls >= PIT_POLL_LIMIT || end <= start)
		return 0;
	return (end - start) / PIT_CALIBRATE_MS;
}

uint64_t arch_clock_ns(void)
{
	/* Measured once, by the first caller (the boot CPU). */
	static uint64_t tsc_khz;
	uint64_t tsc;

	if (!tsc_khz) {
		tsc_khz = tsc_khz_from_cpuid();
		if (!tsc_khz)
			tsc_khz = tsc_khz_from_pit();
		if (!tsc_khz)
			tsc_khz = 1000000;	/* no PIT either: say 1 GHz */
	}
	tsc = rdtsc();
	return tsc / tsc_khz * 1000000ULL + tsc % tsc_khz * 1000000ULL / tsc_khz;
}
