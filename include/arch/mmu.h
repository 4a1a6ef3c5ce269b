/*
 * mmu.h - address translation: all RAM identity-mapped, caches on.
 *
 * Every target runs with virtual == physical for RAM (<asm/memory.h> stays
 * a cast). Where the stub cannot leave translation as the loader left it,
 * arch_mmu_init() builds that map: aarch64 turns on the MMU and caches
 * with RAM Normal write-back and MMIO Device memory. riscv64 runs in Bare
 * mode (satp = 0) and x86_64's stub already built its long-mode tables:
 * there it does nothing.
 */
#ifndef ARCH_MMU_H
#define ARCH_MMU_H

/*
 * arch_mmu_init - turn translation and caches on, identity-mapped. Call
 * once, from boot_main() on the boot CPU, after arch_console_init() (a
 * refusal is printed) and after boot_main() has checked that BSS was
 * clear (the tables may live in BSS), before the memory map is read.
 * Refuses with a PANIC (and a FAIL poweroff) when the CPU cannot translate
 * with the build's page size.
 */
void arch_mmu_init(void);

#endif /* ARCH_MMU_H */
