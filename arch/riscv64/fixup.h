/*
 * fixup.h - resuming after an instruction that may fault on purpose.
 *
 * Some instructions are tried rather than known to work: the sifive_test
 * write on a board without the device, rdinstret when the firmware has not
 * opened the counter to S-mode. Each such instruction gets an entry
 * {address, resume address} in the .fixup_table section (bounded by
 * __fixup_start and __fixup_end in the linker script). The trap handler
 * looks the faulting pc up there and, on a hit, resumes at the resume
 * address instead of reporting an exception.
 *
 * A fault taken in normal context resumes with every register as it was.
 * A fault taken inside the trap handler itself (the shutdown path) resumes
 * with t0-t3 clobbered: code there keeps nothing live in them.
 */
#ifndef RISCV64_FIXUP_H
#define RISCV64_FIXUP_H

#ifdef __ASSEMBLY__

	.macro	fixup insn, resume
	.pushsection .fixup_table, "a"
	.balign	8
	.dword	\insn, \resume
	.popsection
	.endm

#else

/* FIXUP(insn, resume): the same entry from inline assembly. */
#define FIXUP(insn, resume)						\
	".pushsection .fixup_table, \"a\"\n"				\
	".balign 8\n"							\
	".dword " insn ", " resume "\n"					\
	".popsection\n"

struct fixup_entry {
	unsigned long insn;
	unsigned long resume;
};

extern const struct fixup_entry __fixup_start[], __fixup_end[];

#endif /* __ASSEMBLY__ */
#endif /* RISCV64_FIXUP_H */
