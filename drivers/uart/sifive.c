/*
 * sifive.c - SiFive's UART ("sifive,uart0"; the FU540's "sifive,fu540-c000-
 * uart0" lists it too): 32-bit registers, the transmit FIFO's "full" flag
 * in bit 31 of the transmit data register itself.
 *
 * The firmware (OpenSBI, U-Boot's SPL) has set the divisor for its own
 * console; setup() only masks the UART's interrupts and makes sure the
 * transmitter is on.
 */
#include <platform/console.h>

#define SIFIVE_TXDATA	0x00	/* write: byte; read: bit 31 = FIFO full */
#define SIFIVE_TXCTRL	0x08	/* bit 0: transmit enable */
#define SIFIVE_IE	0x10	/* interrupt enable */

#define TXDATA_FULL	0x80000000u
#define TXCTRL_TXEN	0x1

static int sifive_setup(struct console_port *port)
{
	/* Byte offsets, 32-bit accesses, whatever the node says. */
	port->reg_shift = 0;
	port->reg_io_width = 4;
	port->poll = (struct console_poll){
		.tx = SIFIVE_TXDATA, .status = SIFIVE_TXDATA,
		.mask = TXDATA_FULL, .ready = 0, .width = 4,
	};
	console_write(port, SIFIVE_IE, 0);
	console_write(port, SIFIVE_TXCTRL,
		      console_read(port, SIFIVE_TXCTRL) | TXCTRL_TXEN);
	return 0;
}

static const char *const sifive_compatible[] = { "sifive,uart0", NULL };

CONSOLE_DRIVER(sifive_driver) = {
	.name = "sifive",
	.compatible = sifive_compatible,
	.setup = sifive_setup,
};
