#!/usr/bin/env python3
"""x86_expect.py - check `memmap --regions` on saved multiboot2 and PVH
boot information against a second, independent reading in Python.

usage: x86_expect.py MEMMAP DIR   (every mb2-*.bin and pvh-*.bin in DIR)

Expected: memory = the union of type 1 (RAM) entries, or, when there is
an EFI memory-map tag (type 17), of its loader, boot services and
conventional descriptors that are write-back and not for runtime, and
its ACPI reclaim ones; reserved = the union of the modules and of the
ACPI reclaim descriptors; both merged as memblock merges them. Prints KTAP.
"""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'runner'))
from ktap import KtapWriter  # noqa: E402


def union(ranges):
    out = []
    for b, e in sorted((b, b + s) for b, s in ranges if s):
        if out and b <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([b, e])
    return out


EFI_RAM = (1, 2, 3, 4, 7)
EFI_ACPI_RECLAIM = 9


def read_efi_tag(data, at, size):
    dsize = struct.unpack_from('<I', data, at + 8)[0]
    mem, resv = [], []
    for off in range(at + 16, at + size, dsize):
        t, _, b, _, pages, attr = struct.unpack_from('<IIQQQQ', data, off)
        if t in EFI_RAM and attr & (1 << 3) and not attr & (1 << 63):
            mem.append((b, pages << 12))
        elif t == EFI_ACPI_RECLAIM:
            mem.append((b, pages << 12))
            resv.append((b, pages << 12))
    return mem, resv


def read_mb2(data):
    total = struct.unpack_from('<I', data)[0]
    mem, mods, at = [], [], 8
    efi = None
    while at < total:
        typ, size = struct.unpack_from('<II', data, at)
        if typ == 0:
            break
        if typ == 17 and efi is None:
            efi = read_efi_tag(data, at, size)
        elif typ == 6:
            esize = struct.unpack_from('<I', data, at + 8)[0]
            for off in range(at + 16, at + size, esize):
                b, s, t = struct.unpack_from('<QQI', data, off)
                if t == 1:
                    mem.append((b, s))
        elif typ == 3:
            start, end = struct.unpack_from('<II', data, at + 8)
            mods.append((start, end - start))
        at += (size + 7) & ~7
    if efi is not None:
        mem, resv = efi
        mods += resv
    return mem, mods


def read_pvh(data):
    (_, _, _, nmod, modlist, _, _, memmap,
     nmem, _) = struct.unpack_from('<IIIIQQQQII', data)
    mem = []
    for i in range(nmem):
        b, s, t = struct.unpack_from('<QQI', data, memmap + 24 * i)
        if t == 1:
            mem.append((b, s))
    mods = [struct.unpack_from('<QQ', data, modlist + 32 * i)
            for i in range(nmod)]
    return mem, mods


def expected(path):
    with open(path, 'rb') as f:
        data = f.read()
    mem, mods = (read_pvh if os.path.basename(path).startswith('pvh')
                 else read_mb2)(data)
    lines = [(b, 0, 'memory %#x %#x' % (b, e - b)) for b, e in union(mem)]
    lines += [(b, 1, 'reserved %#x %#x' % (b, e - b)) for b, e in union(mods)]
    return [t for _, _, t in sorted(lines)]


def check_files(memmap, files, expected):
    """Run `memmap --regions` on each file, compare with expected(path),
    print KTAP. Return: the exit status (1 if any differs)."""
    ktap = KtapWriter(len(files))
    for path in files:
        want = expected(path)
        r = subprocess.run([memmap, '--regions', path], capture_output=True,
                           text=True)
        got = r.stdout.splitlines()
        ok = bool(r.returncode == 0 and got == want and want)
        if not ok:
            ktap.diag('exit %d; stderr: %s' % (r.returncode, r.stderr.strip()))
            ktap.diag('\n'.join(['  want: ' + line for line in want] +
                                ['  got:  ' + line for line in got]))
        ktap.result(ok, os.path.basename(path))
    return ktap.status()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    memmap, folder = sys.argv[1:]
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.endswith('.bin'))
    sys.exit(check_files(memmap, files, expected))


if __name__ == '__main__':
    main()
