/*
 * gfp.h - allocation flags ("get free pages"), with Linux's names.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

typedef unsigned int gfp_t;

#define __GFP_ZERO	0x100u	/* return the block zeroed */
#define __GFP_NOWARN	0x200u	/* do not report a failure on the console */

#define GFP_KERNEL	0u

#endif /* MM_GFP_H */
