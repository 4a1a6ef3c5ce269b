/*
 * memory.c - the host fake arch's physical map: host addresses, shifted by
 * host_phys_offset (see <asm/memory.h>).
 */
#include <arch/memory.h>
#include "host.h"

uintptr_t host_phys_offset;

void host_set_phys_offset(uintptr_t offset)
{
	host_phys_offset = offset;
}

void arch_reserve_memory(void)
{
}
