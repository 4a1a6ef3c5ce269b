# check.mk - static checks of the tree.
#
#   make check   the Coccinelle semantic patches for the seeds' MAX_PAGE_ORDER
#                bug patterns, over the whole tree (no hit allowed) and over
#                the known-bad samples in tests/coccinelle-samples/ (each
#                must be flagged exactly), and the compile-time promises of
#                mm/ (freestanding on every target, impossible geometry and
#                the old order name refused)
#              and (mk/efi.mk) that each target's EFI image has consistent
#              PE32+ headers (scripts/efi/check-images.sh)
#
# Both print KTAP and are registered as suites for the runner.

TEST_SUITES	+= check-coccinelle=scripts/coccinelle/check.sh \
		   check-mm-build=tests/host/mm/build-checks.sh

.PHONY: check check-coccinelle check-mm-build

## check: coccinelle bug patterns and compile-time checks of mm/
check: check-coccinelle check-mm-build

check-coccinelle:
	$(Q)scripts/coccinelle/check.sh

check-mm-build:
	$(Q)tests/host/mm/build-checks.sh
