/*
 * asm/port_io.h - the x86 I/O port space for the platform layer's UART
 * accessors (platform/console.c): the PC's COM1 is a 16550 at port 0x3f8.
 * Only ports with an I/O space provide this header.
 */
#ifndef ASM_PORT_IO_H
#define ASM_PORT_IO_H

#include <asm/x86.h>

static inline uint8_t arch_port_in8(uint16_t port)
{
	return inb(port);
}

static inline void arch_port_out8(uint8_t value, uint16_t port)
{
	outb(value, port);
}

#endif /* ASM_PORT_IO_H */
