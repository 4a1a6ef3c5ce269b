/*
 * console.c - the riscv64 boot console: a polled ns16550a, output only.
 *
 * The firmware has set the baud rate (QEMU ignores it); init only turns
 * off UART interrupts, selects 8N1 without touching the divisor, and
 * enables the FIFOs.
 */
#include <arch/console.h>
#include <lib/types.h>
#include "platform.h"

#define UART_THR	0	/* transmit holding register (write) */
#define UART_IER	1	/* interrupt enable */
#define UART_FCR	2	/* FIFO control (write) */
#define UART_LCR	3	/* line control */
#define UART_LSR	5	/* line status */

#define FCR_ENABLE_FIFO	0x01
#define LCR_8N1		0x03
#define LSR_THRE	0x20	/* room in the transmit FIFO */

/* Polls of LSR before writing anyway: a dead UART must not hang the boot. */
#define UART_POLL_LIMIT	0x10000

static volatile uint8_t *const uart = (volatile uint8_t *)VIRT_UART0_BASE;

void arch_console_init(void)
{
	uart[UART_IER] = 0;
	uart[UART_LCR] = LCR_8N1;
	uart[UART_FCR] = FCR_ENABLE_FIFO;
}

void arch_console_putc(char c)
{
	for (unsigned int i = 0; i < UART_POLL_LIMIT; i++)
		if (uart[UART_LSR] & LSR_THRE)
			break;
	uart[UART_THR] = (uint8_t)c;
}
