/*
 * selftest.c - run the registered in-kernel cases and print KTAP.
 *
 * The plan line is printed before the first case, from the registry, so a
 * guest that dies midway leaves a short count the runner catches.
 */
#include <stdarg.h>
#include <lib/ktap.h>
#include <lib/printk.h>
#include <selftest/selftest.h>

extern const struct selftest __selftests_start[], __selftests_end[];

static const char *current_name;
static unsigned int current_instance;
static bool current_per_order;
static bool current_failed;	/* selftest_fail() ran for this result */
static char skip_reason[96];

bool selftest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	current_failed = true;
	printk("# %s", current_name);
	if (current_per_order)
		printk("_order_%u", current_instance);
	printk(": %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	return false;
}

bool selftest_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
	va_end(ap);
	return true;
}

static unsigned int count_results(void)
{
	unsigned int n = 0;

	for (const struct selftest *t = __selftests_start; t < __selftests_end; t++)
		n += t->instances;
	return n;
}

static void run_stage(struct ktap *k, unsigned int stage)
{
	char name[96];
	bool ok;

	for (const struct selftest *t = __selftests_start; t < __selftests_end; t++) {
		if (t->stage != stage)
			continue;
		current_name = t->name;
		current_per_order = t->instances > 1;
		for (unsigned int i = 0; i < t->instances; i++) {
			current_instance = i;
			if (current_per_order)
				ksnprintf(name, sizeof(name), "%s_order_%u", t->name, i);
			else
				ksnprintf(name, sizeof(name), "%s", t->name);
			skip_reason[0] = '\0';
			current_failed = false;
			/* A recorded failure stands, whatever the case returns. */
			ok = t->run(i) && !current_failed;
			if (ok && skip_reason[0])
				ktap_skip(k, name, skip_reason);
			else
				ktap_result(k, ok, name);
		}
	}
}

bool selftest_run_all(void)
{
	struct ktap k;

	ktap_header(&k, count_results());
	/* Stages are small integers; visiting each in turn keeps link order within one. */
	for (unsigned int stage = 0; stage <= STAGE_LAST; stage++)
		run_stage(&k, stage);
	ktap_diag("selftests: %u passed, %u failed, %u skipped, %u planned",
		  k.number - k.failed - k.skipped, k.failed, k.skipped,
		  k.planned);
	return ktap_passed(&k);
}
