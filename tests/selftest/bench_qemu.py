#!/usr/bin/env python3
"""bench_qemu.py - boot BENCH=1 images under -icount and tabulate the cost.

For each target: build it with BENCH=1, then for each memory size boot it
(the QEMU command line comes from `make print-qemu`, the one every boot
uses) with -icount shift=0,sleep=off, --runs times. The guest prints
"bench: ..." lines (tests/selftest/variant/bench.c); every run of one
configuration must print the same numbers, or the table says it did not.
The result is a markdown table, printed and written to <out>/table.md,
with every console log beside it.

Exit status: 0 when every boot passed and every run repeated exactly.
"""

import argparse
import os
import re
import subprocess
import sys

PASS_STATUS = 33
BENCH_LINE = re.compile(r"^bench: (.*?) ([0-9.]+)\s*$")


def make_vars(args):
    out = subprocess.run(["make", "-s", "--no-print-directory", *args],
                         check=True, capture_output=True, text=True).stdout
    return dict(line.split("=", 1) for line in out.splitlines()
                if "=" in line)


def boot(target, mem, icount, log, timeout):
    """One boot: {metric: value} from its bench lines, and a problem or None."""
    v = make_vars([f"ARCH={target}", "BENCH=1", f"MEM={mem}",
                   f"QEMU_EXTRA={icount}", "print-qemu"])
    cmd = v["QEMU_CMD"]
    try:
        with open(log, "w") as f, open(os.devnull) as null:
            status = subprocess.run(cmd, shell=True, stdin=null, stdout=f,
                                    stderr=subprocess.STDOUT,
                                    timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return {}, f"timed out after {timeout} s"
    metrics = {}
    with open(log, errors="replace") as f:
        for line in f:
            m = BENCH_LINE.match(line.strip())
            if m:
                metrics[m.group(1)] = m.group(2)
    if status != PASS_STATUS:
        return metrics, f"exit status {status}, not {PASS_STATUS}"
    if not metrics:
        return metrics, "no bench: lines"
    return metrics, None


def order_key(metric):
    m = re.match(r"order (\d+) ", metric)
    return int(m.group(1)) if m else -1


def table(targets, mems, results):
    """Markdown: boot cost per target and size, then alloc+free per order."""
    lines = ["| target | " + " | ".join(
        f"reset to ready, {m}" for m in mems) + " | " + " | ".join(
        f"boot_main to ready, {m}" for m in mems) + " |",
        "|---|" + "---:|" * (2 * len(mems))]
    for t in targets:
        row = [results[t, m].get("ready", "-") for m in mems]
        row += [results[t, m].get("entry-to-ready", "-") for m in mems]
        lines.append(f"| {t} | " + " | ".join(row) + " |")
    orders = sorted({order_key(k) for r in results.values() for k in r
                     if order_key(k) >= 0})
    head = [f"{t}, {m}" for t in targets for m in mems]
    for what in ("alloc+free", "alloc+free from the top order"):
        lines += ["", f"{what}, instructions per pair:", "",
                  "| order | " + " | ".join(head) + " |",
                  "|---:|" + "---:|" * len(head)]
        for o in orders:
            key = f"order {o} {what}"
            lines.append(f"| {o} | " + " | ".join(
                results[t, m].get(key, "-") for t in targets for m in mems)
                + " |")
    sizes = sorted({int(k.split()[1]) for r in results.values() for k in r
                    if k.startswith("kmalloc ")})
    if sizes:
        lines += ["", "kmalloc+kfree (the slab allocator), instructions "
                  "per pair:", "",
                  "| bytes | " + " | ".join(head) + " |",
                  "|---:|" + "---:|" * len(head)]
        for size in sizes:
            key = f"kmalloc {size} kmalloc+kfree"
            lines.append(f"| {size} | " + " | ".join(
                results[t, m].get(key, "-") for t in targets for m in mems)
                + " |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--targets", required=True)
    p.add_argument("--mems", required=True)
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--icount", default="-icount shift=0,sleep=off")
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--doc", help="a markdown file whose bench-qemu markers "
                   "receive the table (docs/performance.md)")
    a = p.parse_args()
    targets, mems = a.targets.split(), a.mems.split()
    os.makedirs(a.out, exist_ok=True)
    problems, results = [], {}

    for t in targets:
        subprocess.run(["make", "-s", "--no-print-directory",
                        f"-j{os.cpu_count() or 1}",
                        f"ARCH={t}", "BENCH=1", "all"], check=True,
                       stdout=subprocess.DEVNULL)
        for m in mems:
            runs = []
            for r in range(a.runs):
                log = os.path.join(a.out, f"{t}-{m}-run{r + 1}.log")
                metrics, problem = boot(t, m, a.icount, log, a.timeout)
                if problem:
                    problems.append(f"{t} {m} run {r + 1}: {problem} "
                                    f"(see {log})")
                runs.append(metrics)
                print(f"bench-qemu: {t} {m} run {r + 1}: "
                      f"{len(metrics)} numbers"
                      f"{', ' + problem if problem else ''}", flush=True)
            for r, other in enumerate(runs[1:], 2):
                if other != runs[0]:
                    diff = sorted(k for k in set(runs[0]) | set(other)
                                  if runs[0].get(k) != other.get(k))
                    problems.append(f"{t} {m}: run {r} differs from run 1 "
                                    f"in {', '.join(diff)}")
            results[t, m] = runs[0]

    text = ("Guest instructions under QEMU -icount shift=0,sleep=off "
            f"({a.runs} runs each, {'identical' if not problems else 'see problems'}); "
            "4K pages, default MAX_PAGE_ORDER.\n\n" +
            table(targets, mems, results))
    if problems:
        text += "\nProblems:\n" + "".join(f"- {x}\n" for x in problems)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"bench-qemu: table written to {os.path.join(a.out, 'table.md')}")
    if a.doc and not problems:
        splice(a.doc, text, " ".join(sys.argv[1:]))
        print(f"bench-qemu: and into {a.doc}")
    return 1 if problems else 0


def splice(doc, text, args):
    """Put the table between the doc's bench-qemu markers, with its command."""
    begin, end = "<!-- bench-qemu:begin -->\n", "<!-- bench-qemu:end -->"
    with open(doc) as f:
        old = f.read()
    i, j = old.find(begin), old.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"bench-qemu: {doc} has no bench-qemu markers")
    body = ("Produced by `make bench-qemu PUBLISH=1` (`tests/selftest/bench_qemu.py`). "
            "The guest reads its instruction counter (rdinstret, PMCCNTR_EL0, "
            "TSC; under `-icount shift=0` each counts instructions) around "
            "each operation. \"Reset to ready\" includes the firmware on "
            "riscv64 (OpenSBI) and x86_64 (SeaBIOS); on aarch64 the counter "
            "starts in boot_main. \"From the top order\" starts every pair "
            "on a heap where only top-order blocks are free, so each pair "
            "splits down and merges back: the longest path.\n\n" + text)
    with open(doc, "w") as f:
        f.write(old[:i + len(begin)] + body + old[j:])


if __name__ == "__main__":
    sys.exit(main())
