"""verdict.py - decide pass or fail for one console, one way for everything.

A run passes only when every one of these holds: the producer exited with
its passing status (33 for a QEMU guest, 0 for a host program) in time, no
marker (an unexpected exception, a panic, a sanitizer report) appeared
anywhere on the console, and the KTAP it printed is complete, in order and
has no "not ok". Everything else is a failure with a reason, so that a
crashed or hung guest can never read as a pass.
"""

import re
import signal
from dataclasses import dataclass, field

from ktap import Ktap, KtapReader
from numa_expect import NumaWatch, Topology

# The kernel's first line on every boot path: "buddyboot <arch>: ..." from
# the kernel proper, "buddyboot: ..." from an EFI stub. Until it appears,
# the console is the firmware's and the loader's (process.run's handoff
# deadline).
KERNEL_LINE = re.compile(r"^buddyboot[: ]")


@dataclass(frozen=True)
class ExitConvention:
    """Which exit statuses mean what for one kind of producer."""

    passing: int
    failing: int | None
    hints: dict[int, str] = field(default_factory=dict)
    markers: tuple[tuple[str, str], ...] = ()
    # A board without an exit device: the console line (group 1: PASS or
    # FAIL) that says the guest is done; the runner then stops it and
    # decides from KTAP alone, and says so (note).
    ended_by: str | None = None
    note: str = ""


# Searched anywhere in a line, KTAP diagnostics included: a panic may cut
# into a half-printed line, a "# ..." one too. Only a nested run's console,
# quoted line by line as "# | ..." (check_runner.py), may show a marker.
_GUEST_MARKERS = (
    (r"EXCEPTION: ", "unexpected exception"),
    (r"PANIC: ", "panic"),
)

# The guest's exit device gives 33 for PASS and 35 for FAIL on every target.
QEMU_GUEST = ExitConvention(
    passing=33, failing=35,
    hints={
        0: "QEMU exit status 0 is not a verdict (triple fault with "
           "-no-reboot, SBI or PSCI power-off?)",
        1: "QEMU exit status 1 is not a verdict (QEMU refused its options, "
           "or an x86 exit write of 0?)",
    },
    markers=_GUEST_MARKERS,
)

# A host test program exits 0 iff all passed; the sanitizers speak up too.
HOST_PROGRAM = ExitConvention(
    passing=0, failing=None,
    markers=_GUEST_MARKERS + (
        (r"==\d+==ERROR: \w+Sanitizer", "sanitizer report"),
        (r"WARNING: ThreadSanitizer: ", "sanitizer report"),
        (r"\S+:\d+:\d+: runtime error: ", "undefined behaviour"),
    ),
)


# The same guest on a board that has no exit device (BOARD_EXIT_DEVICE=none
# in its boards/<arch>/<board>.mk): its poweroff prints this line and
# halts, so its exit status says nothing; the verdict is the KTAP, the
# markers and the guest's own PASS/FAIL word, and a hang is still a
# timeout.
QEMU_GUEST_NO_EXIT = ExitConvention(
    passing=QEMU_GUEST.passing, failing=QEMU_GUEST.failing,
    hints=QEMU_GUEST.hints, markers=_GUEST_MARKERS,
    ended_by=r"^poweroff: (PASS|FAIL); no exit device",
    note="verdict from KTAP alone: no exit device",
)


@dataclass
class Verdict:
    reasons: list[str]
    ktap: Ktap
    failed: int
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.reasons

    @property
    def passed(self) -> int:
        return self.ktap.passed

    @property
    def skipped(self) -> int:
        return self.ktap.skipped

    @property
    def counts(self) -> str:
        """'passed/planned', the figure a progress line shows."""
        planned = self.ktap.planned
        return f"{self.passed}/{planned if planned is not None else '?'}"


class Judge:
    """Feed every clean console line; finish() returns the Verdict."""

    # smp_init()'s summary (smp/smp.c): how many CPUs came online.
    _ONLINE = re.compile(r"smp: ([0-9]+) of ([0-9]+) CPUs online")

    def __init__(self, convention: ExitConvention,
                 expect_cpus: int | None = None,
                 expect_numa: Topology | None = None) -> None:
        """expect_cpus: when above 1, the CPUs the machine was given; a
        run whose guest does not report that many online has failed, so
        that a CPU list read short (no MADT, a device tree for fewer) or
        a bring-up that starts nothing never reads as a pass.
        expect_numa: the NUMA topology the machine was given
        (numa_expect.py); a guest whose boot summary shows other nodes,
        memory, CPU nodes or distances has failed."""
        self.convention = convention
        self.numa = NumaWatch(expect_numa) if expect_numa else None
        self.expect_cpus = expect_cpus if expect_cpus and expect_cpus > 1 else None
        self.online: int | None = None
        self.reader = KtapReader()
        self.markers: list[str] = []
        self._patterns = [(re.compile(p), what)
                          for p, what in convention.markers]
        self._seen_kinds: set[str] = set()
        self._ended_by = (re.compile(convention.ended_by)
                          if convention.ended_by else None)
        # "PASS" or "FAIL" once the guest said it is done (ended_by).
        self.ended: str | None = None
        # The kernel printed its first line (KERNEL_LINE).
        self.kernel_started = False

    def feed(self, line: str) -> None:
        self.reader.feed(line)
        if line.startswith("# |"):
            return  # a nested run's console, quoted (check_runner.py)
        if not self.kernel_started and KERNEL_LINE.match(line):
            self.kernel_started = True
        if self._ended_by and self.ended is None:
            done = self._ended_by.search(line)
            if done:
                self.ended = done.group(1)
        if self.numa:
            self.numa.feed(line)
        online = self._ONLINE.search(line)
        if online and self.online is None:
            self.online = int(online.group(1))
        for pattern, what in self._patterns:
            if what not in self._seen_kinds and pattern.search(line):
                self._seen_kinds.add(what)
                self.markers.append(f"{what}: '{line.strip()[:120]}'")

    def finish(self, status: int | None, timeout: float,
               stalled: float = 0.0) -> Verdict:
        """status is the exit status (negative: killed by that signal), or
        None when the run was stopped after timeout seconds, or after
        stalled seconds (when not 0) without the kernel's first line."""
        ktap = self.reader.finish()
        if stalled:
            status_reason = (f"no line from the kernel ('buddyboot ...') "
                             f"within {stalled:g}s: the firmware stalled, "
                             f"or the kernel has no console to print on")
        else:
            status_reason = self._status_reason(status, timeout, ktap)
        reasons = [r for r in [status_reason] if r]
        reasons += self.markers + ktap.problems
        if self.expect_cpus and self.online is None:
            reasons.append(f"no 'smp: N of M CPUs online' line: expected "
                           f"{self.expect_cpus} CPUs online")
        elif self.expect_cpus and self.online != self.expect_cpus:
            reasons.append(f"{self.online} CPUs online, expected "
                           f"{self.expect_cpus}")
        if self.numa:
            reasons += self.numa.problems(self.expect_cpus)
        failed = ktap.failed + ktap.missing
        if reasons and failed == 0:
            failed = 1
        return Verdict(reasons, ktap, failed,
                       self.convention.note if self.ended else "")

    def _status_reason(self, status: int | None, timeout: float,
                       ktap: Ktap) -> str | None:
        conv = self.convention
        if self.ended == "PASS":
            return None
        if self.ended == "FAIL":
            return "the guest reported FAIL on its console (no exit device)"
        if status is None:
            return f"timeout: still running after {timeout:g}s, {_progress(ktap)}"
        if status == conv.passing:
            return None
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = str(-status)
            return f"killed by signal {name}"
        if status == conv.failing:
            return f"the guest reported FAIL (exit status {status})"
        return conv.hints.get(status, f"exit status {status} is not a pass")


def _progress(ktap: Ktap) -> str:
    """How far the producer got, for a timeout's reason."""
    if not ktap.started:
        return "before any KTAP output"
    if ktap.planned is None:
        return "before the plan line"
    seen = len(ktap.cases)
    if seen >= ktap.planned:
        return f"after all {ktap.planned} results (it did not power off)"
    return f"after {seen} of {ktap.planned} results"
