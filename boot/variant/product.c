/*
 * product.c - the boot flow's hooks in an image without tests
 * (SELFTESTS=0, mk/kernel.mk): nothing watches the boot and nothing is
 * tested; reaching the end with every CPU online is the verdict. Test
 * images link a variant from tests/selftest/variant/ instead.
 */
#include <boot/selftests.h>
#include <lib/printk.h>

void boot_observe(enum boot_point point, const struct boot_facts *facts)
{
}

bool boot_selftests(const struct boot_facts *facts)
{
	printk("buddyboot: booted; this image has no selftests\n");
	return true;
}
