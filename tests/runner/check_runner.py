#!/usr/bin/env python3
"""check_runner.py - prove the runner fails what must fail (`make check-runner`).

For every target it builds the FAULT images (tests/selftest/fault/ and
tests/selftest/variant/early_poweroff.c), which misbehave on purpose,
plus one clean image, and boots them all through
bbtest, the runner `make test` uses. Each fault must be reported as a
failure for its own reason; the clean image must pass (a runner that fails
everything proves nothing); and bbtest must end with a totals line that
counts the failures and a non-zero exit status. The failing image also
boots through each loader a target has besides QEMU's -kernel (U-Boot,
GRUB, UEFI firmware: `make print-boots`), whose firmware prints a console
of its own before the kernel: it must fail there too. On aarch64 the clean
image also boots device trees it must refuse (mk/selftest.mk: all RAM
reserved, 127 /memreserve/ entries): the boot must stop with the fail
status and one "cannot boot: <reason>" line, and no panic.

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
from ktap import KtapWriter  # noqa: E402

WORK_DIR = os.path.join("build", "check-runner")
# Seconds a fault image may run: long enough for any boot, short enough
# that the hang costs little.
FAULT_TIMEOUT = 10
# Each fault kind, and what the runner's reasons must all say about it.
FAULTS = {
    "fail": ("not ok: ", "fault_fails_on_purpose", "fault_fails_then_skips"),
    "hang": ("timeout",),
    "exception": ("unexpected exception",),
    "early-poweroff": ("missing plan",),
}
# The targets that start secondary CPUs, for the image where CPU 1 takes
# an exception: the runner must fail it with a reason that names CPU 1
# (its marker line, "EXCEPTION: cpu 1 (hart, mpidr or APIC id ...): ...",
# is quoted in it).
SECONDARY_FAULT = "secondary-exception"
SECONDARY_FAULT_ARCHES = ("riscv64", "aarch64", "x86_64")
SECONDARY_FAULT_EXPECTED = ("unexpected exception: 'EXCEPTION: cpu 1 ",)
# The targets whose trap entry has a stackless path for an exception
# inside the handler, for the image that takes one: the runner must fail
# it quoting the fixed line the stackless writer prints, on the default
# board's UART and on each board whose console is the firmware's
# (BOARD_EARLYCON := sbi: the writer's firmware call).
NESTED_FAULT = "nested-exception"
NESTED_FAULT_ARCHES = ("riscv64", "aarch64")
NESTED_FAULT_EXPECTED = ("unexpected exception: 'EXCEPTION: fault inside "
                         "the exception handler",)
# Through a loader, the image that fails one case; a loader takes seconds
# to reach the kernel, and the image ends the run as soon as it has failed.
LOADER_FAULT = "fail"
LOADER_TIMEOUT = 60
# Boards without an exit device (BOARD_EXIT_DEVICE := none in their
# boards/<arch>/<board>.mk): the image that fails one case must still
# fail, on the guest's own word and its KTAP, within the loader timeout.
NO_EXIT_EXPECTED = ("not ok: ", "reported FAIL on its console")


def boards_saying(arch: str, variable: str, value: str) -> list[str]:
    """The boards of arch whose file says variable := value."""
    folder = os.path.join("boards", arch)
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    line = re.compile(rf"^{variable}\s*:=\s*{re.escape(value)}\s*$", re.M)
    found = []
    for name in names:
        if not name.endswith(".mk"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            if line.search(f.read()):
                found.append(name[:-3])
    return found


def no_exit_boards(arch: str) -> list[str]:
    """The boards of arch whose file says BOARD_EXIT_DEVICE := none."""
    return boards_saying(arch, "BOARD_EXIT_DEVICE", "none")


def nested_fault_boards(arch: str) -> list[str]:
    """Where arch's nested-exception image boots: "" (the default board)
    and each board whose console is the firmware's; none without a
    stackless path."""
    if arch not in NESTED_FAULT_ARCHES:
        return []
    return [""] + boards_saying(arch, "BOARD_EARLYCON", "sbi")


def nested_fault_run(board: str) -> str:
    return f"{board}-{NESTED_FAULT}" if board else NESTED_FAULT


# Machines the boot must refuse (mk/selftest.mk builds their DTBs), and
# the one console line each must print.
REFUSE_ARCH = "aarch64"
REFUSALS = {
    "no-memory": "cannot boot: no usable memory",
    "many-regions": "cannot boot: too many regions",
}


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


def refusal_dtbs() -> dict[str, str]:
    """Build the DTBs of REFUSALS; return each one's path."""
    done = subprocess.run(["make", "-s", "--no-print-directory",
                           "print-refusal-dtbs"], stdout=subprocess.PIPE,
                          text=True, env=make_env(), check=True)
    dtbs = dict(line.split() for line in done.stdout.splitlines())
    subprocess.run(["make", "-s", "--no-print-directory", *dtbs.values()],
                   env=make_env(), check=True)
    return dtbs


def refused_once(result: dict, line: str) -> str:
    """Why result is not a boot refused with one line, or ''."""
    reasons = "; ".join(result["reasons"])
    if result["ok"] or "the guest reported FAIL" not in reasons:
        return f"no FAIL status: {reasons or 'a pass'}"
    if "panic" in reasons:
        return f"a panic, not a refusal: {reasons}"
    with open(result["log"], encoding="utf-8", errors="replace") as f:
        seen = sum(line in text for text in f)
    return "" if seen == 1 else f"'{line}' printed {seen} times"


def write_matrix(path: str, targets: dict[str, list[str]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        if REFUSE_ARCH in targets:
            for name, dtb in refusal_dtbs().items():
                f.write(f"check-runner-{REFUSE_ARCH}-{name} "
                        f"ARCH={REFUSE_ARCH} PAGE_SIZE=4K MEM=128M "
                        f"TIMEOUT={FAULT_TIMEOUT} "
                        f"QEMU_EXTRA=\"-dtb {dtb}\"\n")
        for arch, boots in targets.items():
            f.write(f"check-runner-{arch}-clean ARCH={arch} PAGE_SIZE=4K\n")
            for kind in FAULTS:
                f.write(f"check-runner-{arch}-{kind} ARCH={arch} PAGE_SIZE=4K "
                        f"FAULT={kind} TIMEOUT={FAULT_TIMEOUT}\n")
            if arch in SECONDARY_FAULT_ARCHES:
                f.write(f"check-runner-{arch}-{SECONDARY_FAULT} ARCH={arch} "
                        f"PAGE_SIZE=4K SMP=2 MEM=128M FAULT={SECONDARY_FAULT} "
                        f"TIMEOUT={FAULT_TIMEOUT}\n")
            for board in nested_fault_boards(arch):
                f.write(f"check-runner-{arch}-{nested_fault_run(board)} "
                        f"ARCH={arch} PAGE_SIZE=4K "
                        f"{f'BOARD={board} ' if board else ''}"
                        f"FAULT={NESTED_FAULT} TIMEOUT={FAULT_TIMEOUT}\n")
            for boot in boots:
                f.write(f"check-runner-{arch}-{boot}-{LOADER_FAULT} "
                        f"ARCH={arch} PAGE_SIZE=4K BOOT={boot} "
                        f"FAULT={LOADER_FAULT} TIMEOUT={LOADER_TIMEOUT}\n")
            for board in no_exit_boards(arch):
                f.write(f"check-runner-{arch}-{board}-{LOADER_FAULT} "
                        f"ARCH={arch} PAGE_SIZE=4K BOARD={board} "
                        f"FAULT={LOADER_FAULT} TIMEOUT={LOADER_TIMEOUT}\n")


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
    faults = sum(len(FAULTS) + len(boots) + (arch in SECONDARY_FAULT_ARCHES)
                 + len(no_exit_boards(arch)) + len(nested_fault_boards(arch))
                 for arch, boots in targets.items())
    refusals = len(REFUSALS) if REFUSE_ARCH in targets else 0
    ktap = KtapWriter(len(targets) + faults + refusals + 1)

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
        failures = [(kind, kind, expected) for kind, expected in FAULTS.items()]
        failures += [(f"{boot}-{LOADER_FAULT}", f"{boot}_{LOADER_FAULT}",
                      FAULTS[LOADER_FAULT]) for boot in boots]
        if arch in SECONDARY_FAULT_ARCHES:
            failures.append((SECONDARY_FAULT, SECONDARY_FAULT,
                             SECONDARY_FAULT_EXPECTED))
        failures += [(f"{board}-{LOADER_FAULT}", f"{board}_{LOADER_FAULT}",
                      FAULTS[LOADER_FAULT] + NO_EXIT_EXPECTED)
                     for board in no_exit_boards(arch)]
        failures += [(nested_fault_run(board), nested_fault_run(board),
                      NESTED_FAULT_EXPECTED)
                     for board in nested_fault_boards(arch)]
        for run, case, expected in failures:
            got = results.get(f"check-runner-{arch}-{run}")
            reasons = "; ".join(got["reasons"]) if got else ""
            ok = bool(got and not got["ok"] and got["failed"] >= 1
                      and all(e in reasons for e in expected))
            ktap.result(ok, f"runner_fails_{arch}_{case.replace('-', '_')}",
                        f"expected a failure saying {' and '.join(expected)}, got "
                        f"{reasons or 'a pass' if got else 'no result'}")

    for name, line in REFUSALS.items() if refusals else ():
        got = results.get(f"check-runner-{REFUSE_ARCH}-{name}")
        why = refused_once(got, line) if got else "no result"
        ktap.result(not why, f"boot_refuses_{REFUSE_ARCH}_"
                    f"{name.replace('-', '_')}", why)

    totals = re.fullmatch(r"(\d+) passed, (\d+) failed(, \d+ skipped)?",
                          lines[-1] if lines else "")
    ok = bool(totals and int(totals.group(2)) >= faults + refusals
              and done.returncode != 0)
    ktap.result(ok, "runner_totals_count_every_failure",
                f"expected a last line 'N passed, >={faults} failed' and a "
                f"non-zero exit status, got {lines[-1:]} and "
                f"{done.returncode}")
    return 1 if ktap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
