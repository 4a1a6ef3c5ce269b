#!/usr/bin/env python3
"""report.py - turn a benchmark run into tables, verdicts and plots.

    bench/report.py RESULTS [--publish DOCS]

Reads RESULTS/{raw,runs,machine}.tsv (written by bench/run.py), writes
RESULTS/performance.md, RESULTS/performance-orders.png and
RESULTS/performance-handoff.png. With --publish DOCS it also writes
DOCS/performance.md and copies the two plots there.

The document is bench/performance.md.in with each {{name}} replaced by a
generated section; every number comes from RESULTS. The part between the
bench-qemu markers is kept from the existing DOCS/performance.md, since
`make bench-qemu`, not this script, writes it.
"""
import os
import re
import shutil
import subprocess
import sys

from stats import Results

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = ["glibc", "jemalloc", "mimalloc"]
BUDDIES = ["buddy", "buddy-o15"]
ALL = BUDDIES + PEERS
# The threads scenario's variants (bench/threads.c): cross frees and the
# ring alone run pinned apart (bench/run.py).
CROSS, RING, SPEED = "cross2-apart", "crossctl2-apart", "control1"
SMALL = ["buddy"] + PEERS
SIZES = [8 << k for k in range(10)]
WORKS = ["larson", "xmalloc", "alloc-test", "cache-scratch", "glibc-simple",
         "mstress"]
QEMU_BEGIN = "<!-- bench-qemu:begin -->"
QEMU_END = "<!-- bench-qemu:end -->"


def ns(x):
    if x is None:
        return "–"
    if x < 10:
        return "%.2f" % x
    if x < 100:
        return "%.1f" % x
    return "{:,.0f}".format(x)


def cell(s, unit=1.0):
    """median (min–max) of a Summary, scaled by 1/unit."""
    if s is None:
        return "–"
    return "%s (%s–%s)" % (ns(s.median / unit), ns(s.min / unit),
                           ns(s.max / unit))


def ratio(x, ref):
    if x is None or ref is None or ref <= 0:
        return "–"
    return "%.1f×" % (x / ref) if x / ref < 100 else "%.0f×" % (x / ref)


def table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i == 0 else "---:"
                          for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


class Report:
    def __init__(self, res):
        self.r = res
        self.max = {a: int(res.info[a].get("max_page_order", 15))
                    for a in ALL}

    def name(self, a):
        info = self.r.info[a]
        if a in BUDDIES:
            return "buddyboot (MAX_PAGE_ORDER %s)" % info["max_page_order"]
        return "%s %s" % (a, info.get("version", "?").split("-")[0])

    def ref(self, order):
        """The buddy build measured at @order: default, else order-15."""
        return "buddy" if order <= self.max["buddy"] else "buddy-o15"

    def commands(self, scen):
        """The exact commands behind a table, allocators folded together."""
        seen, gibs = {}, []
        for cmd, _secs, _st in self.r.runs:
            prog, _, args = cmd.partition(" ")
            if args.split(" ")[0] != scen:
                continue
            binary = os.path.basename(prog)[len("bench-"):]
            gib = re.search(r"gib=(\d+)", args)
            if gib and gib.group(1) not in gibs:
                gibs.append(gib.group(1))
            key = re.sub(r"gib=\d+", "gib=N", args)
            seen.setdefault(key, [])
            if binary not in seen[key]:
                seen[key].append(binary)
        lines = ["build/bench/bin/bench-{%s} %s" % (",".join(b), k)
                 for k, b in seen.items()]
        if gibs:
            lines.append("for N in %s, one process per sample" %
                         ", ".join(gibs))
        return "Commands (run by `make bench`, see bench/run.py):\n\n" + \
            "\n".join("    " + l for l in lines)

    # ---- the sections -------------------------------------------------

    def machine(self):
        m = self.r.machine
        rows = [("CPU", "%s, %s CPUs%s" % (m.get("cpu"), m.get("cpus"),
                 "" if m.get("hypervisor") == "none" else
                 " (virtual machine, %s)" % m.get("hypervisor"))),
                ("memory", m.get("memory")), ("OS", m.get("os")),
                ("kernel", m.get("kernel")), ("compiler", m.get("compiler")),
                ("gnuplot", m.get("gnuplot")),
                ("buddyboot commit", m.get("commit")),
                ("run", "%s run, %s, %s s wall" % (m.get("mode"), m.get("date"),
                                             m.get("wall_s"))),
                ("load average (1, 5, 15 min)", "before %s; after %s" %
                 (m.get("load_before"), m.get("load_after"))),
                ("speed: a loop of loads and stores, no allocator "
                 "(`bench-buddy threads threads=1 cross=0 control=1 "
                 "order=0`, at the start and the end)", "%s ns per "
                 "iteration" % cell(self.r.get("buddy", "threads",
                                               SPEED, 0, "pair_ns")))]
        for a in ALL:
            i = self.r.info[a]
            rows.append((self.name(a), "`%s`: %s" % (i.get("calls"),
                                                      i.get("library"))))
        return table(["", "as read by bench/run.py"], rows)

    def pair0(self):
        rows = []
        for a in ALL:
            f = self.r.get(a, "pair", "fresh", 0, "pair_ns")
            u = self.r.get(a, "pair", "used", 0, "pair_ns")
            fb = self.r.median("buddy", "pair", "fresh", 0, "pair_ns")
            ub = self.r.median("buddy", "pair", "used", 0, "pair_ns")
            ins = [self.r.median(a, "pair", h, 0, "instructions")
                   for h in ("fresh", "used")]
            rows.append((self.name(a), cell(f), ratio(f and f.median, fb),
                         cell(u), ratio(u and u.median, ub),
                         " / ".join("–" if i is None else "%.0f" % i
                                    for i in ins)))
        return table(["allocator", "fresh heap, ns", "vs buddyboot",
                      "used heap, ns", "vs buddyboot",
                      "instructions, fresh / used"], rows) + \
            "\n\n" + self.commands("pair").split("\n")[0] + "\n\n" + \
            "\n".join("    " + l.strip() for l in self.commands(
                "pair").split("\n")[2:] if "order=0" in l)

    def threads(self):
        rows = []
        ring = self.r.median("buddy", "threads", RING, 0, "pair_ns")
        for a in ALL:
            for order in (0, 3):
                one = self.r.get(a, "threads", "pair1", order, "pair_ns")
                two = self.r.get(a, "threads", "pair2", order, "pair_ns")
                x = self.r.get(a, "threads", CROSS, order, "pair_ns")
                cpu = {v: self.r.median(a, "threads", v, order, "cpu_ns")
                       for v in ("pair1", "pair2", CROSS)}
                base = one and one.median
                above = x.median - ring if x and ring is not None else None
                rows.append((self.name(a), "%d" % order, cell(one), cell(two),
                             ratio(base, two and two.median),
                             ratio(cpu["pair1"], cpu["pair2"]), cell(x),
                             ratio(base, x and x.median),
                             ratio(cpu["pair1"], cpu[CROSS]),
                             ns(above)))
        return table(["allocator", "order", "1 thread, ns per pair",
                      "2 threads, ns per pair per thread",
                      "throughput per thread, 2 vs 1",
                      "2 vs 1 in thread CPU time",
                      "2 threads on two CPUs, cross frees, ns per pair "
                      "per thread",
                      "throughput per thread, cross vs 1",
                      "cross vs 1 in thread CPU time",
                      "cross frees less the ring alone (%s ns), ns" %
                      ns(ring)], rows) + \
            "\n\n" + self.commands("threads")

    def zonelock(self):
        rows = []
        for a in BUDDIES:
            per = self.r.get(a, "zonelock", "steady", 0, "per_1000")
            batch = self.r.median(a, "zonelock", "steady", 0, "batch")
            rows.append((self.name(a), cell(per, 1.0),
                         "%.0f" % batch if batch else "–",
                         "%.1f" % (1000.0 / batch) if batch else "–"))
        return table(["allocator", "zone-lock acquisitions per 1000 order-0 "
                      "operations", "batch", "1000 / batch"], rows) + \
            "\n\n" + self.commands("zonelock")

    def per_order(self, scen, var, metric):
        top = max(self.max.values())
        rows = []
        for order in range(top + 1):
            b = self.r.median(self.ref(order), scen, var, order, metric)
            row = ["%d (%s)" % (order, size(order))]
            for a in ALL:
                row.append(cell(self.r.get(a, scen, var, order, metric)))
            for a in PEERS:
                row.append(ratio(self.r.median(a, scen, var, order, metric),
                                 b))
            rows.append(row)
        head = ["order"] + [self.name(a) for a in ALL] + \
            ["%s vs buddyboot" % a for a in PEERS]
        return table(head, rows)

    def sweep(self):
        return self.per_order("sweep", "clean", "pair_ns") + "\n\n" + \
            self.commands("sweep")

    def split(self):
        rows = []
        for order in range(self.max["buddy-o15"] + 1):
            row = ["%d" % order]
            for a in BUDDIES:
                for m in ("alloc_ns", "free_ns"):
                    row.append(ns(self.r.median(a, "sweep", "clean", order,
                                                m)))
            rows.append(row)
        return table(["order"] + ["%s %s" % (self.name(a), m)
                                  for a in BUDDIES
                                  for m in ("alloc, ns", "free, ns")], rows)

    def pair_orders(self):
        return self.per_order("pair", "fresh", "pair_ns") + "\n\n" + \
            "\n".join(l for l in self.commands("pair").split("\n")
                      if "order=0" not in l)

    def mixed(self):
        b = self.r.median("buddy", "mixed", "seed", -1, "op_ns")
        rows = [(self.name(a), cell(self.r.get(a, "mixed", "seed", -1,
                                               "op_ns")),
                 ratio(self.r.median(a, "mixed", "seed", -1, "op_ns"), b))
                for a in ALL]
        mix = ", ".join("%d: %d" % (o, self.r.median("buddy", "mixed", "seed",
                                                      o, "allocs") or 0)
                        for o in range(11))
        peak = self.r.median("buddy", "mixed", "seed", -1, "peak_pages")
        return table(["allocator", "ns per operation", "vs buddyboot"],
                     rows) + \
            "\n\nAllocations per order in the sequence: %s. At most %s " \
            "pages held at once.\n\n" % (mix, ns(peak)) + \
            self.commands("mixed")

    def frag(self):
        pages = self.r.variants("frag")
        top = max(self.max.values())
        cols = [("buddy", p) for p in pages] + \
            [(a, pages[-1]) for a in ["buddy-o15"] + PEERS]
        rows = []
        for order in range(top + 1):
            row = ["%d" % order]
            for a, p in cols:
                s = self.r.get(a, "frag", p, order, "pair_ns")
                base = self.r.median(a, "sweep", "clean", 0, "pair_ns")
                row.append("–" if s is None else "%s (%s)" %
                           (cell(s), ratio(s.median, base)))
            rows.append(row)
        head = ["order"] + ["%s, %s pages" % (self.name(a), p)
                            for a, p in cols]
        iso = ", ".join("%s pages: %s" % (p, ns(self.r.median(
            "buddy", "frag", p, 0, "free_order0_blocks"))) for p in pages)
        return table(head, rows) + \
            "\n\nIn parentheses: the ratio to the same allocator's order-0 " \
            "cost on the clean heap (sweep table). Free order-0 blocks " \
            "left by the fragmenting (buddyboot, default build): %s.\n\n" \
            % iso + self.commands("frag")

    def handoff(self):
        rows = []
        for a in BUDDIES:
            for g in self.r.variants("handoff"):
                def m(metric):
                    return self.r.median(a, "handoff", g, -1, metric)
                h = self.r.get(a, "handoff", g, -1, "handoff_ns")
                s = self.r.get(a, "handoff", g, -1, "setup_ns")
                p = self.r.get(a, "handoff-present", g, -1, "handoff_ns")
                pf = self.r.median(a, "handoff-present", g, -1,
                                   "minor_faults")
                faults = m("minor_faults")
                rows.append((self.name(a), g, cell(h, 1e6), cell(s, 1e6),
                             "%.2f" % (h.median / 1e6 / int(g)),
                             "{:,.0f} (≈ {:.1f} ms)".format(
                                 faults, faults * m("fault_ns") / 1e6),
                             "–" if p is None else "%s, %d faults" %
                             (cell(p, 1e6), pf),
                             "%.1f" % (m("rss_kib") / 1024),
                             "{:,.0f}".format(m("pages_given")),
                             "{:,.0f} ({:,.0f})".format(m("free_blocks"),
                                                        m("top_blocks")),
                             "%.4f" % m("metadata_bytes_per_page")))
        return table(["allocator", "GiB", "hand-off, ms", "whole setup, ms",
                      "ms per GiB", "page faults (≈ their cost)",
                      "hand-off with RAM present, ms",
                      "RSS added, MiB", "pages given",
                      "free blocks (top order)",
                      "metadata bytes per page"], rows) + \
            "\n\n" + self.commands("handoff")

    def metadata(self):
        rows = []
        for a in BUDDIES:
            for g in self.r.variants("handoff"):
                def m(metric):
                    return self.r.median(a, "handoff", g, -1, metric)
                total = int(g) << 18
                rows.append((self.name(a), g,
                             self.r.info[a].get("struct_page_bytes", "?"),
                             "{:,.0f}".format(m("kept_pages")),
                             "{:,.0f}".format(m("kept_pages") * 4096 - total),
                             "%.4f" % m("metadata_bytes_per_page")))
        return table(["allocator", "GiB", "sizeof(struct page)",
                      "pages kept", "bytes beyond 1 per page, in all",
                      "bytes per page"], rows)

    # ---- nodes and contiguous ranges (bench/numa.c) -------------------

    def nodes(self):
        """Hand-off in 4 nodes against 1, the order-0 pair on 1 and 2
        nodes, and 1 GiB contiguous on a fragmented heap."""
        out = []
        rows = []
        for a in BUDDIES:
            for g in self.r.variants("handoff-nodes-present"):
                one = self.r.get(a, "handoff-present", g, -1, "handoff_ns")
                four = self.r.get(a, "handoff-nodes-present", g, -1,
                                  "handoff_ns")
                meta = self.r.median(a, "handoff-nodes-present", g, -1,
                                     "metadata_bytes_per_page")
                rows.append((self.name(a), g, cell(one, 1e6),
                             cell(four, 1e6),
                             "–" if not one or not four else
                             "%.2f×" % (four.median / one.median),
                             "–" if meta is None else "%.4f" % meta))
        out.append(table(["allocator", "GiB", "1 node, ms", "4 nodes, ms",
                          "4 nodes vs 1", "metadata bytes per page, "
                          "4 nodes"], rows))
        rows = []
        for a in BUDDIES:
            one = self.r.get(a, "nodepair", "1", 0, "pair_ns")
            two = self.r.get(a, "nodepair", "2", 0, "pair_ns")
            rows.append((self.name(a), cell(one), cell(two),
                         "–" if not one or not two else
                         "%.2f×" % (two.median / one.median)))
        out.append(table(["allocator", "1 node, ns per pair",
                          "2 nodes, ns per pair", "2 nodes vs 1"], rows))
        rows = []
        for a in BUDDIES:
            for g in self.r.variants("contig"):
                rows.append((self.name(a), g,
                             cell(self.r.get(a, "contig", g, -1,
                                             "contig_ns"), 1e3),
                             cell(self.r.get(a, "contig", g, -1,
                                             "contig_free_ns"), 1e3),
                             cell(self.r.get(a, "contig", g, -1,
                                             "contig_freed_ns"), 1e3)))
        out.append(table(["allocator", "heap, GiB",
                          "alloc_contig_pages(1 GiB), fragmented heap, µs",
                          "free_contig_range(1 GiB), µs",
                          "alloc_contig_pages(1 GiB), heap freed again, µs"],
                         rows))
        out.append(self.commands("nodepair") + "\n\n" +
                   self.commands("contig").split("\n", 2)[2] + "\n\n" +
                   "The hand-offs in 4 nodes: `handoff nodes=4 present=1` "
                   "among the commands of section 5.")
        return "\n\n".join(out)

    # ---- small objects (bench/small.c) --------------------------------

    def sname(self, a):
        return "buddyboot kmalloc" if a == "buddy" else self.name(a)

    def small_pair(self):
        rows = []
        for size in SIZES:
            row = ["%d" % size]
            for a in SMALL:
                row.append(cell(self.r.get(a, "kpair", "size", size,
                                           "pair_ns")))
            b = self.r.median("buddy", "kpair", "size", size, "pair_ns")
            for a in PEERS:
                row.append(ratio(self.r.median(a, "kpair", "size", size,
                                               "pair_ns"), b))
            rows.append(row)
        out = table(["bytes"] + [self.sname(a) + ", ns" for a in SMALL] +
                    ["%s vs buddyboot" % a for a in PEERS], rows) + \
            "\n\n" + self.commands("kpair")
        ins = []
        for size in SIZES:
            row = [self.r.median(a, "kpair", "size", size, "instructions")
                   for a in SMALL]
            if any(x is not None for x in row):
                ins.append(["%d" % size] + ["–" if x is None else "%.0f" % x
                                            for x in row])
        if ins:
            out += ("\n\nInstructions per pair, counted by callgrind (the "
                    "difference between runs of 20000 and 40000 pairs; the "
                    "benchmark loop's own few instructions included, the "
                    "same for every allocator), independent of the "
                    "machine's load:\n\n" +
                    table(["bytes"] + [self.sname(a) + ", instructions"
                                       for a in SMALL], ins))
        return out

    def small_workloads(self):
        rows = []
        for work in WORKS:
            row = [work]
            for a in SMALL:
                row.append(cell(self.r.get(a, "workload", work, 2,
                                           "time_ms")))
            pages = self.r.median("buddy", "workload", work, 2,
                                  "peak_pages_kib")
            row.append("–" if pages is None else "{:,.0f}".format(pages))
            for a in SMALL:
                rss = self.r.median(a, "workload", work, 2, "peak_rss_kib")
                row.append("–" if rss is None else "{:,.0f}".format(rss))
            rows.append(row)
        return table(["workload (2 threads)"] +
                     [self.sname(a) + ", ms" for a in SMALL] +
                     ["buddyboot: pages taken, KiB"] +
                     ["%s: peak RSS added, KiB" % self.sname(a)
                      for a in SMALL], rows) + \
            "\n\n" + self.commands("workload")

    def small_targets(self, rows):
        worst = None
        for size in SIZES:
            b = self.r.median("buddy", "kpair", "size", size, "pair_ns")
            if b is not None and size <= 256 and (worst is None or
                                                  b > worst[0]):
                worst = (b, size)
        if worst is None:
            rows.append(("kmalloc+kfree ≤ 3 ns up to 256 bytes",
                         "not measured", "**not measured**"))
        else:
            b, size = worst
            rows.append(("kmalloc+kfree ≤ 3 ns up to 256 bytes (slowest: "
                         "%d bytes)" % size, "%.2f ns" % b, "met" if b <= 3
                         else "**missed** by %.2f ns (%.2f× the target)" %
                         (b - 3, b / 3)))
        self.faster(rows, "kpair", "size", "pair_ns",
                    "kmalloc+kfree faster than glibc, jemalloc and mimalloc "
                    "at every size, 8 to 4096 bytes", "buddy", "size")
        for work in WORKS:
            self.faster(rows, "workload", work, "time_ms",
                        "%s (2 threads): faster than every peer" % work,
                        "buddy", None)
            b = self.r.median("buddy", "workload", work, 2, "peak_pages_kib")
            m = self.r.median("mimalloc", "workload", work, 2,
                              "peak_rss_kib")
            if b is None or m is None:
                continue
            rows.append(("%s: peak memory ≤ mimalloc's" % work,
                         "%.0f KiB taken vs %.0f KiB RSS" % (b, m),
                         "met" if b <= m else "**missed**: %.1f× mimalloc's"
                         % (b / max(m, 1))))

    # ---- the verdicts -------------------------------------------------

    def targets(self):
        rows = []

        def at_most(what, value, limit, unit, fmt="%.2f"):
            if value is None:
                rows.append((what, "not measured", "**not measured**"))
                return
            shown = (fmt % value) + ("" if unit == "×" else " ") + unit
            if value <= limit:
                rows.append((what, shown, "met"))
            else:
                rows.append((what, shown, "**missed** by %s%s%s (%.2f× the "
                             "target)" % (fmt % (value - limit),
                                          "" if unit == "×" else " ", unit,
                                          value / limit)))

        for var, why in (("fresh", "fresh heap: each pair splits a "
                          "top-order block and merges it back"),
                         ("used", "used heap: a free page whose buddy is "
                          "held is at hand")):
            at_most("order-0 alloc+free pair ≤ 10 ns (%s)" % why,
                    self.r.median("buddy", "pair", var, 0, "pair_ns"), 10,
                    "ns")
        for var in ("fresh", "used"):
            at_most("order-0 alloc+free pair from the per-CPU cache ≤ 4 ns "
                    "(%s heap)" % var,
                    self.r.median("buddy", "pair", var, 0, "pair_ns"), 4,
                    "ns")
        for order in (0, 3):
            for var, what in (("pair2", "pairs"),
                              (CROSS, "cross frees, on two CPUs")):
                for metric, clock in (("pair_ns", "wall time"),
                                      ("cpu_ns", "thread CPU time")):
                    one = self.r.median("buddy", "threads", "pair1", order,
                                        metric)
                    two = self.r.median("buddy", "threads", var, order,
                                        metric)
                    if one and two:
                        at_most("order-%d %s: throughput per thread at 2 "
                                "threads ≥ 0.9× 1 thread (time per pair ≤ "
                                "1.11×), %s" % (order, what, clock),
                                two / one, 1 / 0.9, "×")
        per = self.r.median("buddy", "zonelock", "steady", 0, "per_1000")
        batch = self.r.median("buddy", "zonelock", "steady", 0, "batch")
        if per is not None and batch:
            at_most("zone-lock acquisitions per 1000 order-0 operations, "
                    "steady state ≤ 1000 / batch (batch %d)" % batch, per,
                    1000.0 / batch, "", "%.1f")
        for a in BUDDIES:
            mx = self.max[a]
            sweep = {o: self.r.median(a, "sweep", "clean", o, "pair_ns")
                     for o in range(mx + 1)}
            if None in sweep.values():
                continue
            at_most("%s: order %d within 3× of order 0 (allocate N, free "
                    "N)" % (self.name(a), mx), sweep[mx] / sweep[0], 3, "×")
            worst = max(sweep, key=lambda o: sweep[o])
            at_most("%s: every order within 3× of order 0 (worst: order "
                    "%d)" % (self.name(a), worst), sweep[worst] / sweep[0],
                    3, "×")
            frag = [(self.r.median(a, "frag", p, o, "pair_ns"), p, o)
                    for p in self.r.variants("frag")
                    for o in range(mx + 1)]
            frag = [f for f in frag if f[0] is not None]
            if frag:
                v, p, o = max(frag)
                at_most("%s: fragmented heap within 3× of order 0 (worst: "
                        "order %d, %s pages fragmented)" %
                        (self.name(a), o, p), v / sweep[0], 3, "×")
        for a in BUDDIES:
            at_most("%s: hand-off of 64 GiB ≤ 20 ms (sparse RAM: every "
                    "first touch is a host page fault)" % self.name(a),
                    ms(self.r.median(a, "handoff", "64", -1, "handoff_ns")),
                    20, "ms")
            at_most("%s: hand-off of 64 GiB ≤ 20 ms (RAM present "
                    "beforehand, as on bare metal)" % self.name(a),
                    ms(self.r.median(a, "handoff-present", "64", -1,
                                     "handoff_ns")), 20, "ms")
        for a in BUDDIES:
            at_most("%s: hand-off of 64 GiB in 4 nodes ≤ 20 ms (RAM present "
                    "beforehand)" % self.name(a),
                    ms(self.r.median(a, "handoff-nodes-present", "64", -1,
                                     "handoff_ns")), 20, "ms")
            one = self.r.median(a, "nodepair", "1", 0, "pair_ns")
            two = self.r.median(a, "nodepair", "2", 0, "pair_ns")
            at_most("%s: order-0 pair on a 2-node heap no slower than on "
                    "one node (time per pair ≤ 1.05× one node's: 5%% for "
                    "the noise between two processes)" % self.name(a),
                    two / one if one and two else None, 1.05, "×")
            c = self.r.median(a, "contig", "16", -1, "contig_ns")
            rows.append(("%s: alloc_contig_pages() of 1 GiB on a fragmented "
                         "16 GiB heap succeeds (no time target)" %
                         self.name(a),
                         "not measured" if c is None else
                         "%.1f µs" % (c / 1e3),
                         "**not measured**" if c is None else "met"))
        meta = [self.r.median(a, "handoff", g, -1, "metadata_bytes_per_page")
                for a in BUDDIES for g in self.r.variants("handoff")]
        meta = [m for m in meta if m is not None]
        at_most("metadata ≤ 1 byte per page (worst RAM size and build)",
                max(meta) if meta else None, 1, "bytes", "%.4f")
        for scen, var, what in (("sweep", "clean", "allocate N, free N"),
                                ("pair", "fresh", "pair on a fresh heap")):
            self.faster(rows, scen, var, "pair_ns",
                        "faster than glibc, jemalloc and mimalloc at every "
                        "order (%s)" % what)
        for p in self.r.variants("frag"):
            self.faster(rows, "frag", p, "pair_ns", "faster than all three "
                        "on the fragmented heap (%s pages), every order" % p)
        self.faster(rows, "pair", "used", "pair_ns",
                    "faster than all three: order-0 pair, used heap")
        self.faster(rows, "mixed", "seed", "op_ns",
                    "faster than all three: mixed workload")
        self.small_targets(rows)
        return table(["target", "measured", "verdict"], rows)

    def faster(self, rows, scen, var, metric, what, ref=None, unit="order"):
        """Worst peer/buddyboot ratio over orders (or sizes, with @ref the
        one buddyboot program measured); met when above 1."""
        worst = None
        for a in PEERS:
            for o in self.r.orders(a, scen, var, metric):
                b = self.r.median(ref or self.ref(max(o, 0)), scen, var, o,
                                  metric)
                p = self.r.median(a, scen, var, o, metric)
                if b is None or p is None:
                    continue
                if worst is None or p / b < worst[0]:
                    worst = (p / b, a, o)
        if worst is None:
            rows.append((what, "not measured", "**not measured**"))
            return
        r, a, o = worst
        where = "" if o < 0 or unit is None else " at %s %d" % (unit, o)
        shown = "closest: %s%s, %.2f× buddyboot's time" % (a, where, r)
        rows.append((what, shown, "met" if r > 1 else
                     "**missed**: %s is %.0f%% faster%s" %
                     (a, (1 / r - 1) * 100, where)))

    # ---- the plots ----------------------------------------------------

    def plots(self, outdir):
        top = max(self.max.values())
        with open(os.path.join(outdir, "orders.dat"), "w") as f:
            f.write("# order " + " ".join("%s_med %s_min %s_max" % (a, a, a)
                                          for a in ALL) + "\n")
            for o in range(top + 1):
                cols = []
                for a in ALL:
                    s = self.r.get(a, "sweep", "clean", o, "pair_ns")
                    cols += ["?"] * 3 if s is None else \
                        ["%g" % s.median, "%g" % s.min, "%g" % s.max]
                f.write("%d %s\n" % (o, " ".join(cols)))
        with open(os.path.join(outdir, "handoff.dat"), "w") as f:
            series = [(a, sc) for sc in ("handoff", "handoff-present")
                      for a in BUDDIES]
            f.write("# GiB " + " ".join("%s_%s_med _min _max" % (a, sc)
                                        for a, sc in series) + "\n")
            for g in self.r.variants("handoff"):
                cols = []
                for a, sc in series:
                    s = self.r.get(a, sc, g, -1, "handoff_ns")
                    cols += ["?"] * 3 if s is None else \
                        ["%g" % (s.median / 1e6), "%g" % (s.min / 1e6),
                         "%g" % (s.max / 1e6)]
                f.write("%s %s\n" % (g, " ".join(cols)))
        titles = "; ".join("t%d='%s'" % (i + 1, self.name(a))
                           for i, a in enumerate(ALL))
        for plot in ("orders", "handoff"):
            subprocess.run(
                ["gnuplot", "-e", "data='%s'; out='%s'; %s" % (
                    os.path.join(outdir, plot + ".dat"),
                    os.path.join(outdir, "performance-%s.png" % plot),
                    titles), os.path.join(HERE, plot + ".gp")], check=True)


def size(order):
    kib = 4 << order
    return "%d KiB" % kib if kib < 1024 else "%d MiB" % (kib // 1024)


def ms(x):
    return None if x is None else x / 1e6


def keep_qemu(old_doc, new_doc):
    """Carry the bench-qemu section over from the published document."""
    if not os.path.exists(old_doc):
        return new_doc
    old = open(old_doc).read()
    if QEMU_BEGIN not in old or QEMU_END not in old:
        return new_doc
    kept = old[old.index(QEMU_BEGIN):old.index(QEMU_END)]
    return new_doc[:new_doc.index(QEMU_BEGIN)] + kept + \
        new_doc[new_doc.index(QEMU_END):]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    docs = sys.argv[sys.argv.index("--publish") + 1] \
        if "--publish" in sys.argv else None
    rep = Report(Results(outdir))
    rep.plots(outdir)
    sections = {
        "machine": rep.machine, "targets": rep.targets, "pair0": rep.pair0,
        "sweep": rep.sweep, "split": rep.split,
        "pair_orders": rep.pair_orders, "mixed": rep.mixed,
        "frag": rep.frag, "handoff": rep.handoff, "metadata": rep.metadata,
        "threads": rep.threads, "zonelock": rep.zonelock,
        "nodes": rep.nodes,
        "small_pair": rep.small_pair,
        "small_workloads": rep.small_workloads,
    }
    doc = open(os.path.join(HERE, "performance.md.in")).read()
    for key, fn in sections.items():
        doc = doc.replace("{{%s}}" % key, fn())
    mode = rep.r.machine["mode"]
    doc = doc.replace("{{mode}}", {"full": "make bench PUBLISH=1",
                                   "quick": "make bench QUICK=1"}.get(
                                       mode, "bench/smoke.sh"))
    missing = re.findall(r"\{\{\w+\}\}", doc)
    if missing:
        sys.exit("report: the template names unknown sections: %s" % missing)
    with open(os.path.join(outdir, "performance.md"), "w") as f:
        f.write(doc)
    print("  REPORT  %s" % os.path.join(outdir, "performance.md"))
    if docs:
        os.makedirs(docs, exist_ok=True)
        target = os.path.join(docs, "performance.md")
        doc = keep_qemu(target, doc)
        with open(target, "w") as f:
            f.write(doc)
        for plot in ("orders", "handoff"):
            shutil.copy(os.path.join(outdir, "performance-%s.png" % plot),
                        docs)
        print("  REPORT  %s and its plots" % target)


if __name__ == "__main__":
    main()
