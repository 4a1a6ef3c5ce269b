#!/usr/bin/env python3
"""acpi_expect.py - check memmap on ACPI MADT, SRAT and SLIT dumps against
ACPICA's own reading of them, as KTAP.

Each MACHINE directory holds what /sys/firmware/acpi/tables/ would: APIC
(the MADT), and SRAT and SLIT when the machine has nodes. The tables are
compiled by iasl from the sources in tests/fixtures/acpi/iasl/ (and from
iasl's own templates, `iasl -T`), or captured from a machine. Each table
is disassembled with `iasl -d`, and what the kernel should make of it is
worked out here from ACPICA's field names and values, independently of
the C readers:

  - the CPUs the kernel would start: the MADT's Local APIC, x2APIC and
    GICC entries that are enabled (or online capable, MADT revision 5 and
    later, for the x86 ones) and not an invalid id, each id once, the
    first usable one taken for the boot CPU, as memmap does;
  - the SRAT's memory ranges with their nodes (enabled, not
    hot-pluggable; proximity domains become node ids in ascending order;
    8-bit domains before SRAT revision 2), each CPU's node (GICC Affinity
    entries by the MADT's processor UID), and the SLIT's distances.

memmap must print exactly that: `memmap --madt APIC [--slit SLIT] SRAT`
(or, without an SRAT, MEMORY_MAP as FILE). Damaged copies of each MADT
(a zero-length entry, an entry past the end, a GICC or x2APIC entry cut
short, a bad checksum) and the SRAT given as a MADT must be refused with
exit 1 and the reader's message.

usage: acpi_expect.py MEMMAP MEMORY_MAP MACHINE_DIR...
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "runner"))
from ktap import KtapWriter  # noqa: E402

NR_CPUS = 64
FIELD = re.compile(r'^\[[0-9A-Fa-f]+h [0-9]+ +[0-9]+\]\s+(.*?) : (.*)$')


def disassemble(path, tmp):
    """iasl's reading of the table at @path: (header fields, subtables),
    each a dict of field name to value text, in order."""
    base = os.path.join(tmp, os.path.basename(path) + '-' +
                        os.path.basename(os.path.dirname(path)))
    subprocess.run(['iasl', '-d', '-p', base, path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = open(base + '.dsl').read().replace('\\\n', ' ')
    header, subs, cur = {}, [], None
    for line in text.splitlines():
        m = FIELD.match(line.strip()) if line.startswith('[') else None
        if not m:
            continue
        name, value = m.group(1).strip(), m.group(2).strip()
        if name == 'Subtable Type':
            cur = {}
            subs.append(cur)
        target = cur if cur is not None else header
        target.setdefault(name, value)
    return header, subs


def num(value):
    """The leading hex number of an iasl field value."""
    return int(value.split()[0], 16)


def madt_cpus(header, subs):
    """(list of (hwid, method), unusable count) as the kernel lists them,
    the first usable CPU taken for the boot CPU."""
    rev = num(header['Revision'])
    entries = []
    for s in subs:
        kind = num(s['Subtable Type'])
        if kind in (0, 9):
            ident = num(s['Local Apic ID'] if kind == 0 else
                        s['Processor x2Apic ID'])
            flags = num(s['Flags (decoded below)'])
            valid = ident != (0xff if kind == 0 else 0xffffffff)
            usable = valid and bool(flags & 1 or (rev >= 5 and flags & 2))
            entries.append((ident, 'INIT-SIPI-SIPI', valid, usable))
        elif kind == 11:
            ident = num(s['ARM MPIDR']) & 0xff00ffffff
            usable = bool(num(s['Flags (decoded below)']) & 1)
            entries.append((ident, 'PSCI CPU_ON', True, usable))
    boot = next((e[0] for e in entries if e[3]), None)
    cpus = [(boot, 'the boot CPU')] if boot is not None else []
    unusable, seen, boot_found = 0, set(), False
    for ident, method, valid, usable in entries:
        if valid and ident == boot:
            unusable += boot_found
            boot_found = True
            seen.add(ident)
            continue
        if not usable or ident in seen:
            unusable += 1
            continue
        seen.add(ident)
        cpus.append((ident, method))
    return cpus[:NR_CPUS], unusable, max(0, len(cpus) - NR_CPUS)


def gicc_hwid(madt_subs, uid):
    for s in madt_subs:
        if num(s['Subtable Type']) == 11 and num(s['Processor UID']) == uid:
            return num(s['ARM MPIDR']) & 0xff00ffffff
    return None


def srat_numa(header, subs, madt_subs):
    """(memory ranges as (base, size, node, hotplug), {hwid: node},
    sorted domains) as the kernel reads the SRAT."""
    rev = num(header['Revision'])
    mems, cpus = [], []
    for s in subs:
        kind = num(s['Subtable Type'])
        flags = num(s.get('Flags (decoded below)', '0'))
        if not flags & 1:
            continue
        if kind == 0:
            pxm = num(s['Proximity Domain Low(8)'])
            if rev >= 2:
                pxm |= num(s['Proximity Domain High(24)']) << 8
            cpus.append((num(s['Apic ID']), pxm))
        elif kind == 1:
            pxm = num(s['Proximity Domain']) & (0xff if rev < 2 else ~0)
            size = num(s['Address Length'])
            if size:
                mems.append((num(s['Base Address']), size, pxm,
                             bool(flags & 2)))
        elif kind == 2:
            cpus.append((num(s['Apic ID']), num(s['Proximity Domain'])))
        elif kind == 3 and madt_subs is not None:
            hwid = gicc_hwid(madt_subs, num(s['Acpi Processor UID']))
            if hwid is not None:
                cpus.append((hwid, num(s['Proximity Domain'])))
    domains = sorted({m[2] for m in mems} | {c[1] for c in cpus})
    nid = {d: i for i, d in enumerate(domains)}
    return ([(b, n, nid[p], h) for b, n, p, h in mems],
            {hwid: nid[p] for hwid, p in cpus}, domains)


def slit_rows(path, domains):
    data = open(path, 'rb').read()
    n, = struct.unpack_from('<Q', data, 36)
    return [[data[44 + i * n + j] for j in domains] for i in domains]


def expected_regions(mems):
    """memblock's memory lines: neighbours of one node merge."""
    out = []
    for base, size, node, hot in sorted(m for m in mems if not m[3]):
        if out and out[-1][0] + out[-1][1] == base and out[-1][2] == node:
            out[-1][1] += size
        else:
            out.append([base, size, node])
    return ['memory 0x%x 0x%x node %d' % tuple(m) for m in out]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def check_machine(ktap, memmap, memory_map, d, tmp):
    name = os.path.basename(d.rstrip('/'))
    apic, srat, slit = (os.path.join(d, t) for t in ('APIC', 'SRAT', 'SLIT'))
    has_srat, has_slit = os.path.exists(srat), os.path.exists(slit)
    mh, ms = disassemble(apic, tmp)
    cpus, unusable, over = madt_cpus(mh, ms)
    cmd = [memmap, '--madt', apic] + (['--slit', slit] if has_slit else [])
    cmd.append(srat if has_srat else memory_map)
    rc, out, err = run(cmd)
    ok = rc == 0
    lines = out.splitlines()
    want = ['acpi: MADT revision %d: %d CPUs usable, %d not, %d beyond '
            'NR_CPUS=%d' % (num(mh['Revision']), len(cpus), unusable, over,
                            NR_CPUS)]
    want += ['cpu %d: hwid 0x%x, %s' % (i, h, m)
             for i, (h, m) in enumerate(cpus)]
    got = [line for line in lines
           if line.startswith('acpi: MADT') or line.startswith('cpu ')]
    if ok and got != want:
        ok = False
        err += 'CPUs: got %r, expected %r\n' % (got, want)
    if ok and has_srat:
        sh, ss = disassemble(srat, tmp)
        mems, node_of, domains = srat_numa(sh, ss, ms)
        want = ['numa: cpu %d (hwid 0x%x): node %d' %
                (i, h, node_of.get(h, 0)) for i, (h, _) in enumerate(cpus)]
        got = [line for line in lines if line.startswith('numa: cpu ')]
        if got != want:
            ok = False
            err += 'nodes: got %r, expected %r\n' % (got, want)
        if has_slit:
            rows = slit_rows(slit, domains)
            want = ['numa: distances from node %d: %s' %
                    (i, ' '.join(str(v) for v in r))
                    for i, r in enumerate(rows)]
            got = [line for line in lines
                   if line.startswith('numa: distances')]
            if got != want:
                ok = False
                err += 'distances: got %r, expected %r\n' % (got, want)
        rc, out, err2 = run([memmap, '--madt', apic, '--regions', srat])
        got = [line for line in out.splitlines()
               if line.startswith('memory ')]
        want = expected_regions(mems)
        if rc != 0 or got != want:
            ok = False
            err += 'regions (exit %d): got %r, expected %r\n%s' % (
                rc, got, want, err2)
    ktap.result(ok, name, '' if ok else err)


def damaged(data, tmp, name, edit):
    """@data with @edit applied and its checksum made good again."""
    t = bytearray(data)
    edit(t)
    t[9] = 0
    t[9] = -sum(t[:struct.unpack_from('<I', t, 4)[0]]) & 0xff
    path = os.path.join(tmp, name)
    open(path, 'wb').write(t)
    return path


def first_entry(t, kinds):
    at = 44
    while at + 2 <= len(t):
        if t[at] in kinds:
            return at
        at += max(t[at + 1], 1)
    return None


def check_refusals(ktap, memmap, memory_map, d, tmp):
    name = os.path.basename(d.rstrip('/'))
    data = open(os.path.join(d, 'APIC'), 'rb').read()
    cpu = first_entry(data, (0, 9, 11))

    def zero_length(t):
        t[cpu + 1] = 0

    def past_end(t):
        at = 44
        while at + t[at + 1] < len(t):
            at += t[at + 1]
        t[at + 1] = min(len(t) - at + 8, 0xff)	# the last entry

    def cut_short(t):
        # The last x2APIC or GICC entry one byte short of what its type
        # needs (16, 76 bytes), the table ending with it.
        at, last = 44, None
        while at < len(t):
            if t[at] in (9, 11):
                last = at
            at += t[at + 1]
        n = 15 if t[last] == 9 else 75
        t[last + 1] = n
        del t[last + n:]
        struct.pack_into('<I', t, 4, len(t))

    cases = [('zero-length', zero_length, 'shorter than its own type'),
             ('past-end', past_end, 'runs past the end of the table')]
    if first_entry(data, (9, 11)) is not None:
        cases.append(('cut-short', cut_short, 'too short for its type'))
    for case, edit, words in cases:
        path = damaged(data, tmp, '%s-%s' % (name, case), edit)
        rc, _, err = run([memmap, '--madt', path, memory_map])
        ktap.result(rc == 1 and words in err, '%s_%s' % (name, case),
                    'exit %d: %s' % (rc, err.strip()))
    srat = os.path.join(d, 'SRAT')
    if os.path.exists(srat):
        rc, _, err = run([memmap, '--madt', srat, memory_map])
        ktap.result(rc == 1 and 'not an ACPI APIC table' in err,
                    name + '_srat_as_madt', 'exit %d: %s' % (rc, err.strip()))
    bad = bytearray(data)
    bad[9] ^= 1
    path = os.path.join(tmp, name + '-checksum')
    open(path, 'wb').write(bad)
    rc, _, err = run([memmap, '--madt', path, memory_map])
    ktap.result(rc == 1 and 'bad checksum' in err, name + '_checksum',
                'exit %d: %s' % (rc, err.strip()))


def planned(d):
    """Cases for machine @d: itself, three damaged MADTs (two without an
    x2APIC or GICC entry to cut short), its SRAT as a MADT, a checksum."""
    data = open(os.path.join(d, 'APIC'), 'rb').read()
    return (4 + (first_entry(data, (9, 11)) is not None) +
            os.path.exists(os.path.join(d, 'SRAT')))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    memmap, memory_map, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    for d in dirs:
        if not os.path.isfile(os.path.join(d, 'APIC')):
            sys.exit('acpi_expect.py: %s: no APIC (the MADT) in it; a '
                     'folder as /sys/firmware/acpi/tables, with APIC and '
                     'SRAT and SLIT if any' % d)
    ktap = KtapWriter(sum(planned(d) for d in dirs))
    with tempfile.TemporaryDirectory() as tmp:
        for d in dirs:
            check_machine(ktap, memmap, memory_map, d, tmp)
            check_refusals(ktap, memmap, memory_map, d, tmp)
    return ktap.status()


if __name__ == '__main__':
    sys.exit(main())
