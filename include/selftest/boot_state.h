/*
 * boot_state.h - what the selftests remember from before the hand-off, to
 * prove afterwards that the allocator touched none of it.
 *
 * boot_observe(BOOT_BEFORE_HANDOFF) records it once the memory map and
 * every reservation are known, just before memblock_free_all(). It takes
 * checksums of the kernel text, the boot info (DTB, multiboot2 information
 * or PVH start info) and every boot module (initrd), keeps a sorted, merged
 * copy of the reservation table boot/reserve.c recorded (independent of
 * memblock's own merging), and asks the firmware for its version.
 */
#ifndef SELFTEST_BOOT_STATE_H
#define SELFTEST_BOOT_STATE_H

#include <arch/entry.h>
#include <boot/reserve.h>
#include <lib/types.h>

#define BOOT_STATE_MAX_MODULES	4
#define BOOT_STATE_MAX_KEEP	(3 + BOOT_STATE_MAX_MODULES)

/* A range of bytes that must read the same at the end as at boot. */
struct boot_blob {
	phys_addr_t base;
	phys_addr_t size;
	uint64_t sum;
};

/* One merged reservation: [base, end). */
struct boot_span {
	phys_addr_t base;
	phys_addr_t end;
};

struct selftest_boot_state {
	bool recorded;
	enum boot_protocol proto;
	struct boot_blob text;			/* [_start, _etext) */
	struct boot_blob info;			/* DTB / MBI / start info */
	struct boot_blob modules[BOOT_STATE_MAX_MODULES];
	unsigned int nr_modules;
	unsigned int modules_unchecked;		/* beyond the array */
	struct boot_span reserved[BOOT_RESERVATIONS_MAX];
	unsigned int nr_reserved;
	/* Known here without boot/: image, stack, boot info, modules. */
	struct boot_span keep[BOOT_STATE_MAX_KEEP];
	unsigned int nr_keep;
	int firmware_err;			/* arch_firmware_version() */
	uint32_t firmware_version;
	uint64_t counter_entry;			/* arch_counter() at boot_main()'s entry */
	uint64_t record_ticks;			/* spent recording all this */
	uint64_t counter_allocator_ready;	/* after memblock_free_all() */
	uint64_t counter_smp_online;		/* after smp_init() */
};

extern struct selftest_boot_state selftest_boot_state;

/*
 * selftest_checksum - a 64-bit checksum of @size bytes at physical @base
 * (FNV-1a over 64-bit words, the tail byte by byte): any changed, moved or
 * swapped word changes it.
 */
uint64_t selftest_checksum(phys_addr_t base, phys_addr_t size);

/*
 * selftest_kept_span - the first range the selftests know must be kept
 * (kernel image, boot stack, boot info, modules) that intersects
 * [@base, @end), or NULL. Independent of the reservation list, so that a
 * reservation boot/ forgot is found too.
 */
const struct boot_span *selftest_kept_span(phys_addr_t base, phys_addr_t end);

/*
 * selftest_reserved_span - the first merged boot reservation that
 * intersects [@base, @end), or NULL when none does.
 */
const struct boot_span *selftest_reserved_span(phys_addr_t base,
					       phys_addr_t end);

#endif /* SELFTEST_BOOT_STATE_H */
