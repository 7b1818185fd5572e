#!/bin/bash
# Bisectability and style of the series:
#   - patches/ reproduces the scratch tree (verify.sh);
#   - every prefix of the series builds (kernel and modules) for ARCH;
#   - scripts/checkpatch.pl --strict on every patch.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
W=$BUILD/series-check
OBJ=$BUILD/obj/$ARCH_NAME-series

"$TOP/scripts/verify.sh"
if [ ! -d "$W" ]; then
	kgit worktree prune
	kgit worktree add -q --detach "$W" "$BASE_TAG"
fi
fail=0
for c in $(kgit rev-list --reverse "$BASE_TAG..HEAD"); do
	subj=$(kgit log -1 --format=%s "$c")
	git -C "$W" checkout -q --detach "$c"
	if "$TOP/scripts/build.sh" "$ARCH_NAME" "$W" "$OBJ" >"$OBJ.log" 2>&1; then
		echo "build ok:   $subj"
	else
		echo "build FAIL: $subj (log: ${OBJ#$TOP/}.log)"
		grep -E 'error|Error' "$OBJ.log" | head -n 10 | sed 's/^/    /'
		fail=1
	fi
done

for p in $(series_files); do
	out=$("$LINUX/scripts/checkpatch.pl" --strict --terse --no-summary \
		"$PATCHES/$p" 2>&1 || true)
	if [ -n "$out" ]; then
		echo "checkpatch: $p"
		echo "$out" | sed 's/^/    /'
		echo "$out" | grep -q -E 'ERROR|WARNING' && fail=1
	else
		echo "checkpatch clean: $p"
	fi
done
[ $fail = 0 ] && log "series-check: every prefix builds, checkpatch --strict is clean"
exit $fail
