# check.mk - static checks of the tree.
#
#   make check   - the Coccinelle semantic patches for the seeds'
#                  MAX_PAGE_ORDER bug patterns, over the whole tree (no hit
#                  allowed) and over the known-bad samples in
#                  tests/coccinelle-samples/ (each must be flagged exactly);
#                - the compile-time promises of mm/ (freestanding on every
#                  target, impossible geometry, the old order name and a
#                  non-decimal MAX_PAGE_ORDER refused);
#                - shellcheck on every shell script, pyflakes on every
#                  Python program (scripts/lint/lint.sh);
#                - (mk/efi.mk) each target's EFI image has consistent
#                  PE32+ headers (scripts/efi/check-images.sh);
#                - every repository path a comment or a doc names exists,
#                  and product code includes no test code
#                  (scripts/lint/check-paths.py);
#                - each target's product image (SELFTESTS=0) links no
#                  test symbol (scripts/lint/check-product.sh).
#
# Each prints KTAP and is registered as a suite for the runner. The
# packages they need are installed (or named) first, as for `make test`.

CHECK_PACKAGES	:= coccinelle shellcheck pyflakes3
HOST_PACKAGES	+= $(CHECK_PACKAGES)

CHECK_SUITES	:= check-coccinelle=scripts/coccinelle/check.sh \
		   check-mm-build=tests/host/mm/build-checks.sh \
		   check-lint=scripts/lint/lint.sh \
		   check-paths=scripts/lint/check-paths.py \
		   check-product=scripts/lint/check-product.sh
TEST_SUITES	+= $(CHECK_SUITES)

.PHONY: check check-coccinelle check-mm-build check-lint check-paths \
	check-product

## check: Coccinelle, mm/ build promises, shellcheck, pyflakes, named paths, product without tests
check:
	$(Q)$(ENSURE_PACKAGES) $(TEST_PACKAGES)
	$(Q)$(BBTEST) test $(addprefix --suite ,$(CHECK_SUITES))

check-coccinelle:
	$(Q)scripts/coccinelle/check.sh

check-mm-build:
	$(Q)tests/host/mm/build-checks.sh

check-lint:
	$(Q)scripts/lint/lint.sh

## check-paths: every path named in a comment or doc exists; no test code in the product
check-paths:
	$(Q)scripts/lint/check-paths.py

## check-product: each target's image without tests (SELFTESTS=0) links no test symbol
check-product:
	$(Q)scripts/lint/check-product.sh
