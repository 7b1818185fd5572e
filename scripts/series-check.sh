#!/bin/bash
# Bisectability and style of the series:
#   - patches/ reproduces the scratch tree (verify.sh);
#   - every prefix of the series builds (kernel and modules) for ARCH;
#   - scripts/checkpatch.pl --strict on every patch.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
W=$BUILD/series/linux		# same relative layout as linux + obj/ARCH,
OBJ=$BUILD/series/obj/$ARCH_NAME	# for ccache

"$TOP/scripts/verify.sh"
if [ ! -d "$W" ]; then
	kgit worktree prune
	mkdir -p "$(dirname "$W")"
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

# checkpatch --strict: every finding must be on tests/checkpatch-accepted.txt
# (each one justified in its patch's commit message).
ACCEPTED=$TOP/tests/checkpatch-accepted.txt
for p in $(series_files); do
	# From the kernel tree: run where git tracks the .patch files,
	# checkpatch takes them for source files (git_is_single_file()).
	out=$(cd "$LINUX" && scripts/checkpatch.pl --strict --terse --no-summary \
		"$PATCHES/$p" 2>&1 || true)
	new=$(echo "$out" | grep -E 'ERROR|WARNING|CHECK' | sed 's/^[^ ]*: \([A-Z]*: \)/\1/' |
		while IFS= read -r msg; do
			grep -qxF "$p $msg" "$ACCEPTED" 2>/dev/null || echo "$msg"
		done)
	if [ -n "$new" ]; then
		echo "checkpatch: $p"
		echo "$new" | sed 's/^/    /'
		fail=1
	elif [ -n "$out" ]; then
		echo "checkpatch: $p: only accepted findings ($(echo "$out" | grep -c -E 'ERROR|WARNING|CHECK'))"
	else
		echo "checkpatch clean: $p"
	fi
done
[ $fail = 0 ] && log "series-check: every prefix builds, checkpatch --strict is clean"
exit $fail
