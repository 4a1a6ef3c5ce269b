/*
 * csr.h - the supervisor CSR bits and SBI numbers the riscv64 port uses.
 *
 * Usable from assembly (constants only) and C (accessors too).
 */
#ifndef RISCV64_CSR_H
#define RISCV64_CSR_H

#define SSTATUS_SIE		(1 << 1)
#define SIE_SSIE		(1 << 1)	/* supervisor software interrupt */
#define SIE_STIE		(1 << 5)	/* supervisor timer interrupt */
#define SIP_SSIP		(1 << 1)

/* scause: the top bit tells an interrupt from an exception. */
#define SCAUSE_INTERRUPT_BIT	63

/* SBI extension and function ids (SBI v1.0 / v2.0). */
#define SBI_EXT_BASE		0x10
#define SBI_BASE_GET_SPEC_VERSION 0
#define SBI_BASE_GET_IMPL_ID	1
#define SBI_BASE_PROBE_EXTENSION 3
#define SBI_EXT_TIME		0x54494d45	/* "TIME" */
#define SBI_TIME_SET_TIMER	0
#define SBI_EXT_IPI		0x735049	/* "sPI" */
#define SBI_IPI_SEND_IPI	0
#define SBI_EXT_HSM		0x48534d	/* "HSM" */
#define SBI_HSM_HART_START	0
#define SBI_HSM_HART_GET_STATUS	2
#define SBI_ERR_INVALID_PARAM	(-3)
#define SBI_ERR_INVALID_ADDRESS	(-5)
#define SBI_ERR_ALREADY_AVAILABLE (-6)
#define SBI_EXT_SRST		0x53525354	/* "SRST" */
#define SBI_SRST_RESET		0
#define SBI_SRST_TYPE_SHUTDOWN	0
#define SBI_SRST_REASON_NONE	0
#define SBI_SRST_REASON_SYSFAIL	1
#define SBI_EXT_DBCN		0x4442434e	/* "DBCN" (SBI v2.0) */
#define SBI_DBCN_WRITE_BYTE	2
#define SBI_EXT_LEGACY_PUTCHAR	0x01		/* SBI v0.1 console_putchar */

#ifndef __ASSEMBLY__

#define csr_read(csr)							\
	({								\
		unsigned long __v;					\
		__asm__ volatile("csrr %0, " #csr : "=r"(__v));		\
		__v;							\
	})

#define csr_set(csr, bits)						\
	__asm__ volatile("csrs " #csr ", %0" : : "r"(bits) : "memory")

#endif /* !__ASSEMBLY__ */
#endif /* RISCV64_CSR_H */
