/* Known-bad sample for order_cap_minus_one.cocci: every line marked BAD must be flagged, and no other. */
#define MAX_PAGE_ORDER 10
#define PAGE_SIZE 4096UL

unsigned long tsb_cap(unsigned long max_tsb_size)
{
	/* seed 002, tsb_grow(), written the old way */
	if (max_tsb_size > (PAGE_SIZE << (MAX_PAGE_ORDER - 1))) /* BAD */
		max_tsb_size = PAGE_SIZE << MAX_PAGE_ORDER;
	return max_tsb_size;
}

unsigned int crypt_first_order(void)
{
	/* seed 010, crypt_alloc_buffer() */
	unsigned int order = MAX_PAGE_ORDER - 1; /* BAD */

	return order;
}
