/*
 * image.h - what the arm64 Image header (entry.S) promises loaders, for
 * the C that relies on the same figure. Plain numbers: assembly too.
 */
#ifndef AARCH64_IMAGE_H
#define AARCH64_IMAGE_H

/* text_offset: a loader puts the Image this far into a 2 MiB-aligned RAM. */
#define IMAGE_TEXT_OFFSET	0x200000

#endif /* AARCH64_IMAGE_H */
