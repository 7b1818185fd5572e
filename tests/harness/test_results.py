"""Unit tests of scripts/results.py and its package scripts/ftsdo/: the
KTAP parser, the verdict and the benchmark report.

Run from the repository's top: python3 -m unittest discover -s tests/harness -v

The inputs under data/ are real guest output cut down to a few lines
(x86_64/run1's console and KUnit log, try6's Oops, try16's failing KUnit
case, retry1, x86_64-bpf-run1's test_progs.txt), with what no real run
had added by hand: the parameterised KUnit case fdk_batch_sizes, the
flaky func_profiler.tc of data/retry, the SKIP lines of data/bpf, and the
splitting of KTAP lines by kernel messages in data/interleaved.  The
bases, the known failures and the skip lists are written by each test.
"""
import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SCRIPTS = os.path.normpath(os.path.join(HERE, "..", "..", "scripts"))

# The package scripts/ftsdo/, without leaving a __pycache__ in scripts/
sys.dont_write_bytecode = True
sys.path.insert(0, SCRIPTS)
from ftsdo import bench, expected, guest, ktap, splats, verdict


def load_results():
    """scripts/results.py (the command line) as a module."""
    spec = importlib.util.spec_from_file_location(
        "results", os.path.join(SCRIPTS, "results.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


results = load_results()


def data(name):
    return os.path.join(DATA, name)


def read(path):
    with open(path) as fh:
        return fh.read().splitlines()


class Workdir(unittest.TestCase):
    """A temporary directory per test, for bases, skip lists and output."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, lines):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write("".join(line + "\n" for line in lines))
        return path

    def check(self, dirs, base, known=(), skip=(), subset=False, basename="x86_64.txt"):
        """Run check() against a base of "RESULT name" lines: (exit code,
        stdout lines, TAP lines)."""
        basefile = self.write("baseline/" + basename, ["# base"] + list(base))
        if known:
            self.write("baseline/" + basename.replace(".txt", "-known.txt"), known)
        self.write("top/tests/skip/x86_64.txt", ["# skipped"] + list(skip))
        tap = os.path.join(self.tmp, "check.tap")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = verdict.check([data(d) for d in dirs], basefile, tap, subset,
                               top=os.path.join(self.tmp, "top"))
        return rc, out.getvalue().splitlines(), read(tap)


def tap_line(tap, name):
    """The TAP line of test NAME, without its number."""
    for line in tap:
        if line.startswith(("ok ", "not ok ")):
            head = "not ok" if line.startswith("not ok") else "ok"
            rest = line[len(head) + 1:].split(" ", 1)[1]
            if rest == name or rest.startswith(name + " # "):
                return head + " " + rest
    return None


# ---------------------------------------------------------------------------
# KTAP
# ---------------------------------------------------------------------------

class KtapParser(unittest.TestCase):

    def test_directives(self):
        doc, = ktap.parse_ktap([
            "TAP version 13", "1..8",
            "ok 1 plain", "ok 2 skipped # SKIP no such tracer",
            "ok 3 expected # XFAIL", "not ok 4 known # TODO not fixed yet",
            "not ok 5 lost # UNRESOLVED", "not ok 6 broken",
            "ok 7 - dashed", "ok 8 lower # skip why"])
        self.assertEqual(doc.plan, 8)
        got = [(t.number, t.name, t.result) for t in doc.subtests]
        self.assertEqual(got, [
            (1, "plain", "PASS"), (2, "skipped", "UNSUPPORTED"),
            (3, "expected", "XFAIL"), (4, "known", "XFAIL"),
            (5, "lost", "UNRESOLVED"), (6, "broken", "FAIL"),
            (7, "dashed", "PASS"), (8, "lower", "UNSUPPORTED")])
        self.assertEqual(doc.subtests[1].reason, "no such tracer")
        self.assertEqual(doc.subtests[3].directive, "TODO")

    def test_kunit_nested(self):
        """A KUnit report: suites, cases, skips, a parameterised case and
        a failed case's lines (with a stray unindented line among them)."""
        docs = ktap.parse_ktap(read(data("kunit/project-kunit.sh.log")))
        self.assertEqual(len(docs), 2)
        fdk, = docs[0].subtests
        self.assertEqual((fdk.name, fdk.result, fdk.plan), ("ftrace_direct_batch", "PASS", 14))
        self.assertEqual([c.number for c in fdk.subtests], list(range(1, 15)))
        churn = fdk.subtests[8]
        self.assertEqual((churn.name, churn.result, churn.reason),
                         ("fdk_static_churn", "UNSUPPORTED",
                          "built as a module: the shared ops is dynamic"))
        sizes = fdk.subtests[13]
        self.assertEqual(sizes.name, "fdk_batch_sizes")
        self.assertEqual([(p.name, p.result) for p in sizes.subtests],
                         [("batch=1", "PASS"), ("batch=16", "PASS"),
                          ("batch=4096", "UNSUPPORTED")])
        md, = docs[1].subtests
        self.assertEqual((md.name, md.result), ("ftrace_md", "FAIL"))
        self.assertEqual([(c.name, c.result) for c in md.subtests],
                         [("fmk_lookup", "PASS"), ("fmk_sets", "FAIL"),
                          ("fmk_swap", "PASS"), ("fmk_taken_slot", "PASS")])
        log = md.subtests[1].log
        self.assertIn("EXPECTATION FAILED", log[0])
        self.assertIn("target 2", log)

    def test_console_lines(self):
        got = ktap.console_lines([
            "[    1.000000] Linux version 6.12\r\n",
            "ok 3 Te[    2.000000] BUG: oops\r\n",
            "[    2.000100] Call Trace:\r\n",
            "st foo\r\n",
            "# dmesg says [    3.000000] hello\r\n",
            "ok 4 bar\r\n"])
        self.assertEqual(got, [
            ("Linux version 6.12", True), ("BUG: oops", True), ("Call Trace:", True),
            ("ok 3 Test foo", False),
            ("# dmesg says ", False), ("hello", True), ("ok 4 bar", False)])

    def test_console_interleaved(self):
        """ftracetest's KTAP on the console, with kernel messages (and KUnit
        run again by the kernel, its "ok 1 ftrace_md" among them) between
        and inside its lines: the kernel's and user space's documents are
        apart."""
        with open(data("interleaved/console.log"), newline="") as fh:
            docs = ktap.parse_ktap(fh, console=True)
        user = [d for d in docs if not d.kernel]
        kernel = [d for d in docs if d.kernel]
        self.assertEqual(len(user), 1)
        self.assertEqual([(t.number, t.name, t.result) for t in user[0].subtests], [
            (1, "Basic trace file check", "FAIL"),
            (2, "Basic trace clock test", "PASS"),
            (3, "Test tracefs GID mount option", "PASS"),
            (4, "Change the ringbuffer sub-buffer size", "XFAIL"),
            (5, "Snapshot and tracing_cpumask", "PASS"),
            (6, "Basic tests on writing to trace_marker", "UNRESOLVED")])
        self.assertEqual([(t.name, t.result, len(t.subtests)) for d in kernel for t in d.subtests],
                         [("ftrace_md", "PASS", 7), ("ftrace_md", "PASS", 7)])


# ---------------------------------------------------------------------------
# A guest's results
# ---------------------------------------------------------------------------

class GuestResults(unittest.TestCase):

    def test_crash_mid_test(self):
        """The guest died (an Oops) in case 6: no result files; from the
        console, cases 1-5 keep their results, 6 is CRASH, 7-8 are absent."""
        self.assertEqual(guest.ftracetest(data("crash")), {
            "ftrace/00basic/basic1.tc": "PASS",
            "ftrace/00basic/basic3.tc": "PASS",
            "ftrace/00basic/mount_options.tc": "UNSUPPORTED",
            "ftrace/00basic/ringbuffer_subbuf_size.tc": "FAIL",
            "ftrace/00basic/snapshot1.tc": "PASS",
            "ftrace/00basic/trace_marker.tc": "CRASH"})

    def test_interleaved_console(self):
        """All cases have a result on the console: no CRASH, and the
        kernel's "ok 1 ftrace_md" does not turn case 1 into a pass."""
        self.assertEqual(guest.ftracetest(data("interleaved")), {
            "ftrace/00basic/basic1.tc": "FAIL",
            "ftrace/00basic/basic3.tc": "PASS",
            "ftrace/00basic/mount_options.tc": "PASS",
            "ftrace/00basic/ringbuffer_subbuf_size.tc": "XFAIL",
            "ftrace/00basic/snapshot1.tc": "PASS",
            "ftrace/00basic/trace_marker.tc": "UNRESOLVED"})

    def test_retry_flaky(self):
        self.assertEqual(guest.ftracetest(data("retry")), {
            "ftrace/selftest/bashisms.tc": "FAIL",
            "ftrace/00basic/basic1.tc": "PASS",
            "ftrace/ftrace/func_profiler.tc": "FLAKY"})

    def test_kunit_cases(self):
        res = guest.kunit(data("kunit"))
        self.assertEqual(len(res), 14 + 3 + 4)
        for name, r in (("ftrace_direct_batch/fdk_add_del", "PASS"),
                        ("ftrace_direct_batch/fdk_static_churn", "UNSUPPORTED"),
                        ("ftrace_direct_batch/fdk_call_ops", "UNSUPPORTED"),
                        ("ftrace_direct_batch/fdk_batch_sizes", "PASS"),
                        ("ftrace_direct_batch/fdk_batch_sizes/batch=16", "PASS"),
                        ("ftrace_direct_batch/fdk_batch_sizes/batch=4096", "UNSUPPORTED"),
                        ("ftrace_md/fmk_sets", "FAIL"),
                        ("ftrace_md/fmk_taken_slot", "PASS")):
            self.assertEqual(res.get("kunit/" + name), r, name)

    def test_kunit_suite_without_cases(self):
        """A suite that failed to initialise is one result."""
        cases = guest.kunit_cases([
            "KTAP version 1", "1..1", "    KTAP version 1",
            "    # Subtest: ftrace_direct_batch", "    1..10",
            "    # ftrace_direct_batch:     # failed to initialize (-22)",
            "not ok 1 ftrace_direct_batch"])
        self.assertEqual([(n, r) for n, r, _ in cases], [("kunit/ftrace_direct_batch", "FAIL")])

    def test_variant_from_manifest(self):
        """The manifest's variant names the results (not the stale
        "variant" file); without a manifest, the "variant" file does."""
        res = guest.collect_one(data("variant"))
        self.assertEqual(res, {
            "ftrace/00basic/basic1.tc [ftrace_md=hash]": "PASS",
            "ftrace/direct/ftrace-direct-functions.tc [ftrace_md=hash]": "PASS",
            "project/direct-samples.sh [ftrace_md=hash]": "PASS",
            "harness/guest-completed": "PASS"})
        old = guest.collect_one(data("oldvariant"))
        self.assertIn("ftrace/00basic/basic1.tc [retbleed=stuff]", old)
        self.assertIn("harness/guest-completed", old)

    def test_test_progs(self):
        res = guest.test_progs_results(read(data("bpf/test_progs.txt")))
        self.assertEqual(len(res), 3 + 11 + 1 + 4 + 2)
        self.assertEqual(res["bpf/bpf_cookie/perf_event"], "FAIL")
        self.assertEqual(res["bpf/bpf_cookie"], "FAIL")
        self.assertEqual(res["bpf/bpf_cookie/lsm"], "PASS")
        self.assertEqual(res["bpf/exceptions/exception_ext"], "PASS")
        self.assertEqual(res["bpf/exceptions/exception_ext#2"], "PASS")
        self.assertEqual(res["bpf/ksyms_module/libbpf"], "UNSUPPORTED")
        self.assertEqual(res["bpf/ksyms_module"], "PASS")
        self.assertEqual(guest.test_progs(data("bpf")), res)

    def test_test_progs_retry(self):
        with tempfile.TemporaryDirectory() as d:
            with open(data("bpf/test_progs.txt")) as src, \
                    open(os.path.join(d, "test_progs.txt"), "w") as dst:
                dst.write(src.read())
            with open(os.path.join(d, "test_progs-retry.txt"), "w") as fh:
                fh.write("#17/7    bpf_cookie/perf_event:OK\n"
                         "#17      bpf_cookie:OK\n"
                         "#99      other:OK\n")
            res = guest.test_progs(d)
        self.assertEqual(res["bpf/bpf_cookie/perf_event"], "FLAKY")
        self.assertEqual(res["bpf/bpf_cookie"], "FLAKY")
        self.assertEqual(res["bpf/bpf_cookie/lsm"], "PASS")
        self.assertNotIn("bpf/other", res)

    def test_exitcodes(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "project.txt"), "w") as fh:
                fh.write("0 project/a.sh\n4 project/b.sh\n1 project/c.sh\nnoise\n")
            self.assertEqual(guest.exitcodes(d, "project.txt"), {
                "project/a.sh": "PASS", "project/b.sh": "UNSUPPORTED",
                "project/c.sh": "FAIL"})


# ---------------------------------------------------------------------------
# The verdict
# ---------------------------------------------------------------------------

class Verdict(Workdir):

    def test_new_tests(self):
        """KUnit's cases are new tests: a pass is ok, a skip is skipped, a
        failure fails with "(new test)" and the case's own lines."""
        rc, out, tap = self.check(["kunit"], base=[])
        self.assertEqual(rc, 1)
        self.assertEqual(tap_line(tap, "kunit/ftrace_direct_batch/fdk_add_del"),
                         "ok kunit/ftrace_direct_batch/fdk_add_del")
        self.assertEqual(tap_line(tap, "kunit/ftrace_direct_batch/fdk_batch_sizes/batch=4096"),
                         "ok kunit/ftrace_direct_batch/fdk_batch_sizes/batch=4096 # SKIP UNSUPPORTED")
        self.assertEqual(tap_line(tap, "kunit/ftrace_md/fmk_sets"),
                         "not ok kunit/ftrace_md/fmk_sets # FAIL (new test)")
        i = next(i for i, line in enumerate(out) if "kunit/ftrace_md/fmk_sets" in line)
        self.assertIn("EXPECTATION FAILED", out[i + 1])
        self.assertTrue(out[i + 1].startswith("#   "))
        self.assertIn("not ok 22 project/kunit.sh # FAIL (new test)", out)
        self.assertEqual(out[-1], "17 passed, 2 failed, 3 skipped")

    def test_worse_than_base(self):
        """Worse than the base fails, with the test's log."""
        rc, out, tap = self.check(["retry"], base=["PASS ftrace/selftest/bashisms.tc"])
        self.assertEqual(rc, 1)
        self.assertEqual(tap_line(tap, "ftrace/selftest/bashisms.tc"),
                         "not ok ftrace/selftest/bashisms.tc # FAIL, base: PASS")
        i = out.index("not ok 3 ftrace/selftest/bashisms.tc # FAIL, base: PASS")
        self.assertEqual(out[i + 1], "#   execute: /selftests/ftrace/test.d/selftest/bashisms.tc")
        self.assertIn("possible bashism", out[i + 8])
        self.assertEqual(out[i + 10], "4 passed, 1 failed, 0 skipped")

    def test_as_bad_as_base(self):
        """As bad as on the base: a TODO with the known reason, counted as
        skipped; a flaky test passes, and is shown."""
        rc, out, tap = self.check(
            ["retry"], base=["FAIL ftrace/selftest/bashisms.tc", "PASS ftrace/00basic/basic1.tc",
                             "PASS ftrace/ftrace/func_profiler.tc"],
            known=["ftrace/selftest/bashisms.tc | checkbashisms flags a 6.12 test"])
        self.assertEqual(rc, 0)
        self.assertEqual(tap_line(tap, "ftrace/selftest/bashisms.tc"),
                         "not ok ftrace/selftest/bashisms.tc # TODO FAIL, as on the base: "
                         "checkbashisms flags a 6.12 test")
        self.assertEqual(out, [
            "ok 2 ftrace/ftrace/func_profiler.tc # flaky: failed, passed when run again in the same boot",
            "4 passed, 0 failed, 1 skipped"])

    def test_as_bad_as_base_no_reason(self):
        _, _, tap = self.check(["retry"], base=["FAIL ftrace/selftest/bashisms.tc"])
        self.assertEqual(tap_line(tap, "ftrace/selftest/bashisms.tc"),
                         "not ok ftrace/selftest/bashisms.tc # TODO FAIL, as on the base: "
                         "no reason recorded in tests/baseline/")

    def test_crash_is_a_failure(self):
        base = ["PASS ftrace/00basic/%s.tc" % t for t in
                ("basic1", "basic3", "mount_options", "ringbuffer_subbuf_size",
                 "snapshot1", "trace_marker") if t != "mount_options"]
        base += ["UNSUPPORTED ftrace/00basic/mount_options.tc",
                 "PASS ftrace/direct/ftrace-direct-batch-md-ops.tc"]
        rc, out, tap = self.check(["crash"], base=base)
        self.assertEqual(rc, 1)
        self.assertEqual(tap_line(tap, "ftrace/00basic/trace_marker.tc"),
                         "not ok ftrace/00basic/trace_marker.tc # CRASH, base: PASS")
        self.assertEqual(tap_line(tap, "ftrace/direct/ftrace-direct-batch-md-ops.tc"),
                         "not ok ftrace/direct/ftrace-direct-batch-md-ops.tc # MISSING, base: PASS")
        self.assertEqual(tap_line(tap, "ftrace/00basic/mount_options.tc"),
                         "ok ftrace/00basic/mount_options.tc # SKIP UNSUPPORTED")
        self.assertEqual(out[-1], "3 passed, 3 failed, 1 skipped")

    def test_subset_and_missing(self):
        """A test of the base that did not run is MISSING, unless the
        guests ran a subset of the tests."""
        base = ["PASS ftrace/00basic/basic1.tc", "PASS ftrace/kprobe/profile.tc"]
        rc, out, tap = self.check(["retry"], base=base)
        self.assertEqual(rc, 1)
        self.assertEqual(tap_line(tap, "ftrace/kprobe/profile.tc"),
                         "not ok ftrace/kprobe/profile.tc # MISSING, base: PASS")
        rc, out, tap = self.check(["retry"], base=base, subset=True)
        self.assertIsNone(tap_line(tap, "ftrace/kprobe/profile.tc"))
        self.assertEqual(tap[:2], ["TAP version 13", "1..5"])
        self.assertEqual(out[-1], "4 passed, 1 failed, 0 skipped")   # bashisms: new test

    def test_variant_judged_against_base(self):
        """"<test> [<variant>]" is judged against the base's <test>; the
        arch for tests/skip/ARCH.txt comes from the manifest, whatever the
        base's file is called."""
        skip = ["dynevent/add_remove_tprobe_module.tc oopses the base"]
        rc, out, tap = self.check(["variant"], subset=True, skip=skip, basename="base.txt",
                                  base=["UNSUPPORTED ftrace/direct/ftrace-direct-functions.tc",
                                        "FAIL project/direct-samples.sh"])
        self.assertEqual(rc, 0)
        self.assertEqual(tap_line(tap, "ftrace/00basic/basic1.tc [ftrace_md=hash]"),
                         "ok ftrace/00basic/basic1.tc [ftrace_md=hash]")
        self.assertEqual(tap_line(tap, "ftrace/dynevent/add_remove_tprobe_module.tc"),
                         "ok ftrace/dynevent/add_remove_tprobe_module.tc # SKIP not run: "
                         "oopses the base")
        self.assertEqual(out, ["4 passed, 0 failed, 1 skipped"])

    def test_arch_from_base_name(self):
        """Without a manifest the arch is the base file's name."""
        skip = ["dynevent/add_remove_tprobe_module.tc oopses the base"]
        _, out, _ = self.check(["oldvariant"], base=[], subset=True, skip=skip)
        self.assertEqual(out, ["4 passed, 0 failed, 1 skipped"])
        _, out, _ = self.check(["oldvariant"], base=[], subset=True, skip=skip,
                               basename="x86_64-bpf.txt")
        self.assertEqual(out, ["4 passed, 0 failed, 0 skipped"])

    def test_worst_result_wins(self):
        """A test seen in two guests keeps its worst result."""
        res = guest.collect([data("retry"), data("crash")])
        self.assertEqual(res["ftrace/00basic/basic1.tc"], "PASS")
        both = guest.collect([data("interleaved"), data("crash")])
        self.assertEqual(both["ftrace/00basic/basic1.tc"], "FAIL")
        self.assertEqual(both["ftrace/00basic/trace_marker.tc"], "CRASH")

    def test_bpf_failure_log(self):
        log = verdict.failure_log([data("bpf")], "bpf/bpf_cookie/perf_event")
        self.assertEqual(log[0], "#   #17/7    bpf_cookie/perf_event:FAIL")

    def test_record(self):
        basefile = os.path.join(self.tmp, "x86_64.txt")
        with contextlib.redirect_stdout(io.StringIO()):
            rc = verdict.record([data("retry"), data("kunit")], basefile)
        self.assertEqual(rc, 0)
        self.assertEqual(read(basefile), [
            "# Results of the unpatched base; written by `make baseline`.",
            "PASS ftrace/00basic/basic1.tc",
            "FLAKY ftrace/ftrace/func_profiler.tc",
            "FAIL ftrace/selftest/bashisms.tc"])

    def test_command_line(self):
        basefile = self.write("x86_64.txt", ["PASS ftrace/00basic/basic1.tc"])
        tap = os.path.join(self.tmp, "out.tap")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            rc = results.main(["check", "--base", basefile, "--tap", tap, "--subset",
                               data("variant") + "," + data("retry")])
        # bashisms.tc failed, but tests/skip/x86_64.txt lists it: SKIP
        self.assertEqual(rc, 0)
        self.assertIn("ok 1 ftrace/00basic/basic1.tc", read(tap))
        self.assertTrue(any(l.startswith("ok 6 ftrace/selftest/bashisms.tc # SKIP not run: ")
                            for l in read(tap)))
        self.assertTrue(out.getvalue().endswith("\n7 passed, 0 failed, 2 skipped\n"))
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit):
                results.main(["check", "--tap", tap, data("retry")])


# ---------------------------------------------------------------------------
# make bench
# ---------------------------------------------------------------------------

class Bench(Workdir):

    def test_direct(self):
        for k, (a, n8) in enumerate(((1300, 160), (1400, 150), (1200, 170)), 1):
            self.write("run/bench-round%d.txt" % k,
                       ["n_functions 24000", "per_ops_n 500", "attach_batch_ms %d" % a,
                        "attach_batch_ms_n8 %d" % n8, "attach_speedup 1.5"])
        lines, rc = bench.bench_direct(os.path.join(self.tmp, "run"), 3)
        self.assertEqual(rc, 0)
        self.assertIn("#   batch at n_functions, i.e. per-ops cost of 24000 functions "
                      "from 500 measured", lines)
        self.assertIn("attach_batch_ms 1300 1200 1400 15.4%", lines)
        self.assertIn("attach_batch_ms_n8 160 150 170 12.5%", lines)
        self.assertIn("attach_speedup 1.5 1.5 1.5 0.0%", lines)
        self.assertFalse([line for line in lines if "linearity" in line])
        with contextlib.redirect_stderr(io.StringIO()):
            _, rc = bench.bench_direct(os.path.join(self.tmp, "run"), 4)
        self.assertEqual(rc, 1)

    def test_bpf_raw_keys(self):
        for side, vals in (("base", (400, 600, 500)), ("series", (100, 150, 250))):
            self.write(side + "/bench-bpf.txt", [
                "bpf_n_functions_n100 100", "bpf_attach_ms_n100 %d" % vals[0],
                "bpf_detach_ms_n100 %d" % vals[1], "bpf_n_functions_n2000 2000",
                "bpf_attach_ms_n2000 8000.5", "bpf_detach_ms_n2000 9000",
                "bpf_fentry_call_ns %d.00" % vals[2]])
        lines, rc = bench.bench_bpf(os.path.join(self.tmp, "base"),
                                    os.path.join(self.tmp, "series"), "2000")
        self.assertEqual(rc, 0)
        self.assertEqual([line for line in lines if not line.startswith("#")], [
            "bpf_n_functions_n100 100", "bpf_n_functions_base_n100 100",
            "bpf_attach_ms_base_n100 400", "bpf_attach_ms_n100 100",
            "bpf_detach_ms_base_n100 600", "bpf_detach_ms_n100 150",
            "bpf_n_functions 2000", "bpf_n_functions_base 2000",
            "bpf_attach_ms_base 8000.5", "bpf_attach_ms 8000.5",
            "bpf_detach_ms_base 9000", "bpf_detach_ms 9000",
            "bpf_fentry_call_ns_base 500", "bpf_fentry_call_ns 250"])

    def test_md_raw_keys(self):
        for mode, k1 in (("pad", "200.5"), ("hash", "100.25"), ("off", "90")):
            self.write(mode + "/bench-md.txt", ["list_k1_ns " + k1, "direct_shared_ns 110",
                                                "untraced_ns 10"])
        lines, rc = bench.bench_md(*[os.path.join(self.tmp, m) for m in ("pad", "hash", "off")],
                                   text_md="14000000", text_nomd="13958195")
        self.assertEqual(rc, 0)
        self.assertEqual(lines, [
            "list_k1_ns 200.5", "list_k1_ns_hash 100.25", "list_k1_ns_nomd 90",
            "direct_shared_md_ns 110", "direct_shared_mdhash_ns 110",
            "direct_shared_hash_ns 110", "untraced_ns 10",
            "text_bytes_md 14000000", "text_bytes_nomd 13958195"])

    def test_report_ratios(self):
        direct = self.write("direct.keys", [
            "# make bench: 3 round(s)", "attach_batch_ms 1600 1500 1700 12.5%",
            "attach_batch_ms_n8 100 90 110 20.0%", "detach_batch_ms 1000 900 1100 20.0%",
            "detach_batch_ms_n8 250 240 260 8.0%"])
        dfn = self.write("dfn.keys", ["# direct_functions", "dfn_read_ms 716"])
        bpf = self.write("bpf.keys", [
            "# make bench, BPF", "bpf_n_functions_n100 100", "bpf_n_functions_base_n100 100",
            "bpf_attach_ms_base_n100 400", "bpf_attach_ms_n100 100",
            "bpf_detach_ms_base_n100 600", "bpf_detach_ms_n100 150",
            "bpf_n_functions 2000", "bpf_attach_ms_base 7000", "bpf_attach_ms 3000",
            "bpf_detach_ms_base 9000", "bpf_detach_ms 1000",
            "bpf_fentry_call_ns_base 500", "bpf_fentry_call_ns 250",
            "bpftrace_ksys_ms_base 3000", "bpftrace_ksys_ms 1200", "bpftrace_ksys_probes 310"])
        md = self.write("md.keys", [
            "list_k1_ns 200", "list_k1_ns_hash 100", "list_k1_ns_nomd 90",
            "list_k128_ns 500", "list_k128_ns_hash 300",
            "direct_shared_md_ns 110", "direct_shared_mdhash_ns 160",
            "direct_shared_hash_ns 210", "untraced_ns 10",
            "filter_ip_ns 300", "filter_ip_ns_hash 600", "filter_ip_ns_nomd 200"])
        out = os.path.join(self.tmp, "bench.txt")
        self.assertEqual(bench.bench_report(out, [direct, dfn, bpf, md]), 0)
        lines = read(out)
        keys = [line for line in lines if not line.startswith("#")]
        # each part as it was, its ratios after it
        self.assertEqual(keys[:4], read(direct)[1:])
        self.assertEqual(keys[4:6], ["attach_batch_linearity 2", "detach_batch_linearity 0.5"])
        self.assertEqual(keys[6], "dfn_read_ms 716")
        self.assertEqual(keys[7:23], [line for line in read(bpf) if not line.startswith("#")])
        self.assertEqual(keys[23:33], [
            "bpf_attach_detach_speedup_n100 4",
            "bpf_attach_us_per_func_base_n100 4000",
            "bpf_detach_us_per_func_base_n100 6000",
            "bpf_attach_us_per_func_n100 1000",
            "bpf_detach_us_per_func_n100 1500",
            "bpf_attach_detach_speedup 4",
            "bpf_attach_us_per_func 1500",
            "bpf_detach_us_per_func 500",
            "bpf_fentry_call_ratio 0.5",
            "bpftrace_ksys_speedup 2.5"])
        self.assertEqual(keys[33:45], read(md))
        self.assertEqual(keys[45:], [
            "list_k128_over_k1 2.500", "list_k128_over_k1_hash 3.000",
            "direct_shared_md_over_hash 0.667", "direct_shared_md_over_off 0.500",
            "filter_ip_over_nomd 1.500", "filter_ip_over_nomd_hash 3.000"])
        self.assertIn("# *_batch_linearity: *_batch_ms / (8 x *_batch_ms_n8) of the medians", lines)

    def test_report_multi_ratios(self):
        multi = self.write("multi.keys", [
            "# make bench, tracing_multi", "tmulti_n 1000", "tmulti_attach_ms 300",
            "tmulti_detach_ms 100", "kmulti_attach_ms 150", "kmulti_detach_ms 200",
            "fentry_single_attach_ms_per_func 3", "fentry_single_detach_ms_per_func 2",
            "rawbatch_attach_ms 200", "rawbatch_detach_ms 80",
            "fentry_call_ns 40", "fexit_call_ns 50", "tmulti_call_ns 42",
            "tmulti_fexit_call_ns 55", "kmulti_call_ns 84",
            "tmulti_all_call_ns 50", "kmulti_all_call_ns 75",
            "tmulti_perfunc_attach_ms 600", "tmulti_perfunc_detach_ms 400",
            "tmulti_perfunc_call_ns 40", "tmulti_perfunc_all_call_ns 40"])
        out = os.path.join(self.tmp, "bench.txt")
        self.assertEqual(bench.bench_report(out, [multi]), 0)
        keys = [line for line in read(out) if not line.startswith("#")]
        self.assertEqual(keys[20:], [
            "tmulti_attach_over_rawbatch 1.500", "tmulti_attach_over_kmulti 2.000",
            "tmulti_attach_speedup_over_single 10.000", "tmulti_attach_over_perfunc 0.500",
            "tmulti_detach_over_rawbatch 1.250", "tmulti_detach_over_kmulti 0.500",
            "tmulti_detach_speedup_over_single 20.000", "tmulti_detach_over_perfunc 0.250",
            "tmulti_call_over_fentry 1.050", "tmulti_fexit_call_over_fexit 1.100",
            "kmulti_call_over_tmulti 2.000", "tmulti_perfunc_call_over_fentry 1.000",
            "tmulti_all_call_over_perfunc_all 1.250",
            "kmulti_all_call_over_tmulti_all 1.500"])



# ---------------------------------------------------------------------------
# Reports a test announced (scripts/ftsdo/expected.py)
# ---------------------------------------------------------------------------

class Expected(unittest.TestCase):
    """Kernel log lines as try-nomem's dmesg.txt had them, cut down."""

    ALLOCFAIL = [
        "[  113.728282] failnth: vmalloc error: size 7080, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL), nodemask=(null)\n",
        "[  113.728859] CPU: 0 UID: 0 PID: 1121 Comm: failnth Tainted: G                 N 6.12.117+ #24\n",
        "[  113.730965] Call Trace:\n",
        "[  113.731129]  <TASK>\n",
        "[  113.733078]  warn_alloc+0xf4/0x171\n",
        "[  113.734134]  </TASK>\n",
        "[  113.734398] Mem-Info:\n",
    ]
    WARN = [
        "[   10.000000] WARNING: CPU: 1 PID: 99 at kernel/trace/ftrace.c:6500 update_ftrace_direct_mod+0x1/0x2\n",
        "[   10.000001] Call Trace:\n",
        "[   10.000002] ---[ end trace 0000000000000000 ]---\n",
    ]

    def out(self, lines):
        return "".join(expected.filter_lines(lines))

    def test_allocfail_bracket(self):
        log = (["[ 1.0] expect-allocfail-begin\n"] + self.ALLOCFAIL +
               self.ALLOCFAIL + ["[ 2.0] expect-allocfail-end\n"])
        out = self.out(log)
        self.assertNotIn("Call Trace:", out)
        self.assertEqual(out.count("allocation failure report left out"), 2)
        self.assertIn("Mem-Info:", out)

    def test_allocfail_outside_a_bracket_stays(self):
        self.assertIn("Call Trace:", self.out(self.ALLOCFAIL))

    def test_allocfail_bracket_keeps_other_reports(self):
        log = ["[ 1.0] expect-allocfail-begin\n"] + self.WARN
        self.assertIn("WARNING: CPU: 1", self.out(log))

    def test_warn_bracket(self):
        log = (["[ 1.0] expect-warn-begin kernel/trace/ftrace.c\n"] + self.WARN +
               ["[ 2.0] expect-warn-end\n"])
        out = self.out(log)
        self.assertNotIn("WARNING: CPU", out)
        self.assertIn("expected WARNING from kernel/trace/ftrace.c left out", out)
        # and a check-debug signature is not made of it either
        self.assertEqual(splats.log_signatures(
            [splats.strip(line) for line in expected.filter_lines(log)]), [])


# ---------------------------------------------------------------------------
# Kernel reports against the base's (make check-debug)
# ---------------------------------------------------------------------------

class Splats(Workdir):
    """data/splats: a base boot with a WARNING, a KASAN report and a leak;
    the series' boot of the same tests with those (at other line numbers,
    addresses and PIDs) and one new report of each kind."""

    def test_signatures(self):
        sigs = splats.boot_signatures(data("splats/series"))
        self.assertEqual(sigs, [
            "WARNING: kernel/trace/trace.c run_tracer_selftest",
            "KASAN: slab-use-after-free in trace_fprobe_release",
            "KASAN: slab-out-of-bounds in ftrace_md_set_update",
            "lockdep: possible circular locking dependency detected: direct_mutex ftrace_lock",
            "BUG: BUG: kernel NULL pointer dereference, address: N at call_direct_funcs_hash",
            "leak: size 64 from trace_fprobe_create < dyn_event_create",
            "leak: size 4096 from ftrace_md_grow < update_ftrace_direct_add"])

    def test_only_new_reports_fail(self):
        new, known = splats.compare(data("splats/series"), [data("splats/base")])
        self.assertEqual([sig for sig, _ in known], [
            "KASAN: slab-use-after-free in trace_fprobe_release",
            "WARNING: kernel/trace/trace.c run_tracer_selftest",
            "leak: size 64 from trace_fprobe_create < dyn_event_create"])
        self.assertEqual(len(new), 4)
        self.assertIn(("KASAN: slab-out-of-bounds in ftrace_md_set_update", 1), new)

    def test_judge_rewrites_the_harness_result(self):
        import shutil
        for side in ("base", "series"):
            shutil.copytree(data("splats/" + side), os.path.join(self.tmp, side))
        series, base = os.path.join(self.tmp, "series"), os.path.join(self.tmp, "base")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(splats.judge(series, [base]), 1)
        self.assertIn("NEW: KASAN: slab-out-of-bounds in ftrace_md_set_update (x1)",
                      out.getvalue().splitlines())
        self.assertEqual(read(os.path.join(series, "harness.txt")),
                         ["0 harness/guest-completed", "1 harness/no-kernel-splat"])
        # the same reports as the base: the boot passes
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(splats.judge(base, [base]), 0)
        self.assertEqual(read(os.path.join(base, "harness.txt")),
                         ["0 harness/no-kernel-splat"])
        # a kernel log that lost its start fails, whatever the base shows
        with open(os.path.join(base, "splats.txt"), "w") as fh:
            fh.write("harness: the kernel log does not reach back to boot\n")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(splats.judge(base, [base]), 1)


if __name__ == "__main__":
    unittest.main()
