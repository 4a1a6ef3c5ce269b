/*
 * acpi_fadt.c - what the FADT (signature "FACP", ACPI 6.5, 5.2.9) says
 * about starting CPUs on Arm: its ARM boot architecture flags; and, on
 * any machine, whether a hypervisor says it made the tables.
 *
 *   header (36 bytes) ... 129 u16 ARM_BOOT_ARCH  131 u8 FADT minor version
 *   ... 268 u64 Hypervisor Vendor Identity (ACPI 6.0 and later: 276 bytes)
 *   ARM_BOOT_ARCH: bit 0 PSCI compliant, bit 1 PSCI calls use HVC
 *   (else SMC). The field exists from ACPI 5.1 on (FADT revision 5,
 *   minor version 1): a shorter FADT has none. The hypervisor's identity
 *   is zero on bare metal; QEMU writes "QEMU".
 *
 * The conduit is the device tree's /psci "method" in ACPI's words: the
 * MADT's GICC entries say which CPUs there are, this says how to call
 * the firmware that starts them. A FADT that is missing, malformed or too
 * short, or that does not claim PSCI, gives no conduit: the CPUs are
 * listed, and the arch refuses to start them with a message, as for a
 * device tree without /psci.
 */
#include <boot/acpi.h>
#include <boot/cpus.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>

#define FADT_ARM_BOOT_ARCH	129u
#define FADT_ARM_BOOT_END	131u	/* the field's end: the least length */
#define ARM_PSCI_COMPLIANT	(1u << 0)
#define ARM_PSCI_USE_HVC	(1u << 1)
#define FADT_HYPERVISOR_ID	268u
#define FADT_HYPERVISOR_END	276u

/* The conduit the ARM boot flags of the FADT @fadt (@len bytes) name. */
static enum psci_conduit fadt_psci(const uint8_t *fadt, uint32_t len)
{
	unsigned int flags;

	if (len < FADT_ARM_BOOT_END) {
		printk("acpi: FADT of %u bytes has no ARM boot flags (ACPI 5.1 "
		       "and later, %u bytes): no PSCI conduit\n", len,
		       FADT_ARM_BOOT_END);
		return PSCI_CONDUIT_NONE;
	}
	flags = fadt[FADT_ARM_BOOT_ARCH] | (unsigned int)fadt[FADT_ARM_BOOT_ARCH + 1] << 8;
	if (!(flags & ARM_PSCI_COMPLIANT)) {
		printk("acpi: FADT ARM boot flags %#x: not PSCI compliant, no "
		       "PSCI conduit\n", flags);
		return PSCI_CONDUIT_NONE;
	}
	return flags & ARM_PSCI_USE_HVC ? PSCI_CONDUIT_HVC : PSCI_CONDUIT_SMC;
}

/* Whether the FADT @fadt (@len bytes) names a hypervisor's vendor. */
static const char *fadt_hypervisor(const uint8_t *fadt, uint32_t len)
{
	static const uint8_t none[FADT_HYPERVISOR_END - FADT_HYPERVISOR_ID];

	if (len < FADT_HYPERVISOR_END ||
	    !memcmp(&fadt[FADT_HYPERVISOR_ID], none, sizeof(none)))
		return NULL;
	return "ACPI FADT: a hypervisor vendor identity";
}

void acpi_fadt_cpus(struct acpi_tables *t, bool gicc, struct boot_cpus *out)
{
	const uint8_t *fadt;
	uint32_t len;
	int err;

	err = acpi_find_table(t, "FACP", 0, &fadt, &len);
	if (err && gicc)
		printk("acpi: %s: no PSCI conduit for the MADT's GICC CPUs\n",
		       err == -ENOENT ? "no FADT" : t->error);
	if (gicc)
		out->psci = err ? PSCI_CONDUIT_NONE : fadt_psci(fadt, len);
	out->virtual_machine = err ? NULL : fadt_hypervisor(fadt, len);
}
