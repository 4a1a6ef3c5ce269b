/*
 * console.c - the boot console of every kernel port: the early console
 * the build names (EARLYCON), then the one the device tree names, each
 * driven by the driver registered for it (drivers/uart/). It implements
 * the console contract of <arch/console.h> for printk and the exception
 * handlers, and fills the stackless record of <platform/emergency.h>.
 *
 * Output written before any console exists, and everything up to the
 * device tree's choice, is kept in a small buffer: if the device tree's
 * console is not the early one (or there was none), it gets that text
 * first, so that no boot line is lost.
 */
#include <arch/console.h>
#include <arch/memory.h>
#include <boot/fdt.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <platform/console.h>
#include <platform/emergency.h>

#if __has_include(<asm/port_io.h>)
#include <asm/port_io.h>	/* arch_port_in8(), arch_port_out8() */
#define HAVE_PORT_IO 1
#endif

#ifndef CONFIG_EARLYCON
#define CONFIG_EARLYCON ""
#endif

/* Polls of the status register before writing anyway: a dead or absent
 * UART must not hang the boot. */
#define CONSOLE_POLL_LIMIT	0x10000

extern const struct console_driver __console_drivers_start[];
extern const struct console_driver __console_drivers_end[];

/* Written by the boot CPU before the other CPUs start; read-only after. */
static struct console_port port;
static bool have_port;
static bool early;		/* port is the EARLYCON one */

/* In .data, not BSS: the entry code's refusals may print before BSS is
 * cleared, and must find tx == 0 then, not whatever RAM held. */
struct console_emergency console_emergency __attribute__((section(".data")));

/* What printk wrote until the device tree's console was chosen. */
static char backlog[4096];
static size_t backlog_len;
static bool backlog_closed;

uint32_t console_read(const struct console_port *p, uint32_t reg)
{
	uintptr_t off = (uintptr_t)reg << p->reg_shift;

#ifdef HAVE_PORT_IO
	if (p->port_io)
		return arch_port_in8((uint16_t)(p->base + off));
#endif
	if (p->reg_io_width == 4)
		return *(volatile uint32_t *)(p->base + off);
	return *(volatile uint8_t *)(p->base + off);
}

void console_write(const struct console_port *p, uint32_t reg, uint32_t val)
{
	uintptr_t off = (uintptr_t)reg << p->reg_shift;

#ifdef HAVE_PORT_IO
	if (p->port_io) {
		arch_port_out8((uint8_t)val, (uint16_t)(p->base + off));
		return;
	}
#endif
	if (p->reg_io_width == 4)
		*(volatile uint32_t *)(p->base + off) = val;
	else
		*(volatile uint8_t *)(p->base + off) = (uint8_t)val;
}

void console_poll_putc(const struct console_port *p, char c)
{
	struct console_port io = *p;

	/* poll.width is the access the device wants for these registers. */
	io.reg_io_width = p->poll.width;
	for (unsigned int i = 0; i < CONSOLE_POLL_LIMIT; i++)
		if ((console_read(&io, p->poll.status) & p->poll.mask) ==
		    p->poll.ready)
			break;
	console_write(&io, p->poll.tx, (uint8_t)c);
}

const struct console_port *console_current(void)
{
	return have_port ? &port : NULL;
}

static const struct console_driver *driver_by_name(const char *name, size_t len)
{
	for (const struct console_driver *d = __console_drivers_start;
	     d < __console_drivers_end; d++)
		if (strlen(d->name) == len && !memcmp(d->name, name, len))
			return d;
	return NULL;
}

static const struct console_driver *driver_by_compatible(const char *compat)
{
	for (const struct console_driver *d = __console_drivers_start;
	     d < __console_drivers_end; d++)
		for (const char *const *c = d->compatible; c && *c; c++)
			if (!strcmp(*c, compat))
				return d;
	return NULL;
}

static void update_emergency(void)
{
	uintptr_t stride = port.reg_shift;

	console_emergency.tx = 0;
	console_emergency.fw_ext = 0;
	if (have_port && port.drv->firmware && port.drv->emergency) {
		uint64_t ext = 0, fid = 0;

		port.drv->emergency(&port, &ext, &fid);
		console_emergency.fw_fid = fid;
		/* Last: fw_ext != 0 says the call is whole. */
		console_emergency.fw_ext = ext;
	}
	if (!have_port || port.port_io || port.drv->firmware)
		return;
	console_emergency.status = port.base + ((uintptr_t)port.poll.status << stride);
	console_emergency.mask = port.poll.mask;
	console_emergency.ready = port.poll.ready;
	console_emergency.width = port.poll.width;
	/* Last: tx != 0 says the record is whole (the boot CPU alone is up). */
	console_emergency.tx = port.base + ((uintptr_t)port.poll.tx << stride);
}

/* Make @p the console if its driver accepts it. */
static int console_use(const struct console_port *p)
{
	struct console_port next = *p;
	int err;

	if (!next.reg_io_width)
		next.reg_io_width = 1;
	if (next.reg_io_width != 1 && next.reg_io_width != 4)
		return -EINVAL;
	err = next.drv->setup(&next);
	if (err)
		return err;
	if (next.poll.width != 1 && next.poll.width != 4)
		next.poll.width = next.reg_io_width;
	port = next;
	have_port = true;
	update_emergency();
	return 0;
}

static bool parse_hex(const char *s, size_t len, uint64_t *val)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == len)
		return false;
	for (; i < len; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return false;
		if (v >> 60)
			return false;
		v = v << 4 | d;
	}
	*val = v;
	return true;
}

/*
 * EARLYCON="<driver>,[io,|mmio,|mmio32,]<address>[,<baud>]", Linux's
 * earlycon syntax: io is an x86 I/O port (8-bit accesses, stride 1),
 * mmio32 32-bit accesses with a stride of 4 (reg-shift 2), mmio (the
 * default) the driver's own.
 */
static int parse_earlycon(const char *s, struct console_port *p)
{
	const char *f[4];
	size_t n[4], nf = 0;
	const char *field = s;
	uint64_t addr, baud = 0;
	size_t a = 1;

	while (nf < 4) {
		const char *comma = strchr(field, ',');
		size_t len = comma ? (size_t)(comma - field) : strlen(field);

		f[nf] = field;
		n[nf++] = len;
		if (!comma)
			break;
		field = comma + 1;
	}
	memset(p, 0, sizeof(*p));
	p->drv = driver_by_name(f[0], n[0]);
	if (p->drv && p->drv->firmware)
		return nf == 1 ? 0 : -EINVAL;	/* EARLYCON=<name> alone */
	if (!p->drv || nf < 2)
		return -ENOENT;
	if (n[1] == 2 && !memcmp(f[1], "io", 2)) {
		p->port_io = true;
		a = 2;
	} else if (n[1] == 6 && !memcmp(f[1], "mmio32", 6)) {
		p->reg_shift = 2;
		p->reg_io_width = 4;
		a = 2;
	} else if (n[1] == 4 && !memcmp(f[1], "mmio", 4)) {
		a = 2;
	}
	if (a >= nf || !parse_hex(f[a], n[a], &addr))
		return -EINVAL;
	if (a + 1 < nf) {
		for (size_t i = 0; i < n[a + 1] && f[a + 1][i] >= '0' &&
		     f[a + 1][i] <= '9'; i++)
			baud = baud * 10 + (uint64_t)(f[a + 1][i] - '0');
		p->baud = (uint32_t)baud;
	}
	p->phys = addr;
	p->base = p->port_io ? (uintptr_t)addr : (uintptr_t)phys_to_virt(addr);
	return 0;
}

void console_early_init(void)
{
	struct console_port p;

	if (have_port || !CONFIG_EARLYCON[0])
		return;
	/* A bad EARLYCON leaves no console; the device tree's comes later,
	 * and the backlog says why. */
	if (parse_earlycon(CONFIG_EARLYCON, &p) || console_use(&p)) {
		printk("console: EARLYCON=%s names no driver and address this "
		       "image knows\n", CONFIG_EARLYCON);
		return;
	}
	early = true;
}

/*
 * Where the console's bytes go, for its lines: "at <address>", or
 * "through the firmware" for a driver without registers.
 */
static const char *port_where(char *buf, size_t size)
{
	if (port.drv->firmware)
		return "through the firmware";
	ksnprintf(buf, size, "at %#llx", (unsigned long long)port.phys);
	return buf;
}

/* Said once the banner is out, so that the banner stays the first line. */
static void report_early(void)
{
	char where[32];

	if (early)
		printk("console: early %s %s (EARLYCON=%s)\n", port.drv->name,
		       port_where(where, sizeof(where)), CONFIG_EARLYCON);
	else
		printk("console: no early console (EARLYCON=%s)\n",
		       CONFIG_EARLYCON);
}

static void backlog_replay(void)
{
	for (size_t i = 0; i < backlog_len; i++) {
		if (backlog[i] == '\n')
			arch_console_putc('\r');
		arch_console_putc(backlog[i]);
	}
}

/* "/soc/serial@7e215040" from the node path, for the log. */
static void node_path_string(const struct fdt *fdt,
			     const struct fdt_node_path *np, char *buf,
			     size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 1; i <= np->depth && len < size; i++)
		len += ksnprintf(buf + len, size - len, "/%s",
				 fdt_node_name(fdt, np->node[i]));
	if (!np->depth)
		ksnprintf(buf, size, "/");
}

int console_from_fdt(const struct fdt *fdt)
{
	struct fdt_node_path np;
	struct console_port p;
	const struct console_driver *drv = NULL;
	const char *options, *compat = "";
	const void *list;
	uint32_t len, i = 0;
	uint64_t addr, size;
	bool replay;
	char path[128], where[32];
	int node, err;

	report_early();
	backlog_closed = true;
	if (!fdt)
		return -ENOENT;
	err = fdt_stdout_node(fdt, &np, &options);
	if (err) {
		printk("console: %s; %s\n", fdt->error,
		       have_port ? "keeping the early console" : "no console");
		return err;
	}
	node = np.node[np.depth];
	node_path_string(fdt, &np, path, sizeof(path));
	/* The node's own order: most specific compatible string first. */
	list = fdt_getprop(fdt, node, "compatible", &len);
	while (list && i < len && !drv) {
		const char *s = (const char *)list + i;
		const char *end = memchr(s, '\0', len - i);

		if (!end)
			break;
		drv = driver_by_compatible(s);
		compat = s;
		i += (uint32_t)(end - s) + 1;
	}
	if (!drv) {
		printk("console: stdout-path %s: no driver for its compatible "
		       "list; %s\n", path,
		       have_port ? "keeping the early console" : "no console");
		return -ENODEV;
	}
	if (drv->firmware) {
		addr = 0;	/* no registers: the firmware's channel */
	} else {
		err = fdt_reg_translate(fdt, &np, 0, &addr, &size);
		if (err) {
			printk("console: stdout-path %s: %s\n", path,
			       fdt->error);
			return err;
		}
	}
	memset(&p, 0, sizeof(p));
	p.drv = drv;
	p.phys = addr;
	p.base = (uintptr_t)phys_to_virt(addr);
	p.reg_shift = fdt_getprop_u32(fdt, node, "reg-shift", 0);
	p.reg_io_width = fdt_getprop_u32(fdt, node, "reg-io-width", 1);
	p.clock_hz = fdt_getprop_u32(fdt, node, "clock-frequency", 0);
	if (p.reg_shift > 4) {
		printk("console: stdout-path %s: reg-shift %u is not a UART's\n",
		       path, p.reg_shift);
		return -EINVAL;
	}
	replay = !have_port || port.drv != p.drv || port.phys != p.phys;
	err = console_use(&p);
	if (err) {
		printk("console: %s (%s) at %#llx refused by driver %s (error "
		       "%d)\n", path, compat, (unsigned long long)addr,
		       drv->name, err);
		return err;
	}
	early = false;
	if (replay)
		backlog_replay();
	printk("console: %s (\"%s\", stdout-path%s%s) %s, driver %s, "
	       "reg-shift %u, reg-io-width %u\n", path, compat,
	       *options ? " options " : "", options,
	       port_where(where, sizeof(where)), drv->name, port.reg_shift,
	       port.reg_io_width);
	return 0;
}

/* <arch/console.h>: the exception handlers call it again before they
 * print, in case the device was left in a bad state. */
void arch_console_init(void)
{
	if (have_port)
		port.drv->setup(&port);
}

void arch_console_putc(char c)
{
	if (!backlog_closed && backlog_len < sizeof(backlog) && c != '\r')
		backlog[backlog_len++] = c;
	if (!have_port)
		return;
	if (port.drv->putc)
		port.drv->putc(&port, c);
	else
		console_poll_putc(&port, c);
}
