"""Kernel log lines without the reports a test announced.

A test that exercises a kernel path which must WARN (a refused misuse of
an API, say) brackets it with two lines in the kernel log:

    <prefix>expect-warn-begin FILE
    <prefix>expect-warn-end

One "WARNING: ... at FILE:LINE ..." block between them (FILE as the
build prints it, which may have a ../ prefix with O=), up to its
"---[ end trace" line, is left out and replaced by a note; any other
splat, a second WARNING, or one from another file stays in and fails the
run as usual.  A bracket in which no warning appeared is reported too:
the test announced a WARN the kernel did not raise.  One operation that
warns in several files (a BPF link's release, say) names them all,
comma-separated: one WARNING of each is left out, in any order.

A fault injection test brackets its sweep with

    <prefix>expect-allocfail-begin
    <prefix>expect-allocfail-end

Between them, the allocator's reports of failed allocations (warn_alloc():
"page allocation failure: ..." or "vmalloc error: ...", and the stack
dump that follows it, up to its "</TASK>" line) are left out, any number
of them: they are what the test asked for.  Any other report stays in.
"""
import re

BEGIN = re.compile(r"expect-warn-begin (\S+)")
END = re.compile(r"expect-warn-end")
WARN = re.compile(r'WARNING: .* at (\S+?):\d+ ')
AF_BEGIN = re.compile(r"expect-allocfail-begin")
AF_END = re.compile(r"expect-allocfail-end")
AF_REPORT = re.compile(r": (page allocation failure: |vmalloc error: )")
# A stack dump ends with </TASK> (x86) or is followed by the next
# unindented line; a report longer than this is not elided further
AF_MAX = 60


def filter_lines(lines):
    """Yield the lines of a kernel log (line ends kept) without the
    announced reports, each replaced by a note."""
    expect = []        # files the bracket expects a WARNING from
    seen = set()       # those whose WARNING was elided
    skipping = False   # inside the elided WARNING block
    allocfail = False  # inside an allocation failure bracket
    af_left = 0        # lines of an elided allocation failure report left
    for line in lines:
        if skipping:
            if '---[ end trace' in line:
                skipping = False
            continue
        if af_left:
            af_left -= 1
            if '</TASK>' in line:
                af_left = 0
            continue
        if AF_BEGIN.search(line):
            allocfail = True
            yield line
            continue
        if AF_END.search(line):
            allocfail = False
            yield line
            continue
        if allocfail and AF_REPORT.search(line):
            af_left = AF_MAX
            yield 'ftsdo: an announced allocation failure report left out\n'
            continue
        m = BEGIN.search(line)
        if m:
            expect, seen = m.group(1).split(','), set()
            yield line
            continue
        if END.search(line):
            for f in expect:
                if f not in seen:
                    yield ('ftsdo: expected WARNING from %s did not appear '
                           '(not a splat)\n' % f)
            expect = []
            yield line
            continue
        m = WARN.search(line)
        f = next((f for f in expect if f not in seen and
                  (m.group(1) == f or m.group(1).endswith('/' + f))),
                 None) if m else None
        if f:
            seen.add(f)
            skipping = True
            yield 'ftsdo: expected WARNING from %s left out\n' % f
            continue
        yield line
