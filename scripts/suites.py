#!/usr/bin/env python3
"""configs/suites for the shell scripts (scripts/ftsdo/suites.py does the work).

  suites.py rows SUITE ARCH [ARCH...]   the suite's boots, heaviest first, one
                                        tab-separated line each: arch kernel
                                        boot weight begin tests opts append
  suites.py kernel NAME                 the Kconfig fragments of kernel NAME
  suites.py check                       parse the table; exit 2 on an error
  suites.py find TEST ARCH [BOOT]       the boot of make check that runs TEST
                                        (make check-one), as a rows line with
                                        the tests narrowed to TEST

An error in the table is printed as "configs/suites:LINE: what" and exits 2.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ftsdo import suites  # noqa: E402


def skip_list(arch):
    """The ftracetest tests tests/skip/ARCH.txt leaves out."""
    path = os.path.join(suites.TOP, "tests", "skip", arch + ".txt")
    res = set()
    if os.path.exists(path):
        with open(path) as fh:
            res = {line.split()[0] for line in fh if line.strip() and not line.startswith("#")}
    return res


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        table = suites.parse()
    except suites.TableError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "check":
        return 0
    if cmd == "rows" and len(argv) >= 4:
        out = suites.rows(table, argv[2], argv[3:])
        for r in out:
            print(r.tsv())
        return 0
    if cmd == "kernel" and len(argv) == 3:
        if argv[2] not in table.kernels:
            print("error: configs/suites has no %%kernel %s" % argv[2], file=sys.stderr)
            return 2
        print(" ".join(os.path.join(suites.TOP, f) for f in table.kernels[argv[2]]))
        return 0
    if cmd == "find" and len(argv) in (4, 5):
        test, arch = argv[2], argv[3]
        boot = argv[4] if len(argv) == 5 else None
        linux = os.environ.get("LINUX", os.path.join(suites.TOP, "build", "linux"))
        testdir = os.path.join(linux, "tools", "testing", "selftests", "ftrace", "test.d")
        row = suites.find(table, test, arch, testdir, boot, skip_list(arch))
        if row is None:
            print("error: no boot of make check for %s runs %s%s" % (
                arch, test, " (boot %s)" % boot if boot else ""), file=sys.stderr)
            return 1
        row.tests = suites.guest_selector(test)
        print(row.tsv())
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
