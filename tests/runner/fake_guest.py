#!/usr/bin/env python3
"""fake_guest.py - stand-ins for a guest on a serial console, for the runner's
unit tests: each scenario prints what a real guest or firmware might, with
"\\r\\n" line ends, and then exits with a chosen status, hangs or dies.

    fake_guest.py SCENARIO [EXIT_STATUS]

EXIT_STATUS (default 33, QEMU's PASS) is the status a scenario ends with
when it ends normally. FAKE_GUEST_PIDFILE, when set, receives the pid of a
child a hanging scenario leaves behind, so a test can check it was killed.
FAKE_GUEST_BOOTS, when set, names a file that counts the boots of a
scenario that behaves differently on a later one.
"""

import os
import signal
import subprocess
import sys
import time

AAVMF = ["UEFI firmware (version  built at 13:10:49 on Nov  5 2024)"]
OPENSBI = ["", "OpenSBI v1.1", "Platform Name             : riscv-virtio,qemu",
           "Domain0 Next Address      : 0x0000000080200000", ""]
SEABIOS = "\x1bc\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2-debian-1.16.2-1)"


def out(*lines: str) -> None:
    for line in lines:
        sys.stdout.buffer.write(line.encode() + b"\r\n")
    sys.stdout.flush()


def ktap(*results: str, plan: int | None = None) -> None:
    out("KTAP version 1", f"1..{len(results) if plan is None else plan}",
        *results)


def three_ok() -> None:
    ktap("ok 1 alpha", "ok 2 beta", "ok 3 gamma")


def leave_child_and_hang() -> None:
    child = subprocess.Popen(["sleep", "1000"], stdout=subprocess.DEVNULL)
    pidfile = os.environ.get("FAKE_GUEST_PIDFILE")
    if pidfile:
        with open(pidfile, "w") as f:
            f.write(str(child.pid))
    while True:
        time.sleep(1)


def count_boot() -> int:
    """This boot's number, from 1, kept in FAKE_GUEST_BOOTS."""
    path = os.environ["FAKE_GUEST_BOOTS"]
    try:
        with open(path) as f:
            boots = int(f.read()) + 1
    except FileNotFoundError:
        boots = 1
    with open(path, "w") as f:
        f.write(str(boots))
    return boots


def stall_once(*results: str) -> None:
    """The firmware's banner; on the first boot a hang, on a later one the
    kernel's first line and @results."""
    out(*AAVMF)
    if count_boot() == 1:
        leave_child_and_hang()
    out("buddyboot: EFI entry")
    ktap(*results)


def scenario(name: str) -> None:
    """Play one scenario; return to end with the exit status given, or
    never return (hang, die)."""
    if name == "pass":
        out(*OPENSBI, "buddyboot riscv64: PAGE_SIZE=4096")
        three_ok()
        out("# selftests: 3 passed, 0 failed, 3 planned")
    elif name == "seabios-noise":
        sys.stdout.buffer.write(SEABIOS.encode() + b"\r\n\x00\xff\xfe garbage"
                                b" \x1b[1;31mred\x1b[0m\r\n\x1b]0;title\x07")
        three_ok()
    elif name == "ok-before-header":
        out("ok 1 firmware says ok", "1..1", "not ok 7 firmware noise")
        three_ok()
    elif name == "noise-looks-complete":
        out("1..1", "ok 1 from firmware")
        ktap("ok 1 alpha", plan=3)
    elif name == "full":
        three_ok()
    elif name == "smp-4-online":
        out("smp: 4 of 4 CPUs online: cpu0=0x0 (boot) cpu1=0x1 cpu2=0x2 "
            "cpu3=0x3")
        three_ok()
    elif name == "smp-1-online":
        out("smp: 1 of 1 CPUs online: cpu0=0x0 (boot)")
        three_ok()
    elif name == "no-plan":
        out("KTAP version 1", "ok 1 alpha", "ok 2 beta")
    elif name == "no-header":
        out("1..2", "ok 1 alpha", "ok 2 beta")
    elif name == "empty-plan":
        ktap()
    elif name == "nothing":
        pass
    elif name == "short":
        ktap("ok 1 alpha", "ok 2 beta", plan=3)
    elif name == "extra":
        ktap("ok 1 alpha", "ok 2 beta", "ok 3 gamma", plan=2)
    elif name == "not-ok":
        ktap("ok 1 alpha", "not ok 2 beta", "# beta: mm/page_alloc.c:12: lost a page",
             "ok 3 gamma", plan=3)
    elif name == "duplicate":
        ktap("ok 1 alpha", "ok 1 alpha", "ok 3 gamma")
    elif name == "out-of-order":
        ktap("ok 2 beta", "ok 1 alpha")
    elif name == "late-plan":
        out("KTAP version 1", "ok 1 alpha", "1..1")
    elif name == "second-header":
        three_ok()
        three_ok()
    elif name == "skip":
        ktap("ok 1 alpha", "ok 2 beta # SKIP needs 2 CPUs", "ok 3 gamma")
    elif name == "coloured":
        out("KTAP version 1", "\x1b[0m1..2", "\x1b[32mok 1 alpha\x1b[0m",
            "ok 2 beta\x1b[K")
    elif name == "no-final-newline":
        out("KTAP version 1", "1..2", "ok 1 alpha")
        sys.stdout.write("ok 2 beta")
    elif name == "byte-by-byte":
        for byte in b"junk\r\nKTAP version 1\r\n1..2\r\nok 1 a\r\nok 2 b\r\n":
            sys.stdout.buffer.write(bytes([byte]))
            sys.stdout.flush()
    elif name == "exception":
        ktap("ok 1 alpha", plan=3)
        out("EXCEPTION: scause=0x2 sepc=0x80201234 stval=0x0",
            "  ra 0x80200010")
    elif name == "exception-before-ktap":
        out(*OPENSBI, "EXCEPTION: store fault at 0x0 before the selftests")
    elif name == "exception-then-all-ok":
        out("EXCEPTION: vector 14 (page fault) cr2=0x0")
        three_ok()
    elif name == "panic":
        ktap("ok 1 alpha", plan=3)
        out("PANIC: memblock: no memory at all")
    elif name == "panic-mid-line":
        ktap("ok 1 alpha", plan=3)
        out("checking order 3PANIC: page_alloc: free list 3 is corrupt")
    elif name == "diagnostic-quotes-markers":
        ktap("ok 1 alpha", "# | reason: 'EXCEPTION: breakpoint at pc 0x0'",
             "# | PANIC: in a nested run", "ok 2 beta", plan=2)
    elif name == "not-ok-skip":
        ktap("ok 1 alpha", "not ok 2 beta # SKIP not really", "ok 3 gamma")
    elif name == "subtest-fails":
        out("KTAP version 1", "1..2", "    KTAP version 1", "    1..2",
            "    ok 1 inner_a", "    not ok 2 inner_b", "ok 1 outer",
            "ok 2 beta")
    elif name == "subtest-skip-not-ok":
        out("KTAP version 1", "1..1", "    KTAP version 1", "    1..1",
            "    not ok 1 inner # SKIP", "ok 1 outer")
    elif name == "subtests-pass":
        out("KTAP version 1", "1..1", "    KTAP version 1", "    1..2",
            "    ok 1 inner_a", "    ok 2 inner_b # SKIP no CPU", "ok 1 outer")
    elif name == "non-ascii-digits":
        # U+0661 and U+0662: Arabic-Indic one and two.
        out("KTAP version 1", "1..2", "ok 1 alpha", "ok \u0662 beta")
    elif name == "non-ascii-plan":
        out("KTAP version 1", "1..\u0661", "ok 1 alpha")
    elif name == "repeated-last":
        ktap("ok 1 alpha", "ok 2 beta", "ok 2 beta", plan=3)
    elif name == "all-skipped":
        ktap("ok 1 alpha # SKIP no firmware", "ok 2 beta # SKIP no CPU")
    elif name == "split-not-ok":
        out("KTAP version 1", "1..2", "ok 1 alpha")
        sys.stdout.buffer.write(b"not ")
        out("", "[ 1.234] timer: noise from another CPU", "ok 2 beta")
    elif name == "split-not-ok-bare":
        out("KTAP version 1", "1..2", "ok 1 alpha")
        sys.stdout.buffer.write(b"not \r\nok 2 beta\r\n")
    elif name == "panic-in-diagnostic":
        ktap("ok 1 alpha", "# checking order 3PANIC: free list corrupt",
             "ok 2 beta", plan=2)
    elif name == "exception-in-diagnostic":
        ktap("ok 1 alpha", "# alpha: dumpingEXCEPTION: scause=0x5",
             "ok 2 beta", plan=2)
    elif name == "long-line":
        out("KTAP version 1", "1..1")
        chunk = b"x" * (1 << 20)
        for _ in range(150):
            sys.stdout.buffer.write(chunk)
        out("", "ok 1 alpha")
    elif name == "qemu-error":
        sys.stderr.write("qemu-system-riscv64: -m 1T: ram size too large\n")
    elif name == "kill9":
        ktap("ok 1 alpha", plan=3)
        os.kill(os.getpid(), signal.SIGKILL)
    elif name == "hang":
        ktap("ok 1 alpha", plan=3)
        leave_child_and_hang()
    elif name == "hang-after-all":
        three_ok()
        leave_child_and_hang()
    elif name == "silent-hang":
        leave_child_and_hang()
    elif name == "firmware-stall":
        out(*AAVMF)
        leave_child_and_hang()
    elif name == "firmware-stall-once":
        stall_once("ok 1 alpha", "ok 2 beta", "ok 3 gamma")
    elif name == "firmware-stall-then-fail":
        stall_once("ok 1 alpha", "not ok 2 beta", "ok 3 gamma")
    elif name == "kernel-hang-once":
        out(*AAVMF, "buddyboot: EFI entry")
        if count_boot() == 1:
            leave_child_and_hang()
        three_ok()
    elif name == "kernel-says-buddyboot-late":
        out(*AAVMF, "loading buddyboot.efi", "  buddyboot: indented")
        leave_child_and_hang()
    elif name == "no-exit-pass":
        three_ok()
        out("poweroff: PASS; no exit device on this board")
        leave_child_and_hang()
    elif name == "no-exit-fail":
        ktap("ok 1 alpha", "not ok 2 beta", "ok 3 gamma")
        out("poweroff: FAIL; no exit device on this board")
        leave_child_and_hang()
    elif name == "no-exit-says-fail":
        three_ok()
        out("poweroff: FAIL; no exit device on this board")
        leave_child_and_hang()
    elif name == "no-exit-short":
        ktap("ok 1 alpha", plan=3)
        out("poweroff: PASS; no exit device on this board")
        leave_child_and_hang()
    elif name == "child-holds-pipe":
        three_ok()
        subprocess.Popen(["sleep", "1000"])
    elif name == "needs-stdin":
        try:
            os.fstat(0)
        except OSError:
            sys.stderr.write("stdin is closed\n")
            sys.exit(1)
        three_ok()
    else:
        sys.exit(f"fake_guest.py: no scenario {name!r}")


if __name__ == "__main__":
    scenario(sys.argv[1])
    sys.exit(int(sys.argv[2]) if len(sys.argv) > 2 else 33)
