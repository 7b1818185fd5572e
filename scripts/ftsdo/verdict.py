"""The verdict: the guests' results judged against the base's.

record() writes the results of the base (the unpatched kernel) to
tests/baseline/ARCH.txt, lines "RESULT name".  check() collects the
guests' results (guest.py), adds the tests the harness does not run
(tests/skip/ARCH.txt: SKIP) and, unless the guests ran a subset, the
base's tests that did not run (MISSING); then it judges each test by
its RANK against the base's result:

- a test that ranks lower than on the base fails;
- a test the base does not have (a new test) fails unless it passes or
  is skipped;
- a test as bad as on the base is reported as a TODO and counted as
  skipped, with the reason tests/baseline/ARCH-known.txt gives for it;
- a FLAKY test passes, with a "# flaky" mark.

"<test> [<variant>]" is judged against the base's "<test>".  check()
writes every verdict as TAP, prints the failures (each with the last
lines of its log) and the flaky tests, then "N passed, N failed, N
skipped".
"""
import os
import re
import sys

from ftsdo.guest import (RANK, collect, kunit_cases, ran_ftracetest, read_file,
                         read_lines, read_manifest, variant_of)

# The repository's top: scripts/ftsdo/ is two levels down
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Result groups whose names get the boot's variant: "<test> [<variant>]"
# (guest.collect_one())
VARIANT_GROUPS = ("ftrace", "project", "kunit")


# ---------------------------------------------------------------------------
# The base, the skip list, the known failures
# ---------------------------------------------------------------------------

def split_variant(name):
    """"<test> [<variant>]" -> ("<test>", "<variant>"); ("<test>", "")."""
    m = re.match(r"(.*) \[([^]]*)\]$", name)
    return (m.group(1), m.group(2)) if m else (name, "")


def guest_arch(outdirs):
    """The architecture the guests' manifests give, or None."""
    for outdir in outdirs:
        arch = read_manifest(outdir).get("arch")
        if arch:
            return arch
    return None


def skipped(arch, top=TOP):
    """Tests the harness does not run (tests/skip/ARCH.txt), with why."""
    res = {}
    path = os.path.join(top, "tests", "skip", arch + ".txt")
    if os.path.exists(path):
        for line in read_file(path):
            if line.strip() and not line.startswith("#"):
                name, why = (line.split(" ", 1) + [""])[:2]
                res["ftrace/" + name] = why
    return res


def known_failures(basefile):
    """Why a test fails on the base too: tests/baseline/ARCH-known.txt,
    lines "<test name> | <reason>"."""
    res = {}
    path = basefile.rsplit(".", 1)[0] + "-known.txt"
    if os.path.exists(path):
        for line in read_file(path):
            if line.strip() and not line.startswith("#") and " | " in line:
                name, why = line.split(" | ", 1)
                res[name] = why
    return res


def load_baseline(path):
    """The base's results, {name: result}: lines "RESULT name"."""
    base = {}
    for line in read_file(path):
        if line.startswith("#") or not line.strip():
            continue
        r, name = line.split(" ", 1)
        base[name] = r
    return base


# ---------------------------------------------------------------------------
# A failure's log
# ---------------------------------------------------------------------------

def tail(lines, keep):
    """The last KEEP lines, as TAP diagnostics under a failure."""
    return ["#   " + line for line in lines[-keep:]]


def ftrace_log(outdir, name):
    """The paths of an ftracetest case's logs in OUTDIR (ftrace-logs/,
    "<N>-<test>.tc-log.<date>")."""
    test = name.partition("/")[2]
    for line in read_lines(outdir, "ftrace-cases.txt"):
        m = re.search(r"FTSDO-CASE (\d+) (.*)$", line)
        if m and "ftrace/" + m.group(2).strip() == name:
            pat = "%s-%s-log." % (m.group(1), os.path.basename(test.split()[0]))
            d = os.path.join(outdir, "ftrace-logs")
            if os.path.isdir(d):
                return [os.path.join(d, f) for f in sorted(os.listdir(d))
                        if f.startswith(pat)]
    return []


def bpf_log(outdir, test):
    """What test_progs printed of a test after "All error logs:"."""
    top = test.split("/")[0]
    block, inside, seen = [], False, False
    for line in read_lines(outdir, "test_progs.txt"):
        seen = seen or line.startswith("All error logs:")
        m = re.match(r"#\d+(?:/\d+)?\s+([^/:]+)", line) if seen else None
        if m:
            inside = m.group(1) == top
        if seen and inside:
            block.append(line)
    return block


def kunit_log(outdir, name):
    """A KUnit case's own lines (its diagnostics, KUnit's expectations)."""
    path = os.path.join(outdir, "project-kunit.sh.log")
    if not os.path.exists(path):
        return []
    lines = read_file(path)
    for case, _, log in kunit_cases(lines):
        if case == name:
            return log or lines
    return []


def failure_log(outdirs, name, keep=30):
    """The last lines of a test's own log (what the guest saved of it), to
    print under a failure: CI shows only what `make check` printed.  A
    "<test> [<variant>]" log comes from the guest with that variant."""
    group = name.partition("/")[0]
    bare, variant = split_variant(name) if group in VARIANT_GROUPS else (name, "")
    test = bare.partition("/")[2]
    for outdir in outdirs:
        if group in VARIANT_GROUPS and variant_of(outdir) != variant:
            continue
        paths = []
        if group in ("project", "livepatch", "tools"):
            paths = [os.path.join(outdir, "%s-%s.log" % (group, test))]
        elif group == "ftrace":
            paths = ftrace_log(outdir, bare)
        elif group == "kunit":
            log = kunit_log(outdir, bare)
            if log:
                return tail(log, keep)
        elif group == "bpf":
            block = bpf_log(outdir, test)
            if block:
                return tail(block, keep)
        for path in paths:
            if os.path.exists(path):
                return tail(read_file(path), keep)
    return []


# ---------------------------------------------------------------------------
# check and record
# ---------------------------------------------------------------------------

def verdict(number, name, r, base, notrun, known):
    """One TAP line for a test with result R: (line, "pass" | "fail" |
    "skip").  BASE: the base's results, NOTRUN: tests not run, with why,
    KNOWN: why the base fails a test."""
    # "<test> [<variant>]" is judged against the base's <test>
    bare = re.sub(r" \[[^]]*\]$", "", name)
    b = base.get(name, base.get(bare))
    if b is not None and RANK[r] < RANK[b]:
        return "not ok %d %s # %s, base: %s" % (number, name, r, b), "fail"
    if r == "FLAKY":
        return ("ok %d %s # flaky: failed, passed when run again in the same boot"
                % (number, name), "pass")
    if RANK[r] == 3:
        return "ok %d %s" % (number, name), "pass"
    if name in notrun:
        return "ok %d %s # SKIP not run: %s" % (number, name, notrun[name]), "skip"
    if RANK[r] == 2:
        return "ok %d %s # SKIP %s" % (number, name, r), "skip"
    if b is not None:
        why = known.get(name, known.get(bare, "no reason recorded in tests/baseline/"))
        return "not ok %d %s # TODO %s, as on the base: %s" % (number, name, r, why), "skip"
    return "not ok %d %s # %s (new test)" % (number, name, r), "fail"


def selected(name, only):
    """Whether test NAME is one of ONLY (itself, a subtest "<t>/...", a
    variant "<t> [...]") or one of the harness's own checks."""
    if not only or name.startswith("harness/"):
        return True
    bare = split_variant(name)[0]
    return any(bare == o or bare.startswith(o + "/") for o in only)


def check(outdirs, basefile, tapfile, subset=False, top=TOP, only=()):
    """Judge the guests' results against the base's: write TAP to TAPFILE,
    print the failures (with their logs) and flaky tests, then the counts.
    SUBSET: the guests ran part of the tests; a test of the base that did
    not run is not MISSING.  ONLY: judge just those tests (selected()); one
    that did not run at all fails as MISSING.  Returns the exit code (1: a
    failure)."""
    res = {k: v for k, v in collect(outdirs).items() if selected(k, only)}
    for o in only:
        if not any(split_variant(k)[0] == o or k.startswith(o + "/") for k in res):
            res[o] = "MISSING"
    if not res:
        print("error: no test results in %s" % ",".join(outdirs), file=sys.stderr)
        return 1
    base = load_baseline(basefile)
    arch = guest_arch(outdirs) or os.path.basename(basefile).rsplit(".", 1)[0]
    notrun = skipped(arch, top) if any(ran_ftracetest(d) for d in outdirs) else {}
    notrun = {k: v for k, v in notrun.items() if selected(k, only)}
    known = known_failures(basefile)
    for name in notrun:
        res[name] = "SKIP"
    if not subset:
        for name in base:   # a kselftest of the base that did not run at all
            res.setdefault(name, "MISSING")
    counts = {"pass": 0, "fail": 0, "skip": 0}
    lines, shown = [], []
    for i, name in enumerate(sorted(res), 1):
        line, kind = verdict(i, name, res[name], base, notrun, known)
        counts[kind] += 1
        entry = [line] + (failure_log(outdirs, name) if kind == "fail" else [])
        lines += entry
        if kind == "fail" or res[name] == "FLAKY":
            shown += entry
    with open(tapfile, "w") as fh:
        fh.write("TAP version 13\n1..%d\n" % len(res))
        fh.write("\n".join(lines) + "\n")
    for line in shown:
        print(line)
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


def record(outdirs, basefile):
    """Write the base's results (not the project's own tests, which the
    base does not have) to BASEFILE."""
    res = collect(outdirs)
    if not res:
        print("error: no test results in %s" % ",".join(outdirs), file=sys.stderr)
        return 1
    with open(basefile, "w") as fh:
        target = "baseline-bpf" if basefile.endswith("-bpf.txt") else "baseline"
        fh.write("# Results of the unpatched base; written by `make %s`.\n" % target)
        for name in sorted(res):
            if name.startswith(("project/", "harness/", "kunit/")):
                continue
            fh.write("%s %s\n" % (res[name], name))
    print("recorded %d results in %s" % (len(res), basefile))
    return 0
