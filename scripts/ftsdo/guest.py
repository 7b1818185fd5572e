"""One boot's results: what a guest left in its result directory.

A boot's result directory holds its "manifest" (key=value lines: arch,
suite, boot, variant, kernel, commit, cmdline, accel) and the result
files of the tests it ran.  A guest that died before writing a file
printed its results on its console too: they are read from console.log
instead.  collect_one() reads a boot's results, {name: result}:

  ftrace/<path>          ftracetest's cases (KTAP), with the guest's retry
  kunit/<suite>/<case>   the KUnit reports of the project test kunit.sh
  bpf/<test>             test_progs (make check-bpf)
  livepatch/, project/, tools/, harness/<name>
                         exit codes, "RC group/name" lines

and collect() merges several boots'.  A boot with a variant of the kernel
command line names its ftracetest, project and KUnit results
"<name> [<variant>]".

A result is one of PASS, XFAIL, FLAKY, UNSUPPORTED, UNTESTED, UNRESOLVED,
FAIL, CRASH (the ftracetest case the guest died in) and TIMEOUT (a test
the guest ended when it ran past its limit: guest/limit.sh lists it in
timeouts.txt, or on the console as "FTSDO-TIMEOUT name seconds").  FLAKY is an
ftracetest test outside direct/ that failed and then passed when the
guest ran it again in the same boot (guest/check.sh).
"""
import os
import re

from ftsdo.ktap import console_lines, parse_ktap

# Results ranked best first: PASS = XFAIL = FLAKY > UNSUPPORTED = UNTESTED
# = SKIP > UNRESOLVED > FAIL = CRASH = MISSING.  collect() keeps a test's
# worst result; verdict.py judges by it (SKIP and MISSING are its own).
RANK = {"PASS": 3, "XFAIL": 3, "FLAKY": 3, "UNSUPPORTED": 2, "UNTESTED": 2,
        "SKIP": 2, "UNRESOLVED": 1, "FAIL": 0, "CRASH": 0, "TIMEOUT": 0,
        "MISSING": 0}


# ---------------------------------------------------------------------------
# The result directory
# ---------------------------------------------------------------------------

def read_file(path):
    """The lines of a file, without line ends."""
    with open(path, errors="replace") as fh:
        return [line.rstrip("\r\n") for line in fh]


def console_user_lines(outdir):
    """What user space printed on the guest's console (console_lines())."""
    path = os.path.join(outdir, "console.log")
    if not os.path.exists(path):
        return []
    with open(path, errors="replace") as fh:
        return [text for text, kernel in console_lines(fh) if not kernel]


def read_lines(outdir, name):
    """Lines of a result file, or of the console when the guest died
    before writing its results (the guest prints them there too)."""
    path = os.path.join(outdir, name)
    if os.path.exists(path):
        return read_file(path)
    return console_user_lines(outdir)


def read_manifest(outdir):
    """The boot's manifest: {key: value} of its "key=value" lines (arch,
    suite, boot, variant, kernel, commit, cmdline, accel); {} without one."""
    path = os.path.join(outdir, "manifest")
    res = {}
    if os.path.exists(path):
        for line in read_file(path):
            key, sep, value = line.partition("=")
            if sep and not line.startswith("#"):
                res[key.strip()] = value.strip()
    return res


def has_manifest(outdir):
    """Whether the boot directory has a manifest (newer than the
    "variant" file)."""
    return os.path.exists(os.path.join(outdir, "manifest"))


def variant_of(outdir):
    """The boot's variant of the kernel command line (e.g. ftrace_md=hash):
    the manifest's "variant", or the "variant" file of result directories
    written before manifests; "" for none."""
    if has_manifest(outdir):
        return read_manifest(outdir).get("variant", "")
    path = os.path.join(outdir, "variant")
    if os.path.exists(path):
        with open(path) as fh:
            return fh.read().strip()
    return ""


# ---------------------------------------------------------------------------
# ftracetest
# ---------------------------------------------------------------------------

def ftrace_cases(outdir, casefile, tag):
    """The cases of one ftracetest run, {number: "ftrace/<path>"}, from the
    guest's "<tag> N path" lines."""
    cases = {}
    for line in read_lines(outdir, casefile):
        m = re.search(r"%s (\d+) (.*)$" % tag, line)
        if m:
            cases[int(m.group(1))] = "ftrace/" + m.group(2).strip()
    return cases


def ftrace_ktap(outdir, ktap):
    """The top-level results of ftracetest's KTAP output (the first
    document): the file KTAP, or on the console what followed the guest's
    "== ftracetest" line (nothing if it never came)."""
    if os.path.exists(os.path.join(outdir, ktap)):
        lines = read_file(os.path.join(outdir, ktap))
    else:
        lines = console_user_lines(outdir)
        if "== ftracetest" not in lines:
            return []
        lines = lines[lines.index("== ftracetest") + 1:]
    docs = parse_ktap(lines)
    return docs[0].subtests if docs else []


def ktap_cases(outdir, casefile, tag, ktap):
    """The cases of one ftracetest run, {number: name}, and its results,
    {name: result}: a KTAP result names its case by number."""
    cases = ftrace_cases(outdir, casefile, tag)
    res = {}
    for test in ftrace_ktap(outdir, ktap):
        if test.result is None:
            continue
        name = cases.get(test.number, "ftrace/#%d %s" % (test.number, test.name))
        res[name] = test.result
    return cases, res


def ftracetest(outdir):
    """ftracetest -K prints KTAP lines that name a case by number and
    description; the guest's FTSDO-CASE lines map numbers to .tc paths.
    A failed case that passed in the guest's retry run is FLAKY.  When the
    guest died (no ftracetest.ktap: the results come from the console),
    the first case without a result is where: CRASH."""
    cases, res = ktap_cases(outdir, "ftrace-cases.txt", "FTSDO-CASE",
                            "ftracetest.ktap")
    if os.path.exists(os.path.join(outdir, "ftracetest-retry.ktap")):
        _, again = ktap_cases(outdir, "ftrace-retry-cases.txt", "FTSDO-RETRY",
                              "ftracetest-retry.ktap")
        for name, r in again.items():
            if res.get(name) == "FAIL" and r == "PASS":
                res[name] = "FLAKY"
    for n in sorted(cases):
        if cases[n] not in res:
            if res and not os.path.exists(os.path.join(outdir, "ftracetest.ktap")):
                res[cases[n]] = "CRASH"
            break
    return res


def ran_ftracetest(outdir):
    """Whether the guest ran (or started) ftracetest."""
    return (os.path.exists(os.path.join(outdir, "ftrace-cases.txt")) or
            "== ftracetest" in console_user_lines(outdir))


# ---------------------------------------------------------------------------
# KUnit
# ---------------------------------------------------------------------------

def kunit_cases(lines):
    """The cases of KUnit's KTAP reports (tests/guest/kunit.sh prints each
    suite's report from debugfs): [(name, result, log)], one per case,
    named kunit/<suite>/<case>, and a parameterised case's parameters
    kunit/<suite>/<case>/<param>.  A suite with no case result (it failed
    to initialise) is one result, kunit/<suite>.  Results: PASS,
    UNSUPPORTED (skipped), FAIL."""
    out = []
    for doc in parse_ktap(lines):
        for suite in doc.subtests:
            if not suite.subtests:
                if suite.result is not None:
                    out.append(("kunit/" + suite.name, suite.result, suite.log))
                continue
            for case in suite.subtests:
                name = "kunit/%s/%s" % (suite.name, case.name)
                if case.result is not None:
                    out.append((name, case.result, case.log))
                for param in case.subtests:
                    if param.result is not None:
                        out.append(("%s/%s" % (name, param.name), param.result, param.log))
    return out


def kunit(outdir):
    """The KUnit cases of the project test kunit.sh, from its log."""
    path = os.path.join(outdir, "project-kunit.sh.log")
    if not os.path.exists(path):
        return {}
    return {name: r for name, r, _ in kunit_cases(read_file(path))}


# ---------------------------------------------------------------------------
# test_progs
# ---------------------------------------------------------------------------

def test_progs(outdir):
    """The BPF selftests' test_progs (make check-bpf): without -v it prints
    "#N test:RESULT" for each test and "#N/M test/subtest:RESULT" for each
    subtest; the error logs that follow a failure repeat them and are not
    read.  A test name is bpf/TEST[/SUBTEST]; a subtest name seen again in
    the same test gets "#K" (its K-th run).  Results: OK, "OK (SKIP: k/m)",
    SKIP, FAIL.  A failed (sub)test that passed when guest/bpf.sh ran it
    again alone (test_progs-retry.txt) is FLAKY."""
    # Only a make check-bpf guest: read_lines() falls back to the console
    # of any guest that saved no test_progs.txt.
    lines = read_lines(outdir, "test_progs.txt")
    if not os.path.exists(os.path.join(outdir, "test_progs.txt")) and \
            not any(line.startswith("FTSDO-BEGIN run=bpf ") for line in lines):
        return {}
    res = test_progs_results(lines)
    if os.path.exists(os.path.join(outdir, "test_progs-retry.txt")):
        again = test_progs_results(read_lines(outdir, "test_progs-retry.txt"))
        for name, result in again.items():
            if res.get(name) == "FAIL" and result == "PASS":
                res[name] = "FLAKY"
    return res


def test_progs_results(lines):
    """{name: result} of test_progs output lines (see test_progs())."""
    res = {}
    for line in lines:
        if line.startswith("All error logs:"):
            break
        m = re.match(r"#\d+(?:/\d+)?\s+(.+?):(OK|FAIL|SKIP|OK \(SKIP: \d+/\d+\))\s*$", line)
        if not m:
            continue
        name = "bpf/" + m.group(1)
        k = 1
        while (name if k == 1 else "%s#%d" % (name, k)) in res:
            k += 1
        if k > 1:
            name = "%s#%d" % (name, k)
        res[name] = {"FAIL": "FAIL", "SKIP": "UNSUPPORTED"}.get(m.group(2), "PASS")
    return res


# ---------------------------------------------------------------------------
# Exit codes
# ---------------------------------------------------------------------------

def exitcodes(outdir, name):
    """Lines 'RC group/test' of the livepatch, project, tools and harness
    result files, or from the console when the guest died before writing
    its results (the runners print their file when a part is done).
    RC 0 is PASS, 4 UNSUPPORTED (kselftest's skip), anything else FAIL."""
    res = {}
    for line in read_lines(outdir, name):
        m = re.match(r"(\d+) ((?:livepatch|project|tools|harness)/\S+)\s*$", line)
        if m:
            rc = int(m.group(1))
            res[m.group(2)] = "PASS" if rc == 0 else "UNSUPPORTED" if rc == 4 else "FAIL"
    return res


# ---------------------------------------------------------------------------
# All of a boot's results
# ---------------------------------------------------------------------------

def timeouts(outdir):
    """{name: seconds} of the tests the guest ended at their limit."""
    res = {}
    for line in read_lines(outdir, "timeouts.txt"):
        m = re.match(r"(?:FTSDO-TIMEOUT (.+) (\d+)|(\d+) (.+))\s*$", line.strip())
        if m and (m.group(1) or os.path.exists(os.path.join(outdir, "timeouts.txt"))):
            name, secs = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            res[name] = int(secs)
    return res


def collect_one(outdir):
    """The results of one guest; a guest booted with a variant of the
    kernel command line (its manifest's "variant", e.g. ftrace_md=hash)
    names its ftracetest, project and KUnit results "<name> [<variant>]".
    A failed test the guest ended at its limit is TIMEOUT."""
    res = ftracetest(outdir)
    res.update(exitcodes(outdir, "project.txt"))
    res.update(exitcodes(outdir, "livepatch.txt"))
    res.update(exitcodes(outdir, "tools.txt"))
    for name in timeouts(outdir):
        if res.get(name) in ("FAIL", "CRASH"):
            res[name] = "TIMEOUT"
    lp_tools = {k: v for k, v in res.items() if k.startswith(("livepatch/", "tools/"))}
    for k in lp_tools:
        del res[k]
    res.update(kunit(outdir))
    variant = variant_of(outdir)
    if variant:
        res = {"%s [%s]" % (k, variant): v for k, v in res.items()}
    res.update(test_progs(outdir))
    res.update(lp_tools)
    res.update(exitcodes(outdir, "harness.txt"))
    return res


def collect(outdirs):
    """Merge the results of several guests; a test seen in more than one
    (the harness checks) keeps its worst result."""
    res = {}
    for outdir in outdirs:
        for name, r in collect_one(outdir).items():
            if name not in res or RANK[r] < RANK[res[name]]:
                res[name] = r
    return res
