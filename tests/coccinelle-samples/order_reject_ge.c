/* Known-bad sample for order_reject_ge.cocci: every line marked BAD must be flagged, and no other. */
#define MAX_PAGE_ORDER 10
#define PAGE_SIZE 4096UL

int get_order(unsigned long size);

int genwqe_check(unsigned long vsize)
{
	/* seed 005, genwqe_mmap() */
	if (get_order(vsize) >= MAX_PAGE_ORDER) /* BAD */
		return -12;
	return 0;
}

int floppy_check(long length)
{
	/* seed 004, raw_cmd_copyin() */
	if (length <= 0 || length >= (PAGE_SIZE << MAX_PAGE_ORDER)) /* BAD */
		return -22;
	return 0;
}

int reporting_order(int order)
{
	if (MAX_PAGE_ORDER <= order) /* BAD */
		return -1;
	if (order > MAX_PAGE_ORDER)
		return -1;
	return order;
}
