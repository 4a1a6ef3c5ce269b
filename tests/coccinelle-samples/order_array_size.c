/* Known-bad sample for order_array_size.cocci: every line marked BAD must be flagged, and no other. */
#define MAX_PAGE_ORDER 10
#define NR_PAGE_ORDERS (MAX_PAGE_ORDER + 1)

struct list_head {
	struct list_head *next, *prev;
};

/* seed 011, arm64 hyp_pool, written the old way */
struct hyp_pool {
	struct list_head free_area[MAX_PAGE_ORDER]; /* BAD */
	unsigned short max_order;
};

static unsigned long order_counts[MAX_PAGE_ORDER]; /* BAD */
static unsigned long good_counts[NR_PAGE_ORDERS];

unsigned long total(void)
{
	return order_counts[0] + good_counts[MAX_PAGE_ORDER];
}
