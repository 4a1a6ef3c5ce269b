/*
 * platform.h - the board, as its description says: the platform layer
 * between arch/ (the CPU) and boot/ (the formats).
 *
 * arch/ knows no board. What differs from board to board - the console
 * UART, the firmware's exit device - is read from the device tree the
 * loader passed (or, before it is read, taken from the build's EARLYCON),
 * never from a constant. docs/porting.md has the whole story.
 */
#ifndef PLATFORM_PLATFORM_H
#define PLATFORM_PLATFORM_H

#include <arch/entry.h>
#include <lib/types.h>

/*
 * platform_init - read the board's device tree, if the boot information
 * leads to one: choose the console (<platform/console.h>) and the exit
 * device. Called once by boot_main() on the boot CPU, after
 * console_early_init() and the banner, before anything else reads the boot information. A
 * missing or unreadable device tree is reported and leaves the early
 * console; boot_memory_init() then refuses the boot with its own reason.
 */
void platform_init(enum boot_protocol proto, phys_addr_t info);

/*
 * The sifive_test "finisher" ("sifive,test0"/"sifive,test1" in the device
 * tree; QEMU's riscv64 boards): a 32-bit write of (code << 16) | 0x3333
 * makes QEMU exit with status code. 0 while there is none (before the
 * device tree is read, or on a board without one): the arch's poweroff
 * then goes to firmware. Read by arch/riscv64/poweroff.S.
 */
extern uint64_t platform_test_finisher;

/*
 * platform_poweroff_notice - for an arch's poweroff on a board without an
 * exit device: say the verdict on the console, in the one line the test
 * runner ends such a run on ("poweroff: PASS; no exit device ...",
 * tests/runner/verdict.py), before the firmware is asked to power off.
 */
void platform_poweroff_notice(bool pass);

#endif /* PLATFORM_PLATFORM_H */
