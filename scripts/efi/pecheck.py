#!/usr/bin/env python3
"""pecheck.py - is this file a PE32+ EFI application a UEFI loader takes?

usage: pecheck.py [--machine x86_64|aarch64|riscv64] FILE...

Checks, and names the first problem of each file:
  - the DOS header ("MZ", e_lfanew inside the file, 8-byte aligned) and
    the "PE\\0\\0" signature;
  - the COFF header: the machine, at least one section, an executable
    image, relocations not stripped (UEFI loads the image where it likes),
    an optional header of the PE32+ size;
  - the PE32+ optional header: magic 0x20b, subsystem 10 (EFI
    application), FileAlignment a power of two 512..64K, SectionAlignment
    a power of two >= FileAlignment, SizeOfHeaders covering the headers
    and a multiple of FileAlignment, SizeOfImage a multiple of
    SectionAlignment;
  - the sections: in address order, not overlapping, each VirtualAddress
    aligned to SectionAlignment and at or above SizeOfHeaders, raw data
    aligned to FileAlignment and inside the file, every section inside
    SizeOfImage;
  - the entry point inside an executable section;
  - every data directory inside the image; the base relocation blocks,
    if any, whole, with page RVAs inside the image and known types.
Prints one line per file; exit status 1 if any file fails.
"""
import struct
import sys

MACHINES = {'x86_64': 0x8664, 'aarch64': 0xaa64, 'riscv64': 0x5064}
IMAGE_FILE_RELOCS_STRIPPED = 0x0001
IMAGE_FILE_EXECUTABLE_IMAGE = 0x0002
SCN_MEM_EXECUTE = 0x20000000
SCN_CNT_CODE = 0x00000020
REL_TYPES = {0, 3, 10}		# ABSOLUTE (padding), HIGHLOW, DIR64


class Bad(Exception):
    pass


def need(cond, why):
    if not cond:
        raise Bad(why)


def pow2(v):
    return v and not v & (v - 1)


def check(data, machine=None):
    need(len(data) >= 64 and data[:2] == b'MZ', 'no "MZ" DOS header')
    pe = struct.unpack_from('<I', data, 0x3c)[0]
    need(pe % 8 == 0 and pe + 24 <= len(data),
         'e_lfanew %#x is not 8-byte aligned inside the file' % pe)
    need(data[pe:pe + 4] == b'PE\0\0', 'no "PE\\0\\0" signature at %#x' % pe)
    (mach, nsec, _, _, _, opt_size,
     chars) = struct.unpack_from('<HHIIIHH', data, pe + 4)
    if machine:
        need(mach == MACHINES[machine], 'machine %#x, not %s (%#x)' %
             (mach, machine, MACHINES[machine]))
    need(nsec >= 1, 'no sections')
    need(chars & IMAGE_FILE_EXECUTABLE_IMAGE, 'not an executable image')
    need(not chars & IMAGE_FILE_RELOCS_STRIPPED,
         'relocations stripped: the loader could only load it at ImageBase')
    opt = pe + 24
    need(opt_size >= 112 and opt + opt_size <= len(data),
         'optional header size %d' % opt_size)
    magic = struct.unpack_from('<H', data, opt)[0]
    need(magic == 0x20b, 'optional header magic %#x, not PE32+ (0x20b)' % magic)
    entry = struct.unpack_from('<I', data, opt + 16)[0]
    image_base, sec_align, file_align = struct.unpack_from('<QII', data,
                                                           opt + 24)
    size_image, size_headers = struct.unpack_from('<II', data, opt + 56)
    subsystem = struct.unpack_from('<H', data, opt + 68)[0]
    ndirs = struct.unpack_from('<I', data, opt + 108)[0]
    need(subsystem == 10, 'subsystem %d, not an EFI application (10)' %
         subsystem)
    need(pow2(file_align) and 512 <= file_align <= 65536,
         'FileAlignment %#x' % file_align)
    need(pow2(sec_align) and sec_align >= file_align,
         'SectionAlignment %#x below FileAlignment %#x' % (sec_align,
                                                          file_align))
    need(image_base % 65536 == 0 or image_base % sec_align == 0,
         'ImageBase %#x not aligned' % image_base)
    need(112 + 8 * ndirs <= opt_size, '%d data directories do not fit the '
         'optional header' % ndirs)
    sec_table = opt + opt_size
    need(sec_table + 40 * nsec <= size_headers,
         'SizeOfHeaders %#x does not cover the section table' % size_headers)
    need(size_headers % file_align == 0,
         'SizeOfHeaders %#x is not a multiple of FileAlignment' % size_headers)
    need(size_image % sec_align == 0,
         'SizeOfImage %#x is not a multiple of SectionAlignment' % size_image)

    sections, prev_end, entry_ok = [], 0, False
    for i in range(nsec):
        (name, vsize, va, raw_size, raw_ptr) = struct.unpack_from(
            '<8sIIII', data, sec_table + 40 * i)
        flags = struct.unpack_from('<I', data, sec_table + 40 * i + 36)[0]
        name = name.rstrip(b'\0').decode('ascii', 'replace')
        need(va % sec_align == 0, 'section %s at %#x is not aligned to '
             'SectionAlignment %#x' % (name, va, sec_align))
        need(va >= size_headers and va >= prev_end, 'section %s at %#x '
             'overlaps the headers or the section before' % (name, va))
        end = va + max(vsize, raw_size if not vsize else 0)
        need(end <= size_image, 'section %s ends at %#x, past SizeOfImage '
             '%#x' % (name, end, size_image))
        if raw_size:
            need(raw_ptr % file_align == 0 and raw_size % file_align == 0,
                 'section %s raw data %#x+%#x not aligned to FileAlignment' %
                 (name, raw_ptr, raw_size))
            need(raw_ptr + raw_size <= len(data), 'section %s raw data runs '
                 'past the end of the file' % name)
        if va <= entry < end and flags & (SCN_MEM_EXECUTE | SCN_CNT_CODE):
            entry_ok = True
        sections.append((name, va, end))
        prev_end = end
    need(entry_ok, 'entry point %#x is in no executable section' % entry)

    for d in range(ndirs):
        rva, size = struct.unpack_from('<II', data, opt + 112 + 8 * d)
        if d == 4:		# the certificate table holds file offsets
            continue
        need(not size or rva + size <= size_image,
             'data directory %d [%#x+%#x) is outside the image' %
             (d, rva, size))
    nrel = 0
    if ndirs > 5:
        rva, size = struct.unpack_from('<II', data, opt + 112 + 40)
        nrel = check_relocs(data, sections, rva, size, size_image)
    return 'PE32+ EFI application, machine %#x, %d sections, %d base ' \
           'relocations, entry %#x' % (mach, nsec, nrel, entry)


def check_relocs(data, sections, rva, size, size_image):
    """The relocation blocks at image RVA rva, read through the file."""
    if not size:
        return 0
    raw = rva_bytes(data, rva, size)
    need(raw is not None, 'base relocations at %#x are not in the file' % rva)
    at, count = 0, 0
    while at < size:
        need(at + 8 <= size, 'a truncated base relocation block')
        page, block = struct.unpack_from('<II', raw, at)
        need(block >= 8 and block % 2 == 0 and at + block <= size,
             'base relocation block size %d' % block)
        need(page % 4096 == 0 and page < size_image,
             'base relocation page %#x' % page)
        for off in range(at + 8, at + block, 2):
            v = struct.unpack_from('<H', raw, off)[0]
            need(v >> 12 in REL_TYPES, 'base relocation type %d' % (v >> 12))
            need(v >> 12 == 0 or page + (v & 0xfff) < size_image,
                 'a base relocation outside the image')
            count += v >> 12 != 0
        at += block
    return count


def rva_bytes(data, rva, size):
    pe = struct.unpack_from('<I', data, 0x3c)[0]
    nsec, opt_size = struct.unpack_from('<H', data, pe + 6)[0], \
        struct.unpack_from('<H', data, pe + 20)[0]
    table = pe + 24 + opt_size
    for i in range(nsec):
        _, vsize, va, raw_size, raw_ptr = struct.unpack_from(
            '<8sIIII', data, table + 40 * i)
        if va <= rva and rva + size <= va + raw_size:
            return data[raw_ptr + rva - va:raw_ptr + rva - va + size]
    return None


def main():
    args = sys.argv[1:]
    machine = None
    if args[:1] == ['--machine'] and len(args) >= 2:
        machine, args = args[1], args[2:]
        if machine not in MACHINES:
            sys.exit('pecheck: unknown machine %s' % machine)
    if not args:
        sys.exit(__doc__)
    status = 0
    for path in args:
        with open(path, 'rb') as f:
            data = f.read()
        try:
            print('%s: %s' % (path, check(data, machine)))
        except (Bad, struct.error) as e:
            print('%s: not a valid EFI application: %s' % (path, e))
            status = 1
    sys.exit(status)


if __name__ == '__main__':
    main()
