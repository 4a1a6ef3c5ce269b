/*
 * asm/x86.h - the x86 instructions C code needs, as inline functions:
 * port I/O, CPUID, the time-stamp counter, control registers and MSRs.
 *
 * Only arch/x86_64 includes this; the generic code reaches the CPU through
 * the contract headers in include/arch/.
 */
#ifndef ASM_X86_H
#define ASM_X86_H

#include <lib/types.h>

static inline void outb(uint8_t value, uint16_t port)
{
	__asm__ volatile("outb %0, %1" : : "a"(value), "Nd"(port));
}

static inline void outl(uint32_t value, uint16_t port)
{
	__asm__ volatile("outl %0, %1" : : "a"(value), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t value;

	__asm__ volatile("inb %1, %0" : "=a"(value) : "Nd"(port));
	return value;
}

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	__asm__ volatile("wrmsr"
			 : : "c"(msr), "a"((uint32_t)value),
			     "d"((uint32_t)(value >> 32))
			 : "memory");
}

#define DEFINE_READ_CR(n)                                                      \
	static inline uint64_t read_cr##n(void)                                \
	{                                                                      \
		uint64_t value;                                                \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(value));          \
		return value;                                                  \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr3(uint64_t value)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(value) : "memory");
}

/*
 * flush_tlb_all - drop every cached translation. No mapping is global
 * (CR4.PGE stays off), so reloading CR3 drops them all.
 */
static inline void flush_tlb_all(void)
{
	write_cr3(read_cr3());
}

#endif /* ASM_X86_H */
