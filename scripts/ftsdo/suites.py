"""configs/suites, the table of every boot of the test targets, and the
ftracetest shard dealer.

The table (its own header comment describes the columns) has three kinds
of lines besides rows and comments:

  @NAME = SELECTORS        a named list of test selectors
  %suite SUITE OPTS APPEND options and kernel command line that every row
                           of SUITE gets (a row's own options override
                           them, its command line comes after)
  %kernel NAME FRAGMENT... the Kconfig fragments (paths relative to the
                           repository) of the kernel NAME on top of the
                           test kernel "main"; "-": its script makes them

parse() reads it and refuses what it cannot mean: an unknown option key,
a row with too few columns, an unknown list, a suite header given twice,
a row whose kernel has no %kernel line.  rows() gives one suite's rows
for some architectures, longest first by the committed boot weights
(configs/boot-weights, "suite arch boot seconds begin": the seconds the
boot took, and those its guest took to reach FTSDO-BEGIN).

deal() gives a shard of an ftracetest selection exactly as the guest
deals it: both run guest/deal.awk.  find() picks the row of make check
that holds a test (make check-one).
"""
import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(TOP, "configs", "suites")
WEIGHTS = os.path.join(TOP, "configs", "boot-weights")
DEALER = os.path.join(TOP, "guest", "deal.awk")
FTRACE_WEIGHTS = os.path.join(TOP, "guest", "ftrace-weights.txt")

# Option keys a row (or a %suite header) may use; True: takes a value
OPTS = {"label": True, "needs": True, "subset": False, "run": True,
        "base": True, "mem": True, "timeout": True, "expect": True,
        "base-run": False}
# A boot without a committed weight counts as this many seconds
DEFAULT_WEIGHT = 600


class TableError(Exception):
    """configs/suites says something the harness cannot run."""


class Row:
    """One boot: its suite, architecture, kernel, name, test selectors
    (named lists expanded), options {key: value} and command line."""

    def __init__(self, suite, arch, kernel, boot, tests, opts, append, line):
        self.suite, self.arch, self.kernel, self.boot = suite, arch, kernel, boot
        self.tests, self.opts, self.append, self.line = tests, opts, append, line
        self.weight, self.begin = DEFAULT_WEIGHT, 0

    def opts_text(self):
        """The options as the table writes them, "-" for none."""
        items = [k if v is True else "%s=%s" % (k, v) for k, v in self.opts.items()]
        return ",".join(items) or "-"

    def tsv(self, arch=None):
        """"arch kernel boot weight begin tests opts append", tab-separated
        (what scripts/suite.sh reads)."""
        return "\t".join([arch or self.arch, self.kernel, self.boot, str(self.weight),
                          str(self.begin), self.tests, self.opts_text(),
                          self.append or "-"])


def parse_opts(text, where):
    """{key: value} of a comma-separated option list ("-": none); a key
    without a value is True."""
    res = {}
    if text == "-":
        return res
    for item in text.split(","):
        key, eq, value = item.partition("=")
        if key not in OPTS:
            raise TableError("%s: unknown option '%s' (known: %s)"
                             % (where, key, ", ".join(sorted(OPTS))))
        if OPTS[key] != bool(eq) or (eq and not value):
            raise TableError("%s: option '%s' %s" % (
                where, key, "needs a value" if OPTS[key] else "takes no value"))
        res[key] = value if eq else True
    return res


def expand(tests, lists, where):
    """The selectors of a row with named lists expanded; "@name@K/N" puts
    the shard suffix on the list's first selector (guest/check.sh takes
    the suffix of any ftrace selector for the whole selection)."""
    if tests == "-":
        return "-"
    out = []
    for name in tests.split(","):
        if name.startswith("@"):
            body, shard = name[1:], ""
            if "@" in body:
                body, shard = body.split("@", 1)
                shard = "@" + shard
            if body not in lists:
                raise TableError("%s: no list @%s" % (where, body))
            items = lists[body].split(",")
            items[0] += shard
            out += items
        else:
            out.append(name)
    return ",".join(out)


class Table:
    """configs/suites parsed: rows, suite headers, kernels, lists."""

    def __init__(self, rows, headers, kernels, lists):
        self.rows, self.headers, self.kernels, self.lists = rows, headers, kernels, lists


def parse(path=TABLE):
    """Read configs/suites (see the module's doc); TableError on what it
    cannot mean."""
    lists, headers, kernels, raw = {}, {}, {"main": []}, []
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            where = "%s:%d" % (os.path.basename(path), n)
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"^@([A-Za-z0-9_-]+)\s*=\s*(\S+)\s*$", line)
            if m:
                lists[m.group(1)] = m.group(2)
                continue
            if line.startswith("@"):
                raise TableError("%s: a list is '@name = selectors'" % where)
            f = line.split(None, 3)
            if f[0] == "%suite":
                if len(f) < 3:
                    raise TableError("%s: '%%suite SUITE OPTS [APPEND]'" % where)
                if f[1] in headers:
                    raise TableError("%s: a second header for suite %s" % (where, f[1]))
                append = f[3].strip() if len(f) > 3 else "-"
                headers[f[1]] = (parse_opts(f[2], where), "" if append == "-" else append)
                continue
            if f[0] == "%kernel":
                if len(f) < 3:
                    raise TableError("%s: '%%kernel NAME FRAGMENT...'" % where)
                kernels[f[1]] = [x for x in line.split()[2:] if x != "-"]
                continue
            if f[0].startswith("%"):
                raise TableError("%s: unknown header '%s'" % (where, f[0]))
            f = line.split(None, 6)
            if len(f) < 7:
                raise TableError("%s: a row has 7 columns: suite arch kernel boot "
                                 "tests opts append" % where)
            raw.append((f, where))
    rows = []
    seen = set()
    for f, where in raw:
        suite, arch, kernel, boot, tests, opts, append = f
        hopts, happend = headers.get(suite, ({}, ""))
        merged = dict(hopts)
        merged.update(parse_opts(opts, where))
        append = append.strip()
        append = " ".join(a for a in (happend, "" if append == "-" else append) if a)
        if kernel not in kernels:
            raise TableError("%s: kernel '%s' has no %%kernel line" % (where, kernel))
        if (suite, arch, boot) in seen:
            raise TableError("%s: boot %s of suite %s for %s twice" % (where, boot, suite, arch))
        seen.add((suite, arch, boot))
        rows.append(Row(suite, arch, kernel, boot, expand(tests, lists, where),
                        merged, append, where))
    return Table(rows, headers, kernels, lists)


def weights(path=WEIGHTS):
    """{(suite, arch, boot): (seconds, begin)} of configs/boot-weights."""
    res = {}
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                f = line.split()
                if len(f) >= 4 and not line.startswith("#"):
                    res[(f[0], f[1], f[2])] = (int(float(f[3])),
                                               int(float(f[4])) if len(f) > 4 else 0)
    return res


def rows(table, suite, arches, wpath=WEIGHTS):
    """The rows of SUITE for ARCHES (a "*" row is for each of them),
    heaviest first, then in table order."""
    w = weights(wpath)
    out = []
    for arch in arches:
        for r in table.rows:
            if r.suite != suite or r.arch not in (arch, "*"):
                continue
            x = Row(r.suite, arch, r.kernel, r.boot, r.tests, r.opts, r.append, r.line)
            x.weight, x.begin = w.get((suite, arch, r.boot), (DEFAULT_WEIGHT, 0))
            out.append(x)
    order = {id(x): i for i, x in enumerate(out)}
    return sorted(out, key=lambda x: (-x.weight, order[id(x)]))


# ---------------------------------------------------------------------------
# ftracetest selections and shards
# ---------------------------------------------------------------------------

def ftrace_tests(testdir, selectors, skip=()):
    """The .tc paths (relative to test.d) a boot's ftrace selectors name,
    in the order the guest deals them (guest/check.sh): a directory's
    tests sorted, skip-listed ones left out.  (The guest then runs LATE
    last in its shard; that changes no shard.)"""
    out = []
    for s in selectors:
        if s.endswith("/") or s == "./":
            d = os.path.join(testdir, s)
            found = []
            for root, _, files in os.walk(d):
                for f in files:
                    if f.endswith(".tc"):
                        p = os.path.relpath(os.path.join(root, f), testdir)
                        found.append(p)
            out += sorted(found, key=lambda p: p.encode())
        elif os.path.exists(os.path.join(testdir, s)):
            out.append(s)
    return [t for t in out if t not in skip]


def deal(tests, k, n, wfile=FTRACE_WEIGHTS):
    """Shard K of N of TESTS, dealt by guest/deal.awk as the guest does."""
    p = subprocess.run(["awk", "-v", "k=%d" % k, "-v", "n=%d" % n, "-v", "wf=" + wfile,
                        "-f", DEALER], input="".join(t + "\n" for t in tests),
                       capture_output=True, text=True, check=True)
    return p.stdout.split()


def selection(row):
    """(ftrace selectors, shard (K, N) or None, other selectors) of a row."""
    ftrace, shard, other = [], None, []
    for s in row.tests.split(",") if row.tests != "-" else []:
        if "@" in s:
            s, sh = s.split("@", 1)
            k, n = sh.split("/")
            shard = (int(k), int(n))
        if s == "ftrace":
            ftrace.append("./")
        elif s.startswith("ftrace/"):
            ftrace.append(s[len("ftrace/"):])
        else:
            other.append(s)
    return ftrace, shard, other


def holds(row, test, testdir, skip=()):
    """Whether ROW runs TEST ("ftrace/a/b.tc", "project/x.sh",
    "kunit/<suite>/<case>", "livepatch/x.sh", "tools/x.sh")."""
    ftrace, shard, other = selection(row)
    group = test.split("/", 1)[0]
    if group == "ftrace":
        tc = test[len("ftrace/"):]
        tests = ftrace_tests(testdir, ftrace, skip)
        if shard:
            tests = deal(tests, shard[0], shard[1])
        return tc in tests
    if group == "kunit":
        group, name = "project", "project/kunit.sh"
    else:
        name = test
    if group == "project" and alone(name[len("project/"):]):
        # guest/project-tests.sh runs it only where a row names it
        return name in other
    return any(s == group or s == name for s in other)


def alone(name, guestdir=os.path.join(TOP, "tests", "guest")):
    """Whether the project test NAME has a "# ftsdo-alone:" line."""
    try:
        with open(os.path.join(guestdir, name)) as f:
            return any(l.startswith("# ftsdo-alone:") for l in f)
    except OSError:
        return False


def find(table, test, arch, testdir, boot=None, skip=(), suite="check"):
    """The row of SUITE for ARCH that runs TEST: BOOT's, or the first
    unlabelled one (a labelled row runs it with a variant of the command
    line); None if none does."""
    cands = [r for r in rows(table, suite, [arch]) if boot is None or r.boot == boot]
    cands.sort(key=lambda r: r.line)
    for r in cands:
        if boot is None and "label" in r.opts:
            continue
        if holds(r, test, testdir, skip):
            return r
    return None


def guest_selector(test):
    """The ftsdo.tests= selector that runs TEST in a guest: the test
    itself, or what holds it (a KUnit case: the project test kunit.sh;
    livepatch and tools tests run as their group)."""
    group = test.split("/", 1)[0]
    if group == "kunit":
        return "project/kunit.sh"
    if group in ("livepatch", "tools"):
        return group
    return test
