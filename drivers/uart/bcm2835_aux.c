/*
 * bcm2835_aux.c - the Broadcom BCM2835/6/7 auxiliary "mini UART"
 * ("brcm,bcm2835-aux-uart"), the Raspberry Pi's console on the GPIO
 * header when the PL011 drives Bluetooth (Pi 3 and later: the DTB's
 * stdout-path is serial1, this UART). A cut-down 16550 with 32-bit
 * registers 4 bytes apart, from the node's reg (0x7e215040 on the bus;
 * BCM2835 ARM Peripherals, 2.2).
 *
 * Its clock is the VPU's core clock, so the baud rate moves with it: the
 * firmware sets both (enable_uart=1 fixes the core clock) and setup()
 * leaves them, as it leaves the AUX enable bit outside this node's
 * registers. It turns the UART's interrupts off and makes sure the
 * transmitter is on.
 */
#include <platform/console.h>

#define AUX_MU_IO	0x00	/* data */
#define AUX_MU_IER	0x04	/* interrupt enable */
#define AUX_MU_LSR	0x14	/* line status */
#define AUX_MU_CNTL	0x20	/* extra control */

#define LSR_TX_EMPTY	(1u << 5)	/* room for at least one byte */
#define CNTL_TX_ENABLE	(1u << 1)

static int bcm2835_aux_setup(struct console_port *port)
{
	uint32_t cntl;

	port->reg_shift = 0;
	port->reg_io_width = 4;
	port->poll = (struct console_poll){
		.tx = AUX_MU_IO, .status = AUX_MU_LSR,
		.mask = LSR_TX_EMPTY, .ready = LSR_TX_EMPTY, .width = 4,
	};
	console_write(port, AUX_MU_IER, 0);
	cntl = console_read(port, AUX_MU_CNTL);
	if (!(cntl & CNTL_TX_ENABLE))
		console_write(port, AUX_MU_CNTL, cntl | CNTL_TX_ENABLE);
	return 0;
}

static const char *const bcm2835_aux_compatible[] = {
	"brcm,bcm2835-aux-uart", NULL
};

CONSOLE_DRIVER(bcm2835_aux_driver) = {
	.name = "bcm2835aux",
	.compatible = bcm2835_aux_compatible,
	.setup = bcm2835_aux_setup,
};
