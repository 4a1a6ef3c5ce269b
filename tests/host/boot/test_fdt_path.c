/*
 * test_fdt_path.c - finding the console a device tree names: stdout-path
 * through /aliases, ":options" stripped, reg translated through every
 * bus's ranges (boot/fdt_path.c), on the real boards' trees of
 * tests/fixtures/boards/, QEMU's own, and built trees for each refusal.
 * Expected addresses are the trees' own, read with `dtc -I dtb -O dts`
 * (each case names the ranges that make it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <boot/fdt.h>
#include "boot_test.h"
#include "fdt_builder.h"

static struct fdtb b;
static struct fdt fdt;
static char error[BOOT_ERROR_LEN];
static uint8_t *blob;

static int open_blob(const void *data, size_t len)
{
	free(blob);
	blob = malloc(len);
	memcpy(blob, data, len);
	return fdt_open(&fdt, blob, len, error);
}

static int open_fixture(const char *path)
{
	size_t len;
	void *data = fixture_load(path, &len);
	int err;

	if (!data)
		return -EIO;
	err = open_blob(data, fdt_header_totalsize(data) ?: len);
	free(data);
	return err;
}

/* The console of @path: its node name, its CPU address, the options. */
static bool stdout_is(const char *path, const char *name, uint64_t want,
		      const char *want_options)
{
	struct fdt_node_path np;
	const char *options;
	uint64_t addr = 0, size;
	int err;

	if (open_fixture(path))
		return false;
	err = fdt_stdout_node(&fdt, &np, &options);
	err = err ?: fdt_reg_translate(&fdt, &np, 0, &addr, &size);
	if (err || strcmp(fdt_node_name(&fdt, np.node[np.depth]), name) ||
	    addr != want || strcmp(options, want_options)) {
		printf("# %s: error %d (%s), node %s at %#llx options \"%s\"\n",
		       path, err, err ? error : "",
		       err ? "" : fdt_node_name(&fdt, np.node[np.depth]),
		       (unsigned long long)addr, err ? "" : options);
		return false;
	}
	return true;
}

static bool boards_consoles_translate_through_ranges(void)
{
	/* serial1 = /soc/serial@7e215040 (the mini-UART); /soc ranges
	 * <0x7e000000 0x3f000000 0x1000000 ...>: the VideoCore bus. */
	EXPECT(stdout_is("tests/fixtures/boards/broadcom-bcm2837-rpi-3-b.dtb",
			 "serial@7e215040", 0x3f215040, "115200n8"), "rpi-3-b");
	/* The same on the Pi 4: /soc ranges 0x7e000000 -> 0xfe000000. */
	EXPECT(stdout_is("tests/fixtures/boards/broadcom-bcm2711-rpi-4-b.dtb",
			 "serial@7e215040", 0xfe215040, "115200n8"), "rpi-4-b");
	/* A full path two buses deep: /soc@0 and bus@30800000 both map
	 * 1:1 but each with its own ranges. */
	EXPECT(stdout_is("tests/fixtures/boards/freescale-imx8mp-dhcom-pdk2.dtb",
			 "serial@30860000", 0x30860000, ""), "imx8mp");
	/* serial0 = /soc/serial@7ff80000, /soc with 2 address cells. */
	EXPECT(stdout_is("tests/fixtures/boards/arm-juno.dtb",
			 "serial@7ff80000", 0x7ff80000, "115200n8"), "juno");
	/* serial2 = /bus@100000/serial@2800000: ranges with 2+2+2 cells. */
	EXPECT(stdout_is("tests/fixtures/boards/ti-k3-am642-evm.dtb",
			 "serial@2800000", 0x2800000, "115200n8"), "am642");
	/* An empty /soc ranges; options 1500000n8. */
	EXPECT(stdout_is("tests/fixtures/boards/rockchip-rk3399-rockpro64.dtb",
			 "serial@ff1a0000", 0xff1a0000, "1500000n8"), "rk3399");
	/* QEMU's own trees: a full path, no options. */
	EXPECT(stdout_is("tests/fixtures/qemu/riscv64-128M.dtb.gz",
			 "serial@10000000", 0x10000000, ""), "riscv64 virt");
	EXPECT(stdout_is("tests/fixtures/qemu/riscv64-sifive_u-smp3.dtb.gz",
			 "serial@10010000", 0x10010000, ""), "sifive_u");
	EXPECT(stdout_is("tests/fixtures/qemu/aarch64-128M.dtb.gz",
			 "pl011@9000000", 0x9000000, ""), "aarch64 virt");
	return true;
}

static bool no_stdout_path_is_reported(void)
{
	struct fdt_node_path np;

	/* The FVP's tree has /chosen but no stdout-path. */
	EXPECT(open_fixture("tests/fixtures/boards/arm-fvp-base-revc.dtb") == 0,
	       "fvp opens");
	EXPECT(fdt_stdout_node(&fdt, &np, NULL) == -ENOENT &&
	       strstr(error, "no /chosen/stdout-path"), "error \"%s\"", error);
	return true;
}

static bool exit_device_found_by_compatible(void)
{
	struct fdt_node_path np;
	uint64_t addr = 0, size = 0;

	EXPECT(open_fixture("tests/fixtures/qemu/riscv64-128M.dtb.gz") == 0,
	       "virt opens");
	EXPECT(fdt_find_compatible(&fdt, "sifive,test0", &np) == 0 &&
	       fdt_reg_translate(&fdt, &np, 0, &addr, &size) == 0 &&
	       addr == 0x100000 && size == 0x1000,
	       "test device at %#llx+%#llx", (unsigned long long)addr,
	       (unsigned long long)size);
	/* QEMU's sifive_u tree lists none (the board file adds it). */
	EXPECT(open_fixture("tests/fixtures/qemu/riscv64-sifive_u-smp3.dtb.gz")
	       == 0, "sifive_u opens");
	EXPECT(fdt_find_compatible(&fdt, "sifive,test0", &np) == -ENOENT,
	       "sifive_u has a test device?");
	return true;
}

/*
 * / { #address-cells = <2>; #size-cells = <2>;
 *     chosen { stdout-path = @stdout; };
 *     aliases { serial0 = "/bus@1/uart@10"; };
 *     bus@1 { #address-cells = <1>; #size-cells = <1>; [ranges = @ranges;]
 *             uart@10 { reg = <0x10 0x100>; }; }; };
 */
static int built(const char *stdout_path, const uint32_t *ranges,
		 unsigned int nranges, uint64_t *addr)
{
	struct fdt_node_path np;
	uint8_t val[64];
	uint64_t size;
	int err;

	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	fdtb_prop_cells(&b, "#size-cells", 1, 2);
	fdtb_begin(&b, "chosen");
	fdtb_prop_str(&b, "stdout-path", stdout_path);
	fdtb_end(&b);
	fdtb_begin(&b, "aliases");
	fdtb_prop_str(&b, "serial0", "/bus@1/uart@10");
	fdtb_end(&b);
	fdtb_begin(&b, "bus@1");
	fdtb_prop_cells(&b, "#address-cells", 1, 1);
	fdtb_prop_cells(&b, "#size-cells", 1, 1);
	if (ranges) {
		for (unsigned int i = 0; i < nranges; i++) {
			val[4 * i] = ranges[i] >> 24;
			val[4 * i + 1] = ranges[i] >> 16;
			val[4 * i + 2] = ranges[i] >> 8;
			val[4 * i + 3] = ranges[i];
		}
		fdtb_prop(&b, "ranges", val, 4 * nranges);
	}
	fdtb_begin(&b, "uart@10");
	fdtb_prop_cells(&b, "reg", 2, 0x10, 0x100);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	err = open_blob(b.blob, b.len);
	err = err ?: fdt_stdout_node(&fdt, &np, NULL);
	return err ?: fdt_reg_translate(&fdt, &np, 0, addr, &size);
}

static bool built_trees_translate_or_refuse(void)
{
	/* child 0 -> parent (2 cells) 0x1_0000_0000, 0x1000 bytes */
	static const uint32_t map[] = { 0, 0x1, 0, 0x1000 };
	static const uint32_t miss[] = { 0x1000, 0x1, 0, 0x1000 };
	static const uint32_t ragged[] = { 0, 0x1, 0 };
	uint64_t addr = 0;

	EXPECT(built("serial0:115200n8", map, 4, &addr) == 0 &&
	       addr == 0x100000010ULL, "alias: %#llx (%s)",
	       (unsigned long long)addr, error);
	EXPECT(built("/bus/uart", map, 4, &addr) == 0 &&
	       addr == 0x100000010ULL, "names without unit addresses: %#llx "
	       "(%s)", (unsigned long long)addr, error);
	EXPECT(built("/bus@1/uart@10", (const uint32_t *)"", 0, &addr) == 0 &&
	       addr == 0x10, "empty ranges: %#llx (%s)",
	       (unsigned long long)addr, error);
	EXPECT(built("/bus@1/uart@10", NULL, 0, &addr) == -ENOENT &&
	       strstr(error, "bus@1 has no ranges"), "no ranges: \"%s\"", error);
	EXPECT(built("/bus@1/uart@10", miss, 4, &addr) == -ERANGE &&
	       strstr(error, "no range covers 0x10"), "uncovered: \"%s\"",
	       error);
	EXPECT(built("/bus@1/uart@10", ragged, 3, &addr) == -EINVAL &&
	       strstr(error, "whole number"), "ragged ranges: \"%s\"", error);
	EXPECT(built("serial9", map, 4, &addr) == -ENOENT &&
	       strstr(error, "no alias serial9"), "no alias: \"%s\"", error);
	EXPECT(built("/bus@1/uart@20", map, 4, &addr) == -ENOENT &&
	       strstr(error, "no node uart@20"), "no node: \"%s\"", error);
	EXPECT(built(":115200", map, 4, &addr) == -EINVAL &&
	       strstr(error, "empty path"), "empty path: \"%s\"", error);
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(boards_consoles_translate_through_ranges),
	HOST_TEST(no_stdout_path_is_reported),
	HOST_TEST(exit_device_found_by_compatible),
	HOST_TEST(built_trees_translate_or_refuse),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
