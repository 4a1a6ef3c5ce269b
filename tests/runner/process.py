"""process.py - run one producer (QEMU or a host test) under a deadline.

The producer gets /dev/null for stdin: QEMU's "-serial stdio" refuses a
closed stdin, and a terminal would be switched to raw mode. Its stdout and
stderr go through one pipe, so the log shows QEMU's own complaints where
they happened. It runs in a session of its own; at the deadline its
process group gets SIGTERM, then SIGKILL, and the group is killed once the
leader has exited too, so no child outlives its run.

A QEMU boot has a second, shorter deadline, the handoff: the kernel's
first line (verdict.KERNEL_LINE) must come within it. Past it the
console is still the firmware's, which then has stalled, not the kernel;
boot() boots such a machine once more and says so, in the log and in the
run's note. The kernel's own hangs and failures, from its first line on,
are never retried.
"""

import collections
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Callable, TextIO

from console import LineSplitter
from verdict import Judge, Verdict

TAIL_LINES = 30
# A guest printing in a loop until its timeout must not fill the disk: the
# log keeps this many bytes of console, the verdict still sees every line.
LOG_LIMIT = 32 << 20
# How long output may keep coming after the leader exited (a child holding
# the pipe open) before the group is killed anyway.
_DRAIN_SECONDS = 2.0
# How long a leader told to stop (SIGTERM) has before SIGKILL.
_TERM_SECONDS = 5.0


# Set when the runner is interrupted: producers run in sessions of their
# own, out of reach of the terminal's Ctrl-C, so each run stops its own.
_stopping = False


@dataclass
class Run:
    verdict: Verdict
    seconds: float
    tail: list[str]
    # Stopped at the handoff deadline: the kernel never printed a line.
    stalled: bool = False


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _end_group(pid: int) -> None:
    """Stop the group led by pid. A leader still running gets SIGTERM and a
    moment to act on it (QEMU exits, a nested bbtest stops the guests it
    started in sessions of their own); then the whole group gets SIGKILL."""
    deadline = time.monotonic() + _TERM_SECONDS
    if not _leader_exited(pid):
        _signal_group(pid, signal.SIGTERM)
        while not _leader_exited(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
    _signal_group(pid, signal.SIGKILL)


def stop_all() -> None:
    """Make every run end now (each stops its own producer), and refuse to
    start new ones."""
    global _stopping
    _stopping = True


def _leader_exited(pid: int) -> bool:
    """True once pid has exited; it is left unreaped (WNOWAIT), so its
    process group id cannot be reused before the group is killed."""
    info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    return info is not None


def run(cmd: list[str], judge: Judge, timeout: float, log: TextIO,
        live: TextIO | None = None, env: dict | None = None,
        handoff: float = 0.0) -> Run:
    """Run cmd, feeding each console line to judge (and to live, as it
    comes); timeout <= 0 means none. handoff > 0: stop it after that many
    seconds if the kernel has not printed its first line by then (a
    firmware stall). Return its verdict and last lines."""
    log.write(f"bbtest: $ {shlex.join(cmd)}\n")
    log.flush()
    tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
    splitter = LineSplitter()
    start = time.monotonic()
    deadline = start + timeout if timeout > 0 else float("inf")
    handoff_at = start + handoff if handoff > 0 else float("inf")
    try:
        if _stopping:
            raise InterruptedError(0, "the runner was interrupted")
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                start_new_session=True, env=env)
    except OSError as err:
        line = f"cannot start {cmd[0]}: {err.strerror}"
        judge.feed(line)
        log.write(line + "\n")
        return Run(judge.finish(127, timeout), 0.0, [line])

    logged = 0

    def take(lines: list[str]) -> None:
        nonlocal logged
        for line in lines:
            judge.feed(line)
            tail.append(line)
            if logged <= LOG_LIMIT:
                logged += len(line) + 1
                log.write(line + "\n" if logged <= LOG_LIMIT else
                          f"bbtest: log cut at {LOG_LIMIT} bytes\n")
            if live:
                live.write(line + "\n")
                live.flush()

    timed_out = stalled = False
    exited_at = None
    kernel_at = None  # seconds from start to the kernel's first line
    fd = proc.stdout.fileno()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        try:
            while True:
                now = time.monotonic()
                if now >= deadline or _stopping:
                    timed_out = True
                    break
                if now >= handoff_at and not judge.kernel_started:
                    timed_out = stalled = True
                    break
                if exited_at is None and _leader_exited(proc.pid):
                    exited_at = now
                if exited_at is not None and now - exited_at > _DRAIN_SECONDS:
                    break
                if sel.select(min(deadline - now, 0.2)):
                    data = os.read(fd, 65536)
                    if not data:
                        break
                    take(splitter.feed(data))
                    if kernel_at is None and judge.kernel_started:
                        kernel_at = time.monotonic() - start
                    if judge.ended is not None:
                        break  # a board without an exit device is done
        finally:
            _end_group(proc.pid)
            status = proc.wait()
            proc.stdout.close()
    take(splitter.flush())
    seconds = time.monotonic() - start
    verdict = judge.finish(None if timed_out else status, timeout,
                           handoff if stalled else 0.0)
    log.write(f"bbtest: {'PASS' if verdict.ok else 'FAIL'} after "
              f"{seconds:.1f}s, exit status "
              f"{'none (timeout)' if timed_out else status}"
              + (f", the kernel's first line at {kernel_at:.1f}s"
                 if kernel_at is not None else "") + "\n")
    for reason in verdict.reasons:
        log.write(f"bbtest: reason: {reason}\n")
    log.flush()
    return Run(verdict, seconds, list(tail), stalled)


def boot(cmd: list[str], new_judge: Callable[[], Judge], timeout: float,
         handoff: float, log: TextIO, env: dict | None = None) -> Run:
    """Boot a QEMU guest as run() does, with a handoff deadline; when the
    firmware stalls before the kernel's first line, boot it once more,
    with a new judge, and note it. A second stall fails the run."""
    first = run(cmd, new_judge(), timeout, log, env=env, handoff=handoff)
    if not first.stalled or _stopping:
        return first
    log.write(f"bbtest: {first.verdict.reasons[0]}; booting once more\n")
    second = run(cmd, new_judge(), timeout, log, env=env, handoff=handoff)
    second.seconds += first.seconds
    note = f"booted twice: the firmware stalled {handoff:g}s the first time"
    second.verdict.note = "; ".join(n for n in (note, second.verdict.note)
                                    if n)
    return second


def describe_failure(run_: Run, log_path: str, out: TextIO = sys.stdout) -> None:
    """Print why a run failed and the last lines of its console."""
    for reason in run_.verdict.reasons:
        out.write(f"      reason: {reason}\n")
    out.write(f"      last {len(run_.tail)} lines of {log_path}:\n")
    for line in run_.tail:
        out.write(f"      | {line}\n")
