#!/usr/bin/env python3
"""test_runner.py - the runner's unit tests, against fake guests.

Each case plays a scenario of fake_guest.py (a well-behaved guest, and every
way a guest can go wrong) through the same code `make test` and `make run`
use, and checks the verdict and its reason: only the clean cases may pass.
The command-line cases run bbtest itself and check its totals line and exit
status. Prints KTAP version 1; exits 0 iff every case passed.
"""

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)

import console  # noqa: E402
import matrix  # noqa: E402
import numa_expect  # noqa: E402
import process  # noqa: E402
from ktap import KtapWriter  # noqa: E402
from verdict import HOST_PROGRAM, QEMU_GUEST, QEMU_GUEST_NO_EXIT, Judge  # noqa: E402

FAKE = os.path.join(HERE, "fake_guest.py")
BBTEST = os.path.join(HERE, "bbtest")


def boot(scenario: str, status: int = 33, timeout: float = 10,
         convention=QEMU_GUEST, env=None,
         expect_cpus: int | None = None) -> process.Run:
    """Run one fake guest scenario as the runner runs QEMU."""
    cmd = [sys.executable, FAKE, scenario, str(status)]
    return process.run(cmd, Judge(convention, expect_cpus), timeout,
                       io.StringIO(), env=env)


def gone(pid: int) -> bool:
    """True once pid no longer runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


class VerdictCase(unittest.TestCase):
    def assertFails(self, run_: process.Run, *words: str) -> None:
        """The run failed, and its reasons mention every word."""
        v = run_.verdict
        self.assertFalse(v.ok, "a broken guest read as a pass")
        self.assertGreaterEqual(v.failed, 1, "a failure counted no failure")
        text = "; ".join(v.reasons)
        for word in words:
            self.assertIn(word, text)

    def assertPasses(self, run_: process.Run, passed: int) -> None:
        v = run_.verdict
        self.assertTrue(v.ok, f"failed: {v.reasons}")
        self.assertEqual((v.passed, v.failed), (passed, 0))


class ExpectedCpus(VerdictCase):
    """A machine given N CPUs passes only when the guest says N online."""

    def test_all_cpus_online_passes(self):
        self.assertPasses(boot("smp-4-online", expect_cpus=4), 3)

    def test_fewer_cpus_online_fails(self):
        self.assertFails(boot("smp-1-online", expect_cpus=4),
                         "1 CPUs online, expected 4")

    def test_no_online_line_fails(self):
        self.assertFails(boot("full", expect_cpus=2),
                         "expected 2 CPUs online")

    def test_one_cpu_needs_no_line(self):
        self.assertPasses(boot("full", expect_cpus=1), 3)


class CleanGuests(VerdictCase):
    def test_pass_after_opensbi_banner(self):
        self.assertPasses(boot("pass"), 3)

    def test_pass_after_seabios_escapes_and_garbage(self):
        self.assertPasses(boot("seabios-noise"), 3)

    def test_ok_lines_before_the_header_do_not_count(self):
        self.assertPasses(boot("ok-before-header"), 3)

    def test_escape_codes_inside_ktap_lines(self):
        self.assertPasses(boot("coloured"), 2)

    def test_last_line_without_newline_counts(self):
        self.assertPasses(boot("no-final-newline"), 2)

    def test_output_split_into_single_bytes(self):
        self.assertPasses(boot("byte-by-byte"), 2)

    def test_skip_is_neither_pass_nor_failure(self):
        v = boot("skip").verdict
        self.assertTrue(v.ok, v.reasons)
        self.assertEqual((v.passed, v.failed, v.skipped), (2, 0, 1))

    def test_diagnostics_may_quote_markers(self):
        self.assertPasses(boot("diagnostic-quotes-markers"), 2)

    def test_passing_subtests_under_an_ok_parent(self):
        self.assertPasses(boot("subtests-pass"), 1)

    def test_guest_gets_an_open_stdin(self):
        self.assertPasses(boot("needs-stdin"), 3)


class BrokenGuests(VerdictCase):
    def test_exit_status_0_is_not_a_pass(self):
        self.assertFails(boot("full", 0), "exit status 0")

    def test_exit_status_1_is_not_a_pass(self):
        self.assertFails(boot("full", 1), "exit status 1")

    def test_fail_status_with_all_ok(self):
        self.assertFails(boot("full", 35), "reported FAIL")

    def test_missing_plan(self):
        self.assertFails(boot("no-plan"), "missing plan")

    def test_missing_header(self):
        self.assertFails(boot("no-header"), "missing plan")

    def test_empty_plan(self):
        run_ = boot("empty-plan")
        self.assertFails(run_, "empty plan")
        self.assertEqual(run_.verdict.failed, 1)

    def test_no_output_at_all(self):
        run_ = boot("nothing")
        self.assertFails(run_, "missing plan")
        self.assertEqual(run_.verdict.failed, 1)

    def test_fewer_results_than_planned(self):
        run_ = boot("short")
        self.assertFails(run_, "only 2 of 3")
        self.assertEqual(run_.verdict.failed, 1)

    def test_firmware_results_do_not_fill_the_plan(self):
        self.assertFails(boot("noise-looks-complete"), "only 1 of 3")

    def test_more_results_than_planned(self):
        self.assertFails(boot("extra"), "3 results but only 2 planned")

    def test_not_ok_with_pass_status(self):
        run_ = boot("not-ok", 33)
        self.assertFails(run_, "not ok: beta")
        self.assertEqual((run_.verdict.passed, run_.verdict.failed), (2, 1))

    def test_not_ok_with_fail_status(self):
        self.assertFails(boot("not-ok", 35), "not ok: beta", "reported FAIL")

    def test_duplicate_number(self):
        self.assertFails(boot("duplicate"), "duplicate or out of order")

    def test_out_of_order(self):
        self.assertFails(boot("out-of-order"), "result number 2 where 1")

    def test_plan_after_results(self):
        self.assertFails(boot("late-plan"), "plan line came after")

    def test_second_header(self):
        self.assertFails(boot("second-header"), "second KTAP header")

    def test_exception_then_fail_status(self):
        run_ = boot("exception", 35)
        self.assertFails(run_, "unexpected exception", "scause=0x2")
        self.assertEqual(run_.verdict.failed, 2, "2 planned results missing")

    def test_exception_before_ktap(self):
        self.assertFails(boot("exception-before-ktap", 35),
                         "unexpected exception", "missing plan")

    def test_exception_even_with_pass_status_and_all_ok(self):
        self.assertFails(boot("exception-then-all-ok", 33),
                         "unexpected exception")

    def test_panic(self):
        self.assertFails(boot("panic", 35), "panic: 'PANIC: memblock")

    def test_panic_in_the_middle_of_a_line(self):
        self.assertFails(boot("panic-mid-line", 35), "panic: 'checking")

    def test_not_ok_skip_is_a_failure(self):
        run_ = boot("not-ok-skip")
        self.assertFails(run_, "not ok: beta", "a skip is 'ok")
        self.assertEqual((run_.verdict.passed, run_.verdict.skipped), (2, 0))

    def test_parent_ok_over_a_failing_subtest(self):
        run_ = boot("subtest-fails")
        self.assertFails(run_, "ok 1 outer", "subtest 'inner_b' is not ok")
        self.assertEqual((run_.verdict.passed, run_.verdict.failed), (1, 1))

    def test_subtest_not_ok_skip_is_a_failure(self):
        self.assertFails(boot("subtest-skip-not-ok"), "subtest 'inner")

    def test_non_ascii_digits_are_not_numbers(self):
        self.assertFails(boot("non-ascii-digits"), "only 1 of 2")
        self.assertFails(boot("non-ascii-plan"), "missing plan")

    def test_repeated_number(self):
        self.assertFails(boot("repeated-last"), "result number 2 where 3")

    def test_every_case_skipped_is_nothing_tested(self):
        self.assertFails(boot("all-skipped"), "nothing was tested")

    def test_noise_between_not_and_ok_is_not_a_pass(self):
        self.assertFails(boot("split-not-ok"), "'not' before 'ok 2 beta'")
        self.assertFails(boot("split-not-ok-bare"), "'not' before 'ok 2 beta'")

    def test_markers_inside_diagnostics(self):
        self.assertFails(boot("panic-in-diagnostic"), "panic: '# checking")
        self.assertFails(boot("exception-in-diagnostic"),
                         "unexpected exception")

    def test_a_150_mb_line_is_read_in_linear_time(self):
        start = time.monotonic()
        run_ = boot("long-line", timeout=60)
        self.assertPasses(run_, 1)
        self.assertLess(time.monotonic() - start, 30)

    def test_qemu_error_message_is_in_the_tail(self):
        run_ = boot("qemu-error", 1)
        self.assertFails(run_, "exit status 1")
        self.assertIn("ram size too large", "\n".join(run_.tail))

    def test_killed_by_sigkill(self):
        run_ = boot("kill9")
        self.assertFails(run_, "killed by signal SIGKILL", "only 1 of 3")
        self.assertEqual(run_.verdict.failed, 2)

    def test_log_is_cut_but_every_line_is_judged(self):
        limit, process.LOG_LIMIT = process.LOG_LIMIT, 40
        try:
            log = io.StringIO()
            run_ = process.run([sys.executable, FAKE, "not-ok", "33"],
                               Judge(QEMU_GUEST), 10, log)
        finally:
            process.LOG_LIMIT = limit
        self.assertFails(run_, "not ok: beta")
        self.assertIn("bbtest: log cut at 40 bytes", log.getvalue())
        self.assertNotIn("ok 3 gamma", log.getvalue())

    def test_command_that_cannot_start(self):
        run_ = process.run(["/nonexistent/qemu"], Judge(QEMU_GUEST), 5,
                           io.StringIO())
        self.assertFails(run_, "exit status 127")


class Hangs(VerdictCase):
    def hang(self, scenario: str, nested: bool = False) -> process.Run:
        """Time a hanging scenario out, directly or under a bbtest of its
        own (as check-runner runs); check its child did not survive."""
        with tempfile.NamedTemporaryFile("r") as pidfile:
            env = dict(os.environ, FAKE_GUEST_PIDFILE=pidfile.name)
            start = time.monotonic()
            if nested:
                inner = [sys.executable, BBTEST, "--suite",
                         f"hangs={sys.executable} {FAKE} {scenario}"]
                run_ = process.run(inner, Judge(HOST_PROGRAM), 1.5,
                                   io.StringIO(), env=env)
            else:
                run_ = boot(scenario, timeout=1.5, env=env)
            self.assertLess(time.monotonic() - start, 8)
            child = int(pidfile.read())
        for _ in range(50):
            if gone(child):
                break
            time.sleep(0.05)
        self.assertTrue(gone(child), "a child of the hung guest survived")
        return run_

    def test_hang_midway_is_a_timeout(self):
        run_ = self.hang("hang")
        self.assertFails(run_, "timeout", "after 1 of 3 results")
        self.assertEqual(run_.verdict.failed, 2)

    def test_hang_after_all_results_is_a_timeout(self):
        self.assertFails(self.hang("hang-after-all"), "timeout",
                         "did not power off")

    def test_hang_under_a_nested_runner_stops_the_inner_guest(self):
        self.assertFails(self.hang("hang", nested=True), "timeout")

    def test_silent_hang(self):
        self.assertFails(self.hang("silent-hang"), "timeout",
                         "before any KTAP output", "missing plan")

    def test_child_holding_the_pipe_does_not_stall_the_run(self):
        start = time.monotonic()
        self.assertPasses(boot("child-holds-pipe"), 3)
        self.assertLess(time.monotonic() - start, 5)


class FirmwareStall(VerdictCase):
    """The handoff deadline: a console with no kernel line after it is a
    stalled firmware, booted once more; the kernel's own hangs are not."""

    def boot_twice(self, scenario: str, handoff: float = 1.0,
                   timeout: float = 10) -> tuple[process.Run, str, int]:
        """Boot through process.boot(); return the run, its log and how
        many times the fake guest booted."""
        with tempfile.TemporaryDirectory() as tmp:
            boots = os.path.join(tmp, "boots")
            env = dict(os.environ, FAKE_GUEST_BOOTS=boots,
                       FAKE_GUEST_PIDFILE=os.path.join(tmp, "pid"))
            log = io.StringIO()
            start = time.monotonic()
            run_ = process.boot([sys.executable, FAKE, scenario, "33"],
                                lambda: Judge(QEMU_GUEST), timeout, handoff,
                                log, env=env)
            self.assertLess(time.monotonic() - start, timeout + 5)
            try:
                with open(boots) as f:
                    count = int(f.read())
            except FileNotFoundError:
                count = 1 if "bbtest: $" in log.getvalue() else 0
        return run_, log.getvalue(), count

    def test_a_stall_then_a_pass_passes_with_a_note(self):
        run_, log, boots = self.boot_twice("firmware-stall-once")
        self.assertPasses(run_, 3)
        self.assertEqual(boots, 2)
        self.assertIn("booted twice", run_.verdict.note)
        self.assertIn("booting once more", log)
        self.assertIn("firmware stall", log)

    def test_two_stalls_fail(self):
        run_, log, _ = self.boot_twice("firmware-stall")
        self.assertFails(run_, "firmware stall", "within 1s", "missing plan")
        self.assertEqual(log.count("bbtest: $"), 2, "not booted exactly twice")

    def test_the_second_boot_is_judged_afresh(self):
        run_, _, boots = self.boot_twice("firmware-stall-then-fail")
        self.assertEqual(boots, 2)
        self.assertFails(run_, "not ok")

    def test_a_kernel_hang_is_never_retried(self):
        run_, log, boots = self.boot_twice("kernel-hang-once", timeout=3)
        self.assertEqual(boots, 1)
        self.assertFails(run_, "timeout: still running after 3s")
        self.assertNotIn("booting once more", log)

    def test_only_a_line_that_starts_with_the_name_is_the_kernel(self):
        run_, _, _ = self.boot_twice("kernel-says-buddyboot-late")
        self.assertFails(run_, "firmware stall")

    def test_a_prompt_guest_is_booted_once(self):
        run_, log, _ = self.boot_twice("pass")
        self.assertPasses(run_, 3)
        self.assertEqual(log.count("bbtest: $"), 1)
        self.assertEqual(run_.verdict.note, "")
        self.assertIn("the kernel's first line at", log)


class NoExitDevice(VerdictCase):
    """A board without an exit device: the guest's last line ends the run
    at once and KTAP alone decides; the runner says so."""

    def run_board(self, scenario: str, convention=QEMU_GUEST_NO_EXIT):
        start = time.monotonic()
        run_ = boot(scenario, timeout=3, convention=convention)
        return run_, time.monotonic() - start

    def test_complete_ktap_passes_without_waiting(self):
        run_, seconds = self.run_board("no-exit-pass")
        self.assertPasses(run_, 3)
        self.assertLess(seconds, 2.5)
        self.assertIn("no exit device", run_.verdict.note)

    def test_not_ok_fails(self):
        run_, _ = self.run_board("no-exit-fail")
        self.assertFails(run_, "not ok", "reported FAIL")

    def test_guest_fail_word_fails(self):
        run_, _ = self.run_board("no-exit-says-fail")
        self.assertFails(run_, "reported FAIL")

    def test_missing_results_fail(self):
        run_, _ = self.run_board("no-exit-short")
        self.assertFails(run_, "only 1 of 3")

    def test_hang_without_the_line_is_a_timeout(self):
        run_, _ = self.run_board("hang-after-all")
        self.assertFails(run_, "timeout")
        self.assertEqual(run_.verdict.note, "")

    def test_a_board_with_an_exit_device_ignores_the_line(self):
        run_, _ = self.run_board("no-exit-pass", convention=QEMU_GUEST)
        self.assertFails(run_, "timeout")


class HostPrograms(VerdictCase):
    def test_exit_0_passes(self):
        self.assertPasses(boot("full", 0, convention=HOST_PROGRAM), 3)

    def test_exit_33_is_not_a_host_pass(self):
        self.assertFails(boot("full", 33, convention=HOST_PROGRAM),
                         "exit status 33")

    def test_sanitizer_report(self):
        judge = Judge(HOST_PROGRAM)
        for line in ["KTAP version 1", "1..1",
                     "==123==ERROR: AddressSanitizer: heap-use-after-free",
                     "ok 1 alpha"]:
            judge.feed(line)
        v = judge.finish(0, 10)
        self.assertFalse(v.ok)
        self.assertIn("sanitizer report", v.reasons[0])


# What a guest prints for two nodes of 98M and 158M, both CPUs in node 0
# and node 1 without any (distance 20).
CPULESS_NODE1 = ["numa: 2 nodes online",
                 "numa: node 0: 100352 KiB memory, cpus 0 1",
                 "numa: node 1: 161792 KiB memory, cpus none",
                 "numa: cpu 0 (hwid 0x0): node 0",
                 "numa: cpu 1 (hwid 0x1): node 0",
                 "numa: distances from node 0: 10 20",
                 "numa: distances from node 1: 20 10"]


class ExpectedNuma(unittest.TestCase):
    """A -numa machine passes only when the guest shows that topology."""

    QEMU = ("qemu -m 256M -smp 3 -object memory-backend-ram,id=m0,size=98M "
            "-object memory-backend-ram,id=m1,size=158M "
            "-numa node,nodeid=0,memdev=m0,cpus=0 "
            "-numa node,nodeid=1,memdev=m1,cpus=1-2 "
            "-numa dist,src=0,dst=1,val=21").split()
    GUEST = ["numa: 2 nodes online",
             "numa: node 0: 99967 KiB memory, cpus 0",
             "numa: node 1: 161792 KiB memory, cpus 1 2",
             "numa: cpu 0 (hwid 0x0): node 0",
             "numa: cpu 1 (hwid 0x1): node 1",
             "numa: cpu 2 (hwid 0x2): node 1",
             "numa: distances from node 0: 10 21",
             "numa: distances from node 1: 21 10"]

    def problems(self, lines, args=None, cpus_used=None):
        topo = numa_expect.from_qemu_args(args or self.QEMU)
        watch = numa_expect.NumaWatch(topo)
        for line in lines:
            watch.feed(line)
        return watch.problems(cpus_used)

    def test_cpus_beyond_nr_cpus_are_not_expected(self):
        # -smp 4 with NR_CPUS=2: the guest uses two CPUs (EXPECT_CPUS=2)
        # and lists those; node 1's two stay parked, so it shows none.
        args = ("qemu -smp 4 -object memory-backend-ram,id=m0,size=98M "
                "-object memory-backend-ram,id=m1,size=158M "
                "-numa node,nodeid=0,memdev=m0,cpus=0-1 "
                "-numa node,nodeid=1,memdev=m1,cpus=2-3").split()
        self.assertEqual(self.problems(CPULESS_NODE1, args, cpus_used=2), [])
        # Without the limit, or with one CPU fewer listed, it fails.
        self.assertEqual(self.problems(CPULESS_NODE1, args),
                         ["cpu hwid 0x2 (node 1) not listed",
                          "cpu hwid 0x3 (node 1) not listed"])
        self.assertIn("cpu hwid 0x1 (node 0) not listed",
                      self.problems([line for line in CPULESS_NODE1
                                     if "hwid 0x1" not in line],
                                    args, cpus_used=2))

    def test_parse(self):
        topo = numa_expect.from_qemu_args(self.QEMU)
        self.assertEqual(topo.memory_kib, {0: 98 << 10, 1: 158 << 10})
        self.assertEqual(topo.cpu_node, {0: 0, 1: 1, 2: 1})
        self.assertEqual(topo.dist(1, 0), 21)
        self.assertIsNone(numa_expect.from_qemu_args(["qemu", "-m", "1G"]))
        with self.assertRaises(ValueError):
            numa_expect.from_qemu_args(["-numa", "node,memdev=nope"])
        # No memdev= on any node: QEMU's own split, which is not read.
        with self.assertRaises(ValueError):
            numa_expect.from_qemu_args(["-numa", "node,cpus=0",
                                        "-numa", "node,cpus=1"])

    def test_memoryless_node(self):
        # A node without memdev= beside one with it has no memory.
        topo = numa_expect.from_qemu_args(
            "qemu -smp 2 -object memory-backend-ram,id=m1,size=256M "
            "-numa node,nodeid=0,cpus=0 "
            "-numa node,nodeid=1,memdev=m1,cpus=1".split())
        self.assertEqual(topo.memory_kib, {0: 0, 1: 256 << 10})
        self.assertEqual(topo.cpu_node, {0: 0, 1: 1})

    def test_possible_cpus_are_not_expected(self):
        # -smp 2,maxcpus=4: CPUs 2 and 3 are only hot-pluggable, so node
        # 1, which has only them, shows no CPU; the last -smp counts, and
        # a topology without a count is its product.
        args = ("qemu -smp 1 -smp 2,maxcpus=4 "
                "-object memory-backend-ram,id=m0,size=98M "
                "-object memory-backend-ram,id=m1,size=158M "
                "-numa node,nodeid=0,memdev=m0,cpus=0-1 "
                "-numa node,nodeid=1,memdev=m1,cpus=2-3").split()
        self.assertEqual(numa_expect.from_qemu_args(args).cpu_node,
                         {0: 0, 1: 0})
        self.assertEqual(self.problems(CPULESS_NODE1, args), [])
        # CPU 1 in node 1, as if CPU 2 or 3 were present: refused.
        moved = {"numa: node 0: 100352 KiB memory, cpus 0 1":
                 "numa: node 0: 100352 KiB memory, cpus 0",
                 "numa: node 1: 161792 KiB memory, cpus none":
                 "numa: node 1: 161792 KiB memory, cpus 1",
                 "numa: cpu 1 (hwid 0x1): node 0":
                 "numa: cpu 1 (hwid 0x1): node 1"}
        self.assertEqual(self.problems([moved.get(line, line)
                                        for line in CPULESS_NODE1], args),
                         ["cpu hwid 0x1 in node 1, expected 0",
                          "node 1: cpus 1, expected none"])
        # Without a count QEMU makes maxcpus= present, else the product.
        for smp, present in (("sockets=2,cores=2", 4),
                             ("maxcpus=8", 8), ("cpus=3,maxcpus=8", 3)):
            topo = numa_expect.from_qemu_args(
                ("qemu -smp %s -object memory-backend-ram,id=m0,size=1G "
                 "-numa node,memdev=m0,cpus=0-7" % smp).split())
            self.assertEqual(sorted(topo.cpu_node), list(range(present)),
                             smp)

    def test_the_same_passes(self):
        self.assertEqual(self.problems(self.GUEST), [])

    def test_each_difference_fails(self):
        def changed(old, new):
            return [line.replace(old, new) for line in self.GUEST]
        self.assertIn("no 'numa: N nodes online' line",
                      self.problems(self.GUEST[1:])[0])
        self.assertIn("nodes [0], expected [0, 1]",
                      self.problems(self.GUEST[:2] + ["numa: 1 nodes online"])[0])
        self.assertIn("node 1: 159000 KiB", self.problems(
            changed("161792 KiB", "159000 KiB"))[0])
        self.assertIn("node 1: 161793 KiB", self.problems(
            changed("161792 KiB", "161793 KiB"))[0])
        self.assertIn("cpu hwid 0x2 in node 0", self.problems(
            changed("(hwid 0x2): node 1", "(hwid 0x2): node 0"))[0])
        self.assertIn("expected [21, 10]", self.problems(
            changed("node 1: 21 10", "node 1: 20 10"))[0])
        # Without -numa dist the guest must show the default, 20.
        self.assertIn("expected [10, 20]",
                      self.problems(self.GUEST, self.QEMU[:-2])[0])

    def test_uefi_firmware_keeps_some_memory(self):
        # Under UEFI firmware a node may show up to 16 MiB less: what the
        # firmware's map keeps for runtime services and ACPI NVS.
        efi = self.QEMU + ["-drive", "if=pflash,format=raw,unit=0,file=f"]
        less = [line.replace("99967 KiB", "93000 KiB") for line in self.GUEST]
        self.assertEqual(self.problems(less, efi), [])
        self.assertIn("node 0: 93000 KiB", self.problems(less)[0])
        much_less = [line.replace("99967 KiB", "80000 KiB")
                     for line in self.GUEST]
        self.assertIn("at most 16384 less", self.problems(much_less, efi)[0])

    def test_judge_fails_the_run(self):
        judge = Judge(QEMU_GUEST, None,
                      numa_expect.from_qemu_args(self.QEMU))
        for line in ["KTAP version 1", "1..1", "ok 1 x"] + self.GUEST[:-1]:
            judge.feed(line)
        verdict = judge.finish(33, 10)
        self.assertFalse(verdict.ok)
        self.assertIn("distances from node 1: None", verdict.reasons[0])


class StatedNuma(unittest.TestCase):
    """A line whose topology comes from its own device tree states it in
    EXPECT_NUMA; the guest must show exactly that, CPU-less node too."""

    STATED = ("node,nodeid=0,size=98M,cpus=0-1 node,nodeid=1,size=158M "
              "dist,src=0,dst=1,val=20")
    QEMU = "qemu -m 256M -smp 2 -dtb cpuless.dtb".split()
    GUEST = ["numa: node 1 has memory but no CPUs"] + CPULESS_NODE1

    def problems(self, lines, stated=None):
        topo = numa_expect.expected(self.QEMU, stated or self.STATED)
        watch = numa_expect.NumaWatch(topo)
        for line in lines:
            watch.feed(line)
        return watch.problems()

    def test_parse(self):
        topo = numa_expect.from_expect(self.STATED)
        self.assertEqual(topo.memory_kib, {0: 98 << 10, 1: 158 << 10})
        self.assertEqual(topo.cpu_node, {0: 0, 1: 0})
        self.assertEqual(topo.dist(1, 0), 20)
        # Node ids default to the order, as -numa node's do.
        self.assertEqual(numa_expect.from_expect(
            "node,size=1G node,size=2G,cpus=0").cpu_node, {0: 1})
        self.assertIsNone(numa_expect.expected(self.QEMU, "  "))

    def test_refused(self):
        for bad in ["", "node,nodeid=0,cpus=0", "node,size=lots",
                    "node,size=1G,memdev=m0", "dist,src=0,dst=1",
                    "nodes,size=1G", "node,nodeid=x,size=1G",
                    "node,size=1G node,nodeid=0,size=1G"]:
            with self.assertRaises(ValueError, msg=bad):
                numa_expect.from_expect(bad)
        # Stated twice, by -numa and by EXPECT_NUMA: refused.
        with self.assertRaisesRegex(ValueError, "once"):
            numa_expect.expected(ExpectedNuma.QEMU, self.STATED)

    def test_the_same_passes(self):
        self.assertEqual(self.problems(self.GUEST), [])

    def test_each_difference_fails(self):
        def changed(old, new):
            return [line.replace(old, new) for line in self.GUEST]
        # The device tree's memory split ignored: one node.
        self.assertIn("nodes [0], expected [0, 1]", self.problems(
            ["numa: 1 nodes online",
             "numa: node 0: 262144 KiB memory, cpus 0 1"])[0])
        self.assertIn("node 0: 131072 KiB", self.problems(
            changed("100352 KiB", "131072 KiB"))[0])
        self.assertIn("cpu hwid 0x1 in node 1", self.problems(
            changed("(hwid 0x1): node 0", "(hwid 0x1): node 1"))[0])
        # The CPU-less node shows a CPU (one the line does not name).
        self.assertIn("node 1: cpus 2, expected none", self.problems(
            changed("cpus none", "cpus 2"))[0])
        self.assertIn("expected [20, 10]", self.problems(
            changed("node 1: 20 10", "node 1: 25 10"))[0])
        # A wrong statement fails a right guest.
        self.assertIn("expected [10, 25]", self.problems(
            self.GUEST, self.STATED.replace("val=20", "val=25"))[0])

    def test_matrix_takes_it(self):
        c = matrix.parse_line(f"rv ARCH=riscv64 EXPECT_NUMA='{self.STATED}'",
                              "m")
        self.assertEqual(dict(c.variables)["EXPECT_NUMA"], self.STATED)


class Console(unittest.TestCase):
    def test_clean_line(self):
        self.assertEqual(console.clean_line(
            b"\x1bc\x1b[?7l\x1b[2J\x1b[0mSeaBIOS\r"), "SeaBIOS")
        self.assertEqual(console.clean_line(b"\x1b]0;t\x07ok 1 \xffa\r"),
                         "ok 1 \ufffda")

    def test_splitter_keeps_partial_lines(self):
        s = console.LineSplitter()
        self.assertEqual(s.feed(b"KTAP ver"), [])
        self.assertEqual(s.feed(b"sion 1\r\n1..2\r"), ["KTAP version 1"])
        self.assertEqual(s.feed(b"\n"), ["1..2"])
        self.assertEqual(s.flush(), [])


class Matrix(unittest.TestCase):
    def test_line(self):
        c = matrix.parse_line(
            'a-16K ARCH=aarch64 PAGE_SIZE=16K QEMU_EXTRA="-cpu max"  # x', "m")
        self.assertEqual(c.make_args(), ["ARCH=aarch64", "PAGE_SIZE=16K",
                                         "QEMU_EXTRA=-cpu max"])
        self.assertIsNone(matrix.parse_line("   # only a comment", "m"))

    def test_refused_lines(self):
        for bad in ["x ARCH=riscv64 PAGESIZE=4K", "x ARCH=a ARCH=b",
                    "x PAGE_SIZE=4K", "bad/name ARCH=riscv64",
                    "x ARCH=riscv64 QEMU_EXTRA='-cpu", "ARCH=riscv64"]:
            with self.assertRaises(matrix.MatrixError, msg=bad):
                matrix.parse_line(bad, "m")

    def test_duplicate_names(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("a ARCH=riscv64\na ARCH=x86_64\n")
            f.flush()
            with self.assertRaisesRegex(matrix.MatrixError, "twice"):
                matrix.read(f.name)


def bbtest(*args: str, stdin_closed: bool = False):
    """Run bbtest test; return (exit status, stdout lines, json report)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [sys.executable, BBTEST, "test", "--json", report, *args]
        done = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=None if stdin_closed else subprocess.DEVNULL,
            pass_fds=(), preexec_fn=(lambda: os.close(0)) if stdin_closed
            else None)
        results = []
        if os.path.exists(report):
            with open(report) as f:
                results = json.load(f)
        return done.returncode, done.stdout.splitlines(), results


def suite(name: str, scenario: str, status: int = 0) -> str:
    return f"--suite=runner-fake-{name}={sys.executable} {FAKE} {scenario} {status}"


class CommandLine(unittest.TestCase):
    def test_totals_of_passing_suites(self):
        status, lines, _ = bbtest(suite("a", "full"), suite("b", "pass"),
                                  stdin_closed=True)
        self.assertEqual(lines[-1], "6 passed, 0 failed")
        self.assertEqual(status, 0)

    def test_a_crash_adds_its_missing_results(self):
        status, lines, results = bbtest(suite("a", "full"),
                                        suite("b", "kill9"), "-j1")
        self.assertEqual(lines[-1], "4 passed, 2 failed")
        self.assertNotEqual(status, 0)
        crashed = [r for r in results if r["name"] == "runner-fake-b"][0]
        self.assertFalse(crashed["ok"])
        self.assertIn("killed by signal SIGKILL", crashed["reasons"])
        text = "\n".join(lines)
        self.assertRegex(text, r"\[ ?\d/2\] suite runner-fake-b \.+ FAIL")
        self.assertIn("reason: killed by signal SIGKILL", text)
        self.assertIn("| ok 1 alpha", text, "the console tail is shown")

    def test_no_plan_counts_one_failure(self):
        status, lines, _ = bbtest(suite("a", "nothing", 1))
        self.assertEqual(lines[-1], "0 passed, 1 failed")
        self.assertNotEqual(status, 0)

    def test_skips_are_shown(self):
        status, lines, _ = bbtest(suite("a", "skip"))
        self.assertEqual(lines[-1], "2 passed, 0 failed, 1 skipped")
        self.assertEqual(status, 0)

    def test_only_filters_and_refuses_to_match_nothing(self):
        status, lines, results = bbtest(suite("a", "full"),
                                        suite("b", "kill9"), "--only=-a$")
        self.assertEqual(([r["name"] for r in results], lines[-1], status),
                         (["runner-fake-a"], "3 passed, 0 failed", 0))
        status, lines, _ = bbtest(suite("a", "full"), "--only", "nomatch")
        self.assertNotEqual(status, 0)
        self.assertIn("matches no suite", lines[-1])

    def test_bad_matrix_is_refused(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("a ARCH=riscv64 MEMORY=1G\n")
            f.flush()
            status, lines, _ = bbtest("--matrix", f.name)
        self.assertNotEqual(status, 0)
        self.assertIn("MEMORY=1G", lines[-1])


class KtapResult(unittest.TestResult):
    """Print each case as a KTAP result line as it ends."""

    def __init__(self, writer: KtapWriter):
        super().__init__()
        self.writer = writer

    def _report(self, test, ok, details=""):
        if details:
            self.writer.diag(details.rstrip())
        self.writer.result(ok, test.id().split(".", 1)[1])

    def addSuccess(self, test):
        super().addSuccess(test)
        self._report(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._report(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._report(test, False, self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.writer.result(True, test.id().split(".", 1)[1], skip=reason)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main() -> int:
    # Stopped from outside, end like Ctrl-C: each process.run() on the way
    # out stops the fake guest it started in a session of its own.
    signal.signal(signal.SIGTERM, _interrupt)
    tests = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    writer = KtapWriter(tests.countTestCases())
    result = KtapResult(writer)
    tests.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
