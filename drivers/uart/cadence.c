/*
 * cadence.c - Cadence's UART ("cdns,uart-r1p12", and Xilinx's
 * "xlnx,xuartps" and "xlnx,zynqmp-uart" built on it): the Zynq and ZynqMP
 * serial ports (Xilinx UG1085, "UART Controller"), 32-bit registers at
 * byte offsets.
 *
 * The firmware has set the baud rate (QEMU ignores it); setup() masks
 * every interrupt and enables the transmitter, which comes out of reset
 * disabled (CR.TXDIS set, CR.TXEN clear: QEMU drops what is written then),
 * leaving the receiver as the firmware left it.
 */
#include <platform/console.h>

#define CDNS_CR		0x00	/* control */
#define CDNS_IDR	0x0c	/* interrupt disable (write 1s) */
#define CDNS_SR		0x2c	/* channel status */
#define CDNS_FIFO	0x30	/* transmit and receive FIFO */

#define CR_TXEN		(1u << 4)
#define CR_TXDIS	(1u << 5)
#define IDR_ALL		0x1fffu	/* every interrupt source of the r1p12 */
#define SR_TXFULL	(1u << 4)	/* transmit FIFO full */

static int cadence_setup(struct console_port *port)
{
	port->reg_shift = 0;
	port->reg_io_width = 4;
	port->poll = (struct console_poll){
		.tx = CDNS_FIFO, .status = CDNS_SR,
		.mask = SR_TXFULL, .ready = 0, .width = 4,
	};
	console_write(port, CDNS_IDR, IDR_ALL);
	console_write(port, CDNS_CR,
		      (console_read(port, CDNS_CR) & ~CR_TXDIS) | CR_TXEN);
	return 0;
}

static const char *const cadence_compatible[] = {
	"cdns,uart-r1p12", "xlnx,xuartps", "xlnx,zynqmp-uart", NULL
};

CONSOLE_DRIVER(cadence_driver) = {
	.name = "cdns",
	.compatible = cadence_compatible,
	.setup = cadence_setup,
};
