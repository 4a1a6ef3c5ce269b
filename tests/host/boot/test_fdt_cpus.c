/*
 * test_fdt_cpus.c - the device tree's CPU reader (boot/fdt_cpus.c): the
 * shapes real firmware writes (QEMU's riscv64 and aarch64 virt, the
 * FU540's monitor hart, a Raspberry Pi 4's spin tables, Juno's PSCI over
 * smc), every rule about usable and unusable CPUs, NR_CPUS overflow, the
 * boot CPU first, and a named refusal for every malformed /cpus. Trees
 * are built in memory (fdt_builder.c) or read from tests/fixtures/, and
 * read from exact-size heap copies, so ASan catches any read outside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include "boot_test.h"
#include "fdt_builder.h"

static struct fdtb b;
static struct boot_cpus cpus;
static unsigned int read_flags;		/* fdt_read_cpus()'s flags */

static int read_cpus_blob(const void *data, size_t len, unsigned long boot)
{
	void *copy = malloc(len ? len : 1);
	int err;

	memcpy(copy, data, len);
	err = fdt_read_cpus(copy, len, boot, read_flags, &cpus);
	free(copy);
	return err;
}

static int finish_and_read(unsigned long boot)
{
	fdtb_end(&b);			/* the root */
	fdtb_finish(&b, 1);
	return read_cpus_blob(b.blob, b.len, boot);
}

/* / { #address-cells = <2>; cpus { #address-cells = <ac>; ... */
static void begin_cpus(uint32_t ac)
{
	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	fdtb_prop_cells(&b, "#size-cells", 1, 2);
	fdtb_begin(&b, "cpus");
	fdtb_prop_cells(&b, "#address-cells", 1, ac);
	fdtb_prop_cells(&b, "#size-cells", 1, 0);
}

static void cpu_node(uint32_t hwid)
{
	char name[32];

	snprintf(name, sizeof(name), "cpu@%x", hwid);
	fdtb_begin(&b, name);
	fdtb_prop_str(&b, "device_type", "cpu");
}

/* A QEMU virt hart: okay, rv64 with S-mode. */
static void hart(uint32_t id)
{
	cpu_node(id);
	fdtb_prop_cells(&b, "reg", 1, id);
	fdtb_prop_str(&b, "status", "okay");
	fdtb_prop_str(&b, "riscv,isa", "rv64imafdch_zicsr");
	fdtb_prop_str(&b, "mmu-type", "riscv,sv48");
	fdtb_end(&b);
}

/* An arm64 CPU with two reg cells and @method. */
static void arm_cpu(uint32_t mpidr, const char *method)
{
	cpu_node(mpidr);
	fdtb_prop_cells(&b, "reg", 2, 0, mpidr);
	if (method)
		fdtb_prop_str(&b, "enable-method", method);
}

static bool listed(unsigned int i, unsigned long hwid,
		   enum cpu_enable_method method)
{
	if (i >= cpus.nr) {
		printf("# only %u CPUs listed\n", cpus.nr);
		return false;
	}
	if (cpus.cpu[i].hwid == hwid && cpus.cpu[i].method == method)
		return true;
	printf("# cpu[%u] = hwid %#lx method %d, expected %#lx method %d\n",
	       i, cpus.cpu[i].hwid, cpus.cpu[i].method, hwid, method);
	return false;
}

static bool riscv_virt_harts_boot_hart_first(void)
{
	begin_cpus(1);
	fdtb_prop_cells(&b, "timebase-frequency", 1, 10000000);
	for (uint32_t i = 0; i < 4; i++)
		hart(i);
	fdtb_begin(&b, "cpu-map");	/* not a CPU */
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT(finish_and_read(2) == 0, "refused");
	EXPECT(cpus.nr == 4 && cpus.nr_unusable == 0 && cpus.nr_over == 0 &&
	       cpus.boot_cpu_found, "nr %u unusable %u over %u found %d",
	       cpus.nr, cpus.nr_unusable, cpus.nr_over, cpus.boot_cpu_found);
	EXPECT(listed(0, 2, CPU_ENABLE_SBI_HSM) &&
	       listed(1, 0, CPU_ENABLE_SBI_HSM) &&
	       listed(2, 1, CPU_ENABLE_SBI_HSM) &&
	       listed(3, 3, CPU_ENABLE_SBI_HSM), "order");
	EXPECT(cpus.timebase_hz == 10000000, "timebase %llu",
	       (unsigned long long)cpus.timebase_hz);
	EXPECT(cpus.cpu[1].node == -1, "node %d", cpus.cpu[1].node);
	return true;
}

/* The FU540 shape: hart 0 has no S-mode; a disabled hart is left out. */
static bool riscv_harts_without_s_mode_are_unusable(void)
{
	begin_cpus(1);
	cpu_node(0);
	fdtb_prop_cells(&b, "reg", 1, 0);
	fdtb_prop_str(&b, "riscv,isa", "rv64imac");
	fdtb_end(&b);
	hart(1);
	hart(2);
	cpu_node(3);
	fdtb_prop_cells(&b, "reg", 1, 3);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_prop_str(&b, "riscv,isa", "rv64imafdc");
	fdtb_prop_str(&b, "mmu-type", "riscv,sv39");
	fdtb_prop_cells(&b, "timebase-frequency", 1, 1000000);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT(finish_and_read(1) == 0, "refused");
	EXPECT(cpus.nr == 2 && cpus.nr_unusable == 2, "nr %u unusable %u",
	       cpus.nr, cpus.nr_unusable);
	EXPECT(listed(0, 1, CPU_ENABLE_SBI_HSM) &&
	       listed(1, 2, CPU_ENABLE_SBI_HSM), "order");
	EXPECT(console_says("cpu@0 (hwid 0x0) is unusable: a RISC-V hart "
			    "without S-mode") &&
	       console_says("cpu@3 (hwid 0x3) is unusable: a RISC-V hart "
			    "whose status is not okay"), "messages");
	/* /cpus had none: a CPU node's own, even a disabled one's. */
	EXPECT(cpus.timebase_hz == 1000000, "timebase %llu",
	       (unsigned long long)cpus.timebase_hz);
	return true;
}

static bool psci_cpus_take_the_conduit(void)
{
	const char *methods[] = { "hvc", "smc" };

	for (unsigned int m = 0; m < 2; m++) {
		begin_cpus(2);
		arm_cpu(0, "psci");
		fdtb_end(&b);
		arm_cpu(0x100, "psci");
		fdtb_prop_cells(&b, "numa-node-id", 1, 1);
		fdtb_end(&b);
		fdtb_end(&b);
		fdtb_begin(&b, "psci");
		fdtb_prop_str(&b, "compatible", "arm,psci-1.0");
		fdtb_prop_str(&b, "method", methods[m]);
		fdtb_end(&b);
		EXPECT(finish_and_read(0) == 0, "refused");
		EXPECT(cpus.nr == 2 && listed(1, 0x100, CPU_ENABLE_PSCI) &&
		       cpus.cpu[1].node == 1, "nr %u node %d", cpus.nr,
		       cpus.cpu[1].node);
		EXPECT(cpus.psci == (m ? PSCI_CONDUIT_SMC : PSCI_CONDUIT_HVC),
		       "conduit %d for %s", cpus.psci, methods[m]);
	}
	/* No /psci: nothing to call CPU_ON through. */
	begin_cpus(2);
	arm_cpu(0, "psci");
	fdtb_end(&b);
	arm_cpu(1, "psci");
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT(finish_and_read(0) == 0, "refused");
	EXPECT(cpus.nr == 1 && cpus.nr_unusable == 1 &&
	       console_says("no /psci method"), "nr %u unusable %u", cpus.nr,
	       cpus.nr_unusable);
	return true;
}

/*
 * FDT_CPUS_HELD (QEMU's secure=on tree for an ELF: psci, no /psci, every
 * CPU entered with the boot CPU): psci without /psci and no enable-method
 * become CPU_ENABLE_HELD; a spin table and a usable PSCI keep theirs; a
 * bad status stays unusable, a RISC-V hart is never held; without the
 * flag the same tree has one usable CPU.
 */
static bool held_cpus(void)
{
	static const char *const psci[] = { NULL, "smc" };

	for (unsigned int with_psci = 0; with_psci < 2; with_psci++) {
		begin_cpus(2);
		arm_cpu(0, "psci");
		fdtb_end(&b);
		arm_cpu(1, "psci");
		fdtb_end(&b);
		arm_cpu(2, NULL);
		fdtb_end(&b);
		arm_cpu(3, "spin-table");
		fdtb_prop_cells(&b, "cpu-release-addr", 2, 0, 0xe0);
		fdtb_end(&b);
		arm_cpu(4, "psci");
		fdtb_prop_str(&b, "status", "fail");
		fdtb_end(&b);
		fdtb_end(&b);
		if (psci[with_psci]) {
			fdtb_begin(&b, "psci");
			fdtb_prop_str(&b, "method", psci[with_psci]);
			fdtb_end(&b);
		}
		read_flags = FDT_CPUS_HELD;
		EXPECT(finish_and_read(0) == 0, "refused");
		read_flags = 0;
		EXPECT(cpus.nr == 4 && cpus.nr_unusable == 1 &&
		       listed(1, 1, with_psci ? CPU_ENABLE_PSCI : CPU_ENABLE_HELD) &&
		       listed(2, 2, CPU_ENABLE_HELD) &&
		       listed(3, 3, CPU_ENABLE_SPIN_TABLE),
		       "nr %u unusable %u (psci %s)", cpus.nr, cpus.nr_unusable,
		       psci[with_psci] ? psci[with_psci] : "none");
		EXPECT(finish_and_read(0) == 0, "refused");
		EXPECT(cpus.nr == (with_psci ? 3 : 2) &&
		       cpus.nr_unusable == (with_psci ? 2 : 3),
		       "not held: nr %u unusable %u", cpus.nr, cpus.nr_unusable);
	}
	/* A hart is started by SBI HSM only: held or not. */
	begin_cpus(1);
	hart(0);
	cpu_node(1);
	fdtb_prop_cells(&b, "reg", 1, 1);
	fdtb_prop_str(&b, "riscv,isa", "rv64imac");
	fdtb_end(&b);
	fdtb_end(&b);
	read_flags = FDT_CPUS_HELD;
	EXPECT(finish_and_read(0) == 0, "refused");
	read_flags = 0;
	EXPECT(cpus.nr == 1 && cpus.nr_unusable == 1, "nr %u unusable %u",
	       cpus.nr, cpus.nr_unusable);
	return true;
}

/*
 * Spin tables, and the status rules: "disabled" with a method that starts
 * it is usable (devicetree spec 3.8.1); without one, or "fail", it is not.
 */
static bool spin_tables_and_status(void)
{
	begin_cpus(1);
	cpu_node(0);
	fdtb_prop_cells(&b, "reg", 1, 0);
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_prop_cells(&b, "cpu-release-addr", 2, 0, 0xd8);
	fdtb_end(&b);
	cpu_node(1);
	fdtb_prop_cells(&b, "reg", 1, 1);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_prop_cells(&b, "cpu-release-addr", 2, 0x1, 0xe0);
	fdtb_end(&b);
	cpu_node(2);
	fdtb_prop_cells(&b, "reg", 1, 2);
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_end(&b);
	cpu_node(3);
	fdtb_prop_cells(&b, "reg", 1, 3);
	fdtb_prop_str(&b, "status", "disabled");
	fdtb_end(&b);
	cpu_node(4);
	fdtb_prop_cells(&b, "reg", 1, 4);
	fdtb_prop_str(&b, "status", "fail");
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_prop_cells(&b, "cpu-release-addr", 1, 0xf0);
	fdtb_end(&b);
	cpu_node(5);
	fdtb_prop_cells(&b, "reg", 1, 5);
	fdtb_prop_str(&b, "enable-method", "brcm,bcm2836-smp");
	fdtb_end(&b);
	cpu_node(6);
	fdtb_prop_cells(&b, "reg", 1, 6);
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_prop_cells(&b, "cpu-release-addr", 1, 0xf8);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT(finish_and_read(0) == 0, "refused");
	EXPECT(cpus.nr == 3 && cpus.nr_unusable == 4, "nr %u unusable %u",
	       cpus.nr, cpus.nr_unusable);
	EXPECT(listed(1, 1, CPU_ENABLE_SPIN_TABLE) &&
	       cpus.cpu[1].release_addr == 0x1000000e0ULL &&
	       listed(2, 6, CPU_ENABLE_SPIN_TABLE) &&
	       cpus.cpu[2].release_addr == 0xf8, "release addresses %#llx %#llx",
	       (unsigned long long)cpus.cpu[1].release_addr,
	       (unsigned long long)cpus.cpu[2].release_addr);
	EXPECT(console_says("cpu@2 (hwid 0x2) is unusable: enable-method "
			    "spin-table without cpu-release-addr") &&
	       console_says("cpu@3 (hwid 0x3) is unusable: no enable-method") &&
	       console_says("cpu@4 (hwid 0x4) is unusable: its status is "
			    "neither okay nor disabled") &&
	       console_says("cpu@5 (hwid 0x5) is unusable: an enable-method"),
	       "messages");
	return true;
}

/* NR_CPUS is 64 on the host: 70 CPUs, the boot CPU the last of them. */
static bool cpus_beyond_nr_cpus_are_counted(void)
{
	begin_cpus(1);
	for (uint32_t i = 0; i < 70; i++) {
		cpu_node(i);
		fdtb_prop_cells(&b, "reg", 1, i);
		fdtb_prop_str(&b, "enable-method", "psci");
		fdtb_end(&b);
	}
	fdtb_end(&b);
	fdtb_begin(&b, "psci");
	fdtb_prop_str(&b, "method", "smc");
	fdtb_end(&b);
	EXPECT(finish_and_read(69) == 0, "refused");
	EXPECT(cpus.nr == NR_CPUS && cpus.nr_over == 70 - NR_CPUS &&
	       cpus.boot_cpu_found && listed(0, 69, CPU_ENABLE_PSCI) &&
	       listed(NR_CPUS - 1, NR_CPUS - 2, CPU_ENABLE_PSCI),
	       "nr %u over %u", cpus.nr, cpus.nr_over);
	return true;
}

static bool boot_cpu_missing_or_duplicated(void)
{
	begin_cpus(1);
	hart(0);
	hart(1);
	hart(1);
	fdtb_end(&b);
	EXPECT(finish_and_read(7) == 0, "refused");
	EXPECT(!cpus.boot_cpu_found && cpus.nr == 3 && cpus.nr_unusable == 1 &&
	       listed(0, 7, CPU_ENABLE_NONE) && listed(1, 0, CPU_ENABLE_SBI_HSM),
	       "nr %u unusable %u found %d", cpus.nr, cpus.nr_unusable,
	       cpus.boot_cpu_found);
	EXPECT(console_says("the same hwid as another CPU") &&
	       console_says("the boot CPU (hwid 0x7) is not in /cpus"),
	       "messages");
	/* A second node with the boot CPU's hwid. */
	begin_cpus(1);
	hart(0);
	hart(0);
	fdtb_end(&b);
	EXPECT(finish_and_read(0) == 0, "refused");
	EXPECT(cpus.nr == 1 && cpus.nr_unusable == 1 &&
	       console_says("the same hwid as the boot CPU"), "nr %u", cpus.nr);
	return true;
}

#define EXPECT_REFUSED(boot, want, needle)				\
	do {								\
		int e_ = finish_and_read(boot);				\
		EXPECT(e_ == (want) && console_says(needle),		\
		       "error %d, expected %d saying '%s'", e_, want,	\
		       needle);						\
		console_clear();					\
	} while (0)

static bool malformed_cpus_are_refused(void)
{
	begin_cpus(1);
	cpu_node(0);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "/cpus/cpu@0: no reg");

	begin_cpus(2);
	cpu_node(0);
	fdtb_prop_cells(&b, "reg", 1, 0);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "reg is 4 bytes, not one 2-cell hwid");

	begin_cpus(3);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "#address-cells is not 1 or 2");

	begin_cpus(1);
	fdtb_prop(&b, "timebase-frequency", "abc", 3);
	hart(0);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "timebase-frequency is not 1 or 2 cells");

	begin_cpus(1);
	cpu_node(1);
	fdtb_prop_cells(&b, "reg", 1, 1);
	fdtb_prop_str(&b, "enable-method", "spin-table");
	fdtb_prop_cells(&b, "cpu-release-addr", 3, 0, 0, 0);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "cpu-release-addr is not 1 or 2 cells");

	/* numa-node-id: one cell below BOOT_MAX_NUMNODES, as on memory. */
	begin_cpus(1);
	cpu_node(0);
	fdtb_prop_cells(&b, "reg", 1, 0);
	fdtb_prop_cells(&b, "numa-node-id", 2, 0, 1);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "numa-node-id is 8 bytes, not one cell");
	begin_cpus(1);
	cpu_node(0);
	fdtb_prop_cells(&b, "reg", 1, 0);
	fdtb_prop_cells(&b, "numa-node-id", 1, BOOT_MAX_NUMNODES);
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -EINVAL, "numa-node-id 1024 is not below 1024");

	begin_cpus(1);
	fdtb_begin(&b, "cpu-map");
	fdtb_end(&b);
	fdtb_end(&b);
	EXPECT_REFUSED(0, -ENOENT, "/cpus has no CPU node");

	fdtb_init(&b);
	fdtb_begin(&b, "");
	EXPECT_REFUSED(0, -ENOENT, "no /cpus node");
	return true;
}

/* Every prefix of a good blob, and a few bad bytes: refused, never read past. */
static bool damaged_blobs_are_refused(void)
{
	int err;

	begin_cpus(1);
	hart(0);
	hart(1);
	fdtb_end(&b);
	fdtb_end(&b);
	fdtb_finish(&b, 1);
	for (size_t len = 0; len < b.len; len++) {
		err = read_cpus_blob(b.blob, len, 0);
		EXPECT(err == -EINVAL, "a %zu-byte prefix gave %d", len, err);
		EXPECT(cpus.nr == 1 && cpus.cpu[0].hwid == 0, "prefix %zu left "
		       "%u CPUs", len, cpus.nr);
	}
	console_clear();
	fdtb_set32(&b, b.off_struct, 0x77);
	EXPECT(read_cpus_blob(b.blob, b.len, 0) == -EINVAL &&
	       console_says("unknown token"), "a bad token was read");
	return true;
}

/* A fixture file, gunzipped if its name ends in .gz. */
static int read_fixture(const char *path, unsigned long boot)
{
	size_t len;
	void *data = fixture_load(path, &len);
	int err;

	if (!data)
		return -EIO;
	err = read_cpus_blob(data, len, boot);
	free(data);
	return err;
}

/*
 * What the last read said of the machine being virtual: @needle in its
 * reason, or no reason for NULL.
 */
static bool virtual_as(const char *needle)
{
	const char *why = cpus.virtual_machine;

	if (needle ? why && strstr(why, needle) : !why)
		return true;
	printf("# virtual_machine \"%s\", expected %s%s%s\n",
	       why ? why : "(none)", needle ? "\"" : "none",
	       needle ? needle : "", needle ? "\"" : "");
	return false;
}

static bool firmware_trees_read_as_expected(void)
{
	EXPECT(read_fixture("tests/fixtures/qemu/riscv64-smp4.dtb.gz", 3) == 0 &&
	       cpus.nr == 4 && listed(0, 3, CPU_ENABLE_SBI_HSM) &&
	       listed(3, 2, CPU_ENABLE_SBI_HSM) && cpus.timebase_hz == 10000000,
	       "riscv64 virt -smp 4: nr %u", cpus.nr);
	EXPECT(virtual_as("riscv-virtio"), "riscv64 virt");
	EXPECT(read_fixture("tests/fixtures/qemu/riscv64-sifive_u-smp3.dtb.gz",
			    1) == 0 && cpus.nr == 2 && cpus.nr_unusable == 1 &&
	       listed(1, 2, CPU_ENABLE_SBI_HSM) && cpus.timebase_hz == 1000000,
	       "sifive_u -smp 3: nr %u unusable %u", cpus.nr,
	       cpus.nr_unusable);
	/* QEMU's model of a real board: nothing in the tree says virtual. */
	EXPECT(virtual_as(NULL), "sifive_u");
	EXPECT(read_fixture("tests/fixtures/qemu/aarch64-max-smp4.dtb.gz",
			    0) == 0 && cpus.nr == 4 &&
	       listed(3, 3, CPU_ENABLE_PSCI) && cpus.psci == PSCI_CONDUIT_HVC,
	       "aarch64 virt -smp 4: nr %u psci %d", cpus.nr, cpus.psci);
	EXPECT(virtual_as("linux,dummy-virt"), "aarch64 virt");
	EXPECT(read_fixture("tests/fixtures/qemu/aarch64-virt-el2.dtb.gz",
			    0) == 0 && cpus.nr == 1 &&
	       cpus.psci == PSCI_CONDUIT_SMC,
	       "aarch64 virt at EL2: nr %u psci %d", cpus.nr, cpus.psci);
	EXPECT(virtual_as("linux,dummy-virt"), "aarch64 virt at EL2");
	EXPECT(read_fixture("tests/fixtures/boards/broadcom-bcm2711-rpi-4-b.dtb",
			    0) == 0 && cpus.nr == 4 &&
	       listed(3, 3, CPU_ENABLE_SPIN_TABLE) &&
	       cpus.cpu[1].release_addr == 0xe0 &&
	       cpus.cpu[3].release_addr == 0xf0,
	       "Raspberry Pi 4: nr %u", cpus.nr);
	EXPECT(virtual_as(NULL), "Raspberry Pi 4");
	EXPECT(read_fixture("tests/fixtures/boards/arm-juno-r1.dtb", 0x100) == 0 &&
	       cpus.nr == 6 && listed(0, 0x100, CPU_ENABLE_PSCI) &&
	       listed(5, 0x103, CPU_ENABLE_PSCI) &&
	       cpus.psci == PSCI_CONDUIT_SMC, "Juno r1: nr %u psci %d",
	       cpus.nr, cpus.psci);
	EXPECT(virtual_as(NULL), "Juno r1");
	return true;
}

/*
 * A /hypervisor node (Xen's binding) says virtual whatever the root's
 * compatible, and a root compatible list is searched whole.
 */
static bool virtual_machines_are_named(void)
{
	static const char qemu_virt[] = "qemu,virt\0riscv-virtio";

	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop_str(&b, "compatible", "xlnx,zynqmp");
	fdtb_begin(&b, "hypervisor");
	fdtb_prop_str(&b, "compatible", "xen,xen");
	fdtb_end(&b);
	fdtb_begin(&b, "cpus");
	fdtb_prop_cells(&b, "#address-cells", 1, 2);
	arm_cpu(0, NULL);
	fdtb_end(&b);		/* cpu@0 */
	fdtb_end(&b);		/* cpus */
	EXPECT(finish_and_read(0) == 0, "refused");
	EXPECT(virtual_as("/hypervisor"), "a Xen guest's tree");

	fdtb_init(&b);
	fdtb_begin(&b, "");
	fdtb_prop(&b, "compatible", qemu_virt, sizeof(qemu_virt));
	fdtb_begin(&b, "cpus");
	fdtb_prop_cells(&b, "#address-cells", 1, 1);
	hart(0);
	fdtb_end(&b);		/* cpus */
	EXPECT(finish_and_read(0) == 0, "refused");
	EXPECT(virtual_as("riscv-virtio"), "the second compatible string");
	return true;
}

static const struct host_test tests[] = {
	HOST_TEST(riscv_virt_harts_boot_hart_first),
	HOST_TEST(riscv_harts_without_s_mode_are_unusable),
	HOST_TEST(psci_cpus_take_the_conduit),
	HOST_TEST(spin_tables_and_status),
	HOST_TEST(held_cpus),
	HOST_TEST(cpus_beyond_nr_cpus_are_counted),
	HOST_TEST(boot_cpu_missing_or_duplicated),
	HOST_TEST(malformed_cpus_are_refused),
	HOST_TEST(damaged_blobs_are_refused),
	HOST_TEST(firmware_trees_read_as_expected),
	HOST_TEST(virtual_machines_are_named),
};

int main(void)
{
	return host_test_main(tests, ARRAY_SIZE(tests));
}
