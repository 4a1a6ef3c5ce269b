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
#include "psci.h"
#include "sysreg.h"


void aarch64_boot(phys_addr_t dtb) __noreturn;
void aarch64_poweroff(unsigned long code) __noreturn;

void arch_poweroff(enum poweroff_status status)
{
	aarch64_poweroff(status == POWEROFF_PASS ? QEMU_EXIT_PASS
						 : QEMU_EXIT_FAIL);
}

/* entry.S's Image header: an Image sits text_offset above a 2 MiB-aligned
 * start of RAM, and the ELF is linked to keep that (linker/image.lds.S). */
#define IMAGE_TEXT_OFFSET	0x200000

/*
 * aarch64_boot - called by entry.S at EL1 on the boot stack once BSS is
 * clear. An ELF boot hands over x0 = 0; QEMU then left the DTB at the
 * start of RAM, the 2 MiB block text_offset below the image, which holds
 * the FDT magic if so: found from where the image runs, not from a
 * machine's address. The EFI entry (efi_stub.c) hands over the EFI boot
 * information instead of a DTB.
 */
void aarch64_boot(phys_addr_t dtb)
{
	phys_addr_t image = ALIGN_DOWN(virt_to_phys(_start), IMAGE_TEXT_OFFSET);
	phys_addr_t ram = image - IMAGE_TEXT_OFFSET;

	if (dtb && *(const volatile uint32_t *)phys_to_virt(dtb) ==
	    EFI_BOOT_INFO_MAGIC)
		boot_main(BOOT_PROTO_EFI, dtb,
			  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
	if (!dtb && image >= IMAGE_TEXT_OFFSET &&
	    __builtin_bswap32(*(const volatile uint32_t *)phys_to_virt(ram)) ==
	    FDT_MAGIC)
		dtb = ram;
	boot_main(dtb ? BOOT_PROTO_FDT : BOOT_PROTO_NONE, dtb,
		  read_sysreg(mpidr_el1) & MPIDR_AFFINITY_MASK);
}
