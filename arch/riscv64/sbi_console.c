/*
 * sbi_console.c - the console through the SBI firmware, for a machine
 * whose console is the M-mode firmware's, not a UART S-mode may drive:
 * QEMU's spike, whose /chosen/stdout-path names the HTIF ("ucb,htif0"),
 * a channel only the firmware (OpenSBI's htif driver) speaks. Linux's
 * earlycon=sbi and hvc_riscv_sbi do the same.
 *
 * Each byte is one ecall: the Debug Console extension's write_byte
 * (SBI v2.0) where the firmware has it, else the legacy console_putchar
 * (SBI v0.1). No registers: the stackless writers (<platform/emergency.h>,
 * vectors.S) make the same ecall, which needs no stack of ours.
 */
#include <lib/errno.h>
#include <platform/console.h>
#include "sbi.h"

/* Which call sends a byte: chosen by setup(), the boot CPU, before any
 * other CPU prints. */
static unsigned long sbi_console_ext;

static bool sbi_has(unsigned long ext)
{
	struct sbiret ret = sbi_call(SBI_EXT_BASE, SBI_BASE_PROBE_EXTENSION,
				     ext, 0, 0);

	return !ret.error && ret.value;
}

static int sbi_console_setup(struct console_port *port)
{
	(void)port;
	if (sbi_has(SBI_EXT_DBCN))
		sbi_console_ext = SBI_EXT_DBCN;
	else if (sbi_has(SBI_EXT_LEGACY_PUTCHAR))
		sbi_console_ext = SBI_EXT_LEGACY_PUTCHAR;
	else
		return -ENODEV;
	return 0;
}

static void sbi_console_putc(struct console_port *port, char c)
{
	(void)port;
	if (sbi_console_ext == SBI_EXT_DBCN)
		sbi_call(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, (uint8_t)c, 0, 0);
	else
		sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (uint8_t)c, 0, 0);
}

static void sbi_console_emergency(const struct console_port *port,
				  uint64_t *fw_ext, uint64_t *fw_fid)
{
	(void)port;
	*fw_ext = sbi_console_ext;
	*fw_fid = sbi_console_ext == SBI_EXT_DBCN ? SBI_DBCN_WRITE_BYTE : 0;
}

static const char *const sbi_console_compatible[] = { "ucb,htif0", NULL };

CONSOLE_DRIVER(sbi_console_driver) = {
	.name = "sbi",
	.compatible = sbi_console_compatible,
	.setup = sbi_console_setup,
	.putc = sbi_console_putc,
	.firmware = true,
	.emergency = sbi_console_emergency,
};
