# config.mk - which configuration is being built, and where it goes.
# Lines "#= " are the variables of `make help` (mk/help.mk).
#
#= ARCH=riscv64|aarch64|x86_64   target (default riscv64)
#= PAGE_SIZE=4K|16K|64K          page size; 16K and 64K on aarch64 only
#= MAX_PAGE_ORDER=n              largest buddy order; default from the arch's
#=                               <asm/geometry.h>, checked at compile time
#= FAULT=fail|hang|exception|early-poweroff|secondary-exception|
#=       nested-exception
#=                               build an image that misbehaves on purpose,
#=                               for the runner's own test (check-runner)
#= BENCH=1                       build an image that measures instead of
#=                               testing, for `make bench-qemu`
#= SELFTESTS=0                   build the product alone: no test harness,
#=                               no cases (every other image is a test
#=                               image; make check builds this one too)
#= LOTTERY=1                     riscv64: start every secondary hart at the
#=                               image's entry, as a loader that releases
#=                               all harts at once does, so that each loses
#=                               the boot lottery and must find its way
#=                               from there (arch/riscv64/smp.c)
#= NR_CPUS=n                     the most CPUs buddyboot runs on (default
#=                               64, 1..1024): CONFIG_NR_CPUS; CPUs beyond
#=                               it stay parked
#= SLAB_DEBUG=1                  red zones and poison in the slab allocator
#=                               (docs/allocator.md, section 8)
#= SPINLOCK_WAIT=ticket|tas      how a CPU waits for a busy spinlock,
#=                               whatever the machine looks like (default:
#=                               chosen at boot, test-and-set on virtual
#=                               CPUs, tickets on bare metal; see
#=                               include/smp/spinlock.h)
#= BOARD=name                    the machine booted: boards/<arch>/<name>.mk
#=                               (default: the arch.mk's DEFAULT_BOARD;
#=                               `make print-boards` lists a target's)
#= EARLYCON=<driver>,[io,|mmio32,]<addr>[,<baud>]
#=                               the console before the device tree is read,
#=                               as Linux's earlycon (default: the board's,
#=                               e.g. ns16550a,0x10000000 on riscv64 virt;
#=                               riscv64: sbi, no address, through OpenSBI;
#=                               EARLYCON= for none: the text is kept and
#=                               replayed on the device tree's console)
#
# Each configuration builds into its own folder under build/, so that any
# number of them sit side by side.

# A target is a folder with an arch.mk; a board, a file under boards/.
ARCHES		:= $(patsubst arch/%/arch.mk,%,$(sort $(wildcard arch/*/arch.mk)))
ARCH		?= riscv64
PAGE_SIZE	?= 4K
MAX_PAGE_ORDER	?=
FAULT		?=
BENCH		?=
SELFTESTS	?= 1
SLAB_DEBUG	?=
SPINLOCK_WAIT	?=
NR_CPUS		?= 64
LOTTERY		?=
EFI_DUMP	?=
FAULTS		:= fail hang exception early-poweroff secondary-exception \
		   nested-exception

# Switches: 1 turns one on; 0, or nothing, leaves it off (SLAB_DEBUG=0 is
# off, not a build of its own); any other value is said here.
define config_switch
ifneq ($$(filter-out 0 1,$$($(1))),)
$$(error $(1)=$$($(1)) is not a switch; write $(1)=1 to turn it on, or $(1)=0 (or leave it out) for off)
endif
override $(1) := $$(filter 1,$$($(1)))
endef
$(foreach v,BENCH SLAB_DEBUG LOTTERY EFI_DUMP,$(eval $(call config_switch,$(v))))

ifeq ($(filter $(ARCH),$(ARCHES)),)
$(error ARCH=$(ARCH) is not a target; choose one of: $(ARCHES))
endif

# The board: its QEMU machine, its early console, the device tree it boots
# with (boards/<arch>/<board>.mk). Read before arch.mk, which builds on it.
arch_mk_value	= $(shell sed -n 's/^$(2)[[:space:]]*:=[[:space:]]*//p' arch/$(1)/arch.mk)
DEFAULT_BOARD	:= $(call arch_mk_value,$(ARCH),DEFAULT_BOARD)
BOARD		?= $(DEFAULT_BOARD)
BOARDS		:= $(patsubst boards/$(ARCH)/%.mk,%,$(sort $(wildcard boards/$(ARCH)/*.mk)))
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error BOARD=$(BOARD) is not a board of $(ARCH); choose one of: $(BOARDS))
endif
BUILD_ROOT	:= build
include boards/$(ARCH)/$(BOARD).mk
EARLYCON	?= $(BOARD_EARLYCON)
# The image differs only by its early console; a board's own folder keeps
# its images apart anyway.
earlycon_name	= $(if $(EARLYCON),$(subst $(comma),-,$(EARLYCON)),none)
comma		:= ,

page_shift_4K	:= 12
page_shift_16K	:= 14
page_shift_64K	:= 16
PAGE_SHIFT	:= $(page_shift_$(PAGE_SIZE))
ifeq ($(PAGE_SHIFT),)
$(error PAGE_SIZE=$(PAGE_SIZE) is not a page size; choose 4K, 16K or 64K)
endif
# Each target's page sizes are its arch.mk's PAGE_SIZES.
ifeq ($(filter $(PAGE_SIZE),$(call arch_mk_value,$(ARCH),PAGE_SIZES)),)
$(error PAGE_SIZE=$(PAGE_SIZE) is not available on $(ARCH): its page sizes are $(call arch_mk_value,$(ARCH),PAGE_SIZES))
endif

# Decimal digits only, without a leading zero: the compiler would read 010
# as octal (order 8) and refuse 09, and the build folder would be misnamed.
ifneq ($(MAX_PAGE_ORDER),)
ifneq ($(shell echo '$(MAX_PAGE_ORDER)' | grep -Ex '0|[1-9][0-9]*'),$(MAX_PAGE_ORDER))
$(error MAX_PAGE_ORDER=$(MAX_PAGE_ORDER) is not a decimal number; write the order in decimal digits without a leading zero, e.g. MAX_PAGE_ORDER=10)
endif
endif

# As MAX_PAGE_ORDER: the compiler would read NR_CPUS=010 as 8.
ifneq ($(shell echo '$(NR_CPUS)' | grep -Ex '[1-9][0-9]*'),$(NR_CPUS))
$(error NR_CPUS=$(NR_CPUS) is not a decimal number; write it in decimal digits without a leading zero, e.g. NR_CPUS=64)
endif

ifneq ($(SELFTESTS),$(filter $(SELFTESTS),0 1))
$(error SELFTESTS=$(SELFTESTS): write 1 for a test image (the default) or 0 for the product alone)
endif
ifeq ($(SELFTESTS)-$(if $(FAULT)$(BENCH),variant),0-variant)
$(error SELFTESTS=0 builds an image without tests; FAULT= and BENCH= are test images)
endif

ifneq ($(SPINLOCK_WAIT),$(filter $(SPINLOCK_WAIT),ticket tas))
$(error SPINLOCK_WAIT=$(SPINLOCK_WAIT) is not a way to wait; write ticket or tas, or leave it out for the choice at boot)
endif

ifneq ($(FAULT),)
ifeq ($(filter $(FAULT),$(FAULTS)),)
$(error FAULT=$(FAULT) is not a fault kind; choose one of: $(FAULTS))
endif
endif

# The variables that change how every object compiles, as the name's
# part: what the objects' tree (OBJ_DIR, below) is named by.
FLAGS_NAME	:= $(if $(MAX_PAGE_ORDER),-order$(MAX_PAGE_ORDER))$(if $(filter-out 64,$(NR_CPUS)),-cpus$(NR_CPUS))$(if $(LOTTERY),-lottery)$(if $(BENCH),-bench)$(if $(SLAB_DEBUG),-slabdebug)$(if $(SPINLOCK_WAIT),-spin$(SPINLOCK_WAIT))$(if $(EFI_DUMP),-efidump)
CONFIG_NAME	:= $(ARCH)-$(PAGE_SIZE)$(if $(filter-out $(DEFAULT_BOARD),$(BOARD)),-$(BOARD))$(if $(filter-out $(BOARD_EARLYCON),$(EARLYCON))$(if $(EARLYCON),,$(BOARD_EARLYCON)),-earlycon-$(earlycon_name))$(FLAGS_NAME)$(if $(FAULT),-fault-$(FAULT))$(if $(filter 0,$(SELFTESTS)),-product)
BUILD_DIR	:= $(BUILD_ROOT)/$(CONFIG_NAME)
# The objects. A FAULT image, and the product (SELFTESTS=0), differ from
# the test image only by the files they link (a fault case, a variant in
# place of the verdict, the product's hooks), never by a flag; a board,
# or an EARLYCON given on the command line, only by where the image is
# linked (the linker script, in BUILD_DIR) and by the early console it
# knows, which one object holds (platform/console.c, compiled into
# BUILD_DIR: mk/kernel.mk). So all of them compile into the default
# board's test image's tree and link into their own BUILD_DIR:
# check-runner's fault images, check-product and a board's lines rebuild
# a file or two, not the kernel. Whoever builds while others may is to
# hold the runner's lock on OBJ_DIR (tests/runner/build-lock).
OBJ_DIR		:= $(BUILD_ROOT)/$(ARCH)-$(PAGE_SIZE)$(FLAGS_NAME)
KERNEL_ELF	:= $(BUILD_DIR)/buddyboot.elf
