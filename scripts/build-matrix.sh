#!/bin/bash
# make build-matrix: build (no boot) the series for other architectures and
# configurations: arm64, riscv64, s390x and powerpc64le with Debian's cross
# compilers, i386 with the host gcc, x86_64 without SMP and without
# modules, x86_64 without the function metadata, and x86_64 without the
# function padding (the metadata on its hash).  Each is tinyconfig +
# configs/matrix/common.config (the ftrace options) + smp.config (unless
# the target's fragment turns SMP off) + configs/matrix/TARGET.config, and
# every option those fragments ask for must stick (direct calls where the
# architecture has them).  A target is built for configs/arch/TARGET, or
# for the architecture its fragment names in a line "# arch: NAME".
#
# What is built: the commits of build/linux (HEAD), checked out in a work
# tree of its own (uncommitted changes are not included).
# Prints one line per target, "ok" or "FAIL", and a summary; exits non-zero
# when any target failed.
# Knobs: MATRIX_TARGETS="arm64 i386" (a subset), MATRIX_DIR (default
# build/matrix: the work tree, objects and logs), MATRIX_CONFIG_ONLY=1 (make
# and check the configs, build nothing).
# Usage: build-matrix.sh [REV]   (default: HEAD of build/linux)
set -eu
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" matrix
# Every configs/matrix/TARGET.config but the shared fragments
ALL=$(cd "$TOP/configs/matrix" && ls ./*.config | sed 's|^\./||; s|\.config$||' |
	grep -vx -e common -e smp | xargs)
TARGETS=${MATRIX_TARGETS:-$ALL}
MDIR=${MATRIX_DIR:-$BUILD/matrix}
W=$MDIR/linux
FRAGS=$TOP/configs/matrix
[ -d "$LINUX/.git" ] || die "no scratch tree at $LINUX: run make tree"
rev=$(kgit rev-parse --verify "${1:-HEAD}^{commit}") || die "no commit ${1:-HEAD} in $LINUX"

# The architecture of a target (configs/arch/NAME)
target_arch() {
	local a
	a=$(sed -n 's/^# arch: *\([^ ]*\).*/\1/p' "$FRAGS/$1.config")
	echo "${a:-$1}"
}
for t in $TARGETS; do
	[ -f "$FRAGS/$t.config" ] || die "unknown build-matrix target '$t' (known: $ALL)"
	( arch_load "$(target_arch "$t")"
	  command -v "${CROSS_COMPILE}gcc" >/dev/null ||
		die "no ${CROSS_COMPILE}gcc: run scripts/deps.sh matrix" ) || exit 1
done

if [ ! -f "$W/.git" ] ||
	[ "$(git -C "$W" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$W" && pwd -P)" ]; then
	rm -rf "$W"
	kgit worktree prune
	mkdir -p "$MDIR"
	kgit worktree add -q --detach "$W" "$rev" || die "cannot add the work tree $W"
fi
git -C "$W" checkout -q --detach "$rev" || die "cannot check out $rev in $W"
[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	echo "warning: ${LINUX#$TOP/} has uncommitted changes; building its HEAD without them" >&2
log "build-matrix: Linux $(kversion "$W") + $(series_commits | wc -l) patches" \
	"($(kgit log -1 --format='%h %s' "$rev")), targets: $TARGETS"

nok=0 nfail=0 failed="" t0=$(date +%s)
for t in $TARGETS; do
	arch_load "$(target_arch "$t")"
	obj=$MDIR/obj/$t
	blog=$MDIR/$t.log
	mkdir -p "$obj"
	frags="$FRAGS/common.config"
	grep -q '^# CONFIG_SMP is not set' "$FRAGS/$t.config" || frags="$frags $FRAGS/smp.config"
	frags="$frags $FRAGS/$t.config"
	start=$(date +%s)
	why=""
	{
		rm -f "$obj/.config"
		# shellcheck disable=SC2086
		kmake "$W" "$obj" -s tinyconfig &&
			(cd "$obj" && KCONFIG_CONFIG=.config \
				"$W/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags) &&
			kmake "$W" "$obj" -s olddefconfig
	} >"$blog" 2>&1 || why="config: make tinyconfig/merge_config.sh failed"
	# shellcheck disable=SC2086
	[ -n "$why" ] || config_check "$obj" $frags 2>>"$blog" ||
		why="config: an option of the fragments did not stick"
	if [ -z "$why" ] && [ -z "${MATRIX_CONFIG_ONLY:-}" ]; then
		kmake "$W" "$obj" -s -j"$JOBS" all >>"$blog" 2>&1 || why="build"
		[ -n "$why" ] || [ -f "$obj/$IMAGE" ] || why="build: no $IMAGE"
	fi
	secs=$(( $(date +%s) - start ))
	if [ -z "$why" ]; then
		direct="no direct calls on this arch"
		grep -q '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' "$obj/.config" &&
			direct="direct calls"
		printf 'ok    %-12s %4ds  %s\n' "$t" "$secs" "$direct"
		nok=$((nok + 1))
	else
		printf 'FAIL  %-12s %4ds  %s (log: %s)\n' "$t" "$secs" "$why" "${blog#$TOP/}"
		grep -E '^config:|error|Error' "$blog" | head -n 10 | sed 's/^/    /'
		nfail=$((nfail + 1)) failed="$failed $t"
	fi
done
log "build-matrix: $nok ok, $nfail failed${failed:+ ($failed )} in $(( $(date +%s) - t0 ))s"
[ $nfail = 0 ]
