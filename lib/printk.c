/*
 * printk.c - a small, freestanding printf.
 *
 * One formatter, kvsnprintf(), writes through an "emit" callback so that the
 * same code fills a buffer (ksnprintf) or drives the console (printk). It
 * calls nothing outside this file but arch_console_putc() and
 * smp_processor_id(), so the kernel and the host build share it byte for
 * byte.
 *
 * Several CPUs print at once, so the console has a lock: the output of one
 * printk() call is never interleaved with another CPU's. The lock knows
 * its owner, and the owner may take it again (a fault while printing, a
 * panic inside printk, printk_lock() around several calls). Once a CPU
 * panics or reports an exception (printk_emergency()), a CPU waits for
 * the lock only so long, then prints anyway: a CPU that stopped while
 * holding it must not silence the report.
 */
#include <stdarg.h>
#include <arch/console.h>
#include <arch/poweroff.h>
#include <lib/atomic.h>
#include <lib/printk.h>
#include <smp/smp.h>

struct sink {
	void (*emit)(struct sink *s, char c);
	char *buf;
	size_t size;
	size_t len;	/* characters produced so far, written or not */
};

static void emit_buffer(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->buf[s->len] = c;
	s->len++;
}

static void emit_console(struct sink *s, char c)
{
	/* Serial terminals want CR LF; the runner strips the CR again. */
	if (c == '\n')
		arch_console_putc('\r');
	arch_console_putc(c);
	s->len++;
}

enum {
	F_LEFT = 1,	/* '-' */
	F_ZERO = 2,	/* '0' */
	F_ALT = 4,	/* '#' */
	F_SPACE = 8,	/* ' ' */
	F_PLUS = 16,	/* '+' */
	F_UPPER = 32,	/* %X */
};

static void emit_padding(struct sink *s, char c, int n)
{
	while (n-- > 0)
		s->emit(s, c);
}

static void format_number(struct sink *s, unsigned long long v, bool negative,
			  unsigned int base, int flags, int width,
			  int precision)
{
	const char *digits = (flags & F_UPPER) ? "0123456789ABCDEF"
					       : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	char sign = 0;
	const char *prefix = "";
	int prefix_len, zeros, total;

	if (v == 0 && precision == 0)
		n = 0;
	else
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);

	if (negative)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';

	if ((flags & F_ALT) && base == 16 && n > 0)
		prefix = (flags & F_UPPER) ? "0X" : "0x";
	else if ((flags & F_ALT) && base == 8 && (n == 0 || tmp[n - 1] != '0'))
		prefix = "0";
	prefix_len = (int)__builtin_strlen(prefix);

	zeros = precision > n ? precision - n : 0;
	total = (sign ? 1 : 0) + prefix_len + zeros + n;
	if (precision < 0 && (flags & F_ZERO) && !(flags & F_LEFT) &&
	    width > total) {
		zeros += width - total;
		total = width;
	}

	if (!(flags & F_LEFT))
		emit_padding(s, ' ', width - total);
	if (sign)
		s->emit(s, sign);
	for (int i = 0; i < prefix_len; i++)
		s->emit(s, prefix[i]);
	emit_padding(s, '0', zeros);
	while (n > 0)
		s->emit(s, tmp[--n]);
	if (flags & F_LEFT)
		emit_padding(s, ' ', width - total);
}

static void format_string(struct sink *s, const char *str, int flags,
			  int width, int precision)
{
	int len = 0;

	if (!str)
		str = "(null)";
	while (str[len] && (precision < 0 || len < precision))
		len++;
	if (!(flags & F_LEFT))
		emit_padding(s, ' ', width - len);
	for (int i = 0; i < len; i++)
		s->emit(s, str[i]);
	if (flags & F_LEFT)
		emit_padding(s, ' ', width - len);
}

enum length { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE, L_PTRDIFF, L_MAX };

static unsigned long long fetch_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case L_CHAR:	return (unsigned char)va_arg(*ap, unsigned int);
	case L_SHORT:	return (unsigned short)va_arg(*ap, unsigned int);
	case L_LONG:	return va_arg(*ap, unsigned long);
	case L_LLONG:	return va_arg(*ap, unsigned long long);
	case L_SIZE:	return va_arg(*ap, size_t);
	case L_PTRDIFF:	return (unsigned long long)va_arg(*ap, ptrdiff_t);
	case L_MAX:	return va_arg(*ap, uintmax_t);
	default:	return va_arg(*ap, unsigned int);
	}
}

static long long fetch_signed(va_list *ap, enum length len)
{
	switch (len) {
	case L_CHAR:	return (signed char)va_arg(*ap, int);
	case L_SHORT:	return (short)va_arg(*ap, int);
	case L_LONG:	return va_arg(*ap, long);
	case L_LLONG:	return va_arg(*ap, long long);
	case L_SIZE:	return (long long)va_arg(*ap, size_t);
	case L_PTRDIFF:	return va_arg(*ap, ptrdiff_t);
	case L_MAX:	return va_arg(*ap, intmax_t);
	default:	return va_arg(*ap, int);
	}
}

static void format(struct sink *s, const char *fmt, va_list ap_in)
{
	va_list ap;

	va_copy(ap, ap_in);
	for (; *fmt; fmt++) {
		int flags = 0, width = 0, precision = -1;
		enum length len = L_INT;

		if (*fmt != '%') {
			s->emit(s, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				flags |= F_LEFT;
			else if (*fmt == '0')
				flags |= F_ZERO;
			else if (*fmt == '#')
				flags |= F_ALT;
			else if (*fmt == ' ')
				flags |= F_SPACE;
			else if (*fmt == '+')
				flags |= F_PLUS;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			precision = 0;
			if (*fmt == '*') {
				precision = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					precision = precision * 10 + (*fmt++ - '0');
			}
		}
		switch (*fmt) {
		case 'h':
			len = L_SHORT;
			if (fmt[1] == 'h') {
				len = L_CHAR;
				fmt++;
			}
			fmt++;
			break;
		case 'l':
			len = L_LONG;
			if (fmt[1] == 'l') {
				len = L_LLONG;
				fmt++;
			}
			fmt++;
			break;
		case 'z': len = L_SIZE; fmt++; break;
		case 't': len = L_PTRDIFF; fmt++; break;
		case 'j': len = L_MAX; fmt++; break;
		default: break;
		}

		switch (*fmt) {
		case 'd':
		case 'i': {
			long long v = fetch_signed(&ap, len);
			unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v
						       : (unsigned long long)v;
			format_number(s, mag, v < 0, 10, flags, width, precision);
			break;
		}
		case 'u':
			format_number(s, fetch_unsigned(&ap, len), false, 10,
				      flags, width, precision);
			break;
		case 'X':
			flags |= F_UPPER;
			/* fall through */
		case 'x':
			format_number(s, fetch_unsigned(&ap, len), false, 16,
				      flags, width, precision);
			break;
		case 'o':
			format_number(s, fetch_unsigned(&ap, len), false, 8,
				      flags, width, precision);
			break;
		case 'p':
			format_number(s, (uintptr_t)va_arg(ap, void *), false,
				      16, flags | F_ALT, width, precision);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			if (!(flags & F_LEFT))
				emit_padding(s, ' ', width - 1);
			s->emit(s, c);
			if (flags & F_LEFT)
				emit_padding(s, ' ', width - 1);
			break;
		}
		case 's':
			format_string(s, va_arg(ap, const char *), flags, width,
				      precision);
			break;
		case '%':
			s->emit(s, '%');
			break;
		case '\0':
			/* A lone '%' at the end: print it, stop. */
			s->emit(s, '%');
			va_end(ap);
			return;
		default:
			/* Unknown conversion: show it as written. */
			s->emit(s, '%');
			s->emit(s, *fmt);
			break;
		}
	}
	va_end(ap);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { .emit = emit_buffer, .buf = buf, .size = size };

	format(&s, fmt, ap);
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return (int)s.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Spins for the console lock before an emergency prints without it. */
#define CONSOLE_EMERGENCY_SPINS	(1UL << 22)

static int console_owner;		/* holder's CPU number + 1, 0: free */
static unsigned int console_depth;	/* the holder's nesting; holder only */
static bool console_emergency;		/* set once, never cleared */

/* Return: true if the lock is ours, false if we print without it. */
bool printk_lock(void)
{
	int me = (int)smp_processor_id() + 1;

	/* Only this CPU can have written its own number here. */
	if (READ_ONCE(console_owner) == me) {
		console_depth++;
		return true;
	}
	for (unsigned long spins = 0;; spins++) {
		int free = 0;

		/* Acquire: the previous holder's output came first. */
		if (__atomic_compare_exchange_n(&console_owner, &free, me,
						false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			console_depth = 1;
			return true;
		}
		if (READ_ONCE(console_emergency) &&
		    spins > CONSOLE_EMERGENCY_SPINS)
			return false;
		arch_cpu_relax();
	}
}

void printk_unlock(bool locked)
{
	if (!locked || --console_depth)
		return;
	/* Release: our output before the next holder's. */
	__atomic_store_n(&console_owner, 0, __ATOMIC_RELEASE);
}

void printk_emergency(void)
{
	WRITE_ONCE(console_emergency, true);
}

int vprintk(const char *fmt, va_list ap)
{
	struct sink s = { .emit = emit_console };
	bool locked = printk_lock();

	format(&s, fmt, ap);
	printk_unlock(locked);
	return (int)s.len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void panic(const char *fmt, ...)
{
	va_list ap;
	bool locked;

	printk_emergency();
	locked = printk_lock();
	printk("PANIC: cpu %u: ", smp_processor_id());
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	printk_unlock(locked);
	arch_poweroff(POWEROFF_FAIL);
}
