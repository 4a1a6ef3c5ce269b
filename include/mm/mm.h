/*
 * mm.h - the umbrella header: the whole public memory-management API.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include <mm/gfp.h>
#include <mm/memblock.h>
#include <mm/page_alloc.h>
#include <mm/page_check.h>
#include <mm/page_fill.h>
#include <mm/page_order.h>
#include <mm/slab.h>

#endif /* MM_MM_H */
