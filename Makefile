# buddyboot - a bare-metal buddy page allocator for riscv64, aarch64 and x86_64.
#
# One entry point for everything: `make help` lists the targets and variables.
# The pieces live in mk/*.mk (one concern each) and arch/<arch>/arch.mk.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

Q := $(if $(V),,@)

include mk/config.mk
include arch/$(ARCH)/arch.mk
include mk/kernel.mk
include $(filter-out mk/config.mk mk/kernel.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: all image help clean distclean

## all: build the kernel image for ARCH/PAGE_SIZE/MAX_PAGE_ORDER
all image: $(KERNEL_ELF) $(ARCH_IMAGES)
	@echo "  BUILT   $(BUILD_DIR)"

help:
	@echo 'buddyboot - a buddy page allocator that boots on riscv64, aarch64 and x86_64'
	@echo
	@echo 'Quick start:'
	@echo '  make run            boot the default target in QEMU, show selftests and allocator state'
	@echo '  make test           install what is missing, then run every test (host, QEMU matrix, runner)'
	@echo
	@echo 'Targets:'
	@echo '  all / image         build the kernel for one configuration into build/<config>/'
	@echo '  run                 build and boot one configuration headless; exit status is the verdict'
	@echo '  debug               boot paused with a gdb stub on :1234 and print the gdb-multiarch command'
	@echo '  test                everything below, summed into one "N passed, N failed" line'
	@echo '  test-qemu           only the QEMU boot matrix (tests/matrix.txt)'
	@echo '  check-runner        prove the runner fails images that fail, hang, fault or stop early'
	@echo '  host                build/host/libmm.a and build/host/memmap from the kernel sources'
	@echo '  check-dtb DTB=f...  check memmap --regions on any device tree against dtc'"'"'s reading'
	@echo '  test-host           host unit, model and fuzz tests under ASan and UBSan'
	@echo '  check               coccinelle checks for the MAX_PAGE_ORDER bug patterns; mm/ builds freestanding'
	@echo '  fuzz                run the libFuzzer targets longer (FUZZ_SECONDS=n, default 60)'
	@echo '  bench               host benchmarks against glibc, jemalloc and mimalloc (QUICK=1: short)'
	@echo '  bench-qemu          deterministic instruction counts per operation, per target (-icount)'
	@echo '  deps                install missing Debian packages (as root), or print the apt-get line'
	@echo '  clean               remove build/'
	@echo
	@echo 'Variables:'
	@echo '  ARCH=riscv64|aarch64|x86_64      target (default riscv64)'
	@echo '  PAGE_SIZE=4K|16K|64K             page size; 16K and 64K on aarch64 only (default 4K)'
	@echo '  MAX_PAGE_ORDER=n                 largest buddy order, inclusive (default per target, see docs)'
	@echo '  MEM=128M SMP=1 QEMU_EXTRA="..."  for run/debug: memory, CPUs, extra QEMU options'
	@echo '  NR_CPUS=64                       the most CPUs used; more stay parked'
	@echo '  BOOT_HART=n LOTTERY=1            riscv64: boot on hart n; secondaries enter at _start'
	@echo '  BOOT=direct|uboot|grub|efi       load with -kernel, U-Boot (riscv64, aarch64), GRUB or UEFI firmware (x86_64)'
	@echo '  V=1                              show full commands'
	@echo
	@echo 'Example: make run ARCH=aarch64 PAGE_SIZE=16K MAX_PAGE_ORDER=13 MEM=1G SMP=2'

clean:
	rm -rf $(BUILD_ROOT)

distclean: clean
