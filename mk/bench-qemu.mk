# bench-qemu.mk - `make bench-qemu`: what the allocator costs inside QEMU,
# in guest instructions, repeatable run to run.
#
#= BENCH_QEMU_ARCHES="riscv64 aarch64 x86_64" targets to measure (4K pages,
#=                                           default MAX_PAGE_ORDER)
#= BENCH_MEMS="128M 1G 4G"                  guest memory sizes
#= BENCH_RUNS=2                             boots per size; the numbers of
#=                                           every run must be identical
#
# Each target is built with BENCH=1 (build/<arch>-4K-bench/: the guest
# measures instead of testing, tests/selftest/variant/bench.c) and booted with
# -icount shift=0,sleep=off, which makes the guest's counters count
# instructions. tests/selftest/bench_qemu.py collects the "bench:" lines
# into one markdown table, printed and written to build/bench-qemu/table.md;
# with PUBLISH=1 also put between the bench-qemu markers of
# docs/performance.md (a plain run leaves the tree clean).

BENCH_QEMU_ARCHES	?= riscv64 aarch64 x86_64
BENCH_MEMS	?= 128M 1G 4G
BENCH_RUNS	?= 2
BENCH_QEMU_DIR	:= $(BUILD_ROOT)/bench-qemu
BENCH_ICOUNT	:= -icount shift=0,sleep=off

KERNEL_CPPFLAGS	+= $(if $(BENCH),-DCONFIG_DEBUG_SPINLOCK=0)

.PHONY: bench-qemu

## bench-qemu: instructions per alloc+free and per boot, every target
bench-qemu:
	$(Q)python3 tests/selftest/bench_qemu.py --out $(BENCH_QEMU_DIR) \
		--targets '$(BENCH_QEMU_ARCHES)' --mems '$(BENCH_MEMS)' \
		--runs $(BENCH_RUNS) --icount '$(BENCH_ICOUNT)' \
		$(if $(PUBLISH),--doc docs/performance.md)
