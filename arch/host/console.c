/*
 * console.c - the host "console": standard error, plus a capture buffer.
 *
 * Host tests check what mm/ and boot/ report (a refused free must name its
 * pfn and order), so everything printk writes can also be kept in memory:
 * host_console_capture_start() begins, host_console_captured() reads.
 */
#include <stdio.h>
#include <string.h>
#include <arch/console.h>
#include "cpu_hold.h"
#include "host.h"

static char capture[16384];
static size_t capture_len;
static bool capturing;
static bool quiet;
static bool to_stdout;

void arch_console_init(void)
{
}

void arch_console_putc(char c)
{
	if (c == '\r')
		return;
	if (capturing && capture_len + 1 < sizeof(capture)) {
		capture[capture_len++] = c;
		capture[capture_len] = '\0';
	}
	if (!quiet) {
		/* A write may sleep: say so (cpu_hold.h). */
		host_blocking_begin();
		fputc(c, to_stdout ? stdout : stderr);
		host_blocking_end();
	}
}

void host_console_capture_start(bool silence)
{
	capture_len = 0;
	capture[0] = '\0';
	capturing = true;
	quiet = silence;
}

const char *host_console_captured(void)
{
	return capture;
}

void host_console_capture_stop(void)
{
	capturing = false;
	quiet = false;
}

bool host_console_contains(const char *needle)
{
	return strstr(capture, needle) != NULL;
}

void host_console_set_quiet(bool silence)
{
	quiet = silence;
}

void host_console_to_stdout(void)
{
	to_stdout = true;
}
