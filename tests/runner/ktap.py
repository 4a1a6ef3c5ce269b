"""ktap.py - read KTAP version 1 from a console, strictly; and write it.

KtapWriter is the one KTAP emitter of buddyboot's Python scripts (the C
one is lib/ktap.c, the shell one tests/lib/ktap.sh): it prints the header
and the plan, numbers the results, and counts the failures.

Everything before the first "KTAP version 1" line is firmware noise and is
ignored, even when it looks like a result. From the header on, top-level
lines are read as KTAP: the plan "1..N", results "ok N name" and
"not ok N name" (a "# SKIP" directive makes a skip), diagnostics "# ...".
Indented lines (subtests) and other text (the guest's own printk output)
are not results, but an indented "not ok" (a failing subtest) makes the
next top-level result a failure even if it says "ok". "not ok ... # SKIP"
is a failure: a skip is "ok ... # SKIP". Whatever a well-behaved producer
would never print (a missing, empty or late plan, a second header, results
out of order, repeated or beyond the plan, a plan whose every case was
skipped, a "not" cut from the "ok N" after it) is a problem, and any
problem fails the run.
"""

import re
from dataclasses import dataclass, field

HEADER = "KTAP version 1"
# Numbers are ASCII digits: \\d would also take other scripts' digits.
_VERSION = re.compile(r"K?TAP version [0-9]+$")
_PLAN = re.compile(r"1\.\.([0-9]+)$")
_RESULT = re.compile(r"(not )?ok ([0-9]+)(?:\s+(?:-\s+)?(.*))?$")
_SKIP = re.compile(r"\s*SKIP\b", re.IGNORECASE)
# A console line that ends in the word "not": what is left when noise (an
# interrupt's message, another CPU) cut a "not ok N" line after "not ".
_CUT_NOT = re.compile(r"(?<![A-Za-z])not$")


@dataclass
class Case:
    number: int
    name: str
    ok: bool
    skipped: bool


@dataclass
class Ktap:
    """What one producer printed, and what was wrong with it."""

    started: bool = False
    planned: int | None = None
    cases: list[Case] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(c.ok and not c.skipped for c in self.cases)

    @property
    def failed(self) -> int:
        return sum(not c.ok and not c.skipped for c in self.cases)

    @property
    def skipped(self) -> int:
        return sum(c.skipped for c in self.cases)

    @property
    def missing(self) -> int:
        """Planned results that never came."""
        return max((self.planned or 0) - len(self.cases), 0)

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)


class KtapReader:
    """Feed clean console lines one at a time; finish() gives the Ktap."""

    def __init__(self) -> None:
        self.ktap = Ktap()
        self._failed_subtest = ""   # a "not ok" subtest since the last result
        self._cut_not = False       # a line since the last result ended in "not"

    def feed(self, line: str) -> None:
        k = self.ktap
        if not k.started:
            k.started = line == HEADER
            return
        if line[:1].isspace():
            sub = _RESULT.match(line.strip())
            if sub and sub.group(1) and not self._failed_subtest:
                name = (sub.group(3) or "").partition("#")[0].strip()
                self._failed_subtest = name or f"#{sub.group(2)}"
            return
        if _VERSION.match(line):
            k.problem(f"a second KTAP header '{line}' (did the guest restart?)")
            return
        plan = _PLAN.match(line)
        if plan:
            self._plan(int(plan.group(1)))
            return
        result = _RESULT.match(line)
        if result:
            self._result(result)
            self._failed_subtest = ""
            self._cut_not = False
        elif not line.startswith("#") and _CUT_NOT.search(line):
            self._cut_not = True    # until the next result: noise may follow

    def _plan(self, planned: int) -> None:
        k = self.ktap
        if k.planned is not None:
            k.problem(f"a second plan line 1..{planned}")
        elif k.cases:
            k.problem("the plan line came after the first result")
        else:
            k.planned = planned

    def _result(self, m: re.Match) -> None:
        k = self.ktap
        number = int(m.group(2))
        text = m.group(3) or ""
        name, hash_mark, directive = text.partition("#")
        name = name.strip()
        ok = m.group(1) is None
        skip = bool(hash_mark and _SKIP.match(directive))
        expected = len(k.cases) + 1
        if number != expected:
            k.problem(f"result number {number} where {expected} was expected "
                      "(duplicate or out of order)")
        if skip and not ok:
            k.problem(f"'not ok {number} {name} # SKIP' is a failure: a skip "
                      "is 'ok N name # SKIP'")
        if ok and self._failed_subtest:
            k.problem(f"'ok {number} {name}' over a failure: its subtest "
                      f"'{self._failed_subtest}' is not ok")
            ok = False
        if ok and self._cut_not:
            k.problem(f"a 'not' before 'ok {number} {name}' on the line above "
                      "(console noise cut a 'not ok'?)")
            ok = False
        k.cases.append(Case(number, name, ok, skip and ok))

    def finish(self) -> Ktap:
        """Check what can only be checked at the end, and return the Ktap."""
        k = self.ktap
        seen = len(k.cases)
        if not k.started:
            k.problem(f"missing plan: no '{HEADER}' header and no plan line")
        elif k.planned is None:
            k.problem("missing plan: no '1..N' line after the header")
        elif k.planned == 0:
            k.problem("empty plan 1..0: nothing was tested (an empty "
                      "test registry?)")
        elif seen < k.planned:
            k.problem(f"only {seen} of {k.planned} planned results")
        elif seen > k.planned:
            k.problem(f"{seen} results but only {k.planned} planned")
        if k.planned and k.cases and all(c.skipped for c in k.cases):
            k.problem(f"every one of the {seen} results was skipped: nothing "
                      "was tested")
        failed = [c.name or f"#{c.number}" for c in k.cases
                  if not c.ok and not c.skipped]
        if failed:
            shown = ", ".join(failed[:3])
            more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
            k.problem(f"not ok: {shown}{more}")
        return k


class KtapWriter:
    """Print KTAP version 1: a plan of @planned cases, then one result each."""

    def __init__(self, planned: int) -> None:
        print(f"{HEADER}\n1..{planned}", flush=True)
        self.planned = planned
        self.number = 0
        self.failed = 0

    def diag(self, text: str) -> None:
        """A diagnostic: every line of text as "# ..."."""
        for line in str(text).splitlines() or [""]:
            print(f"# {line}")

    def result(self, ok: bool, name: str, why: str = "",
               skip: str = "") -> None:
        """One result; why, when it failed, as diagnostics before it. A
        skip (skip: the reason) is "ok N name # SKIP reason"."""
        self.number += 1
        self.failed += not ok
        if not ok and why:
            self.diag(f"{name}: {why}")
        name = name.replace(" ", "_").replace("#", "_")
        directive = f" # SKIP {skip}" if ok and skip else ""
        print(f"{'' if ok else 'not '}ok {self.number} {name}{directive}",
              flush=True)

    def status(self) -> int:
        """The exit status: 0 iff every planned case ran and passed."""
        return 0 if not self.failed and self.number == self.planned else 1
