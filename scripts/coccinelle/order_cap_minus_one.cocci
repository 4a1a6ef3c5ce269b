// order_cap_minus_one.cocci - a cap one order below the top.
//
// The old name minus one was the largest order for 24 years; seeds 002, 003, 004,
// 008 and 010 each cap a size or an order with it. With MAX_PAGE_ORDER
// inclusive, "MAX_PAGE_ORDER - 1" throws the top order away: cap at
// MAX_PAGE_ORDER. (Where one order below the top is really meant, say
// so without this expression, e.g. "order + 1 == MAX_PAGE_ORDER".)
virtual report

@r@
position p;
@@
MAX_PAGE_ORDER@p - 1

@script:python depends on r@
p << r.p;
@@
print("%s:%s: \"MAX_PAGE_ORDER - 1\" caps one order below the top; MAX_PAGE_ORDER is already the largest order" % (p[0].file, p[0].line))
