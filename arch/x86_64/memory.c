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
 */
#include <arch/memory.h>
#include <boot/reserve.h>

#define LOW_MEMORY_END 0x100000 /* 1 MiB */

void arch_reserve_memory(void)
{
	boot_reserve_policy(0, LOW_MEMORY_END,
			    "low 1 MiB (real-mode area, BIOS)");
}
