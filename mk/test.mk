# test.mk - `make test`: every suite and the QEMU matrix, one verdict.
#
# Host suites register themselves from their own mk files:
#   TEST_SUITES  += <name>=<command>   a program printing KTAP, exit 0 iff ok
#   TEST_PREREQS += <make targets>     what builds it
# and the QEMU matrix's lines name their inputs besides the image (DTBs,
# an initrd, ACPI tables) in QEMU_PREREQS, which every target that boots
# the matrix builds first.
# `make test` installs what is missing (deps), builds both, then runs
# the runner once over TEST_SUITES and tests/matrix.txt: one progress line
# a run, then "N passed, N failed" (the KTAP results summed), exit status
# non-zero on any failure.
#
#= ONLY=<regex>   run only the suites/configurations whose "<kind> <name>"
#=                 matches (kind: suite or qemu), e.g. ONLY=riscv64
#= JOBS=<n>       runs at a time, and make's jobs building the prerequisites
#=                (default: the CPUs this machine has online)

TEST_MATRIX	:= tests/matrix.txt
ONLY		?=
JOBS		?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# The runner's own tests: images that fail on purpose (check_runner.py
# boots them through the runner), and its unit tests against fake guests.
# check-runner takes longest of all (it builds a dozen images and waits
# out hangs): first in line, it overlaps everything else.
RUNNER_SUITES	:= check-runner=tests/runner/check_runner.py \
		   runner-unit=tests/runner/test_runner.py
TEST_SUITES	:= $(RUNNER_SUITES) $(TEST_SUITES)

# check-runner builds and boots a few dozen images (some wait out a hang,
# some boot through a loader): on a loaded 2-core machine that takes longer
# than the 300 s any other suite gets.
BBTEST_TEST	= $(BBTEST) test $(if $(ONLY),--only '$(ONLY)') --jobs $(JOBS) \
		  --suite-budget check-runner=1200

# $(call make_prereqs,targets): build them, if any (make alone would
# build the image).
make_prereqs	= $(if $(strip $(1)),$(Q)$(MAKE) --no-print-directory -j$(JOBS) $(1))

.PHONY: test test-qemu check-runner print-arches print-port

## test: deps, every host suite, the QEMU matrix and the runner's own tests
test:
	$(Q)$(ENSURE_PACKAGES) $(TEST_PACKAGES)
	$(call make_prereqs,$(TEST_PREREQS) $(QEMU_PREREQS))
	$(Q)$(BBTEST_TEST) --matrix $(TEST_MATRIX) \
		$(addprefix --suite ,$(TEST_SUITES))

## test-qemu: only the QEMU matrix
test-qemu:
	$(Q)$(ENSURE_PACKAGES) $(TEST_PACKAGES)
	$(call make_prereqs,$(QEMU_PREREQS))
	$(Q)$(BBTEST_TEST) --matrix $(TEST_MATRIX)

## check-runner: the runner fails images that fail, hang, fault, stop early
check-runner:
	$(Q)$(ENSURE_PACKAGES) $(TEST_PACKAGES)
	$(call make_prereqs,$(QEMU_PREREQS))
	$(Q)$(BBTEST_TEST) $(addprefix --suite ,$(RUNNER_SUITES))

print-arches:
	$(info $(ARCHES))
	@:

# This ARCH's compiler, flags and page sizes, as its arch.mk states them,
# for the checks that cover every port (tests/host/mm/build-checks.sh).
print-port:
	$(info CC=$(CC))
	$(info ARCH_CFLAGS=$(ARCH_CFLAGS))
	$(info PAGE_SIZES=$(PAGE_SIZES))
	@:
