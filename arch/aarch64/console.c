/*
 * console.c - the aarch64 boot console: a polled PL011, output only.
 *
 * The firmware has set the baud rate (QEMU ignores it); init only masks
 * the UART's interrupts and makes sure it and its transmitter are enabled.
 * The PL011 wants 32-bit accesses.
 */
#include <arch/console.h>
#include <lib/types.h>
#include "platform.h"

#define UART_DR		(0x00 / 4)	/* data */
#define UART_FR		(0x18 / 4)	/* flags */
#define UART_CR		(0x30 / 4)	/* control */
#define UART_IMSC	(0x38 / 4)	/* interrupt mask set/clear */

#define FR_TXFF		(1 << 5)	/* transmit FIFO full */
#define CR_UARTEN	(1 << 0)
#define CR_TXE		(1 << 8)

/* Polls of FR before writing anyway: a dead UART must not hang the boot. */
#define UART_POLL_LIMIT	0x10000

static volatile uint32_t *const uart = (volatile uint32_t *)VIRT_UART0_BASE;

void arch_console_init(void)
{
	uart[UART_IMSC] = 0;
	uart[UART_CR] |= CR_UARTEN | CR_TXE;
}

void arch_console_putc(char c)
{
	for (unsigned int i = 0; i < UART_POLL_LIMIT; i++)
		if (!(uart[UART_FR] & FR_TXFF))
			break;
	uart[UART_DR] = (uint8_t)c;
}
