// order_loop_bound.cocci - a loop over orders that stops before the top.
//
// MAX_PAGE_ORDER is the largest order, inclusive. A loop bounded by
// "< MAX_PAGE_ORDER" never visits it: the bug of seed 011's cheetah
// scoreboard and of every loop bounded by the old name, whose meaning
// silently changed with seed 009. Write "<= MAX_PAGE_ORDER"
// or "< NR_PAGE_ORDERS".
virtual report

@r@
expression E, E0, E1;
position p;
statement S;
type T;
identifier i;
@@
// "MAX_PAGE_ORDER > E" is matched too, by Coccinelle's isomorphisms.
(
for (...; E@p < MAX_PAGE_ORDER; ...) S
|
for (T i = E0; E@p < MAX_PAGE_ORDER; E1) S
)

@script:python depends on r@
p << r.p;
@@
print("%s:%s: order loop bound \"< MAX_PAGE_ORDER\" skips the top order; use \"<= MAX_PAGE_ORDER\" or \"< NR_PAGE_ORDERS\"" % (p[0].file, p[0].line))
