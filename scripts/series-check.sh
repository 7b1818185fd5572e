#!/bin/bash
# Bisectability and style of the series:
#   - patches/ reproduces the scratch tree (verify.sh);
#   - every prefix of the series builds (kernel and modules) for ARCH;
#   - scripts/checkpatch.pl --strict on every patch;
#   - checkbashisms on the ftracetest files the series adds or changes.
# A prefix that does not build is a "build FAIL" (exit 1).  A fault of the
# harness itself (no work tree, a config that cannot be made) stops the run
# at once as a "harness error" (exit 2): it says nothing about the patches.
#
# Knobs: SERIES_CHECK_ONLY="1 2 10" builds only these prefixes (1 = the first
# patch); SERIES_DIR (default build/series) holds the work tree and objects.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
SDIR=${SERIES_DIR:-$BUILD/series}
W=$SDIR/linux			# same relative layout as linux + obj/ARCH,
OBJ=$SDIR/obj/$ARCH_NAME	# for ccache

harness_error() {
	echo "series-check: harness error: $*" >&2
	echo "series-check: this is a fault of the harness, not of a patch" >&2
	exit 2
}
trap 'harness_error "line $LINENO: \"$BASH_COMMAND\" failed"' ERR
"$TOP/scripts/deps.sh" series-check

if ! "$TOP/scripts/verify.sh"; then
	echo "series-check: patches/ does not reproduce ${LINUX#$TOP/} (see above)" >&2
	exit 1
fi
[ -x "$LINUX/scripts/checkpatch.pl" ] || harness_error "no scripts/checkpatch.pl in $LINUX"

# The work tree: (re)made when missing or not a work tree of $LINUX.
if [ ! -f "$W/.git" ] ||
	[ "$(git -C "$W" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$W" && pwd -P)" ]; then
	rm -rf "$W"
	kgit worktree prune
	mkdir -p "$SDIR"
	kgit worktree add -q --detach "$W" "$BASE_TAG" ||
		harness_error "cannot add the work tree $W"
fi
mkdir -p "$OBJ" || harness_error "cannot create $OBJ"

# Cover commits change nothing: the prefixes are the patches.
commits=$(series_commits)
total=$(echo "$commits" | grep -c . || true)
[ "$total" -gt 0 ] || harness_error "no commits on '$BASE_TAG' in $LINUX"
fail=0 i=0 built=""
for c in $commits; do
	i=$((i + 1))
	case " ${SERIES_CHECK_ONLY:-$i} " in *" $i "*) ;; *) continue ;; esac
	subj=$(kgit log -1 --format=%s "$c")
	git -C "$W" checkout -q --detach "$c" || harness_error "cannot check out $c in $W"
	# Every prefix but the whole series leaves out the series' options
	# its Kconfig does not define yet (config.sh).
	SERIES_PREFIX=""
	[ "$i" -lt "$total" ] && SERIES_PREFIX=1
	export SERIES_PREFIX
	rm -f "$OBJ/.config"
	plog=$SDIR/$ARCH_NAME-prefix-$i.log
	if ! "$TOP/scripts/config.sh" "$ARCH_NAME" "$W" "$OBJ" >"$plog" 2>&1; then
		sed 's/^/    /' "$plog" >&2
		harness_error "cannot make the config of prefix $i/$total ($subj)"
	fi
	start=$(date +%s)
	if "$TOP/scripts/build.sh" "$ARCH_NAME" "$W" "$OBJ" >>"$plog" 2>&1; then
		echo "build ok:   $i/$total $subj ($(( $(date +%s) - start ))s)"
		built="$built $i"
	else
		echo "build FAIL: $i/$total $subj (log: ${plog#$TOP/}, ${OBJ#$TOP/}/build.log)"
		grep -E 'error|Error' "$OBJ/build.log" "$plog" 2>/dev/null | head -n 10 | sed 's/^/    /'
		fail=1
	fi
done
unset SERIES_PREFIX
[ -n "$built$([ $fail = 0 ] || echo x)" ] ||
	harness_error "SERIES_CHECK_ONLY='${SERIES_CHECK_ONLY:-}' selects none of the $total prefixes"

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
# checkbashisms on the ftracetest files the series adds or changes: the
# guest's selftest/bashisms.tc cannot catch a new bashism, because it fails
# on the base already (see tests/baseline/x86_64-known.txt).
command -v checkbashisms >/dev/null || harness_error "no checkbashisms: run scripts/deps.sh"
for f in $(kgit diff --name-only --diff-filter=AM "$BASE_TAG" HEAD -- tools/testing/selftests/ftrace |
	grep -E '\.tc$|/ftracetest$|/test\.d/functions$' || true); do
	if out=$(checkbashisms "$LINUX/$f" 2>&1); then
		echo "checkbashisms clean: $f"
	else
		echo "checkbashisms: $f"
		echo "$out" | sed 's/^/    /'
		fail=1
	fi
done
if [ $fail = 0 ]; then
	if [ -n "${SERIES_CHECK_ONLY:-}" ]; then
		log "series-check: prefixes$built of $total build (SERIES_CHECK_ONLY), checkpatch --strict and checkbashisms are clean"
	else
		log "series-check: every prefix ($total) builds, checkpatch --strict and checkbashisms are clean"
	fi
fi
exit $fail
