# deps.mk - the Debian packages buddyboot needs, listed in one place.
#
#   RUN_PACKAGES   what `make run` / `make debug` need for the current ARCH:
#                  make, python3 and the arch's ARCH_PACKAGES
#                  (arch/<arch>/packages.mk)
#   HOST_PACKAGES  what the host tests, checks, benchmarks and boot paths
#                  need; other mk files may append (HOST_PACKAGES += ...)
#   TEST_PACKAGES  what `make test` needs: every arch's ARCH_PACKAGES and
#                  HOST_PACKAGES
#
# As root, missing packages are installed (tests/runner/ensure-packages);
# otherwise the exact apt-get line is printed and make stops.

ENSURE_PACKAGES	:= tests/runner/ensure-packages

HOST_PACKAGES	+= make python3 gdb-multiarch device-tree-compiler \
		   gcc libc6-dev clang libclang-rt-14-dev coccinelle \
		   gnuplot-nox libjemalloc-dev libmimalloc-dev \
		   u-boot-qemu u-boot-tools dosfstools mtools \
		   grub-pc-bin grub-common xorriso

RUN_PACKAGES	= make python3 $(ARCH_PACKAGES)

# Every target's list, from its packages.mk (names that differ per target,
# so all of them are read, whatever ARCH is).
include $(foreach a,$(ARCHES),arch/$(a)/packages.mk)
ALL_ARCH_PACKAGES = $(foreach a,$(ARCHES),$(PACKAGES_$(a)))
TEST_PACKAGES	= $(sort $(ALL_ARCH_PACKAGES) $(HOST_PACKAGES))

.PHONY: deps deps-run print-packages print-test-packages

## deps: install every package `make test` needs (as root), or say which
deps:
	$(Q)$(ENSURE_PACKAGES) $(TEST_PACKAGES)

deps-run:
	$(Q)$(ENSURE_PACKAGES) $(RUN_PACKAGES)

## print-packages: the Debian packages make run needs for this ARCH and BOOT
print-packages:
	$(info $(sort $(RUN_PACKAGES)))
	@:

print-test-packages:
	$(info $(TEST_PACKAGES))
	@:
