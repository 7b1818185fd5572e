"""Kernel reports (splats) of one boot, reduced to signatures that can be
compared with another kernel's: make check-debug fails a report of the
series only when the base, built and run the same way, does not show it.

A signature leaves out what differs from run to run and between the two
kernels: addresses, offsets, CPU and PID numbers, timestamps, and line
numbers (the series moves the base's lines).  Kinds:

  WARNING   file and function of "WARNING: CPU: n PID: n at FILE:LINE FUNC+..."
  KASAN     the bug type and function of "BUG: KASAN: TYPE in FUNC+..."
  lockdep   the report's title and the locks it names
  RCU       "suspicious RCU usage" and the file it names
  leak      a kmemleak report: the object's size and the first functions
            of its allocation backtrace that are not the allocator's
  BUG       any other BUG/Oops/general protection fault/panic/stall/lockup:
            its first line without numbers, and the function of its RIP/pc

The logs are the console, the kernel log the guest saved (dmesg.txt) and
kmemleak's report (kmemleak.txt, the guest's copy of
/sys/kernel/debug/kmemleak after its scans).

Which lines of the console and the kernel log are reports, configs/splats
says, the policy scripts/splat-scan.sh fails a boot on: a line it does not
name is never one.  The kinds above are made of the lines it names.
"""
import functools
import os
import re

from .expected import filter_lines

POLICY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "configs", "splats")
TIME = re.compile(r"^\[\s*\d+\.\d+\](?:\[\s*[CT]\d+\])?\s?")
FUNC = r"([A-Za-z0-9_.$]+)\+0x[0-9a-f]+/0x[0-9a-f]+"
WARN = re.compile(r"WARNING: CPU: \d+ PID: \d+ at (\S+?):\d+ " + FUNC)
KASAN = re.compile(r"BUG: KASAN: (\S+) in " + FUNC)
LOCKDEP = re.compile(r"WARNING: (possible recursive locking detected|"
                     r"possible circular locking dependency detected|"
                     r"inconsistent lock state|"
                     r"possible irq lock inversion dependency detected|"
                     r"suspicious RCU usage)")
LOCK = re.compile(r"\((&?[A-Za-z0-9_.>-]+(?:/\d+)?)\)\{")
RCU_FILE = re.compile(r"^(\S+?):\d+ ")
OTHER = re.compile(r"(kernel BUG at|BUG:|Oops|general protection fault|"
                   r"Kernel panic|rcu_.*detected stall|rcu: INFO:|"
                   r"self-detected stall|soft lockup|hard LOCKUP|"
                   r"blocked for more than|UBSAN:)")
PC = re.compile(r"^(?:RIP: [0-9a-f]+:|pc : )" + FUNC)
LEAK = re.compile(r"^unreferenced object 0x[0-9a-f]+ \(size (\d+)\):")
FRAME = re.compile(r"^\s*\[<[0-9a-f]+>\] " + FUNC)
# Allocator frames: not where the leak comes from
ALLOC = re.compile(r"^(__?kmalloc|kmalloc|kmem_cache_alloc|kzalloc|kvmalloc|"
                   r"kcalloc|krealloc|__kvmalloc|__alloc_pages|alloc_pages|"
                   r"kmemleak_|slab_post_alloc|__kmem_cache|vmalloc|__vmalloc|"
                   r"kmalloc_trace|__get_free_pages|alloc_large|___slab)")
NUMBERS = re.compile(r"0x[0-9a-f]+|\b\d+\b")


def policy(path=POLICY):
    """configs/splats: its prefix and its patterns, as splat-scan.sh reads
    them (a line starting with # is a comment, a blank one is skipped)."""
    prefix, patterns = [], []
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith("prefix "):
                prefix.append(line[len("prefix "):])
            else:
                patterns.append(line)
    if len(prefix) != 1 or not patterns:
        raise ValueError("%s: want one prefix line and patterns" % path)
    return prefix[0], patterns


@functools.lru_cache(maxsize=None)
def report_re(path=POLICY):
    """The regex of configs/splats, PREFIX(PATTERN|PATTERN|...), the one
    splat-scan.sh gives grep -E."""
    prefix, patterns = policy(path)
    return re.compile("%s(%s)" % (prefix, "|".join(patterns)))


def is_report(line):
    """Whether a kernel log line (timestamp kept) is a report."""
    return report_re().search(line.rstrip("\r\n")) is not None


def strip(line):
    """A log line without its timestamp and line end."""
    return TIME.sub("", line.rstrip("\r\n"))


def read(path):
    """The lines of a log, without their line ends and the reports a test
    announced."""
    if not os.path.exists(path):
        return []
    with open(path, errors="replace") as fh:
        return [line.rstrip("\r\n") for line in filter_lines(fh)]


def log_signatures(lines):
    """The signatures of the reports of a kernel log (its lines as read()
    gives them, timestamps kept), in order."""
    report = [is_report(line) for line in lines]
    lines = [strip(line) for line in lines]
    sigs = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not report[i]:
            i += 1
            continue
        m = LOCKDEP.search(line)
        if m:
            title = m.group(1)
            block = lines[i + 1:i + 30]
            if title == "suspicious RCU usage":
                files = [RCU_FILE.match(b) for b in block if RCU_FILE.match(b)]
                sigs.append("RCU: %s at %s" % (title, files[0].group(1) if files else "?"))
            else:
                locks = []
                for b in block:
                    for name in LOCK.findall(b):
                        if name not in locks:
                            locks.append(name)
                sigs.append("lockdep: %s: %s" % (title, " ".join(locks[:4])))
            i += 1
            continue
        m = WARN.search(line)
        if m:
            sigs.append("WARNING: %s %s" % (re.sub(r"^(\.\./)+(linux/)?", "", m.group(1)),
                                            m.group(2)))
            i += 1
            continue
        m = KASAN.search(line)
        if m:
            sigs.append("KASAN: %s in %s" % (m.group(1), m.group(2)))
            i += 1
            continue
        m = OTHER.search(line)
        if m:
            first = NUMBERS.sub("N", line[m.start():]).strip()
            func = ""
            for b in lines[i + 1:i + 40]:
                pc = PC.match(b.strip())
                if pc:
                    func = " at " + pc.group(1)
                    break
            sigs.append("BUG: %s%s" % (first, func))
            # One report: the lines that follow its first ("#PF: ...",
            # "Oops: ..." after "BUG: kernel NULL pointer ...") belong to it
            last = i
            for j in range(i + 1, min(i + 6, len(lines))):
                if report[j] and OTHER.search(lines[j]):
                    last = j
            i = last + 1
            continue
        i += 1
    return sigs


def leak_signatures(lines, frames=4):
    """The signatures of kmemleak's report: one per unreferenced object."""
    sigs = []
    size, stack = None, []
    for line in lines + ["unreferenced object 0x0 (size 0):"]:
        m = LEAK.match(line.strip())
        if m:
            if size is not None:
                sigs.append("leak: size %s from %s" % (size, " < ".join(stack[:frames]) or "?"))
            size, stack = m.group(1), []
            continue
        f = FRAME.match(line)
        if f and size is not None and not ALLOC.match(f.group(1)):
            stack.append(f.group(1))
    return sigs


def boot_signatures(outdir):
    """Every report of one boot: the console and the saved kernel log (a
    report in both counts once), and kmemleak's report."""
    console = log_signatures(read(os.path.join(outdir, "console.log")))
    dmesg = log_signatures(read(os.path.join(outdir, "dmesg.txt")))
    sigs = list(dmesg)
    for s in console:       # those the kernel log lost or never had
        if sigs.count(s) < console.count(s):
            sigs.append(s)
    return sigs + leak_signatures(read(os.path.join(outdir, "kmemleak.txt")))


def compare(outdir, basedirs):
    """The reports of a boot of the series against the base's boots of the
    same suite: (new, known), each [(signature, times)]; new are those no
    boot of the base showed."""
    ours = boot_signatures(outdir)
    theirs = {sig for d in basedirs for sig in boot_signatures(d)}
    new, known = [], []
    for sig in sorted(set(ours)):
        (known if sig in theirs else new).append((sig, ours.count(sig)))
    return new, known


def judge(outdir, basedirs):
    """make check-debug's splat verdict of one boot: print the reports,
    rewrite the boot's harness/no-kernel-splat result (qemu-run.sh failed
    it on any report) to fail only on a new one; 1 if there is one."""
    new, known = compare(outdir, basedirs)
    # qemu-run.sh's own findings (a kernel log that does not reach back
    # to boot, none saved) are no report the base can excuse
    for line in read(os.path.join(outdir, "splats.txt")):
        if line.startswith("harness: "):
            new.append((line, 1))
    for sig, n in known:
        print("known (the base shows it too): %s (x%d)" % (sig, n))
    for sig, n in new:
        print("NEW: %s (x%d)" % (sig, n))
    path = os.path.join(outdir, "harness.txt")
    lines = []
    if os.path.exists(path):
        with open(path) as fh:
            lines = [line for line in fh if not line.rstrip().endswith(" harness/no-kernel-splat")]
    lines.append("%d harness/no-kernel-splat\n" % (1 if new else 0))
    with open(path, "w") as fh:
        fh.writelines(lines)
    return 1 if new else 0
