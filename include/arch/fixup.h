/*
 * fixup.h - resuming after an instruction that may fault on purpose.
 *
 * Some instructions are tried rather than known to work: an exit device
 * that a board may not have, a counter the firmware may not have opened,
 * a firmware call through a conduit that may not exist. Each such
 * instruction gets an entry {address, resume address} in the .fixup_table
 * section (bounded by __fixup_start and __fixup_end in the linker script).
 * The arch's trap handler looks the faulting pc up there and, on a hit,
 * resumes at the resume address instead of reporting an exception.
 *
 * A fault taken in normal context resumes with every register as it was.
 * A fault taken inside the trap handler itself (the shutdown path) resumes
 * with the few scratch registers the arch's trap entry names clobbered.
 */
#ifndef ARCH_FIXUP_H
#define ARCH_FIXUP_H

#ifdef __ASSEMBLY__

	.macro	fixup insn, resume
	.pushsection .fixup_table, "a"
	.balign	8
	.dword	\insn, \resume
	.popsection
	.endm

#else

/* FIXUP(insn, resume): the same entry, from inline assembly. */
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

/* fixup_resume - the resume address for a fault at @pc, or 0 if none. */
static inline unsigned long fixup_resume(unsigned long pc)
{
	for (const struct fixup_entry *f = __fixup_start; f < __fixup_end; f++)
		if (f->insn == pc)
			return f->resume;
	return 0;
}

#endif /* __ASSEMBLY__ */
#endif /* ARCH_FIXUP_H */
