"""Golden tests of the splat policy, configs/splats, and of its two
readers: scripts/splat-scan.sh (a boot's harness/no-kernel-splat) and
scripts/ftsdo/splats.py (make check-debug's signatures).

Each directory under data/splat-golden/ holds a boot's logs (console.log,
dmesg.txt or both) and what the readers make of them: scan.out, the
output of splat-scan.sh on the logs (run in the directory, as qemu-run.sh
runs it on a boot's), and signatures, boot_signatures() of the directory.
Both readers run on the same files, and the lines splat-scan.sh prints as
found must be those splats.is_report() takes for reports.  The logs are
written by hand in the formats of 6.12's printk calls (a few in those of
older kernels and of the other arches).

Run from the repository's top: python3 -m unittest discover -s tests/harness -v
SPLAT_GOLDEN_UPDATE=1 rewrites scan.out and signatures from the readers'
output instead (then read the diff).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(TOP, "scripts")
SCAN = os.path.join(SCRIPTS, "splat-scan.sh")
GOLDEN = os.path.join(HERE, "data", "splat-golden")
UPDATE = os.environ.get("SPLAT_GOLDEN_UPDATE") == "1"
LOGS = ("console.log", "dmesg.txt")

# The package scripts/ftsdo/, without leaving a __pycache__ in scripts/
sys.dont_write_bytecode = True
sys.path.insert(0, SCRIPTS)
from ftsdo import splats  # noqa: E402

# Whether each case fails its boot: written here, not only in scan.out,
# so that a careless SPLAT_GOLDEN_UPDATE cannot turn a verdict
VERDICT = {
    "warn-console": True,     # a WARN on the console, with its timestamp
    "warn-dmesg": True,       # the same, raised after boot: dmesg.txt only
    "user-warning": False,    # a test's own "WARNING: ...", "BUG: ..."
    "ktap-warning": False,    # ftracetest's "# WARNING: ..." KTAP comment
    "expected-warn": True,    # the announced WARN left out, its second not
    "expected-warn-files": True,  # one WARN of each file named left out,
                              # a second of one file not
    "lockdep": True,
    "lockdep-misc": True,     # suspicious RCU usage, wait context, unlock
    "rcu-stall": True,
    "kasan": True,
    "gpf": True,              # 6.12's, an older kernel's, a user program's
    "lockup": True,           # soft, hard (x86, powerpc)
    "hung-task": True,
    "oops-x86": True,         # NULL pointer, Oops, panic
    "oops-arm64": True,
    "oops-other": True,       # riscv, powerpc
    "bug-on": True,           # x86, arm64
    "ubsan": True,
    "odebug": True,
    "interleaved": True,      # a WARN that interrupted a console line
    "caller-id": True,        # CONFIG_PRINTK_CALLER's [    T1]
    "stack-dump": True,       # an allocation failure outside its bracket
}


def cases():
    return sorted(d for d in os.listdir(GOLDEN) if os.path.isdir(os.path.join(GOLDEN, d)))


def logs(case):
    return [f for f in LOGS if os.path.exists(os.path.join(GOLDEN, case, f))]


def scan(cwd, names, script=SCAN):
    """splat-scan.sh NAMES... in CWD: (exit code, stdout)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run(["sh", script] + list(names), cwd=cwd, env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout


def found(out, names):
    """The (log, line number) pairs splat-scan.sh printed as matches, not
    as context."""
    one = names[0] if len(names) == 1 else None
    pat = re.compile(r"^(?:(%s):)?(\d+):" % "|".join(re.escape(n) for n in names))
    pairs = set()
    for line in out.splitlines():
        m = pat.match(line)
        if m and (m.group(1) or one):
            pairs.add((m.group(1) or one, int(m.group(2))))
    return pairs


def reports(directory, names):
    """The (log, line number) pairs splats.py takes for reports."""
    pairs = set()
    for name in names:
        for i, line in enumerate(splats.read(os.path.join(directory, name))):
            if splats.is_report(line):
                pairs.add((name, i + 1))
    return pairs


def unportable(pat):
    """What of ERE PAT grep -E and Python's re may read apart: an escape of
    anything but a special character (\\d, \\s, \\b, ...), a backslash or
    a [:class:] inside a bracket expression."""
    bad = []
    i = 0
    while i < len(pat):
        c = pat[i]
        if c == "\\":
            if i + 1 >= len(pat) or pat[i + 1] not in ".[]()*+?{}|^$\\":
                bad.append(pat[i:i + 2])
            i += 2
        elif c == "[":
            j = i + 1
            if pat[j:j + 1] == "^":
                j += 1
            if pat[j:j + 1] == "]":
                j += 1
            end = pat.find("]", j)
            if end < 0:
                bad.append(pat[i:])
                break
            body = pat[i + 1:end]
            if "\\" in body or "[" in body:
                bad.append(pat[i:end + 1])
            i = end + 1
        else:
            i += 1
    return bad


def golden(case, name, text):
    """Compare TEXT with the golden file, or write it (SPLAT_GOLDEN_UPDATE)."""
    path = os.path.join(GOLDEN, case, name)
    if UPDATE:
        with open(path, "w") as fh:
            fh.write(text)
    with open(path) as fh:
        return fh.read()


class Golden(unittest.TestCase):
    """One test per directory of data/splat-golden/ (added below)."""

    def check_case(self, case):
        names = logs(case)
        directory = os.path.join(GOLDEN, case)
        self.assertTrue(names, "%s: no console.log or dmesg.txt" % case)
        rc, out = scan(directory, names)
        self.assertEqual(out, golden(case, "scan.out", out))
        self.assertEqual(rc, 1 if out else 0, out)
        self.assertEqual(bool(out), VERDICT[case])
        sigs = "".join(s + "\n" for s in splats.boot_signatures(directory))
        self.assertEqual(sigs, golden(case, "signatures", sigs))
        # The two readers take the same lines for reports
        self.assertEqual(found(out, names), reports(directory, names))
        # and a signature comes only from a boot that fails
        self.assertTrue(out or not sigs)


def _add(case):
    def test(self):
        self.check_case(case)
    test.__doc__ = "data/splat-golden/%s" % case
    setattr(Golden, "test_" + case.replace("-", "_"), test)


for _case in cases():
    _add(_case)


class Policy(unittest.TestCase):

    def setUp(self):
        self.prefix, self.patterns = splats.policy()

    def test_every_case_has_a_verdict(self):
        self.assertEqual(sorted(VERDICT), cases())

    def test_every_pattern_is_exercised(self):
        """Each pattern of configs/splats matches a line of a golden log,
        for grep -E and for Python alike."""
        lines = []
        for case in cases():
            for name in logs(case):
                lines += splats.read(os.path.join(GOLDEN, case, name))
        with tempfile.NamedTemporaryFile("w", suffix=".log") as fh:
            fh.write("".join(line + "\n" for line in lines))
            fh.flush()
            for pat in self.patterns:
                ere = "%s(%s)" % (self.prefix, pat)
                py = [line for line in lines if re.search(ere, line)]
                self.assertTrue(py, "no golden line matches %r" % pat)
                p = subprocess.run(["grep", "-c", "-E", "-e", ere, fh.name],
                                   capture_output=True, text=True,
                                   env=dict(os.environ, LC_ALL="C"))
                self.assertEqual(p.returncode, 0, "grep -E finds no %r" % pat)
                self.assertEqual(int(p.stdout), len(py), pat)

    def test_patterns_are_portable(self):
        """grep -E and Python's re read each pattern alike: only the
        syntax both share, no blank at either end."""
        for pat in [self.prefix] + self.patterns:
            self.assertEqual(pat, pat.strip(), pat)
            self.assertFalse(pat.startswith("#"), pat)
            self.assertEqual(unportable(pat), [], pat)
            re.compile(pat)
            p = subprocess.run(["grep", "-E", "-e", pat], input="",
                               capture_output=True, text=True,
                               env=dict(os.environ, LC_ALL="C"))
            self.assertEqual(p.returncode, 1, "grep -E: %r: %s" % (pat, p.stderr))
        self.assertTrue(self.prefix.startswith("^"))

    def test_a_broken_policy_fails_the_scan(self):
        """A configs/splats that grep cannot read makes splat-scan.sh fail,
        on stdout (the boot's splats.txt); splats.py does not read it
        either."""
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "scripts"))
            os.makedirs(os.path.join(tmp, "configs"))
            for f in ("splat-scan.sh", "splat-expected.py"):
                shutil.copy(os.path.join(SCRIPTS, f), os.path.join(tmp, "scripts"))
            shutil.copytree(os.path.join(SCRIPTS, "ftsdo"), os.path.join(tmp, "scripts", "ftsdo"))
            conf = os.path.join(tmp, "configs", "splats")
            with open(conf, "w") as fh:
                fh.write("prefix ^\\[ *[0-9]+\\.[0-9]+][ ]\nWARNING:(\n")
            log = os.path.join(GOLDEN, "warn-console", "console.log")
            rc, out = scan(tmp, [log], os.path.join(tmp, "scripts", "splat-scan.sh"))
            self.assertEqual(rc, 2)
            self.assertTrue(out.startswith("harness: splat-scan.sh: "), out)
            with self.assertRaises(re.error):
                splats.report_re(conf)
            for text in ("# no prefix line\nWARNING:\n",
                         "prefix ^\\[ *[0-9]+\\.[0-9]+][ ]\nprefix ^\nWARNING:\n",
                         "prefix ^\\[ *[0-9]+\\.[0-9]+][ ]\n# no pattern\n"):
                with open(conf, "w") as fh:
                    fh.write(text)
                self.assertEqual(scan(tmp, [log], os.path.join(tmp, "scripts", "splat-scan.sh"))[0], 2)
                with self.assertRaises(ValueError):
                    splats.policy(conf)


class OtherLogs(unittest.TestCase):
    """The other logs of data/ (cut from real runs): the two readers take
    the same lines for reports there too."""

    def test_same_reports(self):
        data = os.path.join(HERE, "data")
        for root, _, files in os.walk(data):
            if root.startswith(GOLDEN):
                continue
            names = [f for f in LOGS if f in files]
            if not names:
                continue
            with self.subTest(root=os.path.relpath(root, data)):
                _, out = scan(root, names)
                self.assertEqual(found(out, names), reports(root, names))


if __name__ == "__main__":
    unittest.main()
