/*
 * reserve.h - reservations with reasons, and the boot-time memory report.
 *
 * Everything that is not ours is reserved through boot_reserve(), which
 * calls memblock_reserve() and records why, so that the boot log can say
 * what each reserved range is and the selftests can prove that nothing
 * handed out overlaps one. Arch code (arch_reserve_memory()) uses it too.
 */
#ifndef BOOT_RESERVE_H
#define BOOT_RESERVE_H

#include <boot/bootmem.h>

#define BOOT_RESERVATIONS_MAX	64

struct boot_reservation {
	phys_addr_t base;
	phys_addr_t size;
	bool nomap;
	char reason[BOOT_REASON_LEN];
};

/*
 * boot_reserve - memblock_reserve() [@base, @base + @size) and record
 * @reason. Warns (and still reserves: memblock keeps the union) when the
 * range overlaps one reserved before, or lies wholly or partly outside
 * memory. A size of 0 does nothing. When the table is full the range is
 * still reserved and counted as unlisted.
 * Return: 0, or memblock's error (printed).
 */
int boot_reserve(phys_addr_t base, phys_addr_t size, const char *reason);

/*
 * boot_reserve_policy - as boot_reserve(), for a reservation made by
 * policy rather than reported by the loader, which is expected to overlap
 * others or cover holes: the boot stack inside the kernel image, x86's
 * blanket low 1 MiB (arch_reserve_memory() should use this).
 * Recorded and reserved, without the overlap and outside-memory warnings.
 */
int boot_reserve_policy(phys_addr_t base, phys_addr_t size, const char *reason);

/* boot_reserve_nomap - as boot_reserve(), and mark the range no-map in
 * memblock.memory: never mapped, never handed out (DT "no-map"). */
int boot_reserve_nomap(phys_addr_t base, phys_addr_t size, const char *reason);

/*
 * The recorded reservations: in the order they were made until
 * boot_memory_print()/boot_memory_report() sorts them by base, in place.
 */
unsigned int boot_reservation_count(void);
const struct boot_reservation *boot_reservation_get(unsigned int index);
/* boot_reservations_unlisted - reserved but not recorded (table full). */
unsigned int boot_reservations_unlisted(void);

/* boot_reservations_reset - forget every record (host tests and tools). */
void boot_reservations_reset(void);

/*
 * boot_memory_print - the memory map and every reservation with its
 * reason, one per line, lowest address first:
 *   memory: [0x80000000-0x88000000) 128 MiB
 *   reserved: [0x80000000-0x80080000) 512 KiB /reserved-memory/mmode_resv0@80000000
 */
void boot_memory_print(void);

/* boot_memory_report - the same lines through @out (printk, printf). */
typedef int (*boot_print_fn)(const char *fmt, ...);
void boot_memory_report(boot_print_fn out);

#endif /* BOOT_RESERVE_H */
