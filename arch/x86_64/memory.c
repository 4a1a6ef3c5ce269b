/*
 * memory.c - what only the PC knows must never be handed out.
 *
 * Policy: nothing below 1 MiB is ever given to the allocator. That range
 * holds the real-mode interrupt vector table and BIOS data area (page 0),
 * the extended BIOS data area below 640 KiB (its size is only a BIOS
 * convention, and firmware keeps using it), the VGA window and the option
 * and BIOS ROMs (0xa0000-0xfffff), and whatever tables the firmware or
 * the loader left there (QEMU's PVH ROM puts hvm_start_info there). Linux
 * reserves most of it for the same reasons (Linux's arch/x86/kernel/setup.c,
 * trim_low_memory_range and the EBDA reservation) and keeps page 0
 * reserved always. Under 1 MiB of a machine with gigabytes is not worth
 * a single wrong guess, so all of it stays reserved.
 *
 * One page of it is buddyboot's own: the SMP trampoline, where secondary
 * CPUs start in real mode (a SIPI names a page below 1 MiB). It is taken
 * first, as Linux's reserve_real_mode() does: the highest RAM page below
 * 640 KiB that no boot information occupies (the loader's structures are
 * reserved before this runs), so nothing the firmware or the loader left
 * is overwritten when the trampoline is copied there.
 */
#include <arch/memory.h>
#include <boot/reserve.h>
#include <lib/printk.h>
#include <mm/memblock.h>
#include "x86_64.h"

#define LOW_MEMORY_END	 0x100000 /* 1 MiB */
#define TRAMPOLINE_LOW	 0x1000	  /* above the IVT and BIOS data area */
#define TRAMPOLINE_HIGH	 0xa0000  /* below the VGA window and ROMs */

phys_addr_t x86_trampoline_page;

void arch_reserve_memory(void)
{
	x86_trampoline_page = memblock_phys_alloc_range(
		X86_TRAMPOLINE_SIZE, X86_TRAMPOLINE_SIZE, TRAMPOLINE_LOW,
		TRAMPOLINE_HIGH);
	if (x86_trampoline_page)
		pr_info("x86_64: SMP trampoline page at %#llx (reserved, "
			"inside the low 1 MiB)\n",
			(unsigned long long)x86_trampoline_page);
	else
		pr_warn("x86_64: no free RAM page below 640 KiB for the SMP "
			"trampoline: secondary CPUs cannot be started\n");
	boot_reserve_policy(0, LOW_MEMORY_END,
			    "low 1 MiB (real-mode area, BIOS)");
}
