"""Unit tests of scripts/ftsdo/suites.py: the configs/suites parser (its
refusals, the %suite and %kernel lines, the weights' order) and the
ftracetest shard dealer guest/deal.awk, which the guest and make
check-one both run.  The repository's own configs/suites must parse.
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.normpath(os.path.join(HERE, "..", "..", "scripts"))
sys.dont_write_bytecode = True
sys.path.insert(0, SCRIPTS)
from ftsdo import suites  # noqa: E402

ROWHEAD = "# suite arch kernel boot tests opts append\n"


class Table(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def table(self, text, weights=""):
        path = os.path.join(self.tmp, "suites")
        with open(path, "w") as fh:
            fh.write(ROWHEAD + text)
        wpath = os.path.join(self.tmp, "weights")
        with open(wpath, "w") as fh:
            fh.write(weights)
        return path, wpath

    def refuses(self, text, what):
        path, _ = self.table(text)
        with self.assertRaises(suites.TableError) as cm:
            suites.parse(path)
        self.assertIn(what, str(cm.exception))
        self.assertIn("suites:", str(cm.exception))

    def test_repository_table(self):
        t = suites.parse()
        self.assertTrue(any(r.suite == "check" for r in t.rows))
        for r in t.rows:
            self.assertIn(r.kernel, t.kernels)

    def test_unknown_option(self):
        self.refuses("check x86_64 main run1 ftrace timout=30 -\n", "unknown option 'timout'")

    def test_option_value(self):
        self.refuses("check x86_64 main run1 ftrace timeout -\n", "needs a value")
        self.refuses("check x86_64 main run1 ftrace subset=1 -\n", "takes no value")

    def test_columns(self):
        self.refuses("check x86_64 main run1 ftrace -\n", "7 columns")

    def test_unknown_list(self):
        self.refuses("check x86_64 main run1 @nope -\t-\n".replace("\t", " "), "no list @nope")

    def test_unknown_kernel(self):
        self.refuses("check x86_64 debug run1 ftrace - -\n", "no %kernel line")

    def test_header_twice(self):
        self.refuses("%suite debug subset -\n%suite debug subset -\n", "second header")

    def test_boot_twice(self):
        self.refuses("check x86_64 main a ftrace - -\ncheck x86_64 main a project - -\n", "twice")

    def test_header_merge(self):
        path, wpath = self.table(
            "%kernel debug configs/debug.config\n"
            "%suite debug subset,mem=3G,timeout=7200 kasan_multi_shot watchdog_thresh=60\n"
            "@l = ftrace/a/,project\n"
            "debug x86_64 debug run1 @l@1/2 mem=4G ftsdo.churn=120\n"
            "debug * debug run2 project - -\n")
        t = suites.parse(path)
        self.assertEqual(t.kernels["debug"], ["configs/debug.config"])
        r = suites.rows(t, "debug", ["x86_64", "arm64"], wpath)
        x = [x for x in r if x.arch == "x86_64" and x.boot == "run1"][0]
        self.assertEqual(x.opts, {"subset": True, "mem": "4G", "timeout": "7200"})
        self.assertEqual(x.append, "kasan_multi_shot watchdog_thresh=60 ftsdo.churn=120")
        self.assertEqual(x.tests, "ftrace/a/@1/2,project")
        self.assertEqual([(y.arch, y.boot) for y in r if y.boot == "run2"],
                         [("x86_64", "run2"), ("arm64", "run2")])
        self.assertEqual(x.tsv().split("\t")[6], "subset,mem=4G,timeout=7200")

    def test_weights_order(self):
        path, wpath = self.table(
            "check x86_64 main a ftrace - -\ncheck x86_64 main b ftrace - -\n"
            "check arm64 main c ftrace - -\ncheck x86_64 main d ftrace - -\n",
            "check x86_64 a 100 20\ncheck arm64 c 900 30\ncheck x86_64 d 400 25\n")
        r = suites.rows(suites.parse(path), "check", ["x86_64", "arm64"], wpath)
        # b has no weight: it counts DEFAULT_WEIGHT
        self.assertEqual([x.boot for x in r], ["c", "b", "d", "a"])
        self.assertEqual((r[0].weight, r[0].begin), (900, 30))


class Dealer(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.w = os.path.join(self._tmp.name, "w")
        with open(self.w, "w") as fh:
            fh.write("# weights\n100 a.tc\n50 b.tc\n50 c.tc\n30 d.tc\n")

    def tearDown(self):
        self._tmp.cleanup()

    def test_each_test_once(self):
        tests = ["a.tc", "b.tc", "c.tc", "d.tc", "e.tc", "f.tc"]
        shards = [suites.deal(tests, k, 3, self.w) for k in (1, 2, 3)]
        self.assertEqual(sorted(sum(shards, [])), tests)
        # heaviest first, each to the least loaded shard, ties to the lower
        self.assertEqual(shards, [["a.tc"], ["b.tc", "d.tc"], ["c.tc", "e.tc", "f.tc"]])

    def test_order_kept(self):
        # a shard keeps the list's order (the guest runs it in that order)
        self.assertEqual(suites.deal(["e.tc", "a.tc", "f.tc"], 1, 1, self.w),
                         ["e.tc", "a.tc", "f.tc"])


class Find(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.td = os.path.join(self._tmp.name, "test.d")
        for p in ("00basic/basic1.tc", "direct/a.tc", "direct/b.tc", "kprobe/k.tc"):
            os.makedirs(os.path.dirname(os.path.join(self.td, p)), exist_ok=True)
            open(os.path.join(self.td, p), "w").close()
        self.path = os.path.join(self._tmp.name, "suites")
        with open(self.path, "w") as fh:
            fh.write(ROWHEAD +
                     "check x86_64 main project project,tools - -\n"
                     "check x86_64 main run1 ftrace@1/2 - -\n"
                     "check x86_64 main run2 ftrace@2/2 - trace_event=\n"
                     "check x86_64 main md ftrace/direct/,project/kunit.sh label=md=hash md=hash\n"
                     "check arm64 main run1 ftrace/direct/,project - -\n"
                     "check x86_64 main killed-old project/direct-killed-old.sh - -\n")

    def tearDown(self):
        self._tmp.cleanup()

    def find(self, test, arch="x86_64", boot=None):
        r = suites.find(suites.parse(self.path), test, arch, self.td, boot)
        return r.boot if r else None

    def test_shards(self):
        t = suites.parse(self.path)
        r1 = [r for r in t.rows if r.boot == "run1"][0]
        r2 = [r for r in t.rows if r.boot == "run2"][0]
        for tc in ("00basic/basic1.tc", "direct/a.tc", "direct/b.tc", "kprobe/k.tc"):
            self.assertNotEqual(suites.holds(r1, "ftrace/" + tc, self.td),
                                suites.holds(r2, "ftrace/" + tc, self.td), tc)

    def test_groups(self):
        self.assertEqual(self.find("kunit/ftrace_direct_batch/fdk_churn"), "project")
        self.assertEqual(self.find("project/bpf-cycles.sh"), "project")
        self.assertEqual(self.find("tools/bpftrace-count.sh"), "project")
        self.assertEqual(self.find("ftrace/direct/a.tc", "arm64"), "run1")
        self.assertIsNone(self.find("livepatch/test-livepatch.sh"))
        # an ftsdo-alone test (tests/guest/direct-killed-old.sh) runs only
        # in a row that names it, not in one running the whole group
        self.assertEqual(self.find("project/direct-killed-old.sh"), "killed-old")
        self.assertIsNone(self.find("project/direct-killed-old.sh", "arm64"))
        self.assertIsNone(self.find("ftrace/nope/x.tc"))

    def test_labelled_only_by_name(self):
        self.assertIn(self.find("ftrace/direct/a.tc"), ("run1", "run2"))
        self.assertEqual(self.find("ftrace/direct/a.tc", boot="md"), "md")
        self.assertIsNone(self.find("ftrace/kprobe/k.tc", boot="md"))

    def test_selector(self):
        self.assertEqual(suites.guest_selector("kunit/s/c"), "project/kunit.sh")
        self.assertEqual(suites.guest_selector("ftrace/direct/a.tc"), "ftrace/direct/a.tc")
        self.assertEqual(suites.guest_selector("tools/bpftrace-count.sh"), "tools")


if __name__ == "__main__":
    unittest.main()
