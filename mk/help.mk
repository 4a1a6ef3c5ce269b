# help.mk - `make help`, generated from the makefiles themselves: every
# target with a "## name: what it does" comment above it, every variable
# with a "#= NAME=values  meaning" line (continued by "#=" lines), and each
# target's default guest memory as its arch.mk states it. A new target or
# variable documents itself where it is defined, and shows up here.

# Every target's arch.mk, not only this ARCH's: a variable of one target
# is listed whatever ARCH is.
HELP_FILES	= $(filter Makefile %.mk,$(MAKEFILE_LIST)) \
		  $(filter-out $(MAKEFILE_LIST),$(sort $(wildcard arch/*/arch.mk)))

.PHONY: help

## help: this list, generated from the makefiles
help:
	@echo 'buddyboot - a buddy page allocator that boots on riscv64, aarch64 and x86_64'
	@echo
	@echo 'Targets:'
	@sed -n 's/^## \([^ :]*\): \(.*\)/\1	\2/p' $(HELP_FILES) | \
		awk -F'	' '{ printf "  %-18s %s\n", $$1, $$2 }'
	@echo
	@echo 'Variables:'
	@sed -n 's/^#= /  /p' $(HELP_FILES)
	@echo
	@echo 'Default guest memory (MEM) at the default MAX_PAGE_ORDER, from each'
	@echo 'arch/<arch>/arch.mk (a larger MAX_PAGE_ORDER needs four of its blocks):'
	@for a in $(ARCHES); do \
		sed -n "s/^QEMU_DEFAULT_MEM_MIB_\([0-9]*K\)[[:space:]]*:= *\([0-9]*\).*/  $$a \1: \2M/p; \
			s/^UBOOT_MIN_MEM_MIB[[:space:]]*:= *\([0-9]*\).*/  $$a BOOT=uboot: at least \1M/p" \
			arch/$$a/arch.mk; \
	done
	@echo
	@echo 'Boards (BOARD=, boards/<arch>/<board>.mk; * the default) and the early'
	@echo 'console each builds with unless EARLYCON= says otherwise:'
	@for f in $(sort $(wildcard boards/*/*.mk)); do \
		a=$${f#boards/}; a=$${a%%/*}; b=$${f##*/}; b=$${b%.mk}; \
		d=$$(sed -n 's/^DEFAULT_BOARD[[:space:]]*:=[[:space:]]*//p' arch/$$a/arch.mk); \
		e=$$(sed -n 's/^BOARD_EARLYCON[[:space:]]*:=[[:space:]]*//p' $$f); \
		printf '  %-8s %-10s EARLYCON=%s\n' $$a "$$b$$([ "$$b" = "$$d" ] && echo '*')" "$$e"; \
	done
	@echo
	@echo 'Example: make run ARCH=aarch64 PAGE_SIZE=16K MAX_PAGE_ORDER=13 MEM=1G SMP=2'
