/*
 * ktap.c - print KTAP version 1 through printk.
 */
#include <stdarg.h>
#include <lib/ktap.h>
#include <lib/printk.h>

void ktap_header(struct ktap *k, unsigned int planned)
{
	k->planned = planned;
	k->number = 0;
	k->failed = 0;
	k->skipped = 0;
	printk("KTAP version 1\n1..%u\n", planned);
}

void ktap_result(struct ktap *k, bool ok, const char *name)
{
	k->number++;
	if (!ok)
		k->failed++;
	printk("%sok %u %s\n", ok ? "" : "not ", k->number, name);
}

void ktap_skip(struct ktap *k, const char *name, const char *reason)
{
	k->number++;
	k->skipped++;
	printk("ok %u %s # SKIP %s\n", k->number, name, reason);
}

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	printk("# ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

bool ktap_passed(const struct ktap *k)
{
	return k->failed == 0 && k->number == k->planned;
}
