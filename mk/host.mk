# host.mk - the memory core built as ordinary host code, and its host tests.
#
#   make host        build/host/libmm.a: mm/, lib/printk.c, lib/ktap.c and the
#                    fake arch (arch/host), the same sources the kernel uses
#   make test-host   host unit, model and fuzz suites under ASan and UBSan,
#                    at the default MAX_PAGE_ORDER and at the largest (15)
#   make fuzz        the libFuzzer targets for FUZZ_SECONDS (default 60)
#
# Variants build side by side under build/host/<variant>/: "plain" (the
# library others link), "asan" and "asan-order15" (tests), "fuzz" (clang,
# libFuzzer coverage). Each suite prints KTAP and is registered in
# TEST_SUITES for the runner.

HOST_DIR	:= $(BUILD_ROOT)/host
HOST_CC		?= cc
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_BRIEF_SECONDS ?= 5

LIBMM_SRCS	:= $(sort $(wildcard mm/*.c)) lib/printk.c lib/ktap.c \
		   $(sort $(wildcard arch/host/*.c))
HOST_CPPFLAGS	:= -Iinclude -Iarch/host/include -Iarch/host -DCONFIG_HOST=1 \
		   -DCONFIG_ARCH_NAME='"host"' -D_GNU_SOURCE
HOST_WARN	:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		   -Wmissing-prototypes -Wno-unused-parameter
HOST_CFLAGS	:= -std=gnu11 -O2 -g $(HOST_WARN) -fno-strict-aliasing
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer

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

HOST_TEST_SRCS	:= $(sort $(wildcard tests/host/mm/*.c))
HARNESS		:= tests/host/mm/harness.c

$(eval $(call host_variant,plain,$(HOST_CC),$(HOST_CFLAGS)))
$(eval $(call host_variant,asan,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS)))
$(eval $(call host_variant,asan-order15,$(HOST_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -DCONFIG_MAX_PAGE_ORDER=15))
$(eval $(call host_variant,fuzz,$(FUZZ_CC),$(HOST_CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer-no-link))

$(HOST_DIR)/libmm.a: $(HOST_DIR)/plain/libmm.a
	$(Q)cp $< $@

# $(call host_test,binary,variant,main source)
define host_test
$(HOST_DIR)/tests/$(1): $(HOST_DIR)/$(2)/$(3:.c=.o) $(HOST_DIR)/$(2)/$(HARNESS:.c=.o) $(HOST_DIR)/$(2)/libmm.a
	@mkdir -p $$(dir $$@)
	$(Q)echo "  HOSTLD  $$@"
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $$@ $$^
HOST_TEST_BINS += $(HOST_DIR)/tests/$(1)
endef

$(eval $(call host_test,test-memblock,asan,tests/host/mm/test_memblock.c))

HOST_SUITES	:= host-memblock=$(HOST_DIR)/tests/test-memblock

TEST_SUITES	+= $(HOST_SUITES)
TEST_PREREQS	+= host-tests

.PHONY: host host-tests test-host

## host: build/host/libmm.a from the kernel's own mm/ sources
host: $(HOST_DIR)/libmm.a

host-tests: $(HOST_TEST_BINS)

# The runner sums suites once it exists; until then run them one by one.
test-host: host-tests
	$(Q)if [ -x tests/runner/bbtest ]; then \
		python3 tests/runner/bbtest $(foreach s,$(HOST_SUITES),--suite $(s)); \
	else \
		fail=0; for s in $(HOST_SUITES); do \
			echo "# suite $${s%%=*}"; $${s#*=} || fail=1; \
		done; exit $$fail; \
	fi
