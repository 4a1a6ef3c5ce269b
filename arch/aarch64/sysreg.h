/*
 * sysreg.h - the system register bits and firmware numbers the aarch64
 * port uses. Constants are usable from assembly; accessors from C.
 */
#ifndef AARCH64_SYSREG_H
#define AARCH64_SYSREG_H

/* HCR_EL2.RW: EL1 is AArch64. Every trap and stage 2 stays off. */
#define HCR_EL2_RW		(1 << 31)

/* CNTHCTL_EL2: EL1 may read the physical counter and use its timer. */
#define CNTHCTL_EL1PCTEN_EL1PCEN 0x3

/* CPTR_EL2 with its RES1 bits and no FP/SIMD trap (non-VHE layout). */
#define CPTR_EL2_NO_TRAPS	0x33ff

/* SCTLR_ELx with the MMU, caches and alignment checks off: RES1 bits only. */
#define SCTLR_EL1_MMU_OFF	0x30d00800
#define SCTLR_EL2_MMU_OFF	0x30c50830
#define SCTLR_M			(1 << 0)
#define SCTLR_C			(1 << 2)
#define SCTLR_I			(1 << 12)

/*
 * MAIR_EL1 attribute encodings buddyboot uses: Device-nGnRnE, and Normal
 * write-back RW-allocate, inner and outer (what PAR_EL1.ATTR reads back
 * for a page so mapped).
 */
#define MAIR_ATTR_DEVICE_nGnRnE	0x00UL
#define MAIR_ATTR_NORMAL_WB	0xffUL

/* MPIDR_EL1's affinity fields, Aff3 and Aff2..Aff0: a CPU's hwid. */
#define MPIDR_AFFINITY_MASK	0xff00ffffff

/* SPSR for an eret to EL1 on SP_EL1 (EL2 on SP_EL2) with D, A, I, F masked. */
#define SPSR_EL1H_DAIF		0x3c5
#define SPSR_EL2H_DAIF		0x3c9

/*
 * SCR_EL3 for the world below an EL3 that holds no firmware: non-secure
 * (NS), AArch64 (RW), HVC enabled (HCE, with EL2), SMC disabled (SMD:
 * with nothing at EL3 to answer it, an smc is an undefined instruction
 * at the caller's EL, which a fixup catches), bits 5:4 RES1. Nothing is
 * routed to EL3 (IRQ, FIQ, EA clear).
 */
#define SCR_EL3_RES1		(3 << 4)
#define SCR_EL3_NS		(1 << 0)
#define SCR_EL3_SMD		(1 << 7)
#define SCR_EL3_HCE		(1 << 8)
#define SCR_EL3_RW		(1 << 10)
#define SCR_EL3_TO_EL1		(SCR_EL3_RW | SCR_EL3_SMD | SCR_EL3_RES1 | SCR_EL3_NS)
#define SCR_EL3_TO_EL2		(SCR_EL3_TO_EL1 | SCR_EL3_HCE)

/* ID_AA64PFR0_EL1.EL2: 0 when EL2 is not implemented. */
#define ID_AA64PFR0_EL2_SHIFT	8
/* ID_AA64PFR0_EL1.GIC: non-zero when the GICv3 system registers exist. */
#define ID_AA64PFR0_GIC_SHIFT	24

/*
 * ICC_SRE_EL3 and ICC_SRE_EL2 (GICv3): SRE, DFB, DIB, and Enable, which
 * lets the level below use its own ICC_SRE without trapping here.
 */
#define ICC_SRE_EL3		s3_6_c12_c12_5
#define ICC_SRE_EL2		s3_4_c12_c9_5
#define ICH_HCR_EL2		s3_4_c12_c11_0
#define ICC_SRE_ALL		0xf

/* ID_AA64DFR0_EL1.PMUVer: 0 none, 0xf IMPLEMENTATION DEFINED. */
#define ID_AA64DFR0_PMUVER_SHIFT 8
/* PMCR_EL0 */
#define PMCR_E			(1 << 0)	/* enable the counters */
#define PMCR_C			(1 << 2)	/* reset the cycle counter */
#define PMCR_LC			(1 << 6)	/* 64-bit cycle counter */
#define PMCR_N_SHIFT		11
#define PMCNTEN_C		(1UL << 31)	/* the cycle counter */

/* PSCI function ids (SMC32, and SMC64 where an argument is an address). */
#define PSCI_VERSION		0x84000000
#define PSCI_SYSTEM_OFF		0x84000008
#define PSCI_CPU_ON_64		0xc4000003

/* Semihosting: SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit. */
#define SEMIHOSTING_SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

#ifdef __ASSEMBLY__

/* adr_l - a symbol's address, PC-relative (+-4 GiB). */
	.macro	adr_l reg, sym
	adrp	\reg, \sym
	add	\reg, \reg, :lo12:\sym
	.endm

#else

#define read_sysreg(reg)						\
	({								\
		unsigned long __v;					\
		__asm__ volatile("mrs %0, " #reg : "=r"(__v));		\
		__v;							\
	})

#define write_sysreg(val, reg)						\
	__asm__ volatile("msr " #reg ", %0" ::"r"((unsigned long)(val)) \
			 : "memory")

#define isb()	__asm__ volatile("isb" ::: "memory")

/* Which exception level the stub was entered at: 1, 2 or 3 (entry.S). */
extern unsigned int aarch64_entry_el;
/* CPUs that entered the image at EL3 at once, the boot CPU included (entry.S). */
extern unsigned int aarch64_boot_lottery;

#endif /* __ASSEMBLY__ */
#endif /* AARCH64_SYSREG_H */
