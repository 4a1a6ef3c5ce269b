/*
 * cpu.c - aarch64 CPU services: the boot hand-off to boot_main() and
 * poweroff.
 */
#include <arch/cpu.h>
#include <arch/entry.h>
#include <arch/memory.h>
#include <arch/poweroff.h>
#include <boot/abi.h>
#include <boot/efi.h>
#include <lib/errno.h>
#include "platform.h"
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
 * aarch64_boot - called by entry.S at EL1 on the boot stack once BSS is
 * clear. An ELF boot hands over x0 = 0; QEMU then left the DTB at the
 * start of RAM, which holds the FDT magic if so. The EFI entry
 * (efi_stub.c) hands over the EFI boot information instead of a DTB.
 */
void aarch64_boot(phys_addr_t dtb)
{
	const volatile uint32_t *ram = phys_to_virt(VIRT_RAM_BASE);

	if (dtb && *(const volatile uint32_t *)phys_to_virt(dtb) ==
	    EFI_BOOT_INFO_MAGIC)
		boot_main(BOOT_PROTO_EFI, dtb,
			  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
	if (!dtb && __builtin_bswap32(*ram) == FDT_MAGIC)
		dtb = VIRT_RAM_BASE;
	boot_main(dtb ? BOOT_PROTO_FDT : BOOT_PROTO_NONE, dtb,
		  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
}
