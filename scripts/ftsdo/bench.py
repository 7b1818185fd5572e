"""make bench: its parts' keys, and the report with every ratio.

Each part reads the guests' raw figures and returns "name value" lines
and an exit code: bench_direct() (the rounds of one boot), bench_bpf()
(the base and the series side by side), bench_md() (function metadata:
padding, hash, off) and bench_arm64().  bench_report() puts the parts'
key files together and adds, after each part, the ratios whose inputs
are then known (bench_ratios()), each in its part's format.
"""
import os
import re
import statistics
import sys

from ftsdo.guest import console_user_lines, read_file


# ---------------------------------------------------------------------------
# The parts
# ---------------------------------------------------------------------------

def read_keys(path):
    """{name: value string} of a "name value" file (other lines ignored)."""
    vals = {}
    if os.path.exists(path):
        for line in read_file(path):
            parts = line.split()
            if len(parts) == 2:
                vals[parts[0]] = parts[1]
    return vals


def bench_rounds(outdir):
    """The rounds of make bench: {round: {name: value}} from the guest's
    bench-round<K>.txt files (or its console lines 'bench-round<K> name
    value' when it died before writing them)."""
    rounds = {}
    names = sorted(n for n in os.listdir(outdir) if re.match(r"bench-round\d+\.txt$", n))
    if names:
        for n in names:
            k = int(re.search(r"(\d+)", n).group(1))
            for name, v in read_keys(os.path.join(outdir, n)).items():
                rounds.setdefault(k, {})[name] = float(v)
    else:
        for line in console_user_lines(outdir):
            m = re.match(r"bench-round(\d+) (\S+) (\S+)\s*$", line)
            if m:
                rounds.setdefault(int(m.group(1)), {})[m.group(2)] = float(m.group(3))
    return rounds


def fmt(v):
    """A figure of the direct part: 3 significant digits, whole above 100."""
    if abs(v) < 100:
        return "%.3g" % v
    return "%d" % v if v == int(v) else "%.0f" % v


def dec3(v):
    """A figure of the BPF part: 3 decimals at most."""
    return ("%.3f" % v).rstrip("0").rstrip(".")


def put(name, v):
    """A "name value" line of the BPF part."""
    return "%s %s" % (name, dec3(v))


def fix3(v):
    """A ratio of the function metadata part: 3 decimals."""
    return "%.3f" % v


def bench_direct(outdir, want):
    """The direct part: per key, median, min and max over the rounds of
    one boot, and the spread; (lines, exit code: 1 with fewer than WANT
    rounds).  The *_speedup keys are the guest's (ftsdo_test's
    extrapolation); bench report adds *_batch_linearity."""
    rounds = bench_rounds(outdir)
    if not rounds:
        print("error: no benchmark rounds in %s" % outdir, file=sys.stderr)
        return [], 1
    keys = []
    for k in sorted(rounds):
        for name in rounds[k]:
            if name not in keys:
                keys.append(name)
    first = rounds[min(rounds)]
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
    if want and len(rounds) < want:
        print("error: %d of %d benchmark rounds" % (len(rounds), want), file=sys.stderr)
        return lines, 1
    return lines, 0


def bench_bpf(basedir, seriesdir, largest):
    """The BPF part: the guests' bench-bpf.txt ("name value") of the base
    and of the series, side by side (raw keys; bench report computes the
    ratios); (lines, exit code)."""
    sides = []
    for d in (basedir, seriesdir):
        vals = {k: float(v) for k, v in read_keys(os.path.join(d, "bench-bpf.txt")).items()}
        if not vals:
            print("error: no BPF benchmark results in %s" % d, file=sys.stderr)
            return [], 1
        sides.append(vals)
    base, ser = sides
    ns = sorted({int(m.group(1)) for k in ser
                 for m in [re.match(r"bpf_attach_ms_n(\d+)$", k)] if m})
    lines = ["# make bench, BPF: fentry programs attached, then detached, on N",
             "#   functions, the same ftsdo-bpf on the base (*_base) and on the",
             "#   series, one boot each, side by side; only the attach and detach",
             "#   loops are timed.  The largest N (%s) has no suffix." % largest]
    for n in ns:
        suf = "" if str(n) == str(largest) else "_n%d" % n
        for key in ("bpf_n_functions", "bpf_attach_ms", "bpf_detach_ms"):
            k = "%s_n%d" % (key, n)
            if k not in base or k not in ser:
                continue
            if key == "bpf_n_functions":
                lines.append(put(key + suf, ser[k]))
                lines.append(put(key + "_base" + suf, base[k]))
            else:
                lines.append(put(key + "_base" + suf, base[k]))
                lines.append(put(key + suf, ser[k]))
    if "bpf_fentry_call_ns" in base and "bpf_fentry_call_ns" in ser:
        lines.append(put("bpf_fentry_call_ns_base", base["bpf_fentry_call_ns"]))
        lines.append(put("bpf_fentry_call_ns", ser["bpf_fentry_call_ns"]))
    for b in ("ksys", "sys"):
        k = "bpftrace_%s_ms" % b
        if k in base and k in ser:
            lines.append("# bpftrace -e 'kfunc:vmlinux:%s* { }' -c true: wall ms, probes"
                         % ("ksys_" if b == "ksys" else "__x64_sys_"))
            lines.append(put(k + "_base", base[k]))
            lines.append(put(k, ser[k]))
            lines.append(put("bpftrace_%s_probes" % b, ser.get("bpftrace_%s_probes" % b, 0)))
    return lines, 0


def bench_md(paddir, hashdir, offdir, text_md=None, text_nomd=None):
    """The function metadata part: the raw keys of the three boots'
    bench-md.txt (metadata in the padding, the hash forced, metadata off),
    as the guests printed them, and the vmlinux text sizes with and
    without FTRACE_FUNC_METADATA; (lines, exit code).  A key a guest did
    not print is left out."""
    md = {}
    rc = 0
    for mode, d in (("padding", paddir), ("hash", hashdir), ("off", offdir)):
        md[mode] = read_keys(os.path.join(d, "bench-md.txt"))
        if not md[mode]:
            print("error: no metadata benchmark results in %s" % d, file=sys.stderr)
            rc = 1
    wanted = []
    for k in (1, 8, 32, 128):
        for mode, suf in (("padding", ""), ("hash", "_hash"), ("off", "_nomd")):
            wanted.append(("list_k%d_ns%s" % (k, suf), mode, "list_k%d_ns" % k))
    wanted += [("direct_shared_md_ns", "padding", "direct_shared_ns"),
               ("direct_shared_mdhash_ns", "hash", "direct_shared_ns"),
               ("direct_shared_hash_ns", "off", "direct_shared_ns"),
               ("untraced_ns", "padding", "untraced_ns"),
               ("filter_ip_n", "padding", "filter_ip_n"),
               ("filter_ip_ns", "padding", "filter_ip_ns"),
               ("filter_ip_ns_hash", "hash", "filter_ip_ns"),
               ("filter_ip_ns_nomd", "off", "filter_ip_ns")]
    for k in ("md_empty_filter_ms", "md_set_filter_ms", "md_empty_filter_ops"):
        for mode, suf in (("padding", ""), ("hash", "_hash"), ("off", "_nomd")):
            wanted.append((k + suf, mode, k))
    lines = ["%s %s" % (key, md[mode][src]) for key, mode, src in wanted if src in md[mode]]
    for key, v in (("text_bytes_md", text_md), ("text_bytes_nomd", text_nomd)):
        if v is not None:
            lines.append("%s %s" % (key, v))
    return lines, rc


def bench_arm64(outdir):
    """The arm64 part: a call of a function on the shared direct ops alone,
    its trampoline in BL range, and of the function untraced; (lines,
    exit code)."""
    vals = read_keys(os.path.join(outdir, "bench-md.txt"))
    if not vals:
        print("error: no arm64 benchmark results in %s" % outdir, file=sys.stderr)
        return [], 1
    return ["arm64_%s %s" % (k, vals[k]) for k in ("untraced_ns", "direct_near_ns")
            if k in vals], 0


# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------

def ratio(a, b):
    """a / b, or None when b is 0."""
    return a / b if b else None


def bench_ratios(keys):
    """Every ratio of make bench that KEYS ({name: value}) have the inputs
    for, in report order: [(name, value string)].  The formats are those
    of each part: fmt() for the direct part, put() for BPF, "%.3f" for
    the metadata part."""
    out = []

    def add(name, inputs, f, form):
        if all(k in keys for k in inputs):
            v = f(*[keys[k] for k in inputs])
            if v is not None:
                out.append((name, form(v)))

    for op in ("attach", "detach"):
        add("%s_batch_linearity" % op, ["%s_batch_ms" % op, "%s_batch_ms_n8" % op],
            lambda n, n8: ratio(n, 8 * n8), fmt)
    # A one-function batch beside 20,000 if it also copied and freed the
    # filter and direct_functions (two hashes of that size), as a batch
    # API that merges copies of the tables does, against in place
    for op in ("add1", "del1"):
        add("%s_at20k_copied_over_inplace" % op,
            ["%s_at20k_us" % op, "hash_copy20k_us", "hash_free20k_us"],
            lambda t, c, f: ratio(t + 2 * (c + f), t), fix3)
    # The BPF part's N: "_n<N>" for all but the largest, which comes last
    sufs = sorted({m.group(1) or "" for k in keys
                   for m in [re.match(r"bpf_attach_ms(_n\d+)?$", k)] if m},
                  key=lambda s: (s == "", int(s[2:]) if s else 0))
    for suf in sufs:
        add("bpf_attach_detach_speedup" + suf,
            ["bpf_%s_ms%s%s" % (op, side, suf)
             for side in ("_base", "") for op in ("attach", "detach")],
            lambda ab, db, a, d: ratio(ab + db, a + d), dec3)
        for side in ("_base", ""):
            for op in ("attach", "detach"):
                add("bpf_%s_us_per_func%s%s" % (op, side, suf),
                    ["bpf_%s_ms%s%s" % (op, side, suf), "bpf_n_functions%s%s" % (side, suf)],
                    lambda ms, nf: ratio(ms * 1000, nf), dec3)
    add("bpf_fentry_call_ratio", ["bpf_fentry_call_ns", "bpf_fentry_call_ns_base"],
        ratio, dec3)
    for b in ("ksys", "sys"):
        add("bpftrace_%s_speedup" % b, ["bpftrace_%s_ms_base" % b, "bpftrace_%s_ms" % b],
            ratio, dec3)
    for suf in ("", "_hash", "_nomd"):
        add("list_k128_over_k1" + suf, ["list_k128_ns" + suf, "list_k1_ns" + suf], ratio, fix3)
    # (md - untraced) / (other - untraced): the hash forced, and off
    for mode, other in (("hash", "direct_shared_mdhash_ns"), ("off", "direct_shared_hash_ns")):
        add("direct_shared_md_over_" + mode, ["direct_shared_md_ns", other, "untraced_ns"],
            lambda a, b, u: ratio(a - u, b - u), fix3)
    # The metadata's part of filter_ip_n single-ip ftrace_set_filter_ip()
    # calls (5,000): the time over the boot with ftrace_md=off
    for suf in ("", "_hash"):
        add("md_filter_ip_update_ms" + suf,
            ["filter_ip_ns" + suf, "filter_ip_ns_nomd", "filter_ip_n"],
            lambda t, off, n: (t - off) * n / 1e6, fix3)
    for suf in ("", "_hash"):
        add("filter_ip_over_nomd" + suf, ["filter_ip_ns" + suf, "filter_ip_ns_nomd"], ratio, fix3)
    # tracing_multi (the multi part): against the bare batch (the issue's
    # targets: 1.5 and 1.2), kprobe_multi, and single fentry links
    # extrapolated to the same N
    for op in ("attach", "detach"):
        add("tmulti_%s_over_rawbatch" % op, ["tmulti_%s_ms" % op, "rawbatch_%s_ms" % op],
            ratio, fix3)
        add("tmulti_%s_over_kmulti" % op, ["tmulti_%s_ms" % op, "kmulti_%s_ms" % op],
            ratio, fix3)
        add("tmulti_%s_speedup_over_single" % op,
            ["fentry_single_%s_ms_per_func" % op, "tmulti_n", "tmulti_%s_ms" % op],
            lambda per, n, t: ratio(per * n, t), fix3)
        # the peer: every function on an image of its own (upstream's design)
        add("tmulti_%s_over_perfunc" % op,
            ["tmulti_%s_ms" % op, "tmulti_perfunc_%s_ms" % op], ratio, fix3)
    # Per call (each over the untraced call): multi against single (the
    # issue's targets: 1.05 and 1.10), and kprobe_multi against multi
    add("tmulti_call_over_fentry", ["tmulti_call_ns", "fentry_call_ns"], ratio, fix3)
    add("tmulti_fexit_call_over_fexit", ["tmulti_fexit_call_ns", "fexit_call_ns"],
        ratio, fix3)
    add("kmulti_call_over_tmulti", ["kmulti_call_ns", "tmulti_call_ns"], ratio, fix3)
    add("tmulti_perfunc_call_over_fentry", ["tmulti_perfunc_call_ns", "fentry_call_ns"],
        ratio, fix3)
    add("tmulti_all_call_over_perfunc_all",
        ["tmulti_all_call_ns", "tmulti_perfunc_all_call_ns"], ratio, fix3)
    add("kmulti_all_call_over_tmulti_all", ["kmulti_all_call_ns", "tmulti_all_call_ns"],
        ratio, fix3)
    return out


RATIO_NOTES = {
    "tmulti_attach_speedup_over_single": [
        "# tmulti_*_speedup_over_single: fentry_single_*_ms_per_func x tmulti_n",
        "#   / tmulti_*_ms: single fentry links on the same N, extrapolated from",
        "#   fentry_single_n of them"],
    "attach_batch_linearity": [
        "# *_batch_linearity: *_batch_ms / (8 x *_batch_ms_n8) of the medians",
        "#   above; one figure (it was the median, min, max and spread of each",
        "#   round's ratio)"],
    "add1_at20k_copied_over_inplace": [
        "# *1_at20k_copied_over_inplace: (*1_at20k_us + 2 x (hash_copy20k_us +",
        "#   hash_free20k_us)) / *1_at20k_us: a one-function batch beside 20,000",
        "#   if it also copied the filter and direct_functions and freed the old",
        "#   ones (Linux 7.0's hash_add()/hash_sub()), against in place"],
}


def bench_report(outfile, keyfiles):
    """Concatenate the parts' key files (comments kept) into OUTFILE, each
    followed by the ratios derived from it (the first part after which a
    ratio's inputs are all known); a ratio whose inputs are missing is
    left out.  Returns the exit code."""
    keys, done, lines = {}, set(), []
    for path in keyfiles:
        if not os.path.exists(path):
            print("error: no %s" % path, file=sys.stderr)
            return 1
        for line in read_file(path):
            lines.append(line)
            parts = line.split()
            if len(parts) >= 2 and not line.startswith("#"):
                try:
                    keys[parts[0]] = float(parts[1])
                except ValueError:
                    pass
        new = [(name, v) for name, v in bench_ratios(keys) if name not in done]
        if new:
            lines.append("# ratios of the keys above")
        for name, v in new:
            lines += RATIO_NOTES.get(name, [])
            lines.append("%s %s" % (name, v))
            done.add(name)
    with open(outfile, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return 0
