/*
 * ns16550.c - the 16550-compatible UART: "ns16550a", "ns16550", and
 * Synopsys DesignWare's "snps,dw-apb-uart" (the same registers, spaced by
 * reg-shift and accessed reg-io-width bytes at a time). Also the PC's COM1
 * (EARLYCON=ns16550a,io,0x3f8,115200), whose registers are I/O ports.
 *
 * Firmware has usually set the baud rate: setup() leaves the divisor alone
 * unless a baud rate and the input clock are both known (an EARLYCON baud;
 * an I/O port UART runs on the PC's 1.8432 MHz crystal). It turns the
 * UART's interrupts off, selects 8N1 and enables the FIFOs.
 */
#include <lib/errno.h>
#include <platform/console.h>

/* Register numbers; DLL/DLM replace THR/IER while LCR.DLAB is set. */
#define UART_THR	0	/* transmit holding (write) */
#define UART_DLL	0	/* divisor latch, low byte */
#define UART_IER	1	/* interrupt enable */
#define UART_DLM	1	/* divisor latch, high byte */
#define UART_FCR	2	/* FIFO control (write) */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */

#define FCR_ENABLE_CLEAR 0x07	/* enable the FIFOs, clear both */
#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define MCR_DTR_RTS	0x03
#define LSR_THRE	0x20	/* room in the transmitter */
#define LSR_TEMT	0x40	/* transmitter completely empty */

#define PC_UART_CLOCK	1843200	/* the PC's crystal */
#define DRAIN_LIMIT	100000	/* polls before clearing the FIFO anyway */

static int ns16550_setup(struct console_port *port)
{
	uint32_t clock = port->clock_hz;

	if (!clock && port->port_io)
		clock = PC_UART_CLOCK;
	port->poll = (struct console_poll){
		.tx = UART_THR, .status = UART_LSR,
		.mask = LSR_THRE, .ready = LSR_THRE,
		.width = port->reg_io_width,
	};
	/* Clearing the FIFO below would drop what is still being sent. */
	for (unsigned int i = 0; i < DRAIN_LIMIT; i++)
		if ((console_read(port, UART_LSR) & (LSR_THRE | LSR_TEMT)) ==
		    (LSR_THRE | LSR_TEMT))
			break;
	console_write(port, UART_IER, 0);
	if (port->baud && clock) {
		uint32_t divisor = clock / (16 * port->baud);

		if (!divisor || divisor > 0xffff)
			return -EINVAL;
		console_write(port, UART_LCR, LCR_DLAB);
		console_write(port, UART_DLL, divisor & 0xff);
		console_write(port, UART_DLM, divisor >> 8);
	}
	console_write(port, UART_LCR, LCR_8N1);
	console_write(port, UART_FCR, FCR_ENABLE_CLEAR);
	console_write(port, UART_MCR, MCR_DTR_RTS);
	return 0;
}

static const char *const ns16550_compatible[] = {
	"ns16550a", "ns16550", "ns16450", "snps,dw-apb-uart", NULL
};

CONSOLE_DRIVER(ns16550_driver) = {
	.name = "ns16550a",
	.compatible = ns16550_compatible,
	.setup = ns16550_setup,
};
