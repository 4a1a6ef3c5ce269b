/* Known-bad sample for order_loop_bound.cocci: every line marked BAD must be flagged, and no other. */
#define MAX_PAGE_ORDER 10
#define NR_PAGE_ORDERS (MAX_PAGE_ORDER + 1)

int first_fitting_order(unsigned long sz)
{
	unsigned int order;

	/* seed 011, cheetah_ecache_flush_init(), written the old way */
	for (order = 0; order < MAX_PAGE_ORDER; order++) /* BAD */
		if ((4096UL << order) >= sz)
			break;
	return order;
}

int count_orders(void)
{
	int n = 0;

	for (int o = 0; MAX_PAGE_ORDER > o; o++) /* BAD */
		n++;
	for (int o = 0; o <= MAX_PAGE_ORDER; o++)
		n++;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		n++;
	return n;
}
