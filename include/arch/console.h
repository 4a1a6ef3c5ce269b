/*
 * console.h - the boot console: one UART, polled, output only.
 */
#ifndef ARCH_CONSOLE_H
#define ARCH_CONSOLE_H

/* arch_console_init - set the UART up; safe to call more than once. */
void arch_console_init(void);

/* arch_console_putc - write one byte, waiting for room. "\n" is sent as is;
 * printk adds the "\r". */
void arch_console_putc(char c);

#endif /* ARCH_CONSOLE_H */
