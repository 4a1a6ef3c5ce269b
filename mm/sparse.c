/*
 * sparse.c - per-page metadata by sections, and the pfn/page/address
 * conversions over it.
 *
 * A section (2^SECTION_SIZE_BITS bytes) is present when any memory region
 * touches it. The struct pages of all present sections form one array
 * allocated from memblock (so it is reserved and never reaches the buddy
 * allocator), in ascending section order, PAGES_PER_SECTION bytes each.
 * section_slot[] maps a section number, relative to the first present one,
 * to its slot in that array; slot_section[] maps back. Both tables come
 * from the same allocation and count as metadata.
 */
#include <arch/memory.h>
#include <lib/errno.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <mm/memblock.h>
#include "page_state.h"
#include "sparse.h"

/*
 * Visit every present section once, in ascending order. @fn may be NULL.
 * Return: the number of present sections; *@first and *@last bound them.
 */
static unsigned long for_each_present_section(void (*fn)(unsigned long section,
							 unsigned long slot),
					      unsigned long *first,
					      unsigned long *last)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long nr = 0;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];
		unsigned long spfn = pfn_up(r->base);
		unsigned long epfn = PHYS_PFN(r->base + r->size);
		unsigned long s0, s1;

		if (spfn >= epfn)
			continue;	/* not one whole page */
		s0 = spfn >> PFN_SECTION_SHIFT;
		s1 = (epfn - 1) >> PFN_SECTION_SHIFT;
		if (nr && s0 <= *last)
			s0 = *last + 1;	/* shared with the previous region */
		if (s0 > s1)
			continue;
		if (!nr)
			*first = s0;
		for (unsigned long s = s0; fn && s <= s1; s++)
			fn(s, nr + (s - s0));
		nr += s1 - s0 + 1;
		*last = s1;
	}
	return nr;
}

static void set_slot(unsigned long section, unsigned long slot)
{
	struct page_allocator *pa = &page_allocator;

	pa->section_slot[section - pa->first_section] = (uint32_t)slot;
	pa->slot_section[slot] = section;
}

int sparse_init(void)
{
	struct page_allocator *pa = &page_allocator;
	unsigned long first = 0, last = 0, nr_slots;
	size_t map_bytes, slot_bytes, span_bytes;
	phys_addr_t phys;
	char *base;

	nr_slots = for_each_present_section(NULL, &first, &last);
	if (!nr_slots) {
		pr_err("memblock_free_all: no memory to hand out: memblock has "
		       "no whole page of memory\n");
		return -ENOMEM;
	}
	if (nr_slots >= NO_SLOT || last - first >= (1UL << 40)) {
		pr_err("memblock_free_all: memory spans sections %#lx-%#lx, too "
		       "far apart for the section table\n", first, last);
		return -ERANGE;
	}
	map_bytes = nr_slots << PFN_SECTION_SHIFT;
	slot_bytes = nr_slots * sizeof(*pa->slot_section);
	span_bytes = (last - first + 1) * sizeof(*pa->section_slot);
	phys = memblock_phys_alloc(map_bytes + slot_bytes + span_bytes,
				   PAGE_SIZE);
	if (!phys) {
		pr_err("memblock_free_all: cannot allocate %zu bytes of page "
		       "metadata for %lu sections\n",
		       map_bytes + slot_bytes + span_bytes, nr_slots);
		return -ENOMEM;
	}

	base = phys_to_virt(phys);
	pa->map = (struct page *)base;
	pa->slot_section = (unsigned long *)(base + map_bytes);
	pa->section_slot = (uint32_t *)(base + map_bytes + slot_bytes);
	pa->nr_slots = nr_slots;
	pa->first_section = first;
	pa->nr_span = last - first + 1;
	pa->metadata_bytes = map_bytes + slot_bytes + span_bytes;
	/* Every page is reserved until the hand-off frees it. */
	memset(pa->map, PG_RESERVED, map_bytes);
	memset(pa->section_slot, 0xff, span_bytes);	/* NO_SLOT */
	for_each_present_section(set_slot, &first, &last);
	return 0;
}

struct page *pfn_to_page(unsigned long pfn)
{
	return __pfn_to_page(pfn);
}

unsigned long page_to_pfn(const struct page *page)
{
	return __page_to_pfn(page);
}

phys_addr_t page_to_phys(const struct page *page)
{
	return PFN_PHYS(__page_to_pfn(page));
}

void *page_address(const struct page *page)
{
	return phys_to_virt(page_to_phys(page));
}

/* virt_to_page - the struct page of the page holding @addr, or NULL. */
struct page *virt_to_page(const void *addr)
{
	return __pfn_to_page(PHYS_PFN(virt_to_phys(addr)));
}
