/*
 * console.c - the boot console on COM1, a 16550-compatible UART at I/O
 * port 0x3f8: 115200 baud, 8N1, FIFOs on, polled, no interrupts.
 *
 * Neither loader promises a configured UART (PVH says nothing; GRUB leaves
 * it as its own "serial" command set it), so arch_console_init() programs
 * it fully. The driver keeps no state: it is safe to call at any time,
 * which the exception handler does.
 */
#include <arch/console.h>
#include <asm/x86.h>

#define COM1	   0x3f8
#define UART_CLOCK 1843200 /* the PC's 1.8432 MHz crystal */
#define BAUD	   115200

/* Register offsets; DLL/DLM replace RBR/THR/IER while LCR.DLAB is set. */
#define UART_THR 0 /* transmit holding (write) */
#define UART_DLL 0 /* divisor latch, low byte */
#define UART_IER 1 /* interrupt enable */
#define UART_DLM 1 /* divisor latch, high byte */
#define UART_FCR 2 /* FIFO control (write) */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */

#define LCR_8N1		 0x03
#define LCR_DLAB	 0x80
#define FCR_ENABLE_CLEAR 0x07 /* enable FIFOs, clear both */
#define MCR_DTR_RTS	 0x03
#define LSR_THRE	 0x20 /* room in the transmitter */
#define LSR_TEMT	 0x40 /* transmitter completely empty */

/*
 * A bound on every wait, so that a missing or wedged UART never hangs the
 * machine (a missing one reads 0xff, which looks ready anyway). At 115200
 * baud a byte takes ~87 us; a port read takes ~1 us on real hardware.
 */
#define UART_SPIN_LIMIT 100000

static void wait_lsr(uint8_t bits)
{
	for (unsigned int i = 0; i < UART_SPIN_LIMIT; i++)
		if ((inb(COM1 + UART_LSR) & bits) == bits)
			return;
}

void arch_console_init(void)
{
	const unsigned int divisor = UART_CLOCK / (16 * BAUD);

	/* Clearing the FIFO below would drop what is still being sent. */
	wait_lsr(LSR_THRE | LSR_TEMT);
	outb(0, COM1 + UART_IER);
	outb(LCR_DLAB, COM1 + UART_LCR);
	outb(divisor & 0xff, COM1 + UART_DLL);
	outb(divisor >> 8, COM1 + UART_DLM);
	outb(LCR_8N1, COM1 + UART_LCR);
	outb(FCR_ENABLE_CLEAR, COM1 + UART_FCR);
	outb(MCR_DTR_RTS, COM1 + UART_MCR);
}

void arch_console_putc(char c)
{
	wait_lsr(LSR_THRE);
	outb((uint8_t)c, COM1 + UART_THR);
}
