/*
 * sections.lds.h - the pieces of the image layout every port shares,
 * for the linker scripts (linker/image.lds.S, arch/x86_64/image.lds.S),
 * which the C preprocessor expands (mk/kernel.mk). A generic registry
 * section is added here once, not in each port's script.
 *
 * Each macro is the inside of an output section, or a whole one; the
 * symbols are those docs/porting.md (section 5) lists.
 */
#ifndef LINKER_SECTIONS_LDS_H
#define LINKER_SECTIONS_LDS_H

/* The in-kernel test cases' registry (<selftest/selftest.h>). */
#define SELFTESTS_TABLE							\
	__selftests_start = .;						\
	KEEP(*(.selftests))						\
	__selftests_end = .;

/* The UART drivers' registry (<platform/console.h>). */
#define CONSOLE_DRIVERS_TABLE						\
	__console_drivers_start = .;					\
	KEEP(*(.console_drivers))					\
	__console_drivers_end = .;

/* Instructions that may fault on purpose, and where to resume
 * (<arch/fixup.h>). */
#define FIXUP_TABLE							\
	__fixup_start = .;						\
	KEEP(*(.fixup_table))						\
	__fixup_end = .;

/*
 * The per-CPU section, at the start of BSS: the boot CPU's copy of every
 * DEFINE_PER_CPU variable, zeroed with the rest of BSS; smp_init() copies
 * its size for every other CPU. @first: input sections that must open it
 * (x86_64's this_cpu_off, %gs:0 on every CPU).
 */
#define PER_CPU_SECTION(first)						\
	. = ALIGN(64);							\
	__per_cpu_start = .;						\
	first								\
	KEEP(*(bb_percpu))						\
	. = ALIGN(64);							\
	__per_cpu_end = .;

/* What no image keeps. */
#define COMMON_DISCARDS							\
	*(.comment)							\
	*(.eh_frame .eh_frame_hdr)					\
	*(.note .note.*)

#endif /* LINKER_SECTIONS_LDS_H */
