"""KTAP output, as a guest wrote it to a file or printed it on its console.

console_lines() cleans a serial console log: every "\\r" goes, a kernel
message loses its timestamp, and a user space line that a kernel message
cut in two is joined again.  parse_ktap() parses KTAP (or TAP 13) output
into its documents, Test trees nested by indentation as KUnit prints
them; on a console, what the kernel and what user space printed are
parsed as separate streams.  Test.result names a result as the harness
does: PASS, XFAIL, UNSUPPORTED, UNRESOLVED or FAIL.
"""
import re


# ---------------------------------------------------------------------------
# The serial console
# ---------------------------------------------------------------------------

# "[   12.345678] ", and "[   12.345678][    T1] " with CONFIG_PRINTK_CALLER
TIMESTAMP = re.compile(r"\[\s*\d+\.\d+\](?:\[\s*[A-Z]?\d+\])? ")


def console_lines(lines):
    """Split a serial console log into [(text, from_kernel)], in order.

    Every "\\r" goes; a kernel message loses its timestamp prefix.  User
    space and the kernel share the serial port, so a kernel message can
    cut a line of user space in two: "ok 5 Te[  12.3] BUG: ..." and, after
    the kernel's lines, "st foo".  The halves are joined again ("ok 5 Test
    foo").  A cut diagnostic line (one that starts with "#") is left as it
    is: a test's output may quote a timestamp, and joining it with the next
    line could swallow a result line."""
    out = []
    head = None         # first half of a user space line cut by the kernel
    for raw in lines:
        line = raw.replace("\r", "").rstrip("\n")
        m = TIMESTAMP.search(line)
        if m is None:
            if head is not None:
                line, head = head + line, None
            out.append((line, False))
            continue
        before, kernel = line[:m.start()], line[m.end():]
        if before:
            if head is not None:
                before, head = head + before, None
            if before.lstrip().startswith("#"):
                out.append((before, False))
            else:
                head = before
        out.append((kernel, True))
    if head is not None:
        out.append((head, False))
    return out


# ---------------------------------------------------------------------------
# KTAP
# ---------------------------------------------------------------------------

VERSION_RE = re.compile(r"^K?TAP version \d+$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")
RESULT_RE = re.compile(r"^(ok|not ok) (\d+)(?: (.*))?$")
SUBTEST_RE = re.compile(r"^# Subtest: (.*)$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "XPASS", "TIMEOUT", "ERROR",
              "UNRESOLVED", "UNTESTED", "UNSUPPORTED")


class Test:
    """One test of a KTAP document (a document itself is a Test too: its
    top-level results are its subtests).

    name: the result line's description, or its "# Subtest:" name; number;
    ok: True, False, or None when no result line came (the log ended
    inside the test); directive: "SKIP", "XFAIL", "TODO", ... or None, with
    its reason; plan: N of its subtests' "1..N"; subtests: [Test];
    log: the lines printed since the previous result at its level, up to
    its own result line (its diagnostics and output); kernel: printed by
    the kernel (on a console)."""

    def __init__(self, indent=0, kernel=False):
        self.name = ""
        self.number = None
        self.ok = None
        self.directive = None
        self.reason = ""
        self.plan = None
        self.subtests = []
        self.log = []
        self.indent = indent
        self.kernel = kernel

    @property
    def result(self):
        """The harness's result: "ok" is PASS, UNSUPPORTED with SKIP, XFAIL
        with XFAIL; "not ok" is FAIL, UNRESOLVED with UNRESOLVED, XFAIL with
        TODO (a known failure, in TAP's terms); None without a result line."""
        if self.ok is None:
            return None
        if self.ok:
            return {"SKIP": "UNSUPPORTED", "XFAIL": "XFAIL"}.get(self.directive, "PASS")
        return {"UNRESOLVED": "UNRESOLVED", "TODO": "XFAIL"}.get(self.directive, "FAIL")

    def __repr__(self):
        return "Test(%r, %r, %s)" % (self.number, self.name, self.result)


def split_description(rest):
    """'desc # DIRECTIVE reason' -> (desc, DIRECTIVE or None, reason); a
    comment that is no directive is the reason, with DIRECTIVE None."""
    if rest.startswith("#"):
        desc, sep, tail = "", "#", rest[1:]
    else:
        desc, sep, tail = rest.partition(" # ")
    desc = desc.strip()
    if desc.startswith("- "):
        desc = desc[2:].strip()
    if not sep:
        return desc, None, ""
    word, _, reason = tail.strip().partition(" ")
    if word.upper() in DIRECTIVES:
        return desc, word.upper(), reason.strip()
    return desc, None, tail.strip()


def classify(body):
    """The kind of a KTAP line (without its indentation): "version",
    "plan", "result", "subtest", or None for anything else (a diagnostic
    "# ..." line, test output, console noise), with its match."""
    for kind, regex in (("version", VERSION_RE), ("plan", PLAN_RE),
                        ("result", RESULT_RE), ("subtest", SUBTEST_RE)):
        m = regex.match(body)
        if m:
            return kind, m
    return None, None


class _Frame:
    """An open test while parsing: its lines since its last result, and a
    subtest that ended and waits for its own result line."""

    def __init__(self, test):
        self.test = test
        self.buffer = []
        self.pending = None


class _Reader:
    """Builds the documents of one source (user space or the kernel):
    nesting follows the indentation, as KUnit's does (a subtest's lines
    are indented 4 more than its result line)."""

    def __init__(self, kernel, docs):
        self.kernel = kernel
        self.docs = docs
        self.stack = []

    def feed(self, text):
        """One line (without its line end)."""
        body = text.strip()
        indent = len(text) - len(text.lstrip(" "))
        kind, m = classify(body)
        if kind is None:            # a diagnostic, output, noise: the log
            if self.stack:
                self.stack[-1].buffer.append(text)
            return
        # A header at the left margin starts a document; so does the first
        # plan or result line when no document is open.
        if not self.stack or (kind == "version" and indent <= self.stack[0].test.indent):
            self.finish()
            doc = Test(indent, self.kernel)
            self.docs.append(doc)
            self.stack = [_Frame(doc)]
        indent = max(indent, self.stack[0].test.indent)
        # Less indented than the open subtests: they ended (their result
        # lines come next); more indented: a subtest begins.
        while self.stack[-1].test.indent > indent:
            self._close()
        top = self.stack[-1]
        if indent > top.test.indent:
            self._flush_pending(top)
            top = _Frame(Test(indent, self.kernel))
            self.stack.append(top)
        if kind == "plan":
            self._plan(top, m)
        elif kind == "subtest":
            self._subtest(top, m)
        elif kind == "result":
            self._result(top, m)

    def _plan(self, top, m):
        top.test.plan = int(m.group(1))

    def _subtest(self, top, m):
        if len(self.stack) > 1 and not top.test.subtests and not top.test.name:
            top.test.name = m.group(1).strip()
        else:
            top.buffer.append(m.group(0))

    def _result(self, top, m):
        test, top.pending = top.pending, None
        if test is None:
            test = Test(top.test.indent, self.kernel)
        desc, test.directive, test.reason = split_description(m.group(3) or "")
        test.name = desc or test.name
        test.ok = m.group(1) == "ok"
        test.number = int(m.group(2))
        test.indent = top.test.indent
        test.log += top.buffer
        top.buffer = []
        top.test.subtests.append(test)

    def _flush_pending(self, frame):
        """A subtest that never got its result line is kept, result-less."""
        if frame.pending is not None:
            frame.test.subtests.append(frame.pending)
            frame.pending = None

    def _close(self):
        frame = self.stack.pop()
        self._flush_pending(frame)
        frame.test.log += frame.buffer
        parent = self.stack[-1]
        self._flush_pending(parent)
        parent.pending = frame.test

    def finish(self):
        """The input ended: close what is still open."""
        while len(self.stack) > 1:
            self._close()
        if self.stack:
            self._flush_pending(self.stack[0])
            self.stack[0].test.log += self.stack[0].buffer
        self.stack = []


def parse_ktap(lines, console=False):
    """Parse KTAP (or TAP 13) output into its documents: [Test], each a
    document whose subtests are its top-level results, nested as printed.

    Handles "TAP version 13" / "KTAP version 1" headers (a header at the
    left margin starts a new document; one without a header starts at its
    first plan or result line), plans "1..N", "ok N desc # DIRECTIVE
    reason" and "not ok ...", subtests by indentation (KUnit: a subtest's
    "KTAP version 1", "# Subtest: name", plan and results indented by 4,
    then its result line), diagnostic lines and any other line (kept in
    the next result's log).  With console=True, LINES are a serial console
    log (console_lines()): what the kernel printed (KUnit at boot) and
    what user space printed (ftracetest) are parsed as separate streams,
    so kernel messages between or inside the lines of a user space
    document do not disturb it."""
    docs = []
    if console:
        pairs = console_lines(lines)
    else:
        pairs = ((line.replace("\r", "").rstrip("\n"), False) for line in lines)
    readers = {False: _Reader(False, docs), True: _Reader(True, docs)}
    for text, kernel in pairs:
        readers[kernel].feed(text)
    for reader in readers.values():
        reader.finish()
    return docs
