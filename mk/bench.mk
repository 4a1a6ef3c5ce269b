# bench.mk - host benchmarks: buddyboot's buddy allocator against glibc,
# jemalloc and mimalloc, measured side by side (docs/performance.md).
#
#   make bench           the full run, its report and plots in build/bench/full/
#= PUBLISH=1      make bench, bench-qemu: also write docs/performance.md
#=                (and the plots), which are tracked files
#= QUICK=1        make bench: a short run (under a minute), never published
#   make bench-build     just the programs, build/bench/bin/bench-*
#
# The benchmark must not measure sanitizers. The default build links
# build/host/libmm.a, host.mk's plain -O2 library; for MAX_PAGE_ORDER=15 the
# same sources are built here again, with host.mk's flags plus
# -DCONFIG_MAX_PAGE_ORDER=15, into build/bench/mm-order15/libmm.a.
# One program per allocator, from the same scenario sources, so that every
# allocator is called directly and no two of them share a process.

#= BENCH_CC=gcc   the compiler of the host benchmarks
BENCH_CC	?= gcc
BENCH_DIR	:= $(BUILD_ROOT)/bench
BENCH_BIN	:= $(BENCH_DIR)/bin
BENCH_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wundef \
		   -Wstrict-prototypes -Wmissing-prototypes \
		   -fno-strict-aliasing
# host.mk, read before this file, lists the memory core's sources.
BENCH_MM_SRCS	:= $(LIBMM_SRCS)
BENCH_SRCS	:= bench/main.c bench/common.c bench/scenarios.c bench/mixed.c \
		   bench/small.c
BENCH_PROGS	:= buddy buddy-o15 glibc jemalloc mimalloc

# Per program: extra sources, flags, libraries.
bench_srcs_buddy	:= bench/alloc_buddy.c bench/handoff.c
bench_srcs_buddy-o15	:= $(bench_srcs_buddy)
bench_flags_buddy	:= -DBENCH_BUDDY -Iinclude -Iarch/host/include
bench_flags_buddy-o15	:= $(bench_flags_buddy) -DCONFIG_MAX_PAGE_ORDER=15
bench_libs_buddy	:= $(BUILD_ROOT)/host/libmm.a
bench_libs_buddy-o15	:= $(BENCH_DIR)/mm-order15/libmm.a
bench_srcs_glibc	:= bench/alloc_posix.c
bench_srcs_jemalloc	:= bench/alloc_posix.c
bench_srcs_mimalloc	:= bench/alloc_posix.c
bench_flags_jemalloc	:= -DBENCH_JEMALLOC
bench_flags_mimalloc	:= -DBENCH_MIMALLOC
bench_libs_jemalloc	:= -ljemalloc
bench_libs_mimalloc	:= -lmimalloc

$(BENCH_DIR)/mm-order15/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CPPFLAGS) -DCONFIG_MAX_PAGE_ORDER=15 $(HOST_CFLAGS) \
		-MMD -MP -c $< -o $@

$(BENCH_DIR)/mm-order15/libmm.a: $(patsubst %.c,$(BENCH_DIR)/mm-order15/%.o,$(BENCH_MM_SRCS))
	$(Q)echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

-include $(patsubst %.c,$(BENCH_DIR)/mm-order15/%.d,$(BENCH_MM_SRCS))

# $(1): program name.
define bench_prog
$(BENCH_DIR)/obj/$(1)/%.o: %.c
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
