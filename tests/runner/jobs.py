"""jobs.py - the two kinds of run `make test` sums: host suites and QEMU boots.

A suite is a host program that prints KTAP and exits 0 iff all passed. A
QEMU configuration is built with make, and make also gives the command that
boots it (`make print-qemu`), so the QEMU command line lives in one place,
mk/qemu.mk. Both end in the same process.run() and the same Judge.
"""

import fcntl
import os
import re
import shlex
import subprocess
from dataclasses import dataclass

import matrix
import numa_expect
import process
from ktap import Ktap
from verdict import HOST_PROGRAM, QEMU_GUEST, QEMU_GUEST_NO_EXIT, Judge, Verdict

LOG_DIR = os.path.join("build", "test-logs")
LOCK_DIR = os.path.join("build", "test-locks")
MAKE = os.environ.get("MAKE", "make")
# A configuration's build: as many make jobs as the machine has CPUs.
MAKE_JOBS = f"-j{os.cpu_count() or 1}"

# Variables the parent make or the user's shell may hold and that must not
# leak into a run: a configuration builds exactly what its matrix line
# says, and a suite that calls make gets no stale jobserver or variables.
_SCRUB = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "ONLY",
          "JOBS", *matrix.VARIABLES}


def make_env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in _SCRUB}


def failed_run(reason: str, output: str, log) -> process.Run:
    """A run that never started, e.g. because its build failed."""
    log.write(f"bbtest: FAIL, never booted\nbbtest: reason: {reason}\n")
    tail = output.splitlines()[-process.TAIL_LINES:]
    return process.Run(Verdict([reason], Ktap(), 1), 0.0, tail)


def lock_path(build_dir: str) -> str:
    """The file whose exclusive flock guards builds into build_dir."""
    os.makedirs(LOCK_DIR, exist_ok=True)
    name = re.sub(r"[^\w.-]", "_", os.path.normpath(build_dir))
    return os.path.join(LOCK_DIR, name)


@dataclass
class Suite:
    name: str
    command: str
    timeout: float
    kind = "suite"

    def run(self) -> tuple[process.Run, str]:
        log_path = os.path.join(LOG_DIR, f"{self.name}.log")
        with open(log_path, "w", encoding="utf-8") as log:
            return process.run(shlex.split(self.command), Judge(HOST_PROGRAM),
                               self.timeout, log, env=make_env()), log_path


class QemuBoot:
    kind = "qemu"

    def __init__(self, config: matrix.Config) -> None:
        self.config = config
        self.name = config.name

    def _make(self, log, *targets: str) -> subprocess.CompletedProcess:
        cmd = [MAKE, "-s", "--no-print-directory", *self.config.make_args(),
               *targets]
        log.write(f"bbtest: $ {shlex.join(cmd)}\n")
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env=make_env())
        log.write(done.stdout)
        return done

    def _build(self, log, build_dir: str) -> subprocess.CompletedProcess:
        """Build under a lock on the object directory (OBJ_DIR, which a
        test image shares with its FAULT images and its product), held
        across processes (check-runner runs a bbtest of its own; the check
        scripts take it through tests/runner/build-lock): two makes
        compiling into one directory at once would link half-written
        objects."""
        with open(lock_path(build_dir), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return self._make(log, MAKE_JOBS, "all")

    def run(self) -> tuple[process.Run, str]:
        log_path = os.path.join(LOG_DIR, f"{self.name}.log")
        with open(log_path, "w", encoding="utf-8") as log:
            return self._run(log), log_path

    def _run(self, log) -> process.Run:
        args = shlex.join(self.config.make_args())
        info = self._make(log, "print-qemu")
        values = dict(line.partition("=")[::2]
                      for line in info.stdout.splitlines() if "=" in line)
        if info.returncode != 0 or not values.get("QEMU_CMD"):
            return failed_run(f"make {args} print-qemu gave no QEMU command",
                              info.stdout, log)
        try:
            timeout = float(values.get("TIMEOUT", ""))
            handoff = float(values.get("HANDOFF_TIMEOUT", ""))
        except ValueError:
            return failed_run(f"TIMEOUT={values.get('TIMEOUT')!r} or "
                              f"HANDOFF_TIMEOUT="
                              f"{values.get('HANDOFF_TIMEOUT')!r} is not a "
                              "number of seconds", info.stdout, log)
        try:
            expect_cpus = int(values.get("EXPECT_CPUS", "1"))
        except ValueError:
            return failed_run(f"EXPECT_CPUS={values.get('EXPECT_CPUS')!r} "
                              "is not a CPU count", info.stdout, log)
        cmd = shlex.split(values["QEMU_CMD"])
        try:
            expect_numa = numa_expect.expected(cmd,
                                               values.get("EXPECT_NUMA", ""))
        except (ValueError, KeyError) as e:
            return failed_run(f"the expected NUMA topology cannot be read: "
                              f"{e}", info.stdout, log)
        built = self._build(log, values.get("OBJ_DIR") or
                            values.get("BUILD_DIR", ""))
        if built.returncode != 0:
            return failed_run(f"build failed: make {args} exited "
                              f"{built.returncode}", built.stdout, log)
        # A board without an exit device (BOARD_EXIT_DEVICE=none).
        convention = (QEMU_GUEST_NO_EXIT if values.get("EXIT_DEVICE") == "none"
                      else QEMU_GUEST)
        return process.boot(
            cmd, lambda: Judge(convention, expect_cpus, expect_numa),
            timeout, handoff, log)
