#!/usr/bin/env python3
"""check-paths.py - every repository path named in a comment or a doc exists.

Reads every file git tracks (text only): documents whole, code only in
its comments (C: after /* or //, and "*" lines; make, shell, Python:
after #). It finds the words that look like paths inside this repository: they start with one of its top-level
folders (arch/, boot/, docs/, ...) and name a file or folder. Each must
exist in the tree (a header may be named as #include names it,
<arch/mmu.h> for include/arch/mmu.h). Not checked: patterns and placeholders (a word with
<, *, $, %, { or [), paths under build/ (made by the build), and paths of
other projects, which a line says by naming them just before the path
("Linux's mm/memblock.c"): see FOREIGN; and the example target of
docs/porting.md.

One more case: the product includes no test code. The product is arch/,
boot/, drivers/, lib/, mm/, platform/, smp/ and include/ less the test harness (lib/selftest/,
include/selftest/) and the arch test services (include/arch/test_services.h,
arch/<arch>/test_services.c); none of its files may #include a path
under tests/, the harness's headers or the test services' header. Test
images reach the product through boot/selftests.h only.

Prints KTAP (one case per file that names paths, and the product case);
exits 0 iff all exist and the product includes no test code.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "..", "tests", "runner"))
from ktap import KtapWriter  # noqa: E402

ROOTS = ("arch", "boards", "boot", "bench", "docs", "drivers", "include",
         "lib", "linker", "mk", "mm", "platform", "scripts", "smp", "tests",
         "tools")
PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w.+/-]*[\w/])" % "|".join(ROOTS))
# A path on a line that first names another project is that project's.
FOREIGN = re.compile(r"\b(Linux|Linux's|kernel\.org|U-Boot's|QEMU's|lk|"
                     r"xv6|xv6-riscv|Debian's|glibc|jemalloc|mimalloc|"
                     r"OpenSBI's|GRUB's|dtc's|KUnit)\b")
PLACEHOLDER = re.compile(r"[<*$%{\[]")
# The new target docs/porting.md walks through, which does not exist.
EXAMPLE = "loongarch64"


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], stdout=subprocess.PIPE,
                         check=True).stdout
    return [p for p in out.decode().split("\0") if p]


C_LIKE = (".c", ".h", ".S", ".ld", ".dts", ".cocci")
DOCS = (".md", ".txt", ".in")


def comment_of(path: str, line: str) -> str:
    """The part of a line that is comment (all of it, in a document)."""
    if path.endswith(DOCS):
        return line
    if path.endswith(C_LIKE):
        stripped = line.lstrip()
        if stripped.startswith("*"):
            return stripped
        cut = [i for i in (line.find("/*"), line.find("//")) if i >= 0]
        return line[min(cut):] if cut else ""
    cut = line.find("#")
    return line[cut:] if cut >= 0 else ""


def names_in(path: str) -> list[tuple[int, str]]:
    """(line number, path) of each repository path the file's comments
    (or, for a document, its text) name."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        return []
    found = []
    for number, line in enumerate(lines, 1):
        line = comment_of(path, line)
        for m in PATH.finditer(line):
            word = m.group(1)
            end = m.end(1)
            if end < len(line) and line[end] in "-<*$%{[":
                continue    # a pattern: docs/performance-*.png
            if FOREIGN.search(line[max(0, m.start(1) - 24):m.start(1)]):
                continue
            if PLACEHOLDER.search(word) or EXAMPLE in word:
                continue
            found.append((number, word.rstrip(".")))
    return found


def exists(word: str, present: set[str], folders: set[str]) -> bool:
    """A file or folder of the tree, or a header as #include names it."""
    return any(w in present or w in folders
               for w in (word, "include/" + word))


PRODUCT = ("arch/", "boot/", "drivers/", "include/", "lib/", "mm/",
           "platform/", "smp/")
TEST_PARTS = ("lib/selftest/", "include/selftest/",
              "include/arch/test_services.h")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def is_test_include(target: str) -> bool:
    """An #include of test code: tests/, the harness, the test services."""
    return ("tests/" in target or target.startswith("selftest/")
            or target == "arch/test_services.h")


def product_test_includes(files: list[str]) -> list[str]:
    """"file:line: #include" for each include of test code in the product."""
    found = []
    for path in files:
        if (not path.startswith(PRODUCT) or path.startswith(TEST_PARTS)
                or os.path.basename(path).startswith("test_services.")
                or not path.endswith((".c", ".h", ".S"))):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and is_test_include(m.group(1)):
                    found.append(f"{path}:{number}: {m.group(1)}")
    return found


def main() -> int:
    os.chdir(os.path.join(os.path.dirname(os.path.realpath(__file__)),
                          "..", ".."))
    files = tracked()
    present = set(files)
    folders = {os.path.dirname(p) for p in files}
    while "" not in folders:
        folders |= {os.path.dirname(d) for d in folders}
    checked = [(p, names_in(p)) for p in files]
    checked = [(p, n) for p, n in checked if n]
    ktap = KtapWriter(len(checked) + 1)
    for path, names in checked:
        missing = [f"{path}:{line}: {word}" for line, word in names
                   if not exists(word.rstrip("/"), present, folders)]
        ktap.result(not missing, path, "\n".join(
            ["names paths that are not in the tree:"] + missing))
    offenders = product_test_includes(files)
    ktap.result(not offenders, "product_includes_no_test_code", "\n".join(
        ["product code includes test code:"] + offenders))
    return ktap.status()


if __name__ == "__main__":
    sys.exit(main())
