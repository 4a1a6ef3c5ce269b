/*
 * selftest_local.h - what the aarch64 selftests share.
 */
#ifndef AARCH64_SELFTEST_LOCAL_H
#define AARCH64_SELFTEST_LOCAL_H

#include <lib/types.h>

/*
 * aarch64_selftest_chosen - the device tree's /chosen property @name
 * (*@len bytes), by which a matrix line's own DTB tells a selftest what
 * that line is for (selftest_smp.c). Return: NULL without a device tree,
 * /chosen or the property.
 */
const void *aarch64_selftest_chosen(const char *name, uint32_t *len);

#endif /* AARCH64_SELFTEST_LOCAL_H */
