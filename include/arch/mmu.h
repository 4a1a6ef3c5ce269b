/*
 * mmu.h - mapping RAM before the hand-off to the buddy allocator.
 *
 * A boot stub maps only what it must to reach boot_main() (x86_64: the
 * first 4 GiB); the memory map is known only later. Targets that run with
 * the MMU off, or map all RAM from the start, implement this as nothing.
 */
#ifndef ARCH_MMU_H
#define ARCH_MMU_H

/*
 * arch_mmu_init - map all of memblock.memory (RAM) as normal memory
 * before the hand-off, so that every page the buddy allocator hands out
 * is reachable at phys_to_virt(). Called by boot_main after memory
 * discovery and arch_reserve_memory(), before memblock_free_all().
 * Where the page tables come from is the arch's choice: x86_64 takes them
 * from memblock (running out of memory for them is a panic), aarch64 uses
 * static tables in the image, riscv64 runs with the MMU off. RAM that
 * cannot be mapped (beyond the CPU's physical or virtual address width, or
 * the static window) is reported and removed with memblock_cap_memory(),
 * so that it is never handed out.
 */
void arch_mmu_init(void);

#endif /* ARCH_MMU_H */
