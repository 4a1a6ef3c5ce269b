#!/usr/bin/env python3
"""memmap_cli.py - memmap's command line and exit statuses, as KTAP.

Each case runs memmap on a fixture with some options and checks the exit
status and a word of the message: 1 for a bad --info-addr (not digits, or
a blob that would run past the top of the address space), the documented
statuses otherwise (tools/memmap/README.md).

usage: memmap_cli.py MEMMAP FIXTURE_DIR   (build/host/fixtures/dts)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "runner"))
from ktap import KtapWriter  # noqa: E402

# (name, options, fixture, exit status, words on standard error[, words on
# standard output])
CASES = [
    ("info_addr_minus_one", ["--info-addr", "-1"], "high-banks", 1,
     "bad address '-1'"),
    ("info_addr_space", ["--info-addr", " 1"], "high-banks", 1,
     "bad address"),
    ("info_addr_wraps", ["--info-addr", "0xfffffffffffff800"],
     "many-banks", 1, "past the top of the address space"),
    ("info_addr_at_the_top", ["--info-addr", "0xffffffffffffff00"],
     "high-banks", 1, "past the top of the address space"),
    ("info_addr_fits", ["--info-addr", "0x80000000"], "high-banks", 0, ""),
    ("all_reserved", [], "all-reserved", 2, "no usable memory"),
    ("all_no_map", [], "all-no-map", 2, "no usable memory"),
    ("all_memreserve", [], "all-memreserve", 2, "no usable memory"),
    ("memory_256_bytes", [], "tiny-memory", 2, "no usable memory"),
    ("one_unaligned_page", [], "unaligned-page", 2, "no usable memory"),
    ("many_banks", [], "many-banks", 0, "",
     "the boot info lists 1000 ranges"),
    ("many_banks_regions", ["--regions"], "many-banks", 0, "",
     "memory 0xfce00000 0x100000\n"),
    ("many_reg_entries", [], "many-reg-entries", 0, "",
     "the boot info lists 1000 ranges"),
    ("many_memreserve", [], "many-memreserve", 0, "",
     "66 more reservations not listed (table of 64 full); memblock holds"),
    ("numa_nodes", [], "numa-nodes", 0, "",
     "[0x46200000-0x50000000) /memory@46200000, node 1"),
    ("numa_nodes_regions", ["--regions"], "numa-nodes", 0, "",
     "memory 0x40000000 0x6200000 node 0\n"
     "memory 0x46200000 0x9e00000 node 1\n"),
    ("numa_placement", [], "numa-placement", 0, "",
     "[mem 0x48000000-0x48ffffff] is in no node (the device tree names "
     "others): placed in node 0",
     "cpu 1 (hwid 0x1) is in no node (the device tree names others): "
     "placed in node 0",
     "numa: 3 nodes online\n",
     "numa: node 0: 147456 KiB memory, cpus 0 1\n",
     "numa: node 2: 65536 KiB memory, cpus none\n",
     "numa: node 3: 0 KiB memory, cpus 2\n",
     "numa: node 3 has CPUs but no memory",
     "numa: distances from node 0: 10 30 15\n",
     "numa: distances from node 3: 15 25 10\n"),
    ("numa_placement_regions", ["--regions"], "numa-placement", 0, "",
     "memory 0x48000000 0x1000000\n"),
    ("bad_numa_node_id", [], "bad-numa-node-id", 1,
     "/memory@40000000: numa-node-id 4294967295 is not below 1024"),
    ("too_many_banks", [], "too-many-banks", 3,
     "too many regions: more than 1024 memory ranges"),
]


def main() -> int:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    memmap, folder = sys.argv[1:]
    ktap = KtapWriter(len(CASES))
    for name, options, fixture, status, words, *out in CASES:
        path = os.path.join(folder, fixture + ".dtb")
        r = subprocess.run([memmap, *options, path], capture_output=True,
                           text=True)
        ok = r.returncode == status and words in r.stderr and \
            all(w in r.stdout for w in out)
        ktap.result(ok, name, f"memmap {' '.join(options)} {fixture}.dtb: "
                    f"exit {r.returncode} (want {status}), stderr "
                    f"{r.stderr.strip()[-300:]!r} (want {words!r})")
    return ktap.status()


if __name__ == "__main__":
    sys.exit(main())
