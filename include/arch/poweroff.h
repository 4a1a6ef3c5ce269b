/*
 * poweroff.h - ending the machine with a verdict.
 *
 * Under QEMU the verdict becomes QEMU's exit status, the same on every
 * target, so that the runner can tell a pass from everything else:
 *
 *   POWEROFF_PASS  -> exit status 33 (QEMU_EXIT_PASS)
 *   POWEROFF_FAIL  -> exit status 35 (QEMU_EXIT_FAIL)
 *
 * Neither is 0 or 1: QEMU exits 0 on a triple fault with -no-reboot or an
 * SBI shutdown, and 1 on its own errors; none of those may read as a pass.
 * riscv64 uses the sifive_test device its device tree lists, else
 * semihosting SYS_EXIT_EXTENDED, aarch64 semihosting SYS_EXIT, x86_64
 * isa-debug-exit. On hardware without such a device the arch powers off
 * through firmware (SBI SRST, PSCI SYSTEM_OFF) or halts.
 */
#ifndef ARCH_POWEROFF_H
#define ARCH_POWEROFF_H

#define QEMU_EXIT_PASS	33
#define QEMU_EXIT_FAIL	35

/* The exit codes above are also for the arch's assembly (emergency exits). */
#ifndef __ASSEMBLY__
#include <lib/compiler.h>

enum poweroff_status {
	POWEROFF_PASS = 0,
	POWEROFF_FAIL = 1,
};

void arch_poweroff(enum poweroff_status status) __noreturn;
#endif /* !__ASSEMBLY__ */

#endif /* ARCH_POWEROFF_H */
