/*
 * emergency.h - the console as stackless assembly sees it.
 *
 * The exception paths that cannot trust the stack (arch/riscv64/
 * vectors.S, arch/aarch64/vectors.S) print through this record, which
 * platform/console.c fills whenever it picks a console: the early one
 * (EARLYCON) in boot_main()'s first lines, then the device tree's. Loop:
 * while ((*status & mask) != ready) wait (bounded); *tx = byte; each access
 * @width bytes. tx == 0: no memory-mapped console (yet). Then @fw_ext,
 * when not 0, names a firmware call that sends one byte (riscv64: the SBI
 * extension, @fw_fid its function, the byte in a0), for a console only
 * the firmware reaches (arch/riscv64/sbi_console.c); with neither, print
 * nothing. Plain numbers: assembly includes this file.
 */
#ifndef PLATFORM_EMERGENCY_H
#define PLATFORM_EMERGENCY_H

#define CONSOLE_EMERG_TX	0	/* address of the transmit register */
#define CONSOLE_EMERG_STATUS	8	/* address of the status register */
#define CONSOLE_EMERG_MASK	16
#define CONSOLE_EMERG_READY	24
#define CONSOLE_EMERG_WIDTH	32	/* 1 or 4 */
#define CONSOLE_EMERG_FW_EXT	40	/* firmware call per byte, 0: none */
#define CONSOLE_EMERG_FW_FID	48

#ifndef __ASSEMBLY__
#include <lib/types.h>

struct console_emergency {
	uint64_t tx, status, mask, ready, width;
	uint64_t fw_ext, fw_fid;
};
_Static_assert(__builtin_offsetof(struct console_emergency, fw_fid) ==
	       CONSOLE_EMERG_FW_FID, "the assembly's offsets");

extern struct console_emergency console_emergency;
#endif

#endif /* PLATFORM_EMERGENCY_H */
