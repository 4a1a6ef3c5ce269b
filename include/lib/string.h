/*
 * string.h - the memory and string functions the kernel uses.
 *
 * In the kernel they come from lib/string.c; in the host build they are the
 * C library's, with the same names and meanings.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <lib/types.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);

#endif /* LIB_STRING_H */
