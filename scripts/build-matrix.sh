#!/bin/bash
# make build-matrix: build (no boot) the series for other architectures and
# configurations: arm64, riscv64, s390x and powerpc64le with Debian's cross
# compilers, i386 with the host gcc, x86_64 without SMP and without
# modules, x86_64 without the function metadata, and x86_64 without the
# function padding (the metadata on its hash).  Each is tinyconfig +
# configs/matrix/common.config (the ftrace
# options) + smp.config (all but x86_64-up) + configs/matrix/TARGET.config,
# and every option those fragments ask for must stick (direct calls where
# the architecture has them).
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
ALL="arm64 riscv64 s390x powerpc64le i386 x86_64-up x86_64-nomd x86_64-nopad"
TARGETS=${MATRIX_TARGETS:-$ALL}
MDIR=${MATRIX_DIR:-$BUILD/matrix}
W=$MDIR/linux
FRAGS=$TOP/configs/matrix
[ -d "$LINUX/.git" ] || die "no scratch tree at $LINUX: run make tree"
rev=$(kgit rev-parse --verify "${1:-HEAD}^{commit}") || die "no commit ${1:-HEAD} in $LINUX"

# KARCH CROSS_COMPILE IMAGE for a target.
target() {
	case $1 in
	arm64) echo "arm64 aarch64-linux-gnu- arch/arm64/boot/Image" ;;
	riscv64) echo "riscv riscv64-linux-gnu- arch/riscv/boot/Image" ;;
	s390x) echo "s390 s390x-linux-gnu- arch/s390/boot/bzImage" ;;
	powerpc64le) echo "powerpc powerpc64le-linux-gnu- vmlinux" ;;
	i386) echo "i386 - arch/x86/boot/bzImage" ;;
	x86_64-up | x86_64-nomd | x86_64-nopad) echo "x86_64 - arch/x86/boot/bzImage" ;;
	*) return 1 ;;
	esac
}
for t in $TARGETS; do
	target "$t" >/dev/null || die "unknown build-matrix target '$t' (known: $ALL)"
	[ -f "$FRAGS/$t.config" ] || die "no config fragment $FRAGS/$t.config"
	set -- $(target "$t")
	[ "$2" = - ] || command -v "${2}gcc" >/dev/null ||
		die "no ${2}gcc: run scripts/deps.sh"
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

export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" KBUILD_BUILD_USER=ftrace-sdo KBUILD_BUILD_HOST=qemu
ccache=""
command -v ccache >/dev/null && ccache="ccache "
nok=0 nfail=0 failed="" t0=$(date +%s)
for t in $TARGETS; do
	set -- $(target "$t")
	karch=$1 cross=$2 image=$3
	[ "$cross" = - ] && cross=""
	obj=$MDIR/obj/$t
	blog=$MDIR/$t.log
	mkdir -p "$obj"
	frags="$FRAGS/common.config"
	[ "$t" = x86_64-up ] || frags="$frags $FRAGS/smp.config"
	frags="$frags $FRAGS/$t.config"
	kmake() {
		make -C "$W" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" \
			CC="$ccache${cross}gcc" "$@"
	}
	start=$(date +%s)
	why=""
	{
		rm -f "$obj/.config"
		# shellcheck disable=SC2086
		kmake -s tinyconfig &&
			(cd "$obj" && KCONFIG_CONFIG=.config \
				"$W/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags) &&
			kmake -s olddefconfig
	} >"$blog" 2>&1 || why="config: make tinyconfig/merge_config.sh failed"
	# shellcheck disable=SC2086
	[ -n "$why" ] || config_check "$obj" $frags 2>>"$blog" ||
		why="config: an option of the fragments did not stick"
	if [ -z "$why" ] && [ -z "${MATRIX_CONFIG_ONLY:-}" ]; then
		kmake -s -j"$JOBS" all >>"$blog" 2>&1 || why="build"
		[ -n "$why" ] || [ -f "$obj/$image" ] || why="build: no $image"
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
