/*
 * fdt_cpus.c - the CPUs a device tree describes: /cpus/cpu@* (and /psci).
 *
 * A child of /cpus is a CPU when its device_type is "cpu" (or, with no
 * device_type, when it is named cpu or cpu@...): cpu-map, idle-states and
 * the like are skipped. For each CPU:
 *
 *   reg              its hwid (hart id, MPIDR affinity), #address-cells
 *                    of /cpus (1 or 2) cells, exactly one entry
 *   status           "okay", "ok" or absent: running, or startable.
 *                    "disabled" is, by the devicetree specification
 *                    (3.8.1), a CPU in a quiescent state that its
 *                    enable-method starts: ePAPR spin tables mark their
 *                    waiting CPUs so. Linux on arm64 starts such CPUs
 *                    through their enable-method (it reads no status);
 *                    Linux on riscv skips them, which is how the sifive_u
 *                    monitor hart (E51, no S-mode) is left out. So here:
 *                    "disabled" is usable only with an enable-method that
 *                    starts it, and never for a RISC-V hart; any other
 *                    status ("fail", ...) is unusable.
 *   riscv,isa        marks a RISC-V hart: started through SBI HSM, and
 *                    only if it has S-mode, which its "mmu-type" property
 *                    says (a hart without one is M-mode only)
 *   enable-method    "psci" (conduit from /psci "method": "hvc" or "smc")
 *                    or "spin-table" with "cpu-release-addr" (1 or 2
 *                    cells); anything else, or nothing, leaves a CPU that
 *                    is not the boot CPU unusable, but for FDT_CPUS_HELD:
 *                    psci without /psci, or no enable-method, is then
 *                    CPU_ENABLE_HELD (the CPU waits in the kernel's pen)
 *   numa-node-id     its NUMA node (one cell, below BOOT_MAX_NUMNODES,
 *                    as on memory nodes), else -1
 *
 * /cpus timebase-frequency (1 or 2 cells; a CPU node's own if /cpus has
 * none) is the riscv64 `time` rate. The boot CPU, found by the hwid the
 * boot stub read, is cpu[0] whatever its status, and listed even if the
 * tree forgot it (boot_cpu_found then says so). Unusable CPUs are counted
 * and named on the console, never listed; so are CPUs beyond NR_CPUS.
 * A /hypervisor node, or a root compatible of a virtual machine, is noted
 * in virtual_machine (read_virtual_machine()).
 *
 * Refused as malformed (-EINVAL): anything fdt_open() refuses, a /cpus
 * #address-cells other than 1 or 2 (absent: 2, the specification's default), a CPU without reg or with a reg of
 * another length, a numa-node-id that is not one cell below
 * BOOT_MAX_NUMNODES, a timebase-frequency that is not 1 or 2 cells, a
 * cpu-release-addr that is not 1 or 2 cells. Two CPUs with one hwid:
 * the second is unusable. Pure: it reads the blob and writes @out.
 */
#include <boot/bootmem.h>
#include <boot/cpus.h>
#include <boot/fdt.h>
#include <lib/compiler.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define CPU_NAME_LEN	64

struct cpus_reader {
	const struct fdt *fdt;
	int cpus;			/* the /cpus node */
	uint32_t addr_cells;
	unsigned long boot_hwid;
	bool held;			/* FDT_CPUS_HELD */
	struct boot_cpus *out;
	unsigned int listed;		/* CPUs seen, boot CPU included */
};

static int find_child(const struct fdt *fdt, int parent, const char *name)
{
	size_t n = strlen(name);

	for (int c = fdt_first_child(fdt, parent); c >= 0;
	     c = fdt_next_child(fdt, c)) {
		const char *cn = fdt_node_name(fdt, c);

		if (!strncmp(cn, name, n) && (cn[n] == '\0' || cn[n] == '@'))
			return c;
	}
	return -1;
}

/* A property of 1 or 2 cells: 0 and *@v set, -ENOENT absent, -EINVAL. */
static int read_u64_prop(const struct fdt *fdt, int node, const char *name,
			 uint64_t *v)
{
	uint32_t len;
	const void *p = fdt_getprop(fdt, node, name, &len);

	if (!p)
		return -ENOENT;
	if (len != 4 && len != 8)
		return -EINVAL;
	*v = fdt_read_cells(p, len / 4);
	return 0;
}

static bool is_cpu_node(const struct fdt *fdt, int node)
{
	uint32_t len;
	const char *name = fdt_node_name(fdt, node);

	if (fdt_getprop(fdt, node, "device_type", &len))
		return fdt_prop_is_string(fdt, node, "device_type", "cpu");
	return !strcmp(name, "cpu") || !strncmp(name, "cpu@", 4);
}

static enum psci_conduit read_psci(const struct fdt *fdt)
{
	int psci = find_child(fdt, fdt->root, "psci");

	if (psci < 0 || !fdt_node_is_available(fdt, psci))
		return PSCI_CONDUIT_NONE;
	if (fdt_prop_is_string(fdt, psci, "method", "hvc"))
		return PSCI_CONDUIT_HVC;
	if (fdt_prop_is_string(fdt, psci, "method", "smc"))
		return PSCI_CONDUIT_SMC;
	return PSCI_CONDUIT_NONE;
}

/* A root compatible, and the reason the boot line gives for it. */
#define VIRT_COMPATIBLE(c) { c, "device tree: root compatible \"" c "\"" }

/*
 * Whether the tree describes a virtual machine, and by what: a
 * /hypervisor node (Xen's binding), or a root compatible that only
 * virtual machines have: QEMU's and kvmtool's "linux,dummy-virt" (arm
 * virt), QEMU's "riscv-virtio" (riscv virt). A machine whose CPUs are
 * emulated or a hypervisor's, either way, is run by a host that may stop
 * any of them at any instruction. NULL when the tree says nothing.
 */
static const char *read_virtual_machine(const struct fdt *fdt)
{
	static const char *const virt_compatible[][2] = {
		VIRT_COMPATIBLE("linux,dummy-virt"),
		VIRT_COMPATIBLE("riscv-virtio"),
	};

	if (find_child(fdt, fdt->root, "hypervisor") >= 0)
		return "device tree: a /hypervisor node";
	for (size_t i = 0; i < ARRAY_SIZE(virt_compatible); i++)
		if (fdt_node_is_compatible(fdt, fdt->root, virt_compatible[i][0]))
			return virt_compatible[i][1];
	return NULL;
}

/*
 * How @node would be started, or NULL and *@why when it cannot be.
 * Return: -EINVAL for a malformed property, else 0.
 */
static int read_method(const struct cpus_reader *r, int node,
		       const char *path, struct cpu_desc *desc,
		       const char **why)
{
	const struct fdt *fdt = r->fdt;
	uint32_t len;
	bool available = fdt_node_is_available(fdt, node);
	bool disabled = fdt_prop_is_string(fdt, node, "status", "disabled");
	uint64_t addr;
	int err;

	*why = NULL;
	if (fdt_getprop(fdt, node, "riscv,isa", &len)) {
		if (!available)
			*why = "a RISC-V hart whose status is not okay";
		else if (!fdt_getprop(fdt, node, "mmu-type", &len))
			*why = "a RISC-V hart without S-mode (no mmu-type)";
		desc->method = CPU_ENABLE_SBI_HSM;
		return 0;
	}
	if (!available && !disabled) {
		*why = "its status is neither okay nor disabled";
		return 0;
	}
	if (fdt_prop_is_string(fdt, node, "enable-method", "psci")) {
		desc->method = CPU_ENABLE_PSCI;
		if (r->out->psci != PSCI_CONDUIT_NONE)
			return 0;
		if (r->held)
			desc->method = CPU_ENABLE_HELD;
		else
			*why = "enable-method psci, but no /psci method "
			       "\"hvc\" or \"smc\"";
		return 0;
	}
	if (fdt_prop_is_string(fdt, node, "enable-method", "spin-table")) {
		desc->method = CPU_ENABLE_SPIN_TABLE;
		err = read_u64_prop(fdt, node, "cpu-release-addr", &addr);
		if (err == -EINVAL) {
			printk("fdt: %s: cpu-release-addr is not 1 or 2 "
			       "cells\n", path);
			return -EINVAL;
		}
		if (err)
			*why = "enable-method spin-table without "
			       "cpu-release-addr";
		desc->release_addr = err ? 0 : addr;
		return 0;
	}
	if (fdt_getprop(fdt, node, "enable-method", &len))
		*why = "an enable-method buddyboot does not know";
	else if (r->held)
		desc->method = CPU_ENABLE_HELD;
	else
		*why = "no enable-method";
	return 0;
}

static int read_cpu(struct cpus_reader *r, int node)
{
	const struct fdt *fdt = r->fdt;
	struct boot_cpus *out = r->out;
	struct cpu_desc desc = { .node = -1 };
	char path[CPU_NAME_LEN];
	const char *why;
	const void *reg;
	uint32_t len;
	uint64_t numa;
	bool boot;
	int err;

	ksnprintf(path, sizeof(path), "/cpus/%s", fdt_node_name(fdt, node));
	reg = fdt_getprop(fdt, node, "reg", &len);
	if (!reg) {
		printk("fdt: %s: no reg (its hwid)\n", path);
		return -EINVAL;
	}
	if (len != 4 * r->addr_cells) {
		printk("fdt: %s: reg is %u bytes, not one %u-cell hwid\n",
		       path, len, r->addr_cells);
		return -EINVAL;
	}
	desc.hwid = (unsigned long)fdt_read_cells(reg, r->addr_cells);
	reg = fdt_getprop(fdt, node, "numa-node-id", &len);
	if (reg && len != 4) {
		printk("fdt: %s: numa-node-id is %u bytes, not one cell\n",
		       path, len);
		return -EINVAL;
	}
	numa = reg ? fdt_read_cells(reg, 1) : 0;
	if (reg && numa >= BOOT_MAX_NUMNODES) {
		printk("fdt: %s: numa-node-id %llu is not below %u\n", path,
		       (unsigned long long)numa, BOOT_MAX_NUMNODES);
		return -EINVAL;
	}
	if (reg)
		desc.node = (int)numa;
	if (!out->timebase_hz)
		read_u64_prop(fdt, node, "timebase-frequency",
			      &out->timebase_hz);

	err = read_method(r, node, path, &desc, &why);
	if (err)
		return err;
	boot = desc.hwid == r->boot_hwid;
	if (boot && out->boot_cpu_found)
		why = "the same hwid as the boot CPU";
	for (unsigned int i = 1; i < out->nr && !why; i++)
		if (out->cpu[i].hwid == desc.hwid)
			why = "the same hwid as another CPU";
	if (why && !(boot && !out->boot_cpu_found)) {
		printk("fdt: %s (hwid %#lx) is unusable: %s\n", path,
		       desc.hwid, why);
		out->nr_unusable++;
		return 0;
	}

	if (boot) {
		out->cpu[0] = desc;
		out->boot_cpu_found = true;
	} else if (out->nr < NR_CPUS) {
		out->cpu[out->nr++] = desc;
	} else {
		out->nr_over++;
	}
	return 0;
}

enum psci_conduit fdt_read_psci(const void *blob, size_t size)
{
	char error[BOOT_ERROR_LEN];
	struct fdt fdt;

	if (fdt_open(&fdt, blob, size, error))
		return PSCI_CONDUIT_NONE;
	return read_psci(&fdt);
}

int fdt_read_cpus(const void *blob, size_t size, unsigned long boot_hwid,
		  unsigned int flags, struct boot_cpus *out)
{
	char error[BOOT_ERROR_LEN];
	struct fdt fdt;
	struct cpus_reader r = { .fdt = &fdt, .boot_hwid = boot_hwid,
				 .held = flags & FDT_CPUS_HELD, .out = out };
	uint32_t len;
	const void *p;
	int err;

	memset(out, 0, sizeof(*out));
	/* cpu[0] is the boot CPU's, found or not. */
	out->nr = 1;
	out->cpu[0] = (struct cpu_desc){ .hwid = boot_hwid, .node = -1 };

	if (fdt_open(&fdt, blob, size, error)) {
		printk("%s\n", error);
		return -EINVAL;
	}
	r.cpus = find_child(&fdt, fdt.root, "cpus");
	if (r.cpus < 0) {
		printk("fdt: no /cpus node\n");
		return -ENOENT;
	}
	r.addr_cells = 2;	/* the specification's default */
	p = fdt_getprop(&fdt, r.cpus, "#address-cells", &len);
	if (p && len == 4)
		r.addr_cells = (uint32_t)fdt_read_cells(p, 1);
	if (p && (len != 4 || r.addr_cells < 1 || r.addr_cells > 2)) {
		printk("fdt: /cpus: #address-cells is not 1 or 2 (one cell "
		       "of 1 or 2 is read)\n");
		return -EINVAL;
	}
	err = read_u64_prop(&fdt, r.cpus, "timebase-frequency",
			    &out->timebase_hz);
	if (err == -EINVAL) {
		printk("fdt: /cpus: timebase-frequency is not 1 or 2 "
		       "cells\n");
		return -EINVAL;
	}
	out->psci = read_psci(&fdt);
	out->virtual_machine = read_virtual_machine(&fdt);

	for (int c = fdt_first_child(&fdt, r.cpus); c >= 0;
	     c = fdt_next_child(&fdt, c)) {
		if (!is_cpu_node(&fdt, c))
			continue;
		r.listed++;
		err = read_cpu(&r, c);
		if (err)
			return err;
	}
	if (!r.listed) {
		printk("fdt: /cpus has no CPU node\n");
		return -ENOENT;
	}
	if (!out->boot_cpu_found)
		printk("fdt: the boot CPU (hwid %#lx) is not in /cpus; it is "
		       "cpu 0 all the same\n", boot_hwid);
	return 0;
}
