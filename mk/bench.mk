# bench.mk - host benchmarks: buddyboot's buddy allocator against glibc,
# jemalloc and mimalloc, measured side by side (docs/performance.md).
#
#   make bench           the full run, its report and plots in build/bench/full/
#= PUBLISH=1      make bench, bench-qemu: also write docs/performance.md
#=                (and the plots), which are tracked files
#= QUICK=1        make bench: a short run (under a minute), never published
#   make bench-build     just the programs, build/bench/bin/bench-*
#
# The benchmark must measure neither sanitizers nor spinlock debugging: the
# memory core is built here again, with host.mk's flags plus
# -DCONFIG_DEBUG_SPINLOCK=0, into build/bench/mm-default/libmm.a and (with
# -DCONFIG_MAX_PAGE_ORDER=15) build/bench/mm-order15/libmm.a. Its threads
# are a core each at most, so a lock waiter pauses as a CPU does before
# it yields the host CPU (BENCH_HOST_FLAGS, see arch/host/include/asm/
# smp.h). The objects depend on this file: a change of flags rebuilds.
# One program per allocator, from the same scenario sources, so that every
# allocator is called directly and no two of them share a process.

#= BENCH_CC=gcc   the compiler of the host benchmarks
BENCH_CC	?= gcc
BENCH_DIR	:= $(BUILD_ROOT)/bench
BENCH_BIN	:= $(BENCH_DIR)/bin
# -falign-loops=64: every program is built from the same sources, but the
# linker places their loops differently, and a loop's speed on this host
# depended on it: cache-scratch's loop of byte increments straddled a
# 64-byte boundary in bench-buddy and ran 1.7 times slower there than in
# bench-mimalloc, with or without an allocator call in it. Aligned, the
# programs run the same harness loops at the same speed.
BENCH_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wundef \
		   -Wstrict-prototypes -Wmissing-prototypes \
		   -fno-strict-aliasing -falign-loops=64
# host.mk, read before this file, lists the memory core's sources.
BENCH_MM_SRCS	:= $(LIBMM_SRCS)
BENCH_SRCS	:= bench/main.c bench/common.c bench/scenarios.c bench/mixed.c \
		   bench/threads.c bench/small.c
BENCH_PROGS	:= buddy buddy-o15 glibc jemalloc mimalloc
BENCH_HOST_FLAGS := -DCONFIG_DEBUG_SPINLOCK=0 -DHOST_RELAX_SPINS=1024

# Per program: extra sources, flags, libraries.
bench_srcs_buddy	:= bench/alloc_buddy.c bench/handoff.c bench/numa.c
bench_srcs_buddy-o15	:= $(bench_srcs_buddy)
bench_flags_buddy	:= -DBENCH_BUDDY $(BENCH_HOST_FLAGS) -Iinclude \
			   -Iarch/host/include
bench_flags_buddy-o15	:= $(bench_flags_buddy) -DCONFIG_MAX_PAGE_ORDER=15
bench_libs_buddy	:= $(BENCH_DIR)/mm-default/libmm.a
bench_libs_buddy-o15	:= $(BENCH_DIR)/mm-order15/libmm.a
bench_srcs_glibc	:= bench/alloc_posix.c
bench_srcs_jemalloc	:= bench/alloc_posix.c
bench_srcs_mimalloc	:= bench/alloc_posix.c
bench_flags_jemalloc	:= -DBENCH_JEMALLOC
bench_flags_mimalloc	:= -DBENCH_MIMALLOC
bench_libs_jemalloc	:= -ljemalloc
bench_libs_mimalloc	:= -lmimalloc

# $(call bench_mm,dir,flags): the memory core for the benchmark, spinlock
# debugging off, into $(BENCH_DIR)/<dir>/libmm.a.
define bench_mm
$(BENCH_DIR)/$(1)/%.o: %.c mk/bench.mk
	@mkdir -p $$(dir $$@)
	$(Q)echo "  HOSTCC  $$@"
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) $(BENCH_HOST_FLAGS) $(2) \
		$(HOST_CFLAGS) -MMD -MP -c $$< -o $$@

$(BENCH_DIR)/$(1)/libmm.a: $(patsubst %.c,$(BENCH_DIR)/$(1)/%.o,$(BENCH_MM_SRCS))
	$(Q)echo "  AR      $$@"
	$(Q)rm -f $$@ && ar rcs $$@ $$^

-include $(patsubst %.c,$(BENCH_DIR)/$(1)/%.d,$(BENCH_MM_SRCS))
endef
$(eval $(call bench_mm,mm-default,))
$(eval $(call bench_mm,mm-order15,-DCONFIG_MAX_PAGE_ORDER=15))

# $(1): program name.
define bench_prog
$(BENCH_DIR)/obj/$(1)/%.o: %.c mk/bench.mk
	@mkdir -p $$(dir $$@)
	$(Q)echo "  CC      $$@"
	$(Q)$(BENCH_CC) -DBENCH_NAME='"$(1)"' -DBENCH_GP_MAX_ORDER=15 \
		$(bench_flags_$(1)) $(BENCH_CFLAGS) -MMD -MP -c $$< -o $$@

$(BENCH_BIN)/bench-$(1): $(patsubst %.c,$(BENCH_DIR)/obj/$(1)/%.o,$(BENCH_SRCS) $(bench_srcs_$(1))) $(filter %.a,$(bench_libs_$(1)))
	@mkdir -p $$(dir $$@)
	$(Q)echo "  LD      $$@"
	$(Q)$(BENCH_CC) -o $$@ $$(filter %.o,$$^) $(bench_libs_$(1)) -lpthread

-include $(patsubst %.c,$(BENCH_DIR)/obj/$(1)/%.d,$(BENCH_SRCS) $(bench_srcs_$(1)))
endef

$(foreach p,$(BENCH_PROGS),$(eval $(call bench_prog,$(p))))

BENCH_TARGETS	:= $(addprefix $(BENCH_BIN)/bench-,$(BENCH_PROGS))
BENCH_RESULTS	:= $(BENCH_DIR)/$(if $(QUICK),quick,full)

.PHONY: bench bench-build

## bench-build: just the benchmark programs, build/bench/bin/bench-*
bench-build: $(BENCH_TARGETS)

PUBLISH		?=
ifneq ($(and $(PUBLISH),$(QUICK)),)
$(error PUBLISH=1 publishes a full run only; drop QUICK=1)
endif

## bench: measure into build/bench/ (QUICK=1: short run; PUBLISH=1: also docs/)
bench: $(BENCH_TARGETS)
	$(Q)python3 bench/run.py $(BENCH_BIN) $(BENCH_RESULTS) $(if $(QUICK),--quick)
	$(Q)python3 bench/report.py $(BENCH_RESULTS) $(if $(PUBLISH),--publish docs)

TEST_SUITES	+= bench-smoke=$(CURDIR)/bench/smoke.sh
TEST_PREREQS	+= bench-build
