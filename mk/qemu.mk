# qemu.mk - booting one configuration in QEMU: `make run`, `make debug`.
#
#= MEM=<size>        guest memory (default per target below; 128M-2G)
#= SMP=<n>           CPUs (default 1)
#= EXPECT_CPUS=<n>   CPUs the guest must report online (default SMP, at
#=                   most NR_CPUS); the runner fails a boot whose
#=                   'smp: N of M CPUs online' differs
#= EXPECT_NUMA="..." the NUMA topology the guest must report where no -numa
#=                   option gives it (a -dtb of its own): nodes, memory, CPUs
#=                   and distances in -numa's words (tests/runner/numa_expect.py)
#= QEMU_EXTRA="..."  more QEMU options, appended last (so they win)
#= TIMEOUT=<s>       seconds before `make run` calls the guest hung
#=                   (default QEMU_TIMEOUT from arch.mk; 0: never)
#= HANDOFF_TIMEOUT=<s> seconds `make test` gives the firmware to reach the
#=                   kernel's first line; past them it boots the machine
#=                   once more (default 60; 0: no such deadline)
#= GDB_PORT=<port>   the gdb stub of `make debug` (default 1234)
#= BOOT=direct|uboot|grub|efi|grub-efi[-mb2]|uboot-efi  how the image is loaded:
#=                   QEMU's -kernel (default), U-Boot (riscv64, aarch64),
#=                   GRUB, UEFI firmware (x86_64: OVMF, aarch64: AAVMF,
#=                   riscv64: U-Boot's UEFI, as BOOT=uboot-efi),
#=                   GRUB for UEFI's chainloader or multiboot2 (x86_64), U-Boot's
#=                   bootefi (aarch64, riscv64)
#=                   (make print-boots ARCH=... lists a target's)
#
# QEMU_CMD is the only QEMU command line: `make run`, `make debug` and the
# test runner (through `make print-qemu`) all boot with it. Its stdin must
# be open (-serial stdio refuses a closed one); the runner gives /dev/null.

# The default memory: enough for the selftests to find free blocks of the
# largest order, four blocks of that size (firmware, the image, the boot
# info and the allocator's metadata take some; one stays free), and at
# least QEMU_MIN_MEM_MIB, and BOOT_MIN_MEM_MIB where the boot path's mk
# file sets it (its firmware needs more; below, check_boot_mem). At the
# default order the arch.mk states it (QEMU_DEFAULT_MEM_MIB_<page size>);
# for a MAX_PAGE_ORDER given, it is computed: MAX_PAGE_ORDER=15 with 4K
# pages makes 512M.
QEMU_MIN_MEM_MIB := 128
QEMU_ORDER_MEM_MIB = $(if $(MAX_PAGE_ORDER),$$(((4 << ($(PAGE_SHIFT) + \
		     $(MAX_PAGE_ORDER))) >> 20)),$(QEMU_DEFAULT_MEM_MIB_$(PAGE_SIZE)))
QEMU_DEFAULT_MEM = $(shell m=$(QEMU_ORDER_MEM_MIB); min=$(QEMU_MIN_MEM_MIB); \
		   b=$(or $(BOOT_MIN_MEM_MIB),0); min=$$((b > min ? b : min)); \
		   echo $$((m > min ? m : min))M)

MEM		?= $(QEMU_DEFAULT_MEM)
SMP		?= 1
# Said here, not by QEMU, which takes -m 0 and -smp 0 for its defaults.
ifneq ($(shell echo '$(SMP)' | grep -Ex '[1-9][0-9]*'),$(SMP))
$(error SMP=$(SMP) is not a number of CPUs; write one from 1 up in decimal digits, e.g. SMP=4)
endif
ifneq ($(shell echo '$(MEM)' | grep -Ex '([1-9][0-9]*(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)[KMGTkmgt]?'),$(MEM))
$(error MEM=$(MEM) is not a memory size; write a size above 0 with K, M, G or T (M without one, as QEMU reads it), e.g. MEM=512M)
endif
# The CPUs the guest must bring online: the machine's (less any its board
# file says never come online, BOARD_USABLE_CPUS), at most NR_CPUS: the
# kernel keeps the rest parked and says so in one line.
USABLE_CPUS	= $(or $(BOARD_USABLE_CPUS),$(SMP))
EXPECT_CPUS	?= $(shell u='$(USABLE_CPUS)' n='$(NR_CPUS)'; \
		     if expr "$$u" : '[0-9][0-9]*$$' >/dev/null; \
		     then echo $$((u < n ? u : n)); else echo "$$u"; fi)
EXPECT_NUMA	?=
QEMU_EXTRA	?=
TIMEOUT		?= $(QEMU_TIMEOUT)
# The firmware and the loader reach the kernel in seconds under TCG; a
# console that still shows no kernel line after this long is a stalled
# firmware (tests/runner/process.py, boot()).
HANDOFF_TIMEOUT	?= 60
GDB_PORT	?= 1234
BOOT		?= direct
BOOTS		+= direct

# A board other than the default one has the boot paths its file lists
# in BOARD_BOOTS, and direct: the others' firmware and devices are made for
# the default board's machine (virt's U-Boot and virtio-mmio disk, AAVMF
# through -M virt), and would boot another machine, or none, under the
# board's name.
boots_of_board	= $(if $(filter-out $(DEFAULT_BOARD),$(BOARD)),\
		  $(filter direct $(BOARD_BOOTS),$(BOOTS)),$(BOOTS))
# A board whose QEMU model fixes its core says which page sizes that core
# has a translation granule for (BOARD_PAGE_SIZES), and one whose device
# tree is fixed how many CPUs it lists (BOARD_SMP): the kernel would stop
# at the first, and miss or never see CPUs at the second.

# Checked when a QEMU command is made, once every mk file had its say.
check_boot	= $(if $(filter $(BOOT),$(boots_of_board)),,$(error BOOT=$(BOOT) \
		  is not a boot path of $(ARCH) $(BOARD); choose one of: \
		  $(strip $(boots_of_board))))
check_board	= $(if $(and $(BOARD_PAGE_SIZES),$(filter-out \
		  $(BOARD_PAGE_SIZES),$(PAGE_SIZE))),$(error PAGE_SIZE=$(PAGE_SIZE) \
		  cannot run on $(BOARD): its $(BOARD_CPU) has no $(PAGE_SIZE) \
		  translation granule and QEMU fixes the core; choose one of: \
		  $(BOARD_PAGE_SIZES)))$(if $(and $(BOARD_SMP),$(filter-out \
		  $(BOARD_SMP),$(SMP))),$(error SMP=$(SMP) does not match \
		  $(BOARD): its device tree lists $(BOARD_SMP) CPUs; give \
		  SMP=$(BOARD_SMP)))

# A board that says where its RAM starts (BOARD_RAM_BASE) has its image
# loaded at BOARD_LINK_ADDRESS: MEM must reach past that, or QEMU loads
# the image outside RAM without a word and the guest hangs silently.
# MEM in MiB (QEMU's K, M, G suffixes; a plain number is MiB), or empty.
mem_mib		= $(shell m='$(MEM)'; n=$${m%[kKmMgG]}; u=$$(echo "$$m" | tr -d 0-9); \
		    expr "$$n" : '[0-9][0-9]*$$' >/dev/null && case "$$u" in \
		    (g|G) echo $$((n * 1024));; (k|K) echo $$((n / 1024));; \
		    (*) echo "$$n";; esac)
image_mib	= $(shell echo $$((($(BOARD_LINK_ADDRESS) - $(BOARD_RAM_BASE)) >> 20)))
check_mem	= $(if $(and $(BOARD_RAM_BASE),$(filter direct,$(BOOT)),$(mem_mib)),\
		  $(if $(shell [ $(mem_mib) -gt $(image_mib) ] && echo ok),,\
		  $(error MEM=$(MEM) ends before the image: $(BOARD) links it \
		  at $(BOARD_LINK_ADDRESS), $(image_mib) MiB into RAM at \
		  $(BOARD_RAM_BASE); give more than $(image_mib) MiB)))

# A boot path whose firmware needs BOOT_MIN_MEM_MIB (U-Boot's fixed load
# addresses) refuses a MEM below it, rather than leave the guest to hang
# in the firmware.
check_boot_mem	= $(if $(and $(BOOT_MIN_MEM_MIB),$(mem_mib)),\
		  $(if $(shell [ $(mem_mib) -ge $(BOOT_MIN_MEM_MIB) ] && echo ok),,\
		  $(error MEM=$(MEM) is less than the $(BOOT_MIN_MEM_MIB) MiB \
		  that BOOT=$(BOOT) needs on $(ARCH): its firmware loads to \
		  fixed addresses up there; give MEM=$(BOOT_MIN_MEM_MIB)M or more)))

# -nic none: no network card nobody uses, nor its boot ROM (iPXE on x86),
# on every target alike (unless the arch already says so).
QEMU_CMD	= $(check_boot)$(check_board)$(strip $(check_mem))$(strip $(check_boot_mem))$(QEMU) $(QEMU_MACHINE_ARGS) -m $(MEM) -smp $(SMP) \
		  -nographic -no-reboot -monitor none -serial stdio \
		  $(if $(findstring -nic none,$(QEMU_MACHINE_ARGS)),,-nic none) \
		  $(QEMU_KERNEL_ARGS) $(QEMU_EXTRA)

BBTEST		:= tests/runner/bbtest

.PHONY: run debug print-qemu print-boots print-boards

## run: build, boot headless, show the console; exit status is the verdict
run: export BBTEST_QEMU_CMD = $(QEMU_CMD)
run:
	$(Q)$(ENSURE_PACKAGES) $(RUN_PACKAGES)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BBTEST) run --name $(CONFIG_NAME) --timeout $(TIMEOUT) \
		--expect-cpus $(EXPECT_CPUS) \
		$(if $(strip $(EXPECT_NUMA)),--expect-numa '$(EXPECT_NUMA)') \
		$(if $(filter none,$(BOARD_EXIT_DEVICE)),--no-exit-device)

## debug: boot paused with a gdb stub; prints the gdb-multiarch command
debug: export BBTEST_QEMU_CMD = $(QEMU_CMD)
debug:
	$(Q)$(ENSURE_PACKAGES) $(RUN_PACKAGES)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BBTEST) run --name $(CONFIG_NAME) --debug $(GDB_PORT) \
		--elf $(KERNEL_ELF) --gdb-arch $(GDB_ARCH)

# The boot paths of this ARCH (check-runner boots a fault image on each).
## print-boards: the boards (BOARD=) of this ARCH
print-boards:
	$(info $(BOARDS))
	@:

## print-boots: the boot paths (BOOT=) of this ARCH and BOARD
print-boots:
	$(info $(strip $(boots_of_board)))
	@:

# For the runner: how this configuration boots, one KEY=value a line.
## print-qemu: the QEMU command line, timeout and paths of this configuration
print-qemu:
	$(info QEMU_CMD=$(QEMU_CMD))
	$(info TIMEOUT=$(TIMEOUT))
	$(info HANDOFF_TIMEOUT=$(HANDOFF_TIMEOUT))
	$(info EXPECT_CPUS=$(EXPECT_CPUS))
	$(info EXPECT_NUMA=$(EXPECT_NUMA))
	$(info EXIT_DEVICE=$(BOARD_EXIT_DEVICE))
	$(info KERNEL_ELF=$(KERNEL_ELF))
	$(info BUILD_DIR=$(BUILD_DIR))
	$(info OBJ_DIR=$(OBJ_DIR))
	@:
