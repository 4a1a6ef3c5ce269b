/*
 * gfp.h - allocation flags ("get free pages"), with Linux's names.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

typedef unsigned int gfp_t;

#define __GFP_DMA32	0x004u	/* only from ZONE_DMA32: below 4 GiB */
#define __GFP_ZERO	0x100u	/* return the block zeroed */
#define __GFP_NOWARN	0x200u	/* do not report a failure on the console */

/* only from the node asked for: no fallback to other nodes */
#define __GFP_THISNODE	0x400u

#define GFP_KERNEL	0u
#define GFP_DMA32	(GFP_KERNEL | __GFP_DMA32)

#endif /* MM_GFP_H */
