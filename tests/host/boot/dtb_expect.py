#!/usr/bin/env python3
"""dtb_expect.py - check `memmap --regions` against dtc's own reading of a DTB.

For each DTB, the expected result is computed from `dtc -I dtb -O dts`
output (dtc's parser, not ours) with the rules buddyboot documents:

  memory    children of / with device_type "memory" and status okay: every
            reg entry in the root's #address-cells/#size-cells
  reserved  /reserved-memory children with reg (status okay; cells from
            /reserved-memory, else the root's); no-map ones as well, and
            their range is flagged no-map in memory (memory regions split
            there); every /memreserve/ entry; the /chosen initrd
  exit 1    dtc cannot read the blob; a cells property that is not one
            cell or is above 4; reg with cells outside 1..2 or a length
            that is not a whole number of entries; a range past 2^64 - 1;
            a malformed initrd (length not 4/8, one end missing, end < start)
  exit 2    no memory range of non-zero size, or not one whole page
            (PAGE_SIZE, aligned) of memory left outside the reservations
  exit 3    too many regions: more than READER_MAX ranges in the blob, or
            more than MEMBLOCK_MAX regions in memory or reserved once
            merged (memblock refuses the map)

then merged as memblock merges (unions; adjacent regions with the same
flags join) and printed one line per region sorted by base, memory first
on a tie. Prints KTAP; exits 0 iff every file matched.

usage: dtb_expect.py MEMMAP FILE.dtb...   (FILE may also be FILE.dtb.gz)
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'runner'))
from ktap import KtapWriter  # noqa: E402

TOP = (1 << 64) - 1
PAGE_SIZE = 4096        # the host build's (arch/host)
READER_MAX = 1024       # tools/memmap/memmap.c: MEMMAP_MAX_RANGES
MEMBLOCK_MAX = 1024     # include/mm/memblock.h: INIT_MEMBLOCK_REGIONS


class Bad(Exception):
    """The blob must be refused: memmap exits 1."""


def parse_value(text):
    """dtc's decompiled property value -> bytes."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c in ' \t,':
            i += 1
        elif c == '"':
            i += 1
            while text[i] != '"':
                if text[i] == '\\':
                    e = text[i + 1]
                    if e == 'x':
                        m = re.match(r'[0-9a-fA-F]{1,2}', text[i + 2:])
                        out.append(int(m.group(0), 16))
                        i += 2 + len(m.group(0))
                        continue
                    if e in '01234567':
                        m = re.match(r'[0-7]{1,3}', text[i + 1:])
                        out.append(int(m.group(0), 8))
                        i += 1 + len(m.group(0))
                        continue
                    out += {'n': b'\n', 't': b'\t', 'r': b'\r', 'a': b'\a',
                            'b': b'\b', 'v': b'\v', 'f': b'\f'}.get(
                                e, e.encode('latin-1'))
                    i += 2
                else:
                    out += text[i].encode('latin-1')
                    i += 1
            out.append(0)
            i += 1
        elif c == '<':
            j = text.index('>', i)
            for cell in text[i + 1:j].split():
                out += int(cell, 0).to_bytes(4, 'big')
            i = j + 1
        elif c == '[':
            j = text.index(']', i)
            out += bytes.fromhex(text[i + 1:j].replace(' ', ''))
            i = j + 1
        else:
            raise ValueError('unexpected value text: ' + text[i:])
    return bytes(out)


class Node:
    def __init__(self, name):
        self.name, self.props, self.children = name, {}, []


def read_dts(path):
    """Run dtc; return (root Node, [(base, size) of /memreserve/])."""
    r = subprocess.run(['dtc', '-q', '-I', 'dtb', '-O', 'dts', path],
                       capture_output=True, text=True, errors='replace')
    if r.returncode != 0:
        raise Bad('dtc: ' + r.stderr.strip())
    rsv, stack, root = [], [], None
    for line in r.stdout.splitlines():
        s = line.strip()
        if s.startswith('/memreserve/'):
            base, size = s[len('/memreserve/'):].rstrip(';').split()
            rsv.append((int(base, 0), int(size, 0)))
        elif s.endswith('{'):
            n = Node(s[:-1].strip())
            if stack:
                stack[-1].children.append(n)
            else:
                root = n
            stack.append(n)
        elif s == '};':
            stack.pop()
        elif s.endswith(';') and stack and s != '/dts-v1/;':
            body = s[:-1]
            if ' = ' in body:
                name, val = body.split(' = ', 1)
                stack[-1].props[name] = parse_value(val)
            else:
                stack[-1].props[body] = b''
    return root, rsv


def first_string(v):
    return v.split(b'\0')[0].decode('latin-1') if v and b'\0' in v else None


def available(node):
    st = node.props.get('status')
    return st is None or first_string(st) in ('okay', 'ok')


def cells(node, path, dflt):
    out = []
    for name, d in (('#address-cells', dflt[0]), ('#size-cells', dflt[1])):
        v = node.props.get(name)
        if v is None:
            out.append(d)
            continue
        if len(v) != 4:
            raise Bad('%s: %s is not one cell' % (path, name))
        n = int.from_bytes(v, 'big')
        if n > 4:
            raise Bad('%s: %s = %d is absurd' % (path, name, n))
        out.append(n)
    return tuple(out)


def regs(node, path, c):
    v = node.props.get('reg')
    if v is None:
        return []
    ac, sc = c
    if not (1 <= ac <= 2 and 1 <= sc <= 2):
        raise Bad('%s: cells %d/%d' % (path, ac, sc))
    step = 4 * (ac + sc)
    if len(v) % step:
        raise Bad('%s: reg length %d' % (path, len(v)))
    out = []
    for off in range(0, len(v), step):
        base = int.from_bytes(v[off:off + 4 * ac], 'big')
        size = int.from_bytes(v[off + 4 * ac:off + step], 'big')
        out.append(checked(base, size, path))
    return out


def checked(base, size, what):
    if size and base + size > TOP:
        raise Bad('%s: range past 2^64' % what)
    return (base, size)


def initrd(node):
    got = {}
    for key in ('linux,initrd-start', 'linux,initrd-end'):
        v = node.props.get(key)
        if v is not None:
            if len(v) not in (4, 8):
                raise Bad('/chosen: %s length %d' % (key, len(v)))
            got[key] = int.from_bytes(v, 'big')
    if not got:
        return []
    if len(got) == 1:
        raise Bad('/chosen: half an initrd')
    start, end = got['linux,initrd-start'], got['linux,initrd-end']
    if end < start:
        raise Bad('/chosen: initrd end below start')
    return [(start, end - start)]


def expected(path):
    """Return (exit status, [lines]) memmap --regions should give."""
    try:
        root, rsv = read_dts(path)
        rc = cells(root, '/', (2, 1))
        memory, reserved, nomap = [], [], []
        for n in root.children:
            name = n.name
            if first_string(n.props.get('device_type')) == 'memory':
                if available(n):
                    memory += regs(n, '/' + name, rc)
            elif name == 'reserved-memory':
                c = cells(n, '/reserved-memory', rc)
                for ch in n.children:
                    if not available(ch):
                        continue
                    r = regs(ch, '/reserved-memory/' + ch.name, c)
                    (nomap if 'no-map' in ch.props else reserved).extend(r)
            elif name == 'chosen' or name.startswith('chosen@'):
                reserved += initrd(n)
        reserved += [checked(b, s, '/memreserve/') for b, s in rsv]
    except Bad:
        return 1, []
    memory = [r for r in memory if r[1]]
    if not memory:
        return 2, []
    taken = [r for r in reserved + nomap if r[1]]
    if len(memory) + len(taken) > READER_MAX:
        return 3, []
    lines = regions(memory, taken, [r for r in nomap if r[1]])
    if max(sum(t.startswith(k) for t in lines)
           for k in ('memory', 'reserved')) > MEMBLOCK_MAX:
        return 3, []
    if not usable_page(union(memory), union(taken)):
        return 2, lines
    return 0, lines


def usable_page(memory, taken):
    """Whether a whole, aligned page of memory lies outside taken."""
    for b, e in memory:
        for tb, te in taken + [[TOP + 1, TOP + 1]]:
            if te <= b:
                continue
            first = -(-b // PAGE_SIZE) * PAGE_SIZE
            if first + PAGE_SIZE <= min(e, tb):
                return True
            b = max(b, te)
            if b >= e:
                break
    return False


def union(ranges):
    out = []
    for b, s in sorted(ranges):
        e = b + s
        if out and b <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([b, e])
    return out


def regions(memory, reserved, nomap):
    """memblock's view: memory split at no-map boundaries, reserved merged."""
    mem = union(memory)
    cuts = sorted({p for b, e in union(nomap) for p in (b, e)})
    nm = union(nomap)
    pieces = []
    for b, e in mem:
        points = [b] + [p for p in cuts if b < p < e] + [e]
        for lo, hi in zip(points, points[1:]):
            flag = any(nb <= lo and hi <= ne for nb, ne in nm)
            if pieces and pieces[-1][1] == lo and pieces[-1][2] == flag:
                pieces[-1][1] = hi
            else:
                pieces.append([lo, hi, flag])
    lines = [(b, 0, 'memory %#x %#x' % (b, e - b)) for b, e, _ in pieces]
    lines += [(b, 1, 'reserved %#x %#x' % (b, e - b))
              for b, e in union(reserved)]
    return [t for _, _, t in sorted(lines)]


def actual(memmap, path):
    r = subprocess.run([memmap, '--regions', path], capture_output=True,
                       text=True)
    return r.returncode, r.stdout.splitlines(), r.stderr.strip()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    memmap, files = sys.argv[1], sys.argv[2:]
    ktap = KtapWriter(len(files))
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            path = f
            if f.endswith('.gz'):
                path = os.path.join(tmp, os.path.basename(f)[:-3])
                with gzip.open(f) as src, open(path, 'wb') as dst:
                    dst.write(src.read())
            want_rc, want = expected(path)
            rc, got, err = actual(memmap, path)
            ok = rc == want_rc and (rc != 0 or got == want)
            if not ok:
                ktap.diag('%s: expected exit %d, memmap exited %d' %
                          (f, want_rc, rc))
                ktap.diag('\n'.join(['  want: ' + line for line in want] +
                                    ['  got:  ' + line for line in got]))
                if err:
                    ktap.diag('  stderr: ' + err.splitlines()[-1])
            ktap.result(ok, os.path.basename(f))
    sys.exit(ktap.status())

if __name__ == '__main__':
    main()
