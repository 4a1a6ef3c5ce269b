// order_array_size.cocci - an array with one slot per order, one short.
//
// There are NR_PAGE_ORDERS orders (0..MAX_PAGE_ORDER). An array sized
// [MAX_PAGE_ORDER] has no slot for the top order, and indexing it with
// MAX_PAGE_ORDER overflows it: Linux's free-list arrays were sized by the
// old name only while it meant the number of orders (seeds 009, 011).
virtual report

@r@
type T;
identifier x;
position p;
@@
T x@p[MAX_PAGE_ORDER];

@f@
type T;
identifier x, s;
position p;
@@
struct s {
	...
	T x@p[MAX_PAGE_ORDER];
	...
};

@script:python depends on r@
p << r.p;
@@
print("%s:%s: array sized [MAX_PAGE_ORDER] has no slot for the top order; size it [NR_PAGE_ORDERS]" % (p[0].file, p[0].line))

@script:python depends on f@
p << f.p;
@@
print("%s:%s: array sized [MAX_PAGE_ORDER] has no slot for the top order; size it [NR_PAGE_ORDERS]" % (p[0].file, p[0].line))
