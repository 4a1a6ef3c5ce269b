#!/usr/bin/env python3
"""srat_expect.py - check memmap on ACPI SRAT and SLIT dumps, as KTAP.

The SRAT and SLIT of each QEMU capture in tests/fixtures/acpi/ (the ones
built with -numa) are cut out into files, as /sys/firmware/acpi/tables/
would hold them, and memmap is run on them: `memmap --regions SRAT` must
list exactly the SRAT's enabled, not hot-pluggable ranges with their
nodes, read here independently of the C reader, and `memmap --slit SLIT
SRAT` must print the SLIT's matrix. A damaged copy (one byte off, so the
checksum fails) and a SLIT read as an SRAT must be refused with exit 1.

usage: srat_expect.py MEMMAP ACPI_FIXTURE...
"""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "runner"))
from ktap import KtapWriter  # noqa: E402


def tables(path):
    """The tables in an ACPI snapshot (capture-qemu.py's format)."""
    data = open(path, 'rb').read()
    out, at = {}, 16
    while at + 16 <= len(data):
        _, length = struct.unpack_from('<QQ', data, at)
        at += 16
        body = data[at:at + length]
        at += length + (-length % 8)
        if len(body) >= 4:
            out[body[:4]] = body
    return out


def expected_regions(srat):
    """memory lines for the SRAT's enabled, present ranges (revision 1:
    8-bit domains; QEMU's are dense, so domain = node)."""
    lines, at = [], 48
    while at < len(srat):
        kind, n = srat[at], srat[at + 1]
        if kind == 1:
            pxm, = struct.unpack_from('<I', srat, at + 2)
            base, size = struct.unpack_from('<QQ', srat, at + 8)
            flags, = struct.unpack_from('<I', srat, at + 28)
            if flags & 1 and not flags & 2 and size:
                lines.append((base, 'memory 0x%x 0x%x node %d' %
                              (base, size, pxm & 0xff)))
        at += n
    return [line for _, line in sorted(lines)]


def expected_distances(slit):
    n, = struct.unpack_from('<Q', slit, 36)
    return ['numa: distances from node %d: %s' %
            (i, ' '.join(str(slit[44 + i * n + j]) for j in range(n)))
            for i in range(n)]


def run(memmap, *args):
    r = subprocess.run([memmap, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    memmap = sys.argv[1]
    fixtures = [f for f in sys.argv[2:] if b'SRAT' in tables(f)]
    ktap = KtapWriter(4 * len(fixtures))
    with tempfile.TemporaryDirectory() as tmp:
        for fixture in fixtures:
            name = os.path.basename(fixture)
            t = tables(fixture)
            srat, slit = (os.path.join(tmp, name + s)
                          for s in ('.srat', '.slit'))
            open(srat, 'wb').write(t[b'SRAT'])
            open(slit, 'wb').write(t[b'SLIT'])

            rc, out, err = run(memmap, '--regions', srat)
            want = expected_regions(t[b'SRAT'])
            ktap.result(rc == 0 and out.splitlines() == want,
                        name + ' regions', 'exit %d, %r, want %r (%s)' %
                        (rc, out.splitlines(), want, err.strip()))

            rc, out, err = run(memmap, '--slit', slit, srat)
            want = expected_distances(t[b'SLIT'])
            ktap.result(rc == 0 and all(w in out.splitlines() for w in want),
                        name + ' distances', 'exit %d, want %r in %r (%s)' %
                        (rc, want, out, err.strip()))

            bad = bytearray(t[b'SRAT'])
            bad[60] ^= 1
            open(srat + '.bad', 'wb').write(bad)
            rc, out, err = run(memmap, srat + '.bad')
            ktap.result(rc == 1 and 'bad checksum' in err,
                        name + ' damaged SRAT refused',
                        'exit %d, %s' % (rc, err.strip()))

            rc, out, err = run(memmap, '--format', 'srat', slit)
            ktap.result(rc == 1 and 'not an ACPI SRAT' in err,
                        name + ' SLIT as SRAT refused',
                        'exit %d, %s' % (rc, err.strip()))
    return ktap.status()


if __name__ == '__main__':
    sys.exit(main())
