#!/usr/bin/env python3
"""Turn a guest's raw results into per-test verdicts; report make bench.

  results.py check --base BASELINE --tap OUT.tap [--subset] [--only TEST]... DIR...
  results.py record --base BASELINE DIR [DIR ...]
  results.py bench direct DIR --rounds N
  results.py bench bpf BASEDIR SERIESDIR --largest N
  results.py bench md PADDIR HASHDIR OFFDIR --text-md BYTES --text-nomd BYTES
  results.py bench arm64 DIR
  results.py bench report --out FILE KEYFILE [KEYFILE ...]
  results.py splats --base BASEDIR[,BASEDIR...] DIR

Each DIR is one boot's result directory (a DIR may also be a comma
separated list of them).  `check` judges the guests' results against the
base's, which `record` wrote to tests/baseline/ARCH.txt; each `bench` part
prints "name value" keys, and `bench report` puts the parts together and
computes every ratio.  `splats` compares the kernel reports of a boot
with those of the base's boots of the same suite (make check-debug) and
fails only the new ones.

Results rank PASS = XFAIL = FLAKY > UNSUPPORTED = UNTESTED = SKIP >
UNRESOLVED > FAIL = CRASH = MISSING.  `check` fails a test that ranks
lower than on the base, and a new test (one the base does not have)
unless it passes or is skipped; a test as bad as on the base is a TODO,
counted as skipped; a FLAKY test (it failed, then passed when run again
in the same boot) passes, with a "# flaky" mark.  It prints "N passed,
N failed, N skipped" last.

The work is done in scripts/ftsdo/: ktap.py (the KTAP parser and the
serial console), guest.py (one boot's results), verdict.py (check,
record) and bench.py (make bench), each described there.
"""
import argparse
import os
import sys

# The package ftsdo is next to this file; no __pycache__ in scripts/
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ftsdo.bench import bench_arm64, bench_bpf, bench_direct, bench_md, bench_report
from ftsdo.splats import judge as splats_judge
from ftsdo.verdict import check, record


def dir_list(args):
    """DIR arguments, each possibly a comma separated list."""
    return [d for arg in args for d in arg.split(",") if d]


def emit(lines_rc):
    """Print a bench part's lines; its exit code."""
    lines, rc = lines_rc
    if lines:
        print("\n".join(lines))
    return rc


def parser():
    """The command line: subcommands check, record, bench <part>, splats."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="judge results against the base's, write TAP")
    c.add_argument("--base", required=True, help="tests/baseline/ARCH.txt")
    c.add_argument("--tap", required=True, help="the TAP file to write")
    c.add_argument("--subset", action="store_true",
                   help="the guests ran part of the tests: no MISSING")
    c.add_argument("--only", action="append", default=[], metavar="TEST",
                   help="judge only TEST (and its subtests, its variants) and "
                        "the harness's checks (make check-one); may be repeated")
    c.add_argument("dirs", nargs="+", metavar="DIR")
    r = sub.add_parser("record", help="write the base's results")
    r.add_argument("--base", required=True, help="tests/baseline/ARCH.txt to write")
    r.add_argument("dirs", nargs="+", metavar="DIR")
    b = sub.add_parser("bench", help="make bench's parts and report")
    bsub = b.add_subparsers(dest="part", required=True)
    d = bsub.add_parser("direct", help="median min max spread of the rounds")
    d.add_argument("dir", metavar="DIR")
    d.add_argument("--rounds", type=int, default=0, help="rounds expected")
    f = bsub.add_parser("bpf", help="the BPF part's raw keys, base and series")
    f.add_argument("basedir", metavar="BASEDIR")
    f.add_argument("seriesdir", metavar="SERIESDIR")
    f.add_argument("--largest", required=True, help="the largest N (no suffix)")
    m = bsub.add_parser("md", help="the function metadata part's raw keys")
    m.add_argument("paddir", metavar="PADDIR")
    m.add_argument("hashdir", metavar="HASHDIR")
    m.add_argument("offdir", metavar="OFFDIR")
    m.add_argument("--text-md", help="vmlinux text bytes with FTRACE_FUNC_METADATA")
    m.add_argument("--text-nomd", help="vmlinux text bytes without it")
    a = bsub.add_parser("arm64", help="the arm64 part's raw keys")
    a.add_argument("dir", metavar="DIR")
    o = bsub.add_parser("report", help="the parts together, with every ratio")
    o.add_argument("--out", required=True, help="bench.txt to write")
    o.add_argument("keyfiles", nargs="+", metavar="KEYFILE")
    k = sub.add_parser("splats", help="a boot's kernel reports the base's boot lacks")
    k.add_argument("--base", required=True, metavar="BASEDIR",
                   help="the base's boots of the same suite (comma separated)")
    k.add_argument("dir", metavar="DIR")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if args.cmd == "check":
        return check(dir_list(args.dirs), args.base, args.tap,
                     args.subset or bool(args.only), only=args.only)
    if args.cmd == "record":
        return record(dir_list(args.dirs), args.base)
    if args.cmd == "splats":
        return splats_judge(args.dir, dir_list([args.base]))
    if args.part == "direct":
        return emit(bench_direct(args.dir, args.rounds))
    if args.part == "bpf":
        return emit(bench_bpf(args.basedir, args.seriesdir, args.largest))
    if args.part == "md":
        return emit(bench_md(args.paddir, args.hashdir, args.offdir,
                             args.text_md, args.text_nomd))
    if args.part == "arm64":
        return emit(bench_arm64(args.dir))
    return bench_report(args.out, args.keyfiles)


if __name__ == "__main__":
    sys.exit(main())
