#!/bin/bash
# Prove that the harness can fail.  In a throw-away copy of the scratch tree:
#   (c) a patch that does not apply stops tree.sh, naming the patch;
#   (a) a patch adding WARN_ON(1) on a boot path fails the check run;
#   (b) a patch breaking one ftracetest test fails it, naming that test.
# (a) and (b) share one build and one boot with a short ftracetest subset.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
ST=$BUILD/selftest
rm -rf "$ST"
mkdir -p "$ST"
ok=0 bad=0
verdict() { if [ "$1" = 0 ]; then echo "PASS: $2"; ok=$((ok + 1)); else echo "FAIL: $2"; bad=$((bad + 1)); fi; }

# (c) A patch that does not apply.
mkdir -p "$ST/patches"
cp "$PATCHES"/*.patch "$ST/patches/" 2>/dev/null || true
series_files >"$ST/patches/series"
cat >"$ST/patches/9999-does-not-apply.patch" <<'P'
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
echo 9999-does-not-apply.patch >>"$ST/patches/series"
git clone -q --shared "$LINUX" "$ST/linux"
git -C "$ST/linux" checkout -q --detach "$BASE_TAG"
out=$(BUILD=$ST LINUX=$ST/linux PATCHES=$ST/patches "$TOP/scripts/tree.sh" 2>&1) && rc=0 || rc=$?
echo "$out" | sed 's/^/    /'
[ $rc != 0 ] && echo "$out" | grep -q 'does not apply: .*9999-does-not-apply.patch' &&
	[ "$(git -C "$ST/linux" rev-parse HEAD)" = "$(git -C "$ST/linux" rev-parse "$BASE_TAG")" ]
verdict $? "(c) a patch that does not apply stops the run and names the patch"

# (a) + (b): the real series plus two bad patches.
head -n -1 "$ST/patches/series" >"$ST/patches/series.ok" && mv "$ST/patches/series.ok" "$ST/patches/series"
rm "$ST/patches/9999-does-not-apply.patch"
BUILD=$ST LINUX=$ST/linux PATCHES=$ST/patches "$TOP/scripts/tree.sh" >/dev/null
python3 - "$ST/linux" <<'PY'
import sys
root = sys.argv[1]
p = root + "/init/main.c"
s = open(p).read()
anchor = "\tdo_basic_setup();\n"
assert anchor in s
s = s.replace(anchor, anchor + "\tWARN_ON(1);\t/* harness self-test */\n", 1)
open(p, "w").write(s)
p = root + "/tools/testing/selftests/ftrace/test.d/00basic/basic2.tc"
s = open(p).read()
s += "\n# harness self-test: this test now fails\nexit_fail\n"
open(p, "w").write(s)
PY
git -C "$ST/linux" -c user.name=ftrace-sdo -c user.email=ftrace-sdo@users.noreply.invalid \
	commit -q -a -m "harness self-test: WARN_ON(1) at boot, break basic2.tc"
OBJ=$ST/obj/$ARCH_NAME		# ST/linux + ST/obj: ccache-friendly layout
"$TOP/scripts/build.sh" "$ARCH_NAME" "$ST/linux" "$OBJ" >"$ST/build.log" 2>&1 ||
	die "self-test kernel did not build ($ST/build.log)"
"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$ST/linux" "$OBJ" >/dev/null
out=$(OBJ=$OBJ EXTRA_APPEND="ftsdo.only=ftrace ftsdo.ftrace=00basic/basic1.tc,00basic/basic2.tc" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$ST/run" 1200 2>&1) || true
out="$out
$(SUBSET=1 "$TOP/scripts/results.py" check "$ST/run" "$TOP/tests/baseline/$ARCH_NAME.txt" "$ST/check.tap" 2>&1)" && rc=0 || rc=$?
echo "$out" | grep -E 'error:|not ok|passed,' | sed 's/^/    /'
echo "$out" | grep -q 'kernel splat' && echo "$out" | grep -q '^not ok .* harness/no-kernel-splat'
verdict $? "(a) a WARN_ON(1) at boot fails the check"
echo "$out" | grep -q '^not ok .* ftrace/00basic/basic2.tc # FAIL, base: PASS' &&
	grep -q '^ok .* ftrace/00basic/basic1.tc$' "$ST/check.tap"
verdict $? "(b) a broken ftracetest test fails the check, named"
echo "$ok passed, $bad failed, 0 skipped"
[ $bad = 0 ]
