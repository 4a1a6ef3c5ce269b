#!/usr/bin/env python3
"""efi_expect.py - check `memmap --regions` on EFI boot information blobs
(the "EMAP" format, tools/memmap/README.md) against a second, independent
reading in Python.

usage: efi_expect.py MEMMAP FILE...

Expected: memory = the union of loader, boot services and conventional
descriptors that are write-back and not EFI_MEMORY_RUNTIME, and of the
ACPI reclaim descriptors; reserved = the union of the ACPI reclaim
descriptors; both merged as memblock merges them. Prints KTAP.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from x86_expect import check_files, union  # noqa: E402

WB, RT = 1 << 3, 1 << 63
RAM_TYPES = (1, 2, 3, 4, 7)
RECLAIM = 9


def expected(path):
    with open(path, 'rb') as f:
        data = f.read()
    _, header, dsize, _, count, _ = struct.unpack_from('<IIIIII', data)
    mem, rsv = [], []
    for i in range(count):
        typ, _, start, _, pages, attr = struct.unpack_from(
            '<IIQQQQ', data, header + i * dsize)
        size = pages << 12
        if typ in RAM_TYPES and attr & WB and not attr & RT:
            mem.append((start, size))
        elif typ == RECLAIM:
            mem.append((start, size))
            rsv.append((start, size))
    lines = [(b, 0, 'memory %#x %#x' % (b, e - b)) for b, e in union(mem)]
    lines += [(b, 1, 'reserved %#x %#x' % (b, e - b)) for b, e in union(rsv)]
    return [t for _, _, t in sorted(lines)]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(check_files(sys.argv[1], sys.argv[2:], expected))


if __name__ == '__main__':
    main()
