/*
 * console.h - the platform layer's console: UART drivers chosen by the
 * board's description, not by arch/.
 *
 * How a console is chosen (platform/console.c):
 *   1. Before any boot information is read: the early console, a build
 *      option as Linux's earlycon, EARLYCON=<driver>,[io,|mmio32,]<addr>
 *      (mk/config.mk; each board's boards/<arch>/<board>.mk has a default).
 *      Until a console exists, printk output is kept and replayed later.
 *   2. From the device tree: /chosen/stdout-path (a path or an /aliases
 *      name; ":options" stripped), its `reg` translated through every
 *      parent's `ranges` to the CPU's address, the driver whose compatible
 *      list matches the node's, reg-shift, reg-io-width, clock-frequency.
 *
 * Writing a driver (one file under drivers/uart/, nothing else to touch):
 *
 *	static const char *const foo_compatible[] = { "vendor,foo-uart", NULL };
 *
 *	static int foo_setup(struct console_port *port)
 *	{
 *		port->poll = (struct console_poll){
 *			.tx = FOO_TXDATA, .status = FOO_STATUS,
 *			.mask = FOO_TXFULL, .ready = 0, .width = 4,
 *		};
 *		console_write(port, FOO_IRQ_ENABLE, 0);	// polled, no IRQs
 *		return 0;
 *	}
 *
 *	CONSOLE_DRIVER(foo) = {
 *		.name = "foo", .compatible = foo_compatible, .setup = foo_setup,
 *	};
 *
 * setup() describes in port->poll how to send one byte without a stack:
 * wait until (register[status] & mask) == ready, then write the byte to
 * register[tx]. The generic putc and the assembly emergency writers
 * (arch/riscv64/vectors.S, arch/aarch64/vectors.S) both use only that,
 * so a driver needs no putc of its own unless its device cannot be
 * described so (a console reached through firmware calls sets firmware). Register numbers are in units of the port's register
 * stride: the byte offset of register n is n << port->reg_shift. A driver
 * whose registers are not 16550-like keeps reg_shift 0 and uses byte
 * offsets. setup() may be called again (exception handlers re-init the
 * console); it must not depend on state it left before.
 */
#ifndef PLATFORM_CONSOLE_H
#define PLATFORM_CONSOLE_H

#include <lib/compiler.h>
#include <lib/types.h>

/*
 * The stackless way to send a byte, also read by assembly (offsets
 * CONSOLE_EMERG_* below): 8-byte fields so that both 64-bit ports load
 * them with one instruction each.
 */
struct console_poll {
	uint32_t tx;		/* register the byte is written to */
	uint32_t status;	/* register polled before writing */
	uint32_t mask;		/* bits of status that matter ... */
	uint32_t ready;		/* ... equal this when there is room */
	uint32_t width;		/* access width in bytes: 1 or 4 */
};

struct console_port {
	const struct console_driver *drv;
	phys_addr_t phys;	/* register base, CPU physical address */
	uintptr_t base;		/* register base as the kernel reaches it */
	uint32_t reg_shift;	/* register n is at base + (n << reg_shift) */
	uint32_t reg_io_width;	/* bytes per register access: 1 or 4 */
	bool port_io;		/* an x86 I/O port, not memory */
	uint32_t clock_hz;	/* input clock, 0 when unknown */
	uint32_t baud;		/* to program, 0: leave what firmware set */
	struct console_poll poll;	/* filled by the driver's setup() */
};

struct console_driver {
	const char *name;		/* EARLYCON=<name>,... */
	const char *const *compatible;	/* NULL-terminated */
	/* Set the device up for polled output and fill port->poll. */
	int (*setup)(struct console_port *port);
	/* Optional: send one byte; NULL uses port->poll. */
	void (*putc)(struct console_port *port, char c);
	/*
	 * No registers: putc() asks the firmware (arch/riscv64/
	 * sbi_console.c). EARLYCON=<name> takes no address, a device-tree
	 * node no reg, and the stackless writers have none to use.
	 */
	bool firmware;
	/*
	 * Optional, for a firmware driver after its setup(): the firmware
	 * call that sends a byte, for the stackless writers
	 * (<platform/emergency.h>: @fw_ext and @fw_fid). Without it they
	 * print nothing through this console.
	 */
	void (*emergency)(const struct console_port *port,
			  uint64_t *fw_ext, uint64_t *fw_fid);
};

/* Registers a driver: a table in the image (linker section
 * .console_drivers, __console_drivers_start..__console_drivers_end). */
#define CONSOLE_DRIVER(sym)						\
	static const struct console_driver sym				\
	__attribute__((used, section(".console_drivers"), aligned(8)))

/* Register access for drivers: @reg in register units (<< reg_shift),
 * with the port's reg_io_width. */
uint32_t console_read(const struct console_port *port, uint32_t reg);
void console_write(const struct console_port *port, uint32_t reg, uint32_t val);

/* The generic polled putc on port->poll, with a bounded wait. */
void console_poll_putc(const struct console_port *port, char c);

/*
 * console_early_init - the build's early console (CONFIG_EARLYCON), once.
 * console_from_fdt - the console the device tree names; replaces the early
 * one and replays what printk wrote before there was any console. Returns
 * 0, or a negative errno with the reason printed (the early console, if
 * any, stays). NULL: there is no device tree; the early console stays.
 */
struct fdt;
void console_early_init(void);
int console_from_fdt(const struct fdt *fdt);

/* The current console's port, or NULL when there is none. */
const struct console_port *console_current(void);

#endif /* PLATFORM_CONSOLE_H */
