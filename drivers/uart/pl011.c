/*
 * pl011.c - Arm's PrimeCell UART ("arm,pl011", and the SBSA's subset
 * "arm,sbsa-uart"): 32-bit registers at byte offsets.
 *
 * The firmware has set the baud rate (QEMU ignores it); setup() masks the
 * UART's interrupts and makes sure it and its transmitter are enabled.
 */
#include <platform/console.h>

#define UART_DR		0x00	/* data */
#define UART_FR		0x18	/* flags */
#define UART_CR		0x30	/* control */
#define UART_IMSC	0x38	/* interrupt mask set/clear */

#define FR_TXFF		(1u << 5)	/* transmit FIFO full */
#define CR_UARTEN	(1u << 0)
#define CR_TXE		(1u << 8)

static int pl011_setup(struct console_port *port)
{
	port->reg_shift = 0;
	port->reg_io_width = 4;
	port->poll = (struct console_poll){
		.tx = UART_DR, .status = UART_FR,
		.mask = FR_TXFF, .ready = 0, .width = 4,
	};
	console_write(port, UART_IMSC, 0);
	console_write(port, UART_CR,
		      console_read(port, UART_CR) | CR_UARTEN | CR_TXE);
	return 0;
}

static const char *const pl011_compatible[] = {
	"arm,pl011", "arm,sbsa-uart", NULL
};

CONSOLE_DRIVER(pl011_driver) = {
	.name = "pl011",
	.compatible = pl011_compatible,
	.setup = pl011_setup,
};
