/*
 * ktap.h - KTAP version 1 output, the format of Linux's KUnit.
 *
 *   KTAP version 1
 *   1..N
 *   ok 1 case_name
 *   not ok 2 other_case
 *   # other_case: what went wrong
 *
 * Diagnostic lines start with "# ". The runner (tests/runner/) reads this
 * from the serial console or a host program's stdout.
 */
#ifndef LIB_KTAP_H
#define LIB_KTAP_H

#include <lib/compiler.h>
#include <lib/types.h>

struct ktap {
	unsigned int planned;
	unsigned int number;	/* results printed so far */
	unsigned int failed;
	unsigned int skipped;
};

void ktap_header(struct ktap *k, unsigned int planned);
/* ktap_result - print "ok N name" or "not ok N name"; counts the failure. */
void ktap_result(struct ktap *k, bool ok, const char *name);
void ktap_skip(struct ktap *k, const char *name, const char *reason);
void ktap_diag(const char *fmt, ...) __printf(1, 2);
/* ktap_passed - every planned result printed, none failed. */
bool ktap_passed(const struct ktap *k);

#endif /* LIB_KTAP_H */
