// order_reject_ge.cocci - a valid top order (or size) rejected.
//
// Rejecting "order >= MAX_PAGE_ORDER" refuses the top order, which is
// valid; so does rejecting "size >= PAGE_SIZE << MAX_PAGE_ORDER" for the
// top block size (seeds 004 floppy, 005 genwqe, 007 page_reporting). An
// order is invalid when "> MAX_PAGE_ORDER".
virtual report

@r@
expression E;
position p;
@@
(
E@p >= MAX_PAGE_ORDER
|
MAX_PAGE_ORDER <= E@p
|
E@p >= (PAGE_SIZE << MAX_PAGE_ORDER)
|
E@p >= PAGE_SIZE << MAX_PAGE_ORDER
)

@script:python depends on r@
p << r.p;
@@
print("%s:%s: \">= MAX_PAGE_ORDER\" rejects the top order (or top block size), which is valid; reject \"> MAX_PAGE_ORDER\"" % (p[0].file, p[0].line))
