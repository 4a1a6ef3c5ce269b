#!/usr/bin/env python3
"""run.py - run every benchmark process and collect their samples.

    bench/run.py BINDIR OUTDIR [--quick | --smoke]

Runs each scenario for each allocator in a fresh process (one process holds
one buddy allocator), interleaving the allocators scenario by scenario, and
writes to OUTDIR:
    raw.tsv      every sample: allocator scenario variant order metric rep value
    runs.tsv     every command run, with its wall time and exit status
    machine.tsv  the machine, the tools and how busy the machine was
It stops at the first process that fails, with that process's message.
Where valgrind is installed, it also counts the buddy allocator's
instructions per order-0 pair, and every allocator's instructions per
malloc+free pair of each size (kmalloc+kfree for buddyboot), with callgrind.
"""
import os
import platform
import re
import shutil
import subprocess
import sys
import time

ALLOCATORS = ["buddy", "buddy-o15", "glibc", "jemalloc", "mimalloc"]
BUDDIES = ["buddy", "buddy-o15"]
SMALL = ["buddy", "glibc", "jemalloc", "mimalloc"]
WORKS = ["larson", "xmalloc", "alloc-test", "cache-scratch", "glibc-simple",
         "mstress"]

# The sizes of a run: full, QUICK=1, and a seconds-long check of the
# programs and the report (bench/smoke.sh).
PLANS = {
    "full": dict(reps=11, pair_iters=2000000, order_iters=200000,
                small_iters=2000000, work_iters=2000000,
                blocks=256, batch_ops=4096, mixed_ops=200000,
                frag_pages=[4096, 65536, 262144], handoff_gib=[1, 4, 16, 64],
                contig_gib=16),
    "quick": dict(reps=5, pair_iters=500000, order_iters=50000,
                  small_iters=500000, work_iters=500000,
               blocks=128, batch_ops=1024, mixed_ops=50000,
               frag_pages=[4096, 32768], handoff_gib=[1, 16, 64],
                 contig_gib=16),
    "smoke": dict(reps=2, pair_iters=20000, order_iters=2000,
                  small_iters=5000, work_iters=5000,
                  blocks=16, batch_ops=32, mixed_ops=2000,
                  frag_pages=[256], handoff_gib=[1], contig_gib=2),
}


def commands(mode):
    p = PLANS[mode]
    reps = "reps=%d" % p["reps"]
    cmds = [(a, ["info"]) for a in ALLOCATORS]
    # The machine's speed at the start and at the end: a loop of the
    # pairs' loads and stores on a page of its own, no allocator. This
    # host's speed drifts by 2-3x over hours; the report prints it so
    # that two runs' figures can be compared.
    speed = [("buddy", ["threads", "threads=1", "cross=0", "control=1",
                        "order=0", reps, "iters=%d" % (p["pair_iters"] // 4)])]
    cmds += speed
    # The cross frees and the ring alone, on two CPUs: how fast a line
    # moves between them changes by 3x from one minute to the next here,
    # and holds for a whole process, so each of these runs in three
    # processes, at the start, in the middle and at the end; the report
    # pools their repetitions.
    cross = [(a, ["threads", "threads=2", "cross=1", "order=%d" % order,
                  reps, "iters=%d" % (p["pair_iters"] // 4), "pin=apart"])
             for order in (0, 3) for a in ALLOCATORS]
    cross += [("buddy", ["threads", "threads=2", "cross=1", "control=1",
                         "order=0", reps, "iters=%d" % (p["pair_iters"] // 4),
                         "pin=apart"])]
    # Each thread's own pairs, 1 and 2 threads at once, order 0 and 3:
    # unpinned, so where the host runs the two threads, and what else it
    # runs beside them, changes their time from one process to the next;
    # spread and pooled as the cross frees are.
    own = [(a, ["threads", "threads=%d" % n, "cross=0", "order=%d" % order,
                reps, "iters=%d" % (p["pair_iters"] // 4)])
           for order in (0, 3) for n in (1, 2) for a in ALLOCATORS]
    spread = mode != "smoke"  # the smoke test runs them once
    if spread:
        cmds += cross + own
    for heap in ("fresh", "used"):
        cmds += [(a, ["pair", "order=0", "heap=" + heap, reps,
                      "iters=%d" % p["pair_iters"], "blocks=%d" % p["blocks"]])
                 for a in ALLOCATORS]
    cmds += [(a, ["pair", "order=-1", "heap=fresh", reps,
                  "iters=%d" % p["order_iters"]]) for a in ALLOCATORS]
    cmds += [(a, ["sweep", reps, "blocks=%d" % p["blocks"],
                  "iters=%d" % p["batch_ops"]]) for a in ALLOCATORS]
    cmds += [(a, ["mixed", reps, "blocks=1024", "seed=20240607",
                  "iters=%d" % p["mixed_ops"]]) for a in ALLOCATORS]
    # Threads: 1 and 2 at once, order 0 and 3, own pairs; then the cross
    # frees and the ring alone (above). The cross frees run on two CPUs
    # (pin=apart): unpinned, where the host put the two threads decided
    # most of their time, differently in each process.
    cmds += own + cross
    cmds += [(a, ["zonelock", reps, "blocks=1024", "seed=20240607",
                  "iters=%d" % p["mixed_ops"]]) for a in BUDDIES]
    for pages in p["frag_pages"]:
        cmds += [(a, ["frag", reps, "pages=%d" % pages,
                      "blocks=%d" % p["blocks"], "iters=%d" % p["batch_ops"]])
                 for a in ALLOCATORS]
    # Small objects: kmalloc/kfree against malloc/free, and the workloads
    # (bench/small.c), each in a process of its own.
    cmds += [(a, ["kpair", reps, "iters=%d" % p["small_iters"]])
             for a in SMALL]
    # Time and memory in runs of their own: buddyboot's memory is sampled
    # by a thread that would share the workload's cores (bench/small.c).
    for work in WORKS:
        for _ in range(3 if mode != "smoke" else 1):
            for memory in (0, 1):
                cmds += [(a, ["workload", "work=" + work, "threads=2",
                              "iters=%d" % p["work_iters"],
                              "memory=%d" % memory]) for a in SMALL]
    # The hand-off happens once per process: one process per sample.
    for gib in p["handoff_gib"]:
        for _ in range(p["reps"]):
            cmds += [(a, ["handoff", "gib=%d" % gib, "present=%d" % present])
                     for present in (0, 1) for a in BUDDIES]
    # Nodes and contiguous ranges (bench/numa.c): the hand-off of the
    # largest size in 4 nodes, the order-0 pair on 1 and 2 nodes, and
    # 1 GiB contiguous on a fragmented heap.
    for _ in range(p["reps"]):
        cmds += [(a, ["handoff", "gib=%d" % p["handoff_gib"][-1], "nodes=4",
                      "present=1"]) for a in BUDDIES]
    cmds += [(a, ["nodepair", "nodes=%d" % n, reps,
                  "iters=%d" % p["pair_iters"]])
             for n in (1, 2) for a in BUDDIES]
    cmds += [(a, ["contig", "gib=%d" % p["contig_gib"], reps])
             for a in BUDDIES]
    if spread:
        cmds += cross + own
    return cmds + speed


def callgrind_per_pair(bindir, alloc, scenario, runs):
    """Instructions per pair of a scenario (its argv after the program),
    counted by callgrind: the difference between runs of 20000 and 40000
    pairs (each run does its pairs twice: warm-up and one timed rep), so
    start-up and set-up cancel out."""
    counts = []
    for iters in (20000, 40000):
        out = "/tmp/bench-callgrind.%d" % os.getpid()
        argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                os.path.join(bindir, "bench-" + alloc)] + scenario + \
               ["reps=1", "iters=%d" % iters]
        r = subprocess.run(argv, capture_output=True, text=True)
        runs.write("%s\t0\t%d\n" % (" ".join(argv), r.returncode))
        if r.returncode:
            sys.exit("bench: %s failed:\n%s" % (" ".join(argv), r.stderr))
        with open(out) as f:
            total = [l for l in f if l.startswith("summary:")]
        os.unlink(out)
        counts.append(int(total[0].split()[1]))
    return (counts[1] - counts[0]) / (2 * 20000)


def instructions(bindir, alloc, heap, raw, runs):
    """Instructions per order-0 pair on @heap, by callgrind."""
    per_pair = callgrind_per_pair(bindir, alloc,
                                  ["pair", "order=0", "heap=" + heap], runs)
    raw.write("%s\tpair\t%s\t0\tinstructions\t1\t%.1f\n" %
              (alloc, heap, per_pair))


def small_instructions(bindir, alloc, size_orders, raw, runs):
    """Instructions per malloc+free pair of each size (8 << k), by
    callgrind."""
    for k in size_orders:
        per_pair = callgrind_per_pair(bindir, alloc,
                                      ["kpair", "order=%d" % k], runs)
        raw.write("%s\tkpair\tsize\t%d\tinstructions\t1\t%.1f\n" %
                  (alloc, 8 << k, per_pair))


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "?"


def machine(outdir, phase):
    rows = []
    if phase == "before":
        lscpu = sh("lscpu")
        model = re.search(r"Model name:\s*(.*)", lscpu)
        rows += [
            ("cpu", model.group(1) if model else "?"),
            ("cpus", str(os.cpu_count())),
            ("hypervisor", (re.search(r"Hypervisor vendor:\s*(.*)", lscpu)
                            or re.search("()", "")).group(1) or "none"),
            ("memory", sh("free -g | awk '/Mem:/ {print $2 \" GiB\"}'")),
            ("kernel", platform.release()),
            ("os", sh(". /etc/os-release; echo $PRETTY_NAME")),
            ("compiler", sh("gcc --version | head -1")),
            ("gnuplot", sh("gnuplot --version")),
            ("commit", sh("git rev-parse --short HEAD 2>/dev/null") +
             (" (modified)" if sh("git status --porcelain -- mm bench "
                                  "include mk 2>/dev/null") else "")),
            ("date", time.strftime("%Y-%m-%d %H:%M %Z")),
        ]
    load = open("/proc/loadavg").read().split()[:3]
    rows.append(("load_" + phase, " ".join(load)))
    with open(os.path.join(outdir, "machine.tsv"), "a") as f:
        for k, v in rows:
            f.write("%s\t%s\n" % (k, v))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bindir, outdir = sys.argv[1], sys.argv[2]
    mode = "smoke" if "--smoke" in sys.argv[3:] else \
        "quick" if "--quick" in sys.argv[3:] else "full"
    os.makedirs(outdir, exist_ok=True)
    for name in ("raw.tsv", "runs.tsv", "machine.tsv"):
        open(os.path.join(outdir, name), "w").close()
    machine(outdir, "before")
    with open(os.path.join(outdir, "machine.tsv"), "a") as f:
        f.write("mode\t%s\n" % mode)
    cmds = commands(mode)
    raw = open(os.path.join(outdir, "raw.tsv"), "a")
    runs = open(os.path.join(outdir, "runs.tsv"), "a")
    start = time.monotonic()
    for i, (alloc, args) in enumerate(cmds):
        argv = [os.path.join(bindir, "bench-" + alloc)] + args
        t0 = time.monotonic()
        r = subprocess.run(argv, capture_output=True, text=True)
        dt = time.monotonic() - t0
        runs.write("%s\t%.3f\t%d\n" % (" ".join(argv), dt, r.returncode))
        if r.returncode:
            sys.exit("bench: %s failed (status %d):\n%s" %
                     (" ".join(argv), r.returncode, r.stderr.strip()))
        raw.write(r.stdout)
        if mode != "smoke":
            print("  BENCH   [%d/%d] %s %s (%.1f s)" %
                  (i + 1, len(cmds), alloc, " ".join(args), dt), flush=True)
    if shutil.which("valgrind") and mode != "smoke":
        for alloc in BUDDIES:
            for heap in ("fresh", "used"):
                instructions(bindir, alloc, heap, raw, runs)
        for alloc in SMALL:
            small_instructions(bindir, alloc, range(10) if mode == "full"
                               else (0, 5, 9), raw, runs)
    machine(outdir, "after")
    with open(os.path.join(outdir, "machine.tsv"), "a") as f:
        f.write("wall_s\t%.0f\n" % (time.monotonic() - start))


if __name__ == "__main__":
    main()
