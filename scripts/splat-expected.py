#!/usr/bin/env python3
"""Print a kernel log without the warnings a test announced.

A test that exercises a kernel path which must WARN (a refused misuse of
an API, say) brackets it with two lines in the kernel log:

    <prefix>expect-warn-begin FILE
    <prefix>expect-warn-end

One "WARNING: ... at FILE:LINE ..." block between them (FILE as the
build prints it, which may have a ../ prefix with O=), up to its
"---[ end trace" line, is left out of the output and replaced by a
note; any other splat, a second WARNING, or one from another file stays
in and fails the run as usual.  A bracket in which no warning appeared
is reported too: the test announced a WARN the kernel did not raise.
Usage: splat-expected.py LOG
"""
import re
import sys

begin_re = re.compile(r"expect-warn-begin (\S+)")
end_re = re.compile(r"expect-warn-end")
warn_re = re.compile(r'WARNING: .* at (\S+?):\d+ ')

def main(path):
    expect = None      # file the bracket expects a WARNING from
    seen = False       # the bracket's WARNING was elided
    skipping = False   # inside the elided block
    with open(path, errors='replace') as f:
        for line in f:
            if skipping:
                if '---[ end trace' in line:
                    skipping = False
                continue
            m = begin_re.search(line)
            if m:
                expect, seen = m.group(1), False
                print(line, end='')
                continue
            if end_re.search(line):
                if expect and not seen:
                    print('ftsdo: expected WARNING from %s did not appear '
                          '(not a splat)' % expect)
                expect = None
                print(line, end='')
                continue
            m = warn_re.search(line)
            if m and expect and not seen and \
                    (m.group(1) == expect or m.group(1).endswith('/' + expect)):
                seen = skipping = True
                print('ftsdo: expected WARNING from %s left out' % expect)
                continue
            print(line, end='')

if __name__ == '__main__':
    main(sys.argv[1])
