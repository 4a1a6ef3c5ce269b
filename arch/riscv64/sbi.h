/*
 * sbi.h - calling the SBI firmware (OpenSBI) from C: one ecall with up to
 * three arguments, the SBI v1.0 calling convention (a7 extension, a6
 * function, a0-a2 arguments; a0 error, a1 value back).
 */
#ifndef RISCV64_SBI_H
#define RISCV64_SBI_H

#include "csr.h"

struct sbiret {
	long error;
	long value;
};

static inline struct sbiret sbi_call(unsigned long ext, unsigned long fid,
				     unsigned long arg0, unsigned long arg1,
				     unsigned long arg2)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a2 __asm__("a2") = arg2;
	register unsigned long a6 __asm__("a6") = fid;
	register unsigned long a7 __asm__("a7") = ext;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1)
			 : "r"(a2), "r"(a6), "r"(a7)
			 : "memory");
	return (struct sbiret){ .error = (long)a0, .value = (long)a1 };
}

#endif /* RISCV64_SBI_H */
