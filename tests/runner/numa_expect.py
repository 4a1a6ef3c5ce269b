"""numa_expect.py - the NUMA topology a QEMU command line configures (or
a matrix line's EXPECT_NUMA states), and whether the guest's boot summary
shows it.

A machine given `-numa` options passes only when the guest reports the
same nodes, each with its memory, each configured CPU in its node, a node
configured without CPUs showing "cpus none", and the configured
distances, in the summary boot_numa_print() writes
(boot/numa.c):

    numa: 2 nodes online
    numa: node 0: 100352 KiB memory, cpus 0
    numa: cpu 1 (hwid 0x1): node 1
    numa: distances from node 0: 10 21

From QEMU's options: `-object memory-backend-ram,id=ID,size=SIZE`,
`-numa node[,nodeid=N],memdev=ID[,cpus=A[-B]]...` (nodeid defaults to the
order of the -numa node options; a node without memdev= has no memory,
when another node has memdev=) and `-numa dist,src=A,dst=B,val=D`
(QEMU takes B to A as A to B when only one is given; without any, the
guest must show the default 20). A node's memory may read up to
MEMORY_SLACK_KIB less than configured (the PC's hole below 1 MiB and the
firmware's pages at the top of low memory are not RAM in e820), never
more; under UEFI firmware (a -drive if=pflash), EFI_MEMORY_SLACK_KIB less:
its runtime services, ACPI NVS and reserved pages, which its memory map
does not call RAM (AAVMF keeps about 7 MiB so in the first node). CPU index i is hwid i (APIC id, hart id, MPIDR below 8 CPUs), as
QEMU numbers them on the configurations in tests/matrix.txt.

A machine whose topology comes from a device tree of its own (-dtb) or
from ACPI tables of its own (-acpitable), not from -numa, states it in
EXPECT_NUMA (from_expect()), in -numa's words with the node's memory as
size= in place of memdev= (size=0: a node with CPUs and no memory):

    node,nodeid=0,size=98M,cpus=0-1 node,nodeid=1,size=158M dist,src=0,dst=1,val=20

The same checks then apply. A line with both is refused: one statement of
the topology, not two that may disagree.
"""

import re
from dataclasses import dataclass, field

MEMORY_SLACK_KIB = 2048
EFI_MEMORY_SLACK_KIB = 16384
LOCAL, REMOTE = 10, 20

_SIZE = re.compile(r"([0-9]+)([KMGT]?)B?$", re.I)


def _kib(size: str) -> int:
    m = _SIZE.match(size)
    if not m:
        raise ValueError(f"memory-backend size {size!r} is not a size")
    scale = {"": 1 / 1024, "K": 1, "M": 1 << 10, "G": 1 << 20,
             "T": 1 << 30}[m.group(2).upper()]
    return int(int(m.group(1)) * scale)


def _options(text: str) -> dict[str, list[str]]:
    """'node,nodeid=0,cpus=0-1,cpus=3' -> {'': ['node'], 'nodeid': ['0'],
    'cpus': ['0-1', '3']} (QEMU repeats cpus= for several ranges)."""
    out: dict[str, list[str]] = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        out.setdefault(key if eq else "", []).append(value if eq else key)
    return out


def _cpus(ranges: list[str]) -> list[int]:
    cpus = []
    for r in ranges:
        lo, _, hi = r.partition("-")
        cpus += range(int(lo), int(hi or lo) + 1)
    return cpus


@dataclass
class Topology:
    memory_kib: dict[int, int] = field(default_factory=dict)
    cpu_node: dict[int, int] = field(default_factory=dict)   # hwid -> node
    distance: dict[tuple[int, int], int] = field(default_factory=dict)
    slack_kib: int = MEMORY_SLACK_KIB   # how much less a node may show

    def dist(self, a: int, b: int) -> int:
        return self.distance.get((a, b), LOCAL if a == b else REMOTE)


def _topology(nodes: list[tuple[int, int, list[int]]],
              dists: list[dict[str, list[str]]]) -> Topology:
    """From (node id, KiB, CPUs) per node and -numa dist options."""
    topo = Topology()
    for nid, kib, cpus in nodes:
        if nid in topo.memory_kib:
            raise ValueError(f"node {nid} is given twice")
        topo.memory_kib[nid] = kib
        for cpu in cpus:
            topo.cpu_node[cpu] = nid
    for o in dists:
        try:
            a, b, d = (int(o[k][0]) for k in ("src", "dst", "val"))
        except (KeyError, ValueError):
            raise ValueError("a dist needs src=, dst= and val= numbers") \
                from None
        topo.distance[(a, b)] = d
    for (a, b), d in list(topo.distance.items()):
        topo.distance.setdefault((b, a), d)
    return topo


def _present_cpus(args: list[str]) -> int:
    """How many CPUs the last -smp option makes present (1 without one):
    its count, or cpus=, else, as QEMU, maxcpus= or the product of its
    topology. CPUs up to
    maxcpus= are only possible (hot-pluggable): the guest has them in no
    list, and a -numa node's cpus= may still name them."""
    value = None
    for opt, v in zip(args, args[1:]):
        if opt == "-smp":
            value = v
    if value is None:
        return 1
    o = _options(value)
    if o.get("") and o[""][0].isdigit():
        return int(o[""][0])
    if "cpus" in o:
        return int(o["cpus"][0])
    if "maxcpus" in o:
        return int(o["maxcpus"][0])
    n = 1
    for k in ("sockets", "dies", "clusters", "cores", "threads"):
        n *= int(o.get(k, ["1"])[0])
    return n


def from_qemu_args(args: list[str]) -> Topology | None:
    """The topology the command line configures, or None without -numa
    node. Raises ValueError for options this reading does not know."""
    backends: dict[str, int] = {}
    nodes: list[dict[str, list[str]]] = []
    dists: list[dict[str, list[str]]] = []
    for opt, value in zip(args, args[1:]):
        if opt == "-object" and value.startswith("memory-backend-"):
            o = _options(value)
            backends[o["id"][0]] = _kib(o["size"][0])
        elif opt == "-numa":
            o = _options(value)
            kind = o.get("", ["node"])[0]
            if kind == "node":
                nodes.append(o)
            elif kind == "dist":
                dists.append(o)
            else:
                raise ValueError(f"-numa {value}: not a node or dist")
    if not nodes:
        return None
    # A node without memdev= has no memory, when another node has some:
    # QEMU splits RAM among nodes itself only when none names its memory.
    some_memdev = any("memdev" in o for o in nodes)
    present = _present_cpus(args)
    found = []
    for index, o in enumerate(nodes):
        nid = int(o.get("nodeid", [index])[0])
        if "memdev" not in o and some_memdev:
            kib = 0
        elif "memdev" not in o or o["memdev"][0] not in backends:
            raise ValueError(f"-numa node {nid}: no memdev= of a "
                             "memory-backend -object")
        else:
            kib = backends[o["memdev"][0]]
        found.append((nid, kib, [c for c in _cpus(o.get("cpus", []))
                                 if c < present]))
    topo = _topology(found, dists)
    if any(opt == "-drive" and "if=pflash" in value.split(",")
           for opt, value in zip(args, args[1:])):
        topo.slack_kib = EFI_MEMORY_SLACK_KIB
    return topo


def from_expect(text: str) -> Topology:
    """The topology an EXPECT_NUMA value states (see the top of this
    file). Raises ValueError for anything else, and for no node."""
    nodes = []
    dists = []
    for word in text.split():
        o = _options(word)
        kind = o.get("", ["?"])[0]
        if kind == "dist" and len(o[""]) == 1:
            dists.append(o)
            continue
        if kind != "node" or len(o[""]) != 1 or "size" not in o or \
                set(o) - {"", "nodeid", "size", "cpus"}:
            raise ValueError(f"EXPECT_NUMA word {word!r} is not "
                             "node[,nodeid=N],size=SIZE[,cpus=A[-B]]... "
                             "nor dist,src=A,dst=B,val=D")
        try:
            nid = int(o.get("nodeid", [len(nodes)])[0])
            cpus = _cpus(o.get("cpus", []))
        except ValueError:
            raise ValueError(f"EXPECT_NUMA word {word!r}: nodeid= and "
                             "cpus= take numbers") from None
        nodes.append((nid, _kib(o["size"][0]), cpus))
    if not nodes:
        raise ValueError(f"EXPECT_NUMA {text!r} names no node")
    return _topology(nodes, dists)


def expected(args: list[str], expect_numa: str = "") -> Topology | None:
    """What a run must show: from EXPECT_NUMA when given, else from the
    command's -numa options; None for neither. Raises ValueError for
    both, or for what the two readings refuse."""
    from_args = from_qemu_args(args)
    if not expect_numa.strip():
        return from_args
    if from_args is not None:
        raise ValueError("EXPECT_NUMA is given and so are -numa options: "
                         "state the topology once")
    return from_expect(expect_numa)


_ONLINE = re.compile(r"numa: ([0-9]+) nodes online")
_NODE = re.compile(r"numa: node ([0-9]+): ([0-9]+) KiB memory"
                   r"(?:, cpus( none|(?: [0-9]+)+))?")
_CPU = re.compile(r"numa: cpu [0-9]+ \(hwid 0x([0-9a-f]+)\): node ([0-9]+)")
_DIST = re.compile(r"numa: distances from node ([0-9]+):((?: [0-9]+)+)")


class NumaWatch:
    """Collects the guest's NUMA summary; problems() compares it."""

    def __init__(self, expect: Topology) -> None:
        self.expect = expect
        self.online: int | None = None
        self.memory: dict[int, int] = {}
        self.node_cpus: dict[int, str | None] = {}  # " none", " 0 1"
        self.cpus: dict[int, int] = {}
        self.rows: dict[int, list[int]] = {}

    def feed(self, line: str) -> None:
        if (m := _ONLINE.search(line)) and self.online is None:
            self.online = int(m.group(1))
        elif m := _NODE.search(line):
            self.memory.setdefault(int(m.group(1)), int(m.group(2)))
            self.node_cpus.setdefault(int(m.group(1)), m.group(3))
        elif m := _CPU.search(line):
            self.cpus.setdefault(int(m.group(1), 16), int(m.group(2)))
        elif m := _DIST.search(line):
            self.rows.setdefault(int(m.group(1)),
                                 [int(d) for d in m.group(2).split()])

    def problems(self, cpus_used: int | None = None) -> list[str]:
        """cpus_used: how many CPUs the guest is to use, when fewer than
        the machine has (NR_CPUS below -smp): it lists that many, each in
        its node, and leaves the others out."""
        e = self.expect
        want = sorted(e.memory_kib)
        if self.online is None:
            return [f"no 'numa: N nodes online' line: expected nodes {want}"]
        if sorted(self.memory) != want or self.online != len(want):
            return [f"guest's NUMA nodes {sorted(self.memory)}, expected "
                    f"{want}"]
        out = []
        for nid in want:
            got, kib = self.memory[nid], e.memory_kib[nid]
            if not kib - e.slack_kib <= got <= kib:
                out.append(f"node {nid}: {got} KiB memory, expected "
                           f"{kib} (at most {e.slack_kib} less)")
        for hwid, nid in sorted(e.cpu_node.items()):
            if hwid in self.cpus and self.cpus[hwid] != nid:
                out.append(f"cpu hwid {hwid:#x} in node {self.cpus[hwid]}, "
                           f"expected {nid}")
            elif hwid not in self.cpus and (cpus_used is None or
                                            len(self.cpus) < cpus_used):
                out.append(f"cpu hwid {hwid:#x} (node {nid}) not listed")
        for nid in want:
            if nid not in e.cpu_node.values() and \
                    self.node_cpus.get(nid) != " none":
                out.append(f"node {nid}: cpus{self.node_cpus.get(nid)}, "
                           "expected none")
        for a in want:
            row = [e.dist(a, b) for b in want]
            if self.rows.get(a) != row:
                out.append(f"distances from node {a}: {self.rows.get(a)}, "
                           f"expected {row}")
        return out
