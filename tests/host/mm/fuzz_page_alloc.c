/*
 * fuzz_page_alloc.c - libFuzzer target: the input chooses a small machine
 * (bank start, size, one reservation) and then a sequence of operations:
 * allocate an order (MAX_PAGE_ORDER + 1 included), free a held block, free
 * one wrongly (wrong order, inside the block, twice), fill a byte count.
 * After every operation the invariant checker must find nothing and the
 * free-page count must match what is held; otherwise the target aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mm/mm.h>
#include "host.h"
#include "machine.h"

#define SPAN		((size_t)8 << 20 << (MAX_PAGE_ORDER > 10 ? MAX_PAGE_ORDER - 10 : 0))
#define NR_HELD		256

struct held {
	struct page *page;
	unsigned int order;
};

static struct held held[NR_HELD];
static unsigned int nr_held;
static unsigned long held_pages;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_page_alloc: %s\n%s", what,
		host_console_captured());
	abort();
}

static void setup(const uint8_t **data, size_t *size)
{
	unsigned long start, pages;

	machine_fuzz_reset(SPAN);
	start = *size ? (*data)[0] % 64 : 0;
	pages = (SPAN >> PAGE_SHIFT) - start - (*size > 1 ? (*data)[1] : 0);
	if (memblock_add(PFN_PHYS(start), PFN_PHYS(pages)))
		fail("memblock_add");
	if (*size > 2 && (*data)[2] & 1)
		memblock_reserve(PFN_PHYS((*data)[2] * 7UL), PFN_PHYS((*data)[2] % 5 + 1));
	*data += *size > 3 ? 3 : *size;
	*size -= *size > 3 ? 3 : *size;
	nr_held = 0;
	held_pages = 0;
}

static void drop(unsigned int i)
{
	held_pages -= 1UL << held[i].order;
	held[i] = held[--nr_held];
}

static void operate(uint8_t op, uint8_t arg)
{
	unsigned int order = arg % (NR_PAGE_ORDERS + 1);
	struct page *p;

	switch (op % 5) {
	case 0:
	case 1:
		if (nr_held == NR_HELD)
			return;
		p = alloc_pages(__GFP_NOWARN, order);
		if (p && order > MAX_PAGE_ORDER)
			fail("an order above MAX_PAGE_ORDER was handed out");
		if (p) {
			held[nr_held++] = (struct held){ p, order };
			held_pages += 1UL << order;
		}
		return;
	case 2:
		if (!nr_held)
			return;
		if (free_pages_checked(held[arg % nr_held].page,
				       held[arg % nr_held].order))
			fail("a good free was refused");
		drop(arg % nr_held);
		return;
	case 3: {
		struct held h;
		unsigned long before = nr_free_pages();

		if (!nr_held)
			return;
		h = held[arg % nr_held];
		if (arg & 1) {
			if (!free_pages_checked(h.page, h.order + 1 + (arg >> 6)))
				fail("a free with the wrong order was accepted");
		} else if (h.order) {
			if (!free_pages_checked(h.page + 1, 0))
				fail("a free inside a block was accepted");
		} else {
			free_pages_checked(h.page, 0);
			drop(arg % nr_held);
			before = nr_free_pages();
			if (!free_pages_checked(h.page, 0))
				fail("a double free was accepted");
		}
		if (nr_free_pages() != before)
			fail("a refused free changed the free count");
		return;
	}
	default: {
		struct page_fill_block blocks[NR_PAGE_ORDERS * 2];
		struct page_fill fill = { blocks, NR_PAGE_ORDERS * 2, 0, 0 };
		unsigned long before = nr_free_pages();

		if (alloc_pages_fill(0, (size_t)arg * arg * 97, arg % 17, &fill) == 0)
			free_pages_fill(&fill);
		if (nr_free_pages() != before)
			fail("the fill helper leaked");
		return;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long managed;

	setup(&data, &size);
	managed = memblock_free_all();
	if (!managed)
		fail("hand-off gave nothing");
	for (; size >= 2; data += 2, size -= 2) {
		operate(data[0], data[1]);
		if (page_alloc_check() || nr_free_pages() != managed - held_pages)
			fail("allocator state and model disagree");
	}
	while (nr_held) {
		if (free_pages_checked(held[nr_held - 1].page, held[nr_held - 1].order))
			fail("final free refused");
		drop(nr_held - 1);
	}
	if (page_alloc_check() || nr_free_pages() != managed)
		fail("not everything came back");
	host_console_capture_stop();
	return 0;
}
