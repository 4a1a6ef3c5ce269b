# buddyboot - a bare-metal buddy page allocator for riscv64, aarch64 and x86_64.
#
# One entry point for everything: `make help` lists the targets and variables.
# The pieces live in mk/*.mk (one concern each) and arch/<arch>/arch.mk.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

#= V=1           show the full commands
Q := $(if $(V),,@)

# Lists the mk files add to, each file at its turn: simple variables, so
# that an addition is expanded when made, and the order below is the whole
# story. (Recursive variables, which a recipe reads when it runs, may name
# what a later file defines.)
TEST_SUITES	:=
TEST_PREREQS	:=
QEMU_PREREQS	:=
HOST_PACKAGES	:=
BOOTS		:=

# The mk files, in the order they are read; each may use what the ones
# before it define:
#   config      which configuration is built, and where (ARCH, PAGE_SIZE, ...);
#               it reads boards/$(ARCH)/$(BOARD).mk, the board (QEMU machine,
#               early console, device tree), before arch.mk
#   arch.mk     arch/$(ARCH)/arch.mk: the target's compiler, QEMU, defaults
#   deps        the package lists (others add to HOST_PACKAGES, RUN_PACKAGES)
#   kernel      the kernel image of this configuration
#   host        libmm.a and the host tests (LIBMM_SRCS, HOST_CFLAGS, ...)
#   memmap      the boot readers on the host, built with host's variants
#   selftest    what the in-QEMU selftests need besides the image
#   bench       host benchmarks (links host's libmm.a, LIBMM_SRCS)
#   bench-qemu  instruction counts in QEMU
#   qemu        QEMU_CMD, make run and make debug (QEMU_MIN_MEM_MIB)
#   uboot, grub, efi   boot paths: each adds to BOOTS and may change the
#               QEMU command and its least memory, so after qemu
#   check       static checks (adds suites and packages)
#   test        make test: every suite registered above
#   help        make help, generated from all of the above
# Any other mk/*.mk is read after these, in name order: a new file goes
# into this list where what it uses is defined.
include mk/config.mk
include arch/$(ARCH)/arch.mk
MK_ORDER	:= mk/deps.mk mk/kernel.mk mk/host.mk mk/memmap.mk \
		   mk/selftest.mk mk/bench.mk mk/bench-qemu.mk mk/qemu.mk \
		   mk/uboot.mk mk/grub.mk mk/efi.mk mk/check.mk mk/test.mk \
		   mk/help.mk
include $(wildcard $(MK_ORDER))
include $(filter-out mk/config.mk $(MK_ORDER),$(sort $(wildcard mk/*.mk)))

.PHONY: all image clean distclean

## all: build the kernel image for ARCH/PAGE_SIZE/MAX_PAGE_ORDER (also: image)
all image: $(KERNEL_ELF) $(ARCH_IMAGES) $(BOARD_IMAGES)
	@echo "  BUILT   $(BUILD_DIR)"

## clean: remove build/
clean:
	rm -rf $(BUILD_ROOT)

distclean: clean
