/*
 * errno.h - error numbers returned, negated, by buddyboot functions.
 *
 * Values follow Linux's asm-generic/errno-base.h so that a number seen in a
 * log means the same thing it means there.
 */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM	1
#define ENOENT	2
#define EIO	5
#define E2BIG	7
#define ENOMEM	12
#define EFAULT	14
#define EBUSY	16
#define EEXIST	17
#define ENODEV	19
#define EINVAL	22
#define ENOSPC	28
#define ERANGE	34
#define EOVERFLOW 75
#define EBADMSG	74
#define EOPNOTSUPP 95
#define ETIMEDOUT 110
#define EALREADY 114
#define EINPROGRESS 115

#endif /* LIB_ERRNO_H */
