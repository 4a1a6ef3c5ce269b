/*
 * cpu.c - aarch64 CPU services: the boot hand-off to boot_main() and
 * poweroff.
 */
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <boot/abi.h>
#include <boot/cpus.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <lib/errno.h>
#include "image.h"
#include "psci.h"
#include "sysreg.h"


void aarch64_boot(phys_addr_t dtb) __noreturn;
void aarch64_poweroff(unsigned long code) __noreturn;

void arch_poweroff(enum poweroff_status status)
{
	aarch64_poweroff(status == POWEROFF_PASS ? QEMU_EXIT_PASS
						 : QEMU_EXIT_FAIL);
}

/*
 * Where a loader that passes no DTB in x0 left one: QEMU's -kernel with
 * an ELF (x0 = 0) puts it at the start of the RAM the image is loaded
 * into, which is where the image's text_offset (2 MiB, entry.S) counts
 * from, so 2 MiB below _start (on virt, the start of its RAM; a board's
 * build puts its DTB there with QEMU's loader device the same way).
 * Derived from where the image runs, never a board's constant.
 */
static phys_addr_t dtb_below_image(void)
{
	phys_addr_t base = virt_to_phys(_start);

	if (base < IMAGE_TEXT_OFFSET)
		return 0;
	base -= IMAGE_TEXT_OFFSET;
	if (__builtin_bswap32(*(const volatile uint32_t *)phys_to_virt(base)) !=
	    FDT_MAGIC)
		return 0;
	return base;
}

/*
 * The PSCI conduit from the start, as the device tree's /psci names it:
 * a firmware call before smp_init() (the firmware version, a power-off)
 * must not guess. An smc where nothing sits at EL3 (the Raspberry Pi 3 is
 * entered at EL2 with an EL3 that holds no firmware) never returns.
 * Written before boot_main(): .data, not BSS (psci.h).
 */
static void set_psci_conduit(phys_addr_t dtb)
{
	const void *blob = phys_to_virt(dtb);
	enum psci_conduit c;

	if (__builtin_bswap32(*(const volatile uint32_t *)blob) != FDT_MAGIC)
		return;
	c = fdt_read_psci(blob, fdt_header_totalsize(blob));
	aarch64_psci_conduit = c == PSCI_CONDUIT_NONE ? AARCH64_PSCI_ABSENT
						      : (unsigned int)c;
}

/*
 * aarch64_boot - called by entry.S at EL1 on the boot stack once BSS is
 * clear. An ELF boot hands over x0 = 0: see dtb_below_image(). The EFI
 * entry (efi_stub.c) hands over the EFI boot information instead of a
 * DTB.
 */
void aarch64_boot(phys_addr_t dtb)
{
	if (dtb && *(const volatile uint32_t *)phys_to_virt(dtb) ==
	    EFI_BOOT_INFO_MAGIC)
		boot_main(BOOT_PROTO_EFI, dtb,
			  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
	if (!dtb)
		dtb = dtb_below_image();
	if (dtb)
		set_psci_conduit(dtb);
	boot_main(dtb ? BOOT_PROTO_FDT : BOOT_PROTO_NONE, dtb,
		  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
}
