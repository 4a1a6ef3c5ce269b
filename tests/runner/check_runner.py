#!/usr/bin/env python3
"""check_runner.py - prove the runner fails what must fail (`make check-runner`).

For every target it builds the images of tests/selftest/fault.c, which
misbehave on purpose, plus one clean image, and boots them all through
bbtest, the runner `make test` uses. Each fault must be reported as a
failure for its own reason; the clean image must pass (a runner that fails
everything proves nothing); and bbtest must end with a totals line that
counts the failures and a non-zero exit status. The failing image also
boots through each loader a target has besides QEMU's -kernel (U-Boot,
GRUB: `make print-boots`), whose firmware prints a console of its own
before the kernel: it must fail there too. On aarch64 the clean image also
boots a device tree whose /reserved-memory covers all of RAM: the boot must
stop with one "no usable memory" panic and the fail status.

Prints KTAP version 1, one case per target and image, and the inner
runner's output as diagnostics. BBTEST_CHECK_ARCHES="riscv64 ..." limits the
targets (default: all of them, from `make print-arches`).
"""

import json
import os
import re
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.realpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from jobs import make_env  # noqa: E402

WORK_DIR = os.path.join("build", "check-runner")
# Seconds a fault image may run: long enough for any boot, short enough
# that the hang costs little.
FAULT_TIMEOUT = 10
# Each fault kind, and what the runner's reason must say about it.
FAULTS = {
    "fail": "not ok: fault_fails_on_purpose",
    "hang": "timeout",
    "exception": "unexpected exception",
    "early-poweroff": "missing plan",
}
# Through a loader, the image that fails one case; a loader takes seconds
# to reach the kernel, and the image ends the run as soon as it has failed.
LOADER_FAULT = "fail"
LOADER_TIMEOUT = 60
# A machine with no usable memory (mk/selftest.mk builds its DTB).
NO_MEMORY_ARCH = "aarch64"
NO_MEMORY_REASONS = ("the guest reported FAIL",
                     "panic: 'PANIC: no usable memory")


def arches() -> list[str]:
    chosen = os.environ.get("BBTEST_CHECK_ARCHES", "").split()
    if chosen:
        return chosen
    done = subprocess.run(["make", "-s", "--no-print-directory",
                           "print-arches"], stdout=subprocess.PIPE,
                          text=True, env=make_env(), check=True)
    return done.stdout.split()


def loaders(arch: str) -> list[str]:
    """The boot paths of arch other than QEMU's -kernel (BOOT=direct)."""
    done = subprocess.run(["make", "-s", "--no-print-directory",
                           f"ARCH={arch}", "print-boots"],
                          stdout=subprocess.PIPE, text=True, env=make_env(),
                          check=True)
    return [b for b in done.stdout.split() if b != "direct"]


def no_memory_dtb() -> str:
    """Build the all-reserved DTB; return its path."""
    done = subprocess.run(["make", "-s", "--no-print-directory",
                           "print-no-memory-dtb"], stdout=subprocess.PIPE,
                          text=True, env=make_env(), check=True)
    path = done.stdout.strip()
    subprocess.run(["make", "-s", "--no-print-directory", path],
                   env=make_env(), check=True)
    return path


def write_matrix(path: str, targets: dict[str, list[str]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        if NO_MEMORY_ARCH in targets:
            f.write(f"check-runner-{NO_MEMORY_ARCH}-no-memory "
                    f"ARCH={NO_MEMORY_ARCH} PAGE_SIZE=4K MEM=128M "
                    f"TIMEOUT={FAULT_TIMEOUT} "
                    f"QEMU_EXTRA=\"-dtb {no_memory_dtb()}\"\n")
        for arch, boots in targets.items():
            f.write(f"check-runner-{arch}-clean ARCH={arch} PAGE_SIZE=4K\n")
            for kind in FAULTS:
                f.write(f"check-runner-{arch}-{kind} ARCH={arch} PAGE_SIZE=4K "
                        f"FAULT={kind} TIMEOUT={FAULT_TIMEOUT}\n")
            for boot in boots:
                f.write(f"check-runner-{arch}-{boot}-{LOADER_FAULT} "
                        f"ARCH={arch} PAGE_SIZE=4K BOOT={boot} "
                        f"FAULT={LOADER_FAULT} TIMEOUT={LOADER_TIMEOUT}\n")


class Ktap:
    def __init__(self, planned: int) -> None:
        print(f"KTAP version 1\n1..{planned}", flush=True)
        self.number = 0
        self.failed = 0

    def result(self, ok: bool, name: str, why: str = "") -> None:
        self.number += 1
        self.failed += not ok
        if not ok and why:
            print(f"# {name}: {why}")
        print(f"{'' if ok else 'not '}ok {self.number} {name}", flush=True)


def main() -> int:
    # Told to stop, let the inner bbtest (which got the same SIGTERM) stop
    # the guests it started, and report what it got to.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    os.chdir(REPO)
    os.makedirs(WORK_DIR, exist_ok=True)
    targets = {arch: loaders(arch) for arch in arches()}
    matrix_path = os.path.join(WORK_DIR, "matrix.txt")
    report_path = os.path.join(WORK_DIR, "report.json")
    write_matrix(matrix_path, targets)
    if os.path.exists(report_path):
        os.remove(report_path)
    faults = sum(len(FAULTS) + len(boots) for boots in targets.values())
    faults += NO_MEMORY_ARCH in targets
    ktap = Ktap(len(targets) + faults + 1)

    done = subprocess.run([os.path.join(HERE, "bbtest"), "test", "--matrix",
                           matrix_path, "--json", report_path],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    lines = done.stdout.splitlines()
    for line in lines:
        print(f"# | {line}")
    results = {}
    if os.path.exists(report_path):
        with open(report_path, encoding="utf-8") as f:
            results = {r["name"]: r for r in json.load(f)}

    for arch, boots in targets.items():
        clean = results.get(f"check-runner-{arch}-clean")
        ktap.result(bool(clean and clean["ok"]), f"runner_passes_{arch}_clean",
                    "the clean image did not pass: "
                    f"{clean['reasons'] if clean else 'no result'}")
        failures = [(kind, kind, (expected,))
                    for kind, expected in FAULTS.items()]
        failures += [(f"{boot}-{LOADER_FAULT}", f"{boot}_{LOADER_FAULT}",
                      (FAULTS[LOADER_FAULT],)) for boot in boots]
        if arch == NO_MEMORY_ARCH:
            failures.append(("no-memory", "no_memory", NO_MEMORY_REASONS))
        for run, case, expected in failures:
            got = results.get(f"check-runner-{arch}-{run}")
            reasons = "; ".join(got["reasons"]) if got else ""
            ok = bool(got and not got["ok"] and got["failed"] >= 1
                      and all(e in reasons for e in expected))
            ktap.result(ok, f"runner_fails_{arch}_{case.replace('-', '_')}",
                        f"expected a failure saying '{' and '.join(expected)}', got "
                        f"{reasons or 'a pass' if got else 'no result'}")

    totals = re.fullmatch(r"(\d+) passed, (\d+) failed(, \d+ skipped)?",
                          lines[-1] if lines else "")
    ok = bool(totals and int(totals.group(2)) >= faults
              and done.returncode != 0)
    ktap.result(ok, "runner_totals_count_every_failure",
                f"expected a last line 'N passed, >={faults} failed' and a "
                f"non-zero exit status, got {lines[-1:]} and "
                f"{done.returncode}")
    return 1 if ktap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
