/*
 * printk.h - formatted output to the console.
 *
 * The formatter understands the conversions the kernel uses:
 *   %d %i %u %x %X %o %c %s %p %% with the length modifiers hh h l ll z t j,
 *   the flags '-', '0', '#', ' ' and '+', a field width and a precision
 *   (both may be '*').
 * It never calls into libc, so the same object is used in the kernel and in
 * the host build.
 */
#ifndef LIB_PRINTK_H
#define LIB_PRINTK_H

#include <stdarg.h>
#include <lib/compiler.h>
#include <lib/types.h>

/*
 * kvsnprintf - format into buf, writing at most size bytes including the NUL.
 * Return: the length the full output would have had (as C's vsnprintf).
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* vprintk/printk - format to the console. Return: characters written. */
int vprintk(const char *fmt, va_list ap);
int printk(const char *fmt, ...) __printf(1, 2);

/*
 * printk_lock/printk_unlock - keep the console for several printk() calls
 * that make one report (an exception's register dump), so that no other
 * CPU's line lands in the middle. Nests. printk_lock() returns false when
 * it gave up waiting in an emergency: pass that to printk_unlock().
 */
bool printk_lock(void);
void printk_unlock(bool locked);

/*
 * printk_emergency - a CPU is reporting a panic or an exception: from now
 * on no CPU waits for the console lock for long (see lib/printk.c).
 */
void printk_emergency(void);

#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk("warning: " fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk("error: " fmt, ##__VA_ARGS__)

/*
 * panic - print "PANIC: <message>" and power off with a failure status.
 * The runner treats the PANIC marker as a crash.
 */
void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

#endif /* LIB_PRINTK_H */
