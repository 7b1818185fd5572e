#!/usr/bin/env python3
"""Turn a guest's raw results into per-test verdicts.

  results.py record OUTDIR[,OUTDIR...] BASELINE        write the base's results
  results.py check  OUTDIR[,OUTDIR...] BASELINE TAP    write TAP, compare with the base
  results.py bench  OUTDIR OUT [ROUNDS]                 median and spread of make bench
  results.py bench-bpf BASEDIR SERIESDIR LARGEST_N       the BPF part, base beside series

A test's result is one of PASS, XFAIL, FLAKY, UNSUPPORTED, UNTESTED,
UNRESOLVED, FAIL.  Ranked best first: PASS = XFAIL = FLAKY > UNSUPPORTED =
UNTESTED > UNRESOLVED > FAIL.  FLAKY is an ftracetest test outside direct/
that failed and then passed when the guest ran it again in the same boot
(guest/check.sh); it is reported with a "# flaky" mark.  In `check`, a kselftest that ranks lower than on the base fails;
so does a test the base does not have (a new test) unless it passes or is
skipped; a test that is as bad as on the base is reported as a TODO and
counted as skipped, with the reason tests/baseline/ARCH-known.txt gives for
it.  Prints "N passed, N failed, N skipped" last.
"""
import os
import re
import statistics
import sys

RANK = {"PASS": 3, "XFAIL": 3, "FLAKY": 3, "UNSUPPORTED": 2, "UNTESTED": 2,
        "SKIP": 2, "UNRESOLVED": 1, "FAIL": 0, "CRASH": 0, "MISSING": 0}


def read_lines(outdir, name):
    """Lines of a result file, or of the console log when the guest died
    before writing its results (the guest prints them there too)."""
    path = os.path.join(outdir, name)
    if not os.path.exists(path):
        path = os.path.join(outdir, "console.log")
    if not os.path.exists(path):
        return []
    with open(path, errors="replace") as fh:
        return [line.rstrip("\r\n") for line in fh]


def ktap_cases(outdir, casefile, tag, ktap):
    """The cases of one ftracetest run: {number: "ftrace/<path>"} from the
    guest's "<tag> N path" lines, {name: result} from its KTAP lines."""
    cases = {}
    for line in read_lines(outdir, casefile):
        m = re.search(r"%s (\d+) (.*)$" % tag, line)
        if m:
            cases[int(m.group(1))] = "ftrace/" + m.group(2).strip()
    res = {}
    for line in read_lines(outdir, ktap):
        m = re.match(r"(not ok|ok) (\d+) (.*?)(?: # (\S+))?\s*$", line)
        if not m:
            continue
        ok, n, desc, tag = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        name = cases.get(n, "ftrace/#%d %s" % (n, desc.strip()))
        if ok == "ok":
            r = {"SKIP": "UNSUPPORTED", "XFAIL": "XFAIL"}.get(tag, "PASS")
        else:
            r = "UNRESOLVED" if tag == "UNRESOLVED" else "FAIL"
        res[name] = r
    return cases, res


def ftracetest(outdir):
    """ftracetest -K prints KTAP lines that name a case by number and
    description; the guest's FTSDO-CASE lines map numbers to .tc paths.
    A failed case that passed in the guest's retry run is FLAKY."""
    cases, res = ktap_cases(outdir, "ftrace-cases.txt", "FTSDO-CASE",
                            "ftracetest.ktap")
    if os.path.exists(os.path.join(outdir, "ftracetest-retry.ktap")):
        _, again = ktap_cases(outdir, "ftrace-retry-cases.txt", "FTSDO-RETRY",
                              "ftracetest-retry.ktap")
        for name, r in again.items():
            if res.get(name) == "FAIL" and r == "PASS":
                res[name] = "FLAKY"
    # The guest died: the first case without a result is where.
    for n in sorted(cases):
        if cases[n] not in res:
            if res and not os.path.exists(os.path.join(outdir, "ftracetest.ktap")):
                res[cases[n]] = "CRASH"
            break
    return res


def test_progs(outdir):
    """The BPF selftests' test_progs (make check-bpf): without -v it prints
    "#N test:RESULT" for each test and "#N/M test/subtest:RESULT" for each
    subtest; the error logs that follow a failure repeat them and are not
    read.  A test name is bpf/TEST[/SUBTEST]; a subtest name seen again in
    the same test gets "#K" (its K-th run).  Results: OK, "OK (SKIP: k/m)",
    SKIP, FAIL."""
    res = {}
    # Only a make check-bpf guest: read_lines() falls back to the console
    # of any guest that saved no test_progs.txt.
    lines = read_lines(outdir, "test_progs.txt")
    if not os.path.exists(os.path.join(outdir, "test_progs.txt")) and \
            not any(line.startswith("FTSDO-BEGIN run=bpf ") for line in lines):
        return res
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


def skipped(arch):
    """Tests the harness does not run (tests/skip/ARCH.txt), with why."""
    res = {}
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "skip", arch + ".txt")
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                if line.strip() and not line.startswith("#"):
                    name, why = (line.rstrip("\n").split(" ", 1) + [""])[:2]
                    res["ftrace/" + name] = why
    return res


def known_failures(basefile):
    """Why a test fails on the base too: tests/baseline/ARCH-known.txt,
    lines "<test name> | <reason>"."""
    res = {}
    path = basefile.rsplit(".", 1)[0] + "-known.txt"
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                if line.strip() and not line.startswith("#") and " | " in line:
                    name, why = line.rstrip("\n").split(" | ", 1)
                    res[name] = why
    return res


def exitcodes(outdir, name):
    """Lines 'RC group/test' of the livepatch, project, tools and harness
    result files, or from the console when the guest died before writing
    its results (the runners print their file when a part is done)."""
    res = {}
    for line in read_lines(outdir, name):
        m = re.match(r"(\d+) ((?:livepatch|project|tools|harness)/\S+)\s*$", line)
        if m:
            rc = int(m.group(1))
            res[m.group(2)] = "PASS" if rc == 0 else "UNSUPPORTED" if rc == 4 else "FAIL"
    return res


def collect_one(outdir):
    """The results of one guest; a guest booted with a variant of the
    kernel command line (the "variant" file, e.g. ftrace_md=hash) names
    its ftracetest and project results "<name> [<variant>]"."""
    res = ftracetest(outdir)
    res.update(exitcodes(outdir, "project.txt"))
    path = os.path.join(outdir, "variant")
    if os.path.exists(path):
        with open(path) as fh:
            variant = fh.read().strip()
        res = {"%s [%s]" % (k, variant): v for k, v in res.items()}
    res.update(test_progs(outdir))
    res.update(exitcodes(outdir, "livepatch.txt"))
    res.update(exitcodes(outdir, "tools.txt"))
    res.update(exitcodes(outdir, "harness.txt"))
    return res


def collect(outdirs):
    """Merge the results of several guests (comma-separated dirs); a test
    seen in more than one (the harness checks) keeps its worst result."""
    res = {}
    for outdir in outdirs.split(","):
        for name, r in collect_one(outdir).items():
            if name not in res or RANK[r] < RANK[res[name]]:
                res[name] = r
    return res


def failure_log(outdirs, name, keep=30):
    """The last lines of a test's own log (what the guest saved of it), to
    print under a failure: CI shows only what `make check` printed."""
    group, _, test = name.partition("/")
    for outdir in outdirs.split(","):
        paths = []
        if group in ("project", "livepatch", "tools"):
            paths = [os.path.join(outdir, "%s-%s.log" % (group, test))]
        elif group == "ftrace":
            for line in read_lines(outdir, "ftrace-cases.txt"):
                m = re.search(r"FTSDO-CASE (\d+) (.*)$", line)
                if m and "ftrace/" + m.group(2).strip() == name:
                    pat = "%s-%s-log." % (m.group(1), os.path.basename(test.split()[0]))
                    d = os.path.join(outdir, "ftrace-logs")
                    if os.path.isdir(d):
                        paths = [os.path.join(d, f) for f in sorted(os.listdir(d))
                                 if f.startswith(pat)]
        if group == "bpf":
            # test_progs repeats a failed test's log after "All error logs:"
            top = test.split("/")[0]
            block, inside, seen = [], False, False
            for line in read_lines(outdir, "test_progs.txt"):
                seen = seen or line.startswith("All error logs:")
                m = re.match(r"#\d+(?:/\d+)?\s+([^/:]+)", line) if seen else None
                if m:
                    inside = m.group(1) == top
                if seen and inside:
                    block.append(line)
            if block:
                return ["#   " + line for line in block[-keep:]]
        for path in paths:
            if os.path.exists(path):
                with open(path, errors="replace") as fh:
                    lines = [line.rstrip("\r\n") for line in fh]
                return ["#   " + line for line in lines[-keep:]]
    return []


def load_baseline(path):
    base = {}
    with open(path) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            r, name = line.rstrip("\n").split(" ", 1)
            base[name] = r
    return base


def bench_rounds(outdir):
    """The rounds of make bench: {round: {name: value}} from the guest's
    bench-round<K>.txt files (or its console lines 'bench-round<K> name value'
    when it died before writing them)."""
    rounds = {}
    names = sorted(n for n in os.listdir(outdir) if re.match(r"bench-round\d+\.txt$", n))
    if names:
        for n in names:
            k = int(re.search(r"(\d+)", n).group(1))
            with open(os.path.join(outdir, n)) as fh:
                for line in fh:
                    parts = line.split()
                    if len(parts) == 2:
                        rounds.setdefault(k, {})[parts[0]] = float(parts[1])
    else:
        for line in read_lines(outdir, "console.log"):
            m = re.match(r"bench-round(\d+) (\S+) (\S+)\s*$", line)
            if m:
                rounds.setdefault(int(m.group(1)), {})[m.group(2)] = float(m.group(3))
    return rounds


def bench(outdir, outfile, want):
    """Per key: median, min and max over the rounds of one boot.  Adds the
    linearity of the batch cost per round: batch at N / (8 x batch at N/8)."""
    rounds = bench_rounds(outdir)
    if not rounds:
        print("error: no benchmark rounds in %s" % outdir, file=sys.stderr)
        return 1
    keys = []
    for k in sorted(rounds):
        r = rounds[k]
        for op in ("attach", "detach"):
            n8 = r.get("%s_batch_ms_n8" % op)
            if n8:
                r["%s_batch_linearity" % op] = r["%s_batch_ms" % op] / (8 * n8)
        for name in r:
            if name not in keys:
                keys.append(name)
    first = rounds[min(rounds)]
    def fmt(v):
        return "%d" % v if v == int(v) and abs(v) >= 100 else "%.3g" % v if abs(v) < 100 else "%.0f" % v
    lines = [
        "# make bench: %d round(s) in one boot; per key: median min max spread" % len(rounds),
        "#   (spread: (max - min) / median)",
        "# measured: batch attach/detach of all n_functions functions (and N/8,",
        "#   N/4, N/2); per-ops register/unregister_ftrace_direct() of the first",
        "#   per_ops_n functions (*_per_ops_us_per_func: the mean per function)",
        "# extrapolated: *_speedup = *_per_ops_us_per_func x n_functions /",
        "#   batch at n_functions, i.e. per-ops cost of %d functions from %d measured"
        % (first.get("n_functions", 0), first.get("per_ops_n", 0)),
    ]
    for name in keys:
        vals = [rounds[k][name] for k in sorted(rounds) if name in rounds[k]]
        med = statistics.median(vals)
        spread = (max(vals) - min(vals)) / med * 100 if med else 0
        lines.append("%s %s %s %s %.1f%%" % (name, fmt(med), fmt(min(vals)),
                                           fmt(max(vals)), spread))
    with open(outfile, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    if want and len(rounds) < want:
        print("error: %d of %d benchmark rounds" % (len(rounds), want), file=sys.stderr)
        return 1
    return 0


def bench_bpf(basedir, seriesdir, largest):
    """The BPF part of make bench: the guests' bench-bpf.txt ("name value")
    of the base and of the series, side by side, with the ratios."""
    sides = {}
    for side, d in (("base", basedir), ("series", seriesdir)):
        vals = {}
        for line in read_lines(d, "bench-bpf.txt"):
            parts = line.split()
            if len(parts) == 2:
                vals[parts[0]] = float(parts[1])
        if not vals:
            print("error: no BPF benchmark results in %s" % d, file=sys.stderr)
            return 1
        sides[side] = vals
    base, ser = sides["base"], sides["series"]
    ns = sorted({int(m.group(1)) for k in ser
                 for m in [re.match(r"bpf_attach_ms_n(\d+)$", k)] if m})
    lines = ["# make bench, BPF: fentry programs attached, then detached, on N",
             "#   functions, the same ftsdo-bpf on the base (*_base) and on the",
             "#   series, one boot each, side by side; only the attach and detach",
             "#   loops are timed.  The largest N (%s) has no suffix." % largest]
    def put(name, v):
        lines.append("%s %s" % (name, ("%.3f" % v).rstrip("0").rstrip(".")))
    for n in ns:
        suf = "" if str(n) == str(largest) else "_n%d" % n
        got = True
        for key in ("bpf_n_functions", "bpf_attach_ms", "bpf_detach_ms"):
            k = "%s_n%d" % (key, n)
            if k not in base or k not in ser:
                got = False
                continue
            if key != "bpf_n_functions":
                put(key + "_base" + suf, base[k])
            put(key + suf, ser[k])
        if not got:
            continue
        b = base["bpf_attach_ms_n%d" % n] + base["bpf_detach_ms_n%d" % n]
        p = ser["bpf_attach_ms_n%d" % n] + ser["bpf_detach_ms_n%d" % n]
        if p:
            put("bpf_attach_detach_speedup" + suf, b / p)
        for side, vals, tag in (("base", base, "_base"), ("series", ser, "")):
            nf = vals.get("bpf_n_functions_n%d" % n)
            if nf:
                put("bpf_attach_us_per_func%s%s" % (tag, suf),
                    vals["bpf_attach_ms_n%d" % n] * 1000 / nf)
                put("bpf_detach_us_per_func%s%s" % (tag, suf),
                    vals["bpf_detach_ms_n%d" % n] * 1000 / nf)
    if "bpf_fentry_call_ns" in base and "bpf_fentry_call_ns" in ser:
        put("bpf_fentry_call_ns_base", base["bpf_fentry_call_ns"])
        put("bpf_fentry_call_ns", ser["bpf_fentry_call_ns"])
        if base["bpf_fentry_call_ns"]:
            put("bpf_fentry_call_ratio", ser["bpf_fentry_call_ns"] / base["bpf_fentry_call_ns"])
    for b in ("ksys", "sys"):
        k = "bpftrace_%s_ms" % b
        if k in base and k in ser:
            lines.append("# bpftrace -e 'kfunc:vmlinux:%s* { }' -c true: wall ms, probes"
                         % ("ksys_" if b == "ksys" else "__x64_sys_"))
            put(k + "_base", base[k])
            put(k, ser[k])
            put("bpftrace_%s_probes" % b, ser.get("bpftrace_%s_probes" % b, 0))
            if ser[k]:
                put("bpftrace_%s_speedup" % b, base[k] / ser[k])
    print("\n".join(lines))
    return 0


def main():
    if sys.argv[1] == "bench-bpf":
        return bench_bpf(sys.argv[2], sys.argv[3], sys.argv[4])
    if sys.argv[1] == "bench":
        return bench(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    mode, outdir, basefile = sys.argv[1], sys.argv[2], sys.argv[3]
    res = collect(outdir)
    if not res:
        print("error: no test results in %s" % outdir, file=sys.stderr)
        return 1
    if mode == "record":
        with open(basefile, "w") as fh:
            target = "baseline-bpf" if basefile.endswith("-bpf.txt") else "baseline"
            fh.write("# Results of the unpatched base; written by `make %s`.\n" % target)
            for name in sorted(res):
                if name.startswith(("project/", "harness/")):
                    continue
                fh.write("%s %s\n" % (res[name], name))
        print("recorded %d results in %s" % (len(res), basefile))
        return 0

    base = load_baseline(basefile)
    notrun = skipped(os.path.basename(basefile).rsplit(".", 1)[0])
    known = known_failures(basefile)
    for name in notrun:
        res[name] = "SKIP"
    if not os.environ.get("SUBSET"):
        for name in base:   # a kselftest of the base that did not run at all
            res.setdefault(name, "MISSING")
    npass = nfail = nskip = 0
    lines = []
    for i, name in enumerate(sorted(res), 1):
        # "<test> [<variant>]" is judged against the base's <test>
        bare = re.sub(r" \[[^]]*\]$", "", name)
        r, b = res[name], base.get(name, base.get(bare))
        if b is not None and RANK[r] < RANK[b]:
            lines.append("not ok %d %s # %s, base: %s" % (i, name, r, b))
            nfail += 1
        elif r == "FLAKY":
            lines.append("ok %d %s # flaky: failed, passed when run again in the same boot" % (i, name))
            npass += 1
        elif RANK[r] == 3:
            lines.append("ok %d %s" % (i, name))
            npass += 1
        elif name in notrun:
            lines.append("ok %d %s # SKIP not run: %s" % (i, name, notrun[name]))
            nskip += 1
        elif RANK[r] == 2:
            lines.append("ok %d %s # SKIP %s" % (i, name, r))
            nskip += 1
        elif b is not None:
            why = known.get(name, known.get(bare, "no reason recorded in tests/baseline/"))
            lines.append("not ok %d %s # TODO %s, as on the base: %s" % (i, name, r, why))
            nskip += 1
        else:
            lines.append("not ok %d %s # %s (new test)" % (i, name, r))
            nfail += 1
        if lines[-1].startswith("not ok") and "# TODO" not in lines[-1]:
            lines += failure_log(outdir, name)
    with open(sys.argv[4], "w") as fh:
        fh.write("TAP version 13\n1..%d\n" % len(res))
        fh.write("\n".join(lines) + "\n")
    show = False
    for line in lines:
        if not line.startswith("#"):
            show = (line.startswith("not ok") and "# TODO" not in line) or "# flaky" in line
        if show:
            print(line)
    print("%d passed, %d failed, %d skipped" % (npass, nfail, nskip))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
