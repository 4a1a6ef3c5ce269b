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
#
# The guests have one CPU (SMP=1): under -icount QEMU runs every vCPU in
# one host thread and switches between them only at virtual-time events
# (a guest timer's deadline, its periodic kick). A CPU that spins or
# sleeps until another answers (smp_init()'s check-in, on_each_cpu(), a
# contended spinlock) then waits for such a switch each time: a riscv64
# SMP=2 test image under -icount shift=0,sleep=off (sleep=on alike) had
# not finished its first on_each_cpu() (smp_every_cpu_checked_in) after
# 200 s, while the same image under -accel tcg,thread=single without
# -icount passes all 48 results in about 20 s. A guest idling by
# spinning instead of wfi stalls earlier, in smp_init(). Measure SMP
# costs without -icount.

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
