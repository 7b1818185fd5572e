# Common settings for the harness scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX=${LINUX:-$BUILD/linux}
BASE_TAR=${BASE_TAR:-/usr/src/linux-source-6.12.tar.xz}
BASE_TAG=base
JOBS=${JOBS:-$(nproc)}

# ccache for every kernel build of the harness.  Paths under TOP are
# hashed relative to it, so a fresh clone elsewhere, the base work tree
# (build/base/linux) and the series work trees hit the same entries.  With
# debug info (DEBUG_INFO_BTF) ccache would also hash the working directory,
# the object directory, which differs between those trees: NOHASHDIR turns
# that off (DW_AT_comp_dir of a cached object may then name another tree;
# nothing here reads it).
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$TOP
export CCACHE_NOHASHDIR=1

# FTSDO_LLVM=-16 builds the kernel with Debian's clang-16 and LLVM tools
# (make check-cfi); unset, with gcc.  KCC is the compiler, LLVM_VARS goes
# on every kernel make command line, so that no later make reconfigures
# the tree for another compiler.
if [ -n "${FTSDO_LLVM:-}" ]; then
	KCC=clang$FTSDO_LLVM
	LLVM_VARS="LLVM=$FTSDO_LLVM"
else
	KCC=gcc
	LLVM_VARS=""
fi

die() { echo "error: $*" >&2; exit 1; }

# What of the guest test suite runs on ARCH, as kernel command line knobs
# for guest/check.sh.  x86_64 runs all of it.  arm64 runs the direct-call
# ftracetest tests and the project tests: its TCG is slower, and tests
# that trace every function (with code patching that flushes TCG's
# translations) take minutes each; arm64 6.12 has no livepatch.
suite_append() {
	case $1 in
	arm64) echo "ftsdo.ftrace=direct/" ;;
	esac
}

# A kernel variant of the scratch tree with one more config fragment
# (check-lockdep, check-cfi): built with its rootfs into
# build/obj/ARCH-NAME.  Sets OBJ, OUT (its results directory) and
# DIRECT_TESTS (the direct-call ftracetest tests, comma-separated).
build_variant() {
	local arch=$1 name=$2 fragment=$3
	OBJ=$BUILD/obj/$arch-$name
	OUT=$BUILD/results/$arch-$name
	EXTRA_CONFIG=$fragment "$TOP/scripts/build.sh" "$arch" "$LINUX" "$OBJ"
	"$TOP/scripts/rootfs.sh" "$arch" "$LINUX" "$OBJ"
	DIRECT_TESTS=$(cd "$LINUX/tools/testing/selftests/ftrace/test.d" &&
		ls direct/*.tc | paste -sd, -)
}
log() { echo "== $*"; }

# install_libs ROOT BINARY [HAVE]: the shared libraries BINARY loads (ldd),
# under ROOT; with HAVE, not those already under HAVE (an archive that goes
# before ROOT's in the initramfs).
install_libs() {
	local lib
	for lib in $(ldd "$2" | grep -o '/[^ ]*'); do
		[ -e "$1$lib" ] || [ -e "${3:-$1}$lib" ] || install -D -m 755 "$lib" "$1$lib"
	done
}

# install_sysroot_libs ROOT SYSROOT BINARY [HAVE]: the same for a binary of
# another architecture unpacked into SYSROOT (Debian arm64 packages): the
# libraries it needs (DT_NEEDED, recursively) from SYSROOT's library
# directories, under ROOT; with HAVE, not those already under HAVE.
install_sysroot_libs() {
	local lib d
	for lib in $(readelf -d "$3" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
			[ -e "$2/$d/$lib" ] || continue
			if [ ! -e "$1/$d/$lib" ] && [ ! -e "${4:-$1}/$d/$lib" ]; then
				install -D -m 755 "$(readlink -f "$2/$d/$lib")" "$1/$d/$lib"
				install_sysroot_libs "$1" "$2" "$2/$d/$lib" "${4:-$1}"
			fi
			break
		done
	done
}

# The kernel version of a source tree, e.g. 6.12.117.
kversion() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# git in the scratch tree, with the project's identity and no user config.
kgit() {
	git -C "$LINUX" -c user.name=ftrace-sdo \
		-c user.email=ftrace-sdo@users.noreply.invalid \
		-c commit.gpgsign=false -c core.autocrlf=false "$@"
}

# The unpatched base, checked out from tag "base" of the scratch tree into
# build/base/linux: the same relative paths as linux + obj/ARCH, so ccache
# serves the files the series does not touch.
BASE_SRC=$BUILD/base/linux
base_worktree() {
	if [ ! -d "$BASE_SRC" ]; then
		kgit worktree prune
		mkdir -p "$(dirname "$BASE_SRC")"
		kgit worktree add -q --detach "$BASE_SRC" "$BASE_TAG"
	fi
}

PATCHES=${PATCHES:-$TOP/patches}
SERIES=$PATCHES/series
STAMP=$BUILD/.series-stamp

# The patch files named in the series, in order.
series_files() {
	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SERIES"
}

# A hash of the series and its patches: what the scratch tree was made from.
series_hash() {
	{
		cat "$SERIES" 2>/dev/null || true
		series_files | while read -r p; do cat "$PATCHES/$p"; done
	} | sha256sum | cut -d' ' -f1
}

# Whether the Kconfig files of source tree SRC define symbol SYM (no CONFIG_).
kconfig_has() {
	grep -rqE --include='Kconfig*' \
		"^[[:space:]]*(menu)?config[[:space:]]+$2[[:space:]]*\$" "$1"
}

# Check that every option the fragments ask for is what OBJ/.config has;
# print each one that did not stick on stderr and return 1 if any.
config_check() {
	local obj=$1 f line opt have bad=0
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*) ;;
			"# CONFIG_"*" is not set") ;;
			*) continue ;;
			esac
			if [ "${line#\# }" != "$line" ]; then
				opt=${line#\# }; opt=${opt%% *}
				if grep -q "^$opt=" "$obj/.config"; then
					echo "config: $opt is set but $(basename "$f") asks it off" >&2
					bad=1
				fi
			elif ! grep -qxF "$line" "$obj/.config"; then
				opt=${line%%=*}
				have=$(grep -E "^($opt=|# $opt is not set)" "$obj/.config" || echo "$opt missing")
				echo "config: $(basename "$f") asks $line, got: $have" >&2
				bad=1
			fi
		done <"$f"
	done
	return $bad
}
