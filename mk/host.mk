# host.mk - the memory core built as ordinary host code, and its host tests.
#
#   make host        build/host/libmm.a: mm/, lib/printk.c, lib/ktap.c and the
#                    fake arch (arch/host), the same sources the kernel uses
#   make test-host   host unit, model and fuzz suites under ASan and UBSan,
#                    at the default MAX_PAGE_ORDER and at the largest (15);
#                    the SMP layer's and the allocator's concurrent suites
#                    under ThreadSanitizer too
#   make fuzz        the libFuzzer targets for FUZZ_SECONDS
#= FUZZ_SECONDS=n make fuzz: seconds per libFuzzer target (default 60)
#   make perf-mm     build/host/perf-mm, quick timings of mm/ (plain -O2):
#                    see tests/host/mm/perf_mm.c
#
# Variants build side by side under build/host/<variant>/: "plain" (the
# library others link), "asan" and "asan-order15" (tests), "fuzz" (clang,
# libFuzzer coverage), "tsan" (ThreadSanitizer, for code that runs on
# several CPUs: threads are CPUs on the host). Each suite prints KTAP and
# is registered in TEST_SUITES for the runner.

HOST_DIR	:= $(BUILD_ROOT)/host
#= HOST_CC=cc     the host compiler of the host tests and tools
#= FUZZ_CC=clang  the fuzzers' compiler (libFuzzer)
#= FUZZ_BRIEF_SECONDS=5  seconds per fuzzer inside make test
HOST_CC		?= cc
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_BRIEF_SECONDS ?= 5

# smp/: the per-CPU areas, the online set, the lock checks and per-CPU
# requests; the kernel's bring-up and on_each_cpu() are arch/host/smp.c's
# on the host.
SMP_HOST_SRCS	:= smp/percpu.c smp/online.c smp/spinlock.c smp/call.c
LIBMM_SRCS	:= $(sort $(wildcard mm/*.c)) lib/printk.c lib/ktap.c \
		   $(SMP_HOST_SRCS) $(sort $(wildcard arch/host/*.c))
HOST_CPPFLAGS	:= -Iinclude -Iarch/host/include -Iarch/host -DCONFIG_HOST=1 \
		   -DCONFIG_ARCH_NAME='"host"' -D_GNU_SOURCE
HOST_WARN	:= -Wall -Wextra -Werror -Wshadow -Wundef -Wstrict-prototypes \
		   -Wmissing-prototypes -Wno-unused-parameter
HOST_CFLAGS	:= -std=gnu11 -O2 -g $(HOST_WARN) -fno-strict-aliasing
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
# ThreadSanitizer: code that runs on several CPUs (host threads). The
# library's functions count their entries and exits, which tells a
# thread inside buddyboot's code from one outside it (arch/host/cpu_hold.c);
# the tests' own code is outside, as a program's is.
TSAN_FLAGS	:= -fsanitize=thread -fno-omit-frame-pointer
TSAN_CFLAGS	:= $(TSAN_FLAGS) -finstrument-functions \
		   -finstrument-functions-exclude-file-list=tests/,.h

# $(call host_variant,name,compiler,flags): objects and libmm-<name>.a
define host_variant
$(HOST_DIR)/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$(Q)echo "  HOSTCC  $$@"
	$(Q)$(2) $(HOST_CPPFLAGS) $(3) -MMD -MP -c $$< -o $$@

$(HOST_DIR)/$(1)/libmm.a: $(patsubst %.c,$(HOST_DIR)/$(1)/%.o,$(LIBMM_SRCS))
	$(Q)echo "  AR      $$@"
	$(Q)rm -f $$@ && ar rcs $$@ $$^

-include $(patsubst %.c,$(HOST_DIR)/$(1)/%.d,$(LIBMM_SRCS) $(HOST_TEST_SRCS))
endef

HOST_TEST_SRCS	:= $(sort $(wildcard tests/host/mm/*.c tests/host/smp/*.c))
HARNESS		:= tests/host/mm/harness.c

$(eval $(call host_variant,plain,$(HOST_CC),$(HOST_CFLAGS)))
$(eval $(call host_variant,asan,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS)))
$(eval $(call host_variant,asan-order15,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -DCONFIG_MAX_PAGE_ORDER=15))
$(eval $(call host_variant,asan-slabdebug,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -DCONFIG_SLAB_DEBUG=1))
$(eval $(call host_variant,asan-order0-slabdebug,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -DCONFIG_MAX_PAGE_ORDER=0 -DCONFIG_SLAB_DEBUG=1))
$(eval $(call host_variant,fuzz,$(FUZZ_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer-no-link))
$(eval $(call host_variant,tsan,$(HOST_CC),$(HOST_CFLAGS) $(TSAN_CFLAGS)))

$(HOST_DIR)/libmm.a: $(HOST_DIR)/plain/libmm.a
	$(Q)cp $< $@

# The link flags of a variant's test programs (default: ASan and UBSan).
HOST_LDFLAGS_tsan := $(TSAN_FLAGS) -lpthread

# $(call host_test,binary,variant,sources): a test program, with the harness
define host_test
$(HOST_DIR)/tests/$(1): $(patsubst %.c,$(HOST_DIR)/$(2)/%.o,$(3) $(HARNESS)) $(HOST_DIR)/$(2)/libmm.a
	@mkdir -p $$(dir $$@)
	$(Q)echo "  HOSTLD  $$@"
	$(Q)$(HOST_CC) $(or $(HOST_LDFLAGS_$(2)),$(SAN_FLAGS)) -o $$@ $$^ -lm
HOST_TEST_BINS += $(HOST_DIR)/tests/$(1)
endef

MACHINE		:= tests/host/mm/machine.c
SMP_UTIL	:= $(MACHINE) tests/host/mm/smp_util.c
$(eval $(call host_test,test-memblock,asan,tests/host/mm/test_memblock.c))
$(foreach v,asan asan-order15,\
  $(eval $(call host_test,test-page-alloc$(v:asan%=%),$(v),tests/host/mm/test_page_alloc.c $(MACHINE)))\
  $(eval $(call host_test,test-page-refuse$(v:asan%=%),$(v),tests/host/mm/test_page_refuse.c $(MACHINE)))\
  $(eval $(call host_test,test-model$(v:asan%=%),$(v),tests/host/mm/test_model.c $(MACHINE)))\
  $(eval $(call host_test,test-numa$(v:asan%=%),$(v),tests/host/mm/test_numa.c $(MACHINE)))\
  $(eval $(call host_test,test-page-smp$(v:asan%=%),$(v),tests/host/mm/test_page_smp.c $(SMP_UTIL))))
$(eval $(call host_test,test-page-smp-tsan,tsan,tests/host/mm/test_page_smp.c $(SMP_UTIL)))
$(eval $(call host_test,test-model-tsan,tsan,tests/host/mm/test_model.c $(MACHINE)))
$(foreach v,asan asan-order15 asan-slabdebug asan-order0-slabdebug,\
  $(eval $(call host_test,test-slab$(v:asan%=%),$(v),tests/host/mm/test_slab.c $(MACHINE))))

# The SMP layer (smp/, arch/host/smp.c) under ThreadSanitizer: the
# "tsan" variant, which other suites of code that runs on several CPUs
# reuse with $(call host_test,<name>,tsan,<sources>).
$(eval $(call host_test,test-smp-tsan,tsan,tests/host/smp/test_smp.c))
# And under ASan and UBSan: the lock's tickets wrapping, among others.
$(eval $(call host_test,test-smp,asan,tests/host/smp/test_smp.c))
$(eval $(call host_test,test-slab-smp,asan,tests/host/mm/test_slab_smp.c $(MACHINE)))
$(eval $(call host_test,test-slab-smp-tsan,tsan,tests/host/mm/test_slab_smp.c $(MACHINE)))

# libFuzzer targets: the binary, and a KTAP wrapper for the brief run.
FUZZERS		:= page-alloc slab
FUZZ_CORPUS	:= $(HOST_DIR)/fuzz-corpus

# $(call fuzz_target,name): tests/host/mm/fuzz_<name with _>.c
define fuzz_target
$(HOST_DIR)/tests/fuzz-$(1): $(HOST_DIR)/fuzz/tests/host/mm/fuzz_$(subst -,_,$(1)).o \
		$(patsubst %.c,$(HOST_DIR)/fuzz/%.o,$(MACHINE) $(HARNESS)) $(HOST_DIR)/fuzz/libmm.a
	@mkdir -p $$(dir $$@)
	$(Q)echo "  FUZZLD  $$@"
	$(Q)$(FUZZ_CC) $(SAN_FLAGS) -fsanitize=fuzzer -o $$@ $$^
endef
$(foreach f,$(FUZZERS),$(eval $(call fuzz_target,$(f))))

$(HOST_DIR)/run-fuzz-%: tests/host/fuzz-ktap.sh mk/host.mk
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec %s %s %s %s %s\n' $(CURDIR)/tests/host/fuzz-ktap.sh \
		fuzz-$* $(CURDIR)/$(HOST_DIR)/tests/fuzz-$* $(FUZZ_BRIEF_SECONDS) \
		$(CURDIR)/$(FUZZ_CORPUS)/$* > $@ && chmod +x $@

HOST_TEST_BINS	+= $(foreach f,$(FUZZERS),$(HOST_DIR)/tests/fuzz-$(f) $(HOST_DIR)/run-fuzz-$(f))

HOST_SUITES	:= host-memblock=$(HOST_DIR)/tests/test-memblock \
		   host-page-alloc=$(HOST_DIR)/tests/test-page-alloc \
		   host-page-alloc-order15=$(HOST_DIR)/tests/test-page-alloc-order15 \
		   host-page-refuse=$(HOST_DIR)/tests/test-page-refuse \
		   host-page-refuse-order15=$(HOST_DIR)/tests/test-page-refuse-order15 \
		   host-model=$(HOST_DIR)/tests/test-model \
		   host-numa=$(HOST_DIR)/tests/test-numa \
		   host-numa-order15=$(HOST_DIR)/tests/test-numa-order15 \
		   host-model-order15=$(HOST_DIR)/tests/test-model-order15 \
		   host-page-smp=$(HOST_DIR)/tests/test-page-smp \
		   host-page-smp-order15=$(HOST_DIR)/tests/test-page-smp-order15 \
		   host-page-smp-tsan=$(HOST_DIR)/tests/test-page-smp-tsan \
		   host-model-tsan=$(HOST_DIR)/tests/test-model-tsan \
		   host-slab=$(HOST_DIR)/tests/test-slab \
		   host-slab-order15=$(HOST_DIR)/tests/test-slab-order15 \
		   host-slab-debug=$(HOST_DIR)/tests/test-slab-slabdebug \
		   host-slab-order0-debug=$(HOST_DIR)/tests/test-slab-order0-slabdebug \
		   host-smp-tsan=$(HOST_DIR)/tests/test-smp-tsan \
		   host-smp=$(HOST_DIR)/tests/test-smp \
		   host-slab-smp=$(HOST_DIR)/tests/test-slab-smp \
		   host-slab-smp-tsan=$(HOST_DIR)/tests/test-slab-smp-tsan \
		   $(foreach f,$(FUZZERS),host-fuzz-$(f)=$(HOST_DIR)/run-fuzz-$(f))

TEST_SUITES	+= $(HOST_SUITES)
TEST_PREREQS	+= host-tests

.PHONY: host host-tests test-host fuzz perf-mm

# Timings want the library without sanitizers: the "plain" variant.
$(HOST_DIR)/perf-mm: $(HOST_DIR)/plain/tests/host/mm/perf_mm.o $(HOST_DIR)/plain/libmm.a
	$(Q)echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) -o $@ $^

## perf-mm: build/host/perf-mm, quick timings of the memory core
perf-mm: $(HOST_DIR)/perf-mm

## host: build/host/libmm.a from the kernel's own mm/ sources (asan/, tsan/: sanitizer builds)
host: $(HOST_DIR)/libmm.a $(HOST_DIR)/asan/libmm.a $(HOST_DIR)/tsan/libmm.a

host-tests: $(HOST_TEST_BINS)

# The runner sums suites once it exists; until then run them one by one.
## test-host: the host suites only (unit, model, fuzz, boot readers, memmap)
test-host: host-tests
	$(Q)if [ -x tests/runner/bbtest ]; then \
		python3 tests/runner/bbtest $(foreach s,$(HOST_SUITES),--suite $(s)); \
	else \
		fail=0; for s in $(HOST_SUITES); do \
			echo "# suite $${s%%=*}"; $${s#*=} || fail=1; \
		done; exit $$fail; \
	fi

## fuzz: every libFuzzer target for FUZZ_SECONDS, keeping its corpus
fuzz: $(foreach f,$(FUZZERS),$(HOST_DIR)/tests/fuzz-$(f))
	$(Q)fail=0; for f in $(FUZZERS); do \
		tests/host/fuzz-ktap.sh fuzz-$$f $(HOST_DIR)/tests/fuzz-$$f \
			$(FUZZ_SECONDS) $(FUZZ_CORPUS)/$$f || fail=1; \
	done; exit $$fail
