# kernel.mk - building the bare-metal image for one configuration.
#
# The arch's arch.mk has set CROSS_COMPILE, ARCH_CFLAGS, ARCH_LDFLAGS and
# ARCH_SRCS. Everything else is common: the same lib/, boot/, mm/ and smp/
# on every target.
#
# By default an image is a test image (`make run` shows the selftests): the
# product sources above plus the test harness (lib/selftest/), the cases
# (tests/selftest/*.c, and tests/selftest/arch/<arch>/ for one target's) and
# one variant of the boot flow's hook boot_selftests() (boot/selftests.h):
#   default          tests/selftest/variant/selftests.c
#   FAULT=<kind>     tests/selftest/fault/<kind>.c as one more case, or, for
#                    a kind that replaces the verdict,
#                    tests/selftest/variant/<kind>.c
#   BENCH=1          tests/selftest/variant/bench.c
# The product sources include nothing from tests/ (make check-paths).
# SELFTESTS=0 builds the product alone, with boot/variant/product.c as the
# hooks; make check builds it and finds no test symbol in it.

#= CROSS_COMPILE=<prefix>  the kernel's cross toolchain (default per target:
#=                riscv64-linux-gnu-, aarch64-linux-gnu-, none on x86_64 hosts)
CC		:= $(CROSS_COMPILE)gcc
OBJCOPY		:= $(CROSS_COMPILE)objcopy
OBJDUMP		:= $(CROSS_COMPILE)objdump
NM		:= $(CROSS_COMPILE)nm

# platform/ and drivers/: the board layer (console, exit device) and the
# device drivers it chooses from, the same on every kernel port.
COMMON_SRCS	:= $(sort $(wildcard lib/*.c boot/*.c mm/*.c smp/*.c platform/*.c \
		     drivers/*/*.c))
FAULT_FILE	:= $(subst -,_,$(FAULT))
SELFTEST_VARIANT := $(if $(BENCH),bench,$(if $(wildcard tests/selftest/variant/$(FAULT_FILE).c),$(FAULT_FILE),selftests))
# The arch's test services (include/arch/test_services.h): test images only.
ARCH_TEST_SRCS	:= $(wildcard arch/$(ARCH)/test_services.c)
ifeq ($(SELFTESTS),0)
SELFTEST_SRCS	:= boot/variant/product.c
else
SELFTEST_SRCS	:= $(ARCH_TEST_SRCS) \
		   $(sort $(wildcard lib/selftest/*.c tests/selftest/*.c \
		     tests/selftest/arch/$(ARCH)/*.c \
		     tests/selftest/arch/$(ARCH)/*.S)) \
		   tests/selftest/variant/$(SELFTEST_VARIANT).c \
		   $(if $(FAULT),$(wildcard tests/selftest/fault/$(FAULT_FILE).c))
endif
KERNEL_SRCS	:= $(COMMON_SRCS) $(filter-out $(ARCH_TEST_SRCS),$(ARCH_SRCS)) \
		   $(SELFTEST_SRCS)
# The one source a board changes: the early console the image knows
# (CONFIG_EARLYCON). Its object is this configuration's own (BUILD_DIR);
# every other is compiled once into OBJ_DIR, which the boards of a port
# share (mk/config.mk).
BOARD_SRCS	:= platform/console.c
KERNEL_OBJS	:= $(patsubst %,$(OBJ_DIR)/%.o,$(basename $(filter-out $(BOARD_SRCS),$(KERNEL_SRCS)))) \
		   $(patsubst %,$(BUILD_DIR)/%.o,$(basename $(BOARD_SRCS)))
# The linker script: the port's own arch/<arch>/image.lds.S if it has one
# (x86_64), else the shared template linker/image.lds.S with the port's
# arch/<arch>/image.lds.h; both use linker/sections.lds.h. Preprocessed
# with no predefined macros (riscv, i386 and linux are words there).
LINKER_TEMPLATE	:= $(firstword $(wildcard arch/$(ARCH)/image.lds.S) linker/image.lds.S)
LINKER_SCRIPT	:= $(BUILD_DIR)/image.lds

# -nostdinc keeps the host's /usr/include out; the compiler's own directory
# still gives the freestanding headers (stdint.h, stddef.h, stdarg.h, ...).
# Debian's cross compilers predefine __linux__, which freestanding code must
# not see.
KERNEL_CPPFLAGS	:= -nostdinc -isystem $(shell $(CC) -print-file-name=include 2>/dev/null) \
		   -Iinclude -Iarch/$(ARCH)/include -Iarch/$(ARCH) \
		   -U__linux__ -Ulinux -D__buddyboot__ \
		   -DCONFIG_ARCH_NAME='"$(ARCH)"' \
		   -DCONFIG_PAGE_SHIFT=$(PAGE_SHIFT) \
		   -DCONFIG_NR_CPUS=$(NR_CPUS) \
		   $(if $(MAX_PAGE_ORDER),-DCONFIG_MAX_PAGE_ORDER=$(MAX_PAGE_ORDER)) \
		   $(if $(SLAB_DEBUG),-DCONFIG_SLAB_DEBUG=1) \
		   $(if $(SPINLOCK_WAIT),-DCONFIG_SPINLOCK_WAIT=SPINLOCK_WAIT_$(if $(filter tas,$(SPINLOCK_WAIT)),TAS,TICKET))
KERNEL_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wundef \
		   -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
		   -ffreestanding -fno-builtin -fno-stack-protector -fno-pie \
		   -fno-common -fno-strict-aliasing -fno-omit-frame-pointer \
		   $(ARCH_CFLAGS)
KERNEL_ASFLAGS	:= -D__ASSEMBLY__ $(ARCH_ASFLAGS)
KERNEL_LDFLAGS	:= -nostdlib -static -no-pie -Wl,--build-id=none \
		   -Wl,-T,$(LINKER_SCRIPT) -Wl,-Map,$(BUILD_DIR)/buddyboot.map \
		   $(ARCH_LDFLAGS)

# One object, C or assembly: $(1) the line's tag, $(2) the flags only
# these objects take (after the common ones).
define kernel_cc
	@mkdir -p $(dir $@)
	$(Q)printf '  %-8s%s\n' '$(1)' '$@'
	$(Q)$(CC) $(KERNEL_CPPFLAGS) $(KERNEL_CFLAGS) $(2) -MMD -MP -c $< -o $@
endef

# The board file names the early console (BOARD_EARLYCON): an edit there
# rebuilds the one object that holds it.
$(BUILD_DIR)/platform/console.o: platform/console.c boards/$(ARCH)/$(BOARD).mk
	$(call kernel_cc,CC,-DCONFIG_EARLYCON='"$(EARLYCON)"')

$(OBJ_DIR)/%.o: %.c
	$(call kernel_cc,CC,)

$(OBJ_DIR)/%.o: %.S
	$(call kernel_cc,AS,$(KERNEL_ASFLAGS))

$(LINKER_SCRIPT): $(LINKER_TEMPLATE) linker/sections.lds.h \
		  $(wildcard arch/$(ARCH)/image.lds.h) boards/$(ARCH)/$(BOARD).mk
	@mkdir -p $(dir $@)
	$(Q)echo "  LDS     $@"
	$(Q)$(CC) -E -P -undef -x c -Iarch/$(ARCH) -Ilinker \
		$(if $(BOARD_LINK_ADDRESS),-DIMAGE_LINK_ADDRESS=$(BOARD_LINK_ADDRESS)) -o $@ $<

$(KERNEL_ELF): $(KERNEL_OBJS) $(LINKER_SCRIPT)
	$(Q)echo "  LD      $@"
	$(Q)$(CC) $(KERNEL_CFLAGS) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) -lgcc

-include $(KERNEL_OBJS:.o=.d)

# For scripts (scripts/lint/check-product.sh): this configuration's folder,
# and the object tree it shares (OBJ_DIR, mk/config.mk).
print-build-dir:
	$(info $(BUILD_DIR))
	@:

print-obj-dir:
	$(info $(OBJ_DIR))
	@:
