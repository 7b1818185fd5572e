#!/bin/bash
# Prove that the harness can fail.  In a throw-away copy of the scratch tree:
#   (c) a patch that does not apply stops tree.sh, naming the patch;
#   (a) a patch adding WARN_ON(1) on a boot path fails the check run;
#   (b) a patch breaking one ftracetest test fails it, naming that test;
#   (d) a WARN raised by a test after boot, when the console loglevel no
#       longer shows it, fails the check run: found in the saved kernel log;
#   (e) a test that fails once and passes when the guest runs it again is
#       reported "# flaky" and counted as passed (guest/check.sh's retry),
#       while (b)'s test, which fails twice, still fails the run;
#   (f) a list function that reads a function's trampoline from its
#       metadata once, before calling the function's ops, instead of at
#       the shared direct ops's turn, fails the KUnit case
#       fdk_window_table (a call held by an earlier ops while the function
#       is retargeted then reaches the old trampoline), and only that
#       case: the window test can fail;
#   (g) a test that runs past its limit (a hang) is ended by the guest's
#       watchdog and fails as TIMEOUT, named, and the next test still
#       runs and passes;
#   (h) a test that prints "WARNING: CPU: ..." on the console (user space,
#       no kernel timestamp) is no kernel splat: it passes, and so does
#       harness/no-kernel-splat.
# (a), (b), (d), (e), (f), (g) and (h) share one build (the boot WARN
# fires only with ftsdo.selftest_boot_warn on the command line) and four
# boots in parallel: (a)+(b) and (d)+(e) with short ftracetest subsets,
# (f) with the KUnit suites (project/kunit.sh), (g)+(h) with the
# calibration factor forced to 0.2 (ftsdo.factor), so that a test without
# a weight gets 120 s instead of 600.
# SELFTEST_DIR (default build/selftest) is where it works.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
ST=${SELFTEST_DIR:-$BUILD/selftest}
rm -rf "$ST"
mkdir -p "$ST"
ok=0 bad=0
verdict() { if [ "$1" = 0 ]; then echo "PASS: $2"; ok=$((ok + 1)); else echo "FAIL: $2"; bad=$((bad + 1)); fi; }

# (c) A patch that does not apply.
mkdir -p "$ST/patches"
cp -r "$PATCHES"/[0-9][0-9]-*/ "$ST/patches/"
last=$ST/patches/$(PATCHES=$ST/patches series_dirs | tail -n 1)
cat >"$last/9999-does-not-apply.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: ftrace-sdo <ftrace-sdo@users.noreply.invalid>
Subject: [PATCH] harness self-test: context that is not in the tree

---
 kernel/trace/ftrace.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/trace/ftrace.c b/kernel/trace/ftrace.c
--- a/kernel/trace/ftrace.c
+++ b/kernel/trace/ftrace.c
@@ -1,3 +1,3 @@
-this line is not in ftrace.c
+neither is this one
 // nor this
 // nor that
P
echo 9999-does-not-apply.patch >>"$last/series"
git clone -q --shared "$LINUX" "$ST/linux"
git -C "$ST/linux" checkout -q --detach "$BASE_TAG"
out=$(BUILD=$ST LINUX=$ST/linux PATCHES=$ST/patches "$TOP/scripts/tree.sh" 2>&1) && rc=0 || rc=$?
echo "$out" | sed 's/^/    /'
[ $rc != 0 ] && echo "$out" | grep -q 'does not apply: .*9999-does-not-apply.patch' &&
	[ "$(git -C "$ST/linux" rev-parse HEAD)" = "$(git -C "$ST/linux" rev-parse "$BASE_TAG")" ]
verdict $? "(c) a patch that does not apply stops the run and names the patch"

# (a) + (b) + (d): the real series plus bad patches.
head -n -1 "$last/series" >"$last/series.ok" && mv "$last/series.ok" "$last/series"
rm "$last/9999-does-not-apply.patch"
BUILD=$ST LINUX=$ST/linux PATCHES=$ST/patches "$TOP/scripts/tree.sh" >/dev/null
python3 - "$ST/linux" <<'PY'
import sys
root = sys.argv[1]
p = root + "/init/main.c"
s = open(p).read()
anchor = "\tdo_basic_setup();\n"
assert anchor in s
s = s.replace(anchor, anchor + "\tWARN_ON(strstr(saved_command_line, \"ftsdo.selftest_boot_warn\"));"
              "\t/* harness self-test */\n", 1)
open(p, "w").write(s)
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/basic2.tc"
s = open(p).read()
s += "\n# harness self-test: this test now fails\nexit_fail\n"
open(p, "w").write(s)
# (d): a debugfs knob that raises a WARN when written, and a test that
# writes it after boot.
open(root + "/kernel/ftsdo_selftest.c", "w").write("""\
// SPDX-License-Identifier: GPL-2.0
/* Harness self-test only: a write to debugfs ftsdo_selftest_warn WARNs. */
#include <linux/bug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>

static ssize_t ftsdo_warn_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	WARN_ON_ONCE(1);
	return count;
}

static const struct file_operations ftsdo_warn_fops = {
	.write = ftsdo_warn_write,
};

static int __init ftsdo_selftest_init(void)
{
	debugfs_create_file("ftsdo_selftest_warn", 0200, NULL, NULL,
			    &ftsdo_warn_fops);
	return 0;
}
late_initcall(ftsdo_selftest_init);
""")
with open(root + "/kernel/Makefile", "a") as fh:
    fh.write("obj-y += ftsdo_selftest.o\n")
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-warn.tc"
open(p, "w").write("""\
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: harness self-test: raise a kernel WARN after boot
echo 1 > /sys/kernel/debug/ftsdo_selftest_warn
""")
# (e): fails the first time it runs in a boot, passes the second.
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-flaky.tc"
open(p, "w").write("""\
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: harness self-test: fail once, then pass
[ -e /tmp/ftsdo-selftest-flaky ] && exit_pass
: > /tmp/ftsdo-selftest-flaky
exit_fail
""")
# (g): hangs; (h): prints what looks like a kernel WARNING, from user space.
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-hang.tc"
open(p, "w").write("""\
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: harness self-test: hang
sleep 100000
""")
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-says-warning.tc"
open(p, "w").write("""\
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: harness self-test: print a kernel-like WARNING from user space
msg="WARNING: CPU: 0 PID: 1 at kernel/ftsdo.c:1 ftsdo_fake+0x0/0x10"
echo "$msg"
echo "$msg" > /dev/console
""")
# (f): the metadata path of the list function takes the trampoline at
# its start (x86_64: the metadata is in the padding by default).
p = root + "/kernel/trace/ftrace.c"
s = open(p).read()
for old, new in (
        ("\tstruct ftrace_md *md;\n\tunsigned int i;\n\n\tif (!ftrace_md_active()",
         "\tstruct ftrace_md *md;\n\tunsigned long early;\n\tunsigned int i;\n\n\tif (!ftrace_md_active()"),
        ("\tif (!set)\n\t\treturn true;\n\n\tfor (i = 0; i < set->nr; i++) {",
         "\tif (!set)\n\t\treturn true;\n\tearly = READ_ONCE(md->direct);\t/* harness self-test */\n\n"
         "\tfor (i = 0; i < set->nr; i++) {"),
        ("\t\tif (ftrace_md_call_direct(op, md, fregs))\n\t\t\tcontinue;",
         "\t\tif (op->func == call_direct_funcs_hash) {\n\t\t\tif (early)\n"
         "\t\t\t\tarch_ftrace_set_direct_caller(fregs, early);\n\t\t\tcontinue;\n\t\t}")):
    assert old in s, old
    s = s.replace(old, new, 1)
open(p, "w").write(s)
PY
# -f: the Debian source tree's .gitignore ignores everything new.
git -C "$ST/linux" add -f kernel/ftsdo_selftest.c \
	tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-warn.tc \
	tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-flaky.tc \
	tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-hang.tc \
	tools/testing/selftests/ftrace/test.d/00basic/ftsdo-selftest-says-warning.tc
git -C "$ST/linux" -c user.name=ftrace-sdo -c user.email=ftrace-sdo@users.noreply.invalid \
	commit -q -a -m "harness self-test: WARN at boot or from a test, break basic2.tc, read the trampoline early"
OBJ=$ST/obj/$ARCH_NAME		# ST/linux + ST/obj: ccache-friendly layout
"$TOP/scripts/build.sh" "$ARCH_NAME" "$ST/linux" "$OBJ" >"$ST/build.log" 2>&1 ||
	die "self-test kernel did not build ($ST/build.log)"
"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$ST/linux" "$OBJ" >/dev/null
arch_load "$ARCH_NAME"
[ "$ACCEL" != kvm-probe ] ||
	"$TOP/scripts/kvm-probe.sh" "$ARCH_NAME" "$OBJ" >/dev/null	# once, before two boots
OBJ=$OBJ BOOT_APPEND="ftsdo.selftest_boot_warn ftsdo.tests=ftrace/00basic/basic1.tc,ftrace/00basic/basic2.tc" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$ST/run" 1200 >"$ST/run.out" 2>&1 &
pid_ab=$!
OBJ=$OBJ BOOT_APPEND="ftsdo.tests=ftrace/00basic/ftsdo-selftest-warn.tc,ftrace/00basic/ftsdo-selftest-flaky.tc" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$ST/run-d" 1200 >"$ST/run-d.out" 2>&1 &
pid_d=$!
OBJ=$OBJ BOOT_APPEND="ftsdo.tests=project/kunit.sh" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$ST/run-f" 1200 >"$ST/run-f.out" 2>&1 &
pid_f=$!
OBJ=$OBJ BOOT_APPEND="ftsdo.factor=0.2 ftsdo.tests=ftrace/00basic/ftsdo-selftest-hang.tc,ftrace/00basic/ftsdo-selftest-says-warning.tc,ftrace/00basic/basic1.tc" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$ST/run-g" 2000 >"$ST/run-g.out" 2>&1 &
pid_g=$!
wait $pid_ab || true
wait $pid_d || true
wait $pid_f || true
wait $pid_g || true

out="$(cat "$ST/run.out")
$("$TOP/scripts/results.py" check --subset --base "$TOP/tests/baseline/$ARCH_NAME.txt" --tap "$ST/check.tap" "$ST/run" 2>&1)" && rc=0 || rc=$?
echo "$out" | grep -E 'error:|not ok|passed,' | sed 's/^/    /'
echo "$out" | grep -q 'kernel splat' && echo "$out" | grep -q '^not ok .* harness/no-kernel-splat'
verdict $? "(a) a WARN_ON(1) at boot fails the check"
echo "$out" | grep -q '^not ok .* ftrace/00basic/basic2.tc # FAIL, base: PASS' &&
	grep -q '^ok .* ftrace/00basic/basic1.tc$' "$ST/check.tap"
verdict $? "(b) a broken ftracetest test fails the check, named"

out="$(cat "$ST/run-d.out")
$("$TOP/scripts/results.py" check --subset --base "$TOP/tests/baseline/$ARCH_NAME.txt" --tap "$ST/check-d.tap" "$ST/run-d" 2>&1)" && rc=0 || rc=$?
echo "$out" | grep -E 'error:|not ok|passed,' | sed 's/^/    /'
# The WARN fails the run, it is found in the kernel log the guest saved,
# and the console (loglevel 4 after boot) did not show it: without that
# log the check would be blind to it.
[ $rc != 0 ] && echo "$out" | grep -q '^not ok .* harness/no-kernel-splat' &&
	grep -q '^ok .* ftrace/00basic/ftsdo-selftest-warn.tc$' "$ST/check-d.tap" &&
	grep -q 'dmesg.txt.*WARNING:.*ftsdo_selftest' "$ST/run-d/splats.txt" &&
	! grep -q 'WARNING:' "$ST/run-d/console.log"
verdict $? "(d) a WARN raised by a test after boot fails the check (found in the saved kernel log)"
grep -q '^ok .* ftrace/00basic/ftsdo-selftest-flaky.tc # flaky' "$ST/check-d.tap" &&
	grep -q 'FTSDO-RETRY 1 00basic/ftsdo-selftest-flaky.tc' "$ST/run-d/ftrace-retry-cases.txt" &&
	grep -q '^not ok .* ftrace/00basic/basic2.tc # FAIL, base: PASS' "$ST/check.tap" &&
	grep -q 'FTSDO-RETRY 1 00basic/basic2.tc' "$ST/run/ftrace-retry-cases.txt"
verdict $? "(e) a test that fails once and passes on its retry is flaky; one that fails twice still fails"
out="$(cat "$ST/run-f.out")
$("$TOP/scripts/results.py" check --subset --base "$TOP/tests/baseline/$ARCH_NAME.txt" --tap "$ST/check-f.tap" "$ST/run-f" 2>&1)" && rc=0 || rc=$?
echo "$out" | grep -E 'error:|not ok|passed,' | sed 's/^/    /'
[ $rc != 0 ] && grep -q '^not ok .* kunit/ftrace_direct_batch/fdk_window_table' "$ST/check-f.tap" &&
	[ "$(grep -c '^not ok .* kunit/' "$ST/check-f.tap")" = 1 ] &&
	grep -q '^ok .* kunit/ftrace_direct_batch/fdk_race_first_add' "$ST/check-f.tap"
verdict $? "(f) the trampoline read before the list function calls the ops fails fdk_window_table, and only it"
out="$(cat "$ST/run-g.out")
$("$TOP/scripts/results.py" check --subset --base "$TOP/tests/baseline/$ARCH_NAME.txt" --tap "$ST/check-g.tap" "$ST/run-g" 2>&1)" && rc=0 || rc=$?
echo "$out" | grep -E 'error:|not ok|passed,|TIMEOUT' | sed 's/^/    /'
[ $rc != 0 ] && grep -q '^not ok .* ftrace/00basic/ftsdo-selftest-hang.tc # TIMEOUT (new test)' "$ST/check-g.tap" &&
	grep -q '^FTSDO-TIMEOUT ftrace/00basic/ftsdo-selftest-hang.tc 120' "$ST/run-g/console.log" &&
	grep -qx '120 ftrace/00basic/ftsdo-selftest-hang.tc' "$ST/run-g/timeouts.txt" &&
	grep -q '^ok .* ftrace/00basic/basic1.tc$' "$ST/check-g.tap" &&
	grep -q '^ok .* harness/guest-completed$' "$ST/check-g.tap"
verdict $? "(g) a test past its limit is ended and fails as TIMEOUT, named; the next test runs"
grep -q '^WARNING: CPU: 0 PID: 1 at kernel/ftsdo.c:1' "$ST/run-g/console.log" &&
	grep -q '^ok .* ftrace/00basic/ftsdo-selftest-says-warning.tc$' "$ST/check-g.tap" &&
	grep -q '^ok .* harness/no-kernel-splat$' "$ST/check-g.tap" && [ ! -s "$ST/run-g/splats.txt" ]
verdict $? "(h) a test's own WARNING: output on the console is no kernel splat"
# The sabotaged copy of the tree and its patches go: only the logs, the
# results and the objects (for ccache-speed reruns) stay.
rm -rf "$ST/linux" "$ST/patches"
echo "$ok passed, $bad failed, 0 skipped"
[ $bad = 0 ]
