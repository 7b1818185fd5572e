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

# arch_load ARCH: the variables of configs/arch/ARCH (see its README),
# the only place architectures differ; sets ARCH_NAME.  Paths in it that
# do not start with / are relative to the repository.
# The variables are for the scripts that source this file.
# shellcheck disable=SC2034
arch_load() {
	local f=$TOP/configs/arch/$1
	[ -f "$f" ] || die "unknown architecture '$1' (no configs/arch/$1)"
	KARCH="" CROSS_COMPILE="" IMAGE="" QEMU="" MACHINE="" CPU="" CONSOLE=""
	ACCEL=tcg BUSYBOX="" HOST_TOOLS=no TOOLS_ROOT="" MULTIARCH="" DEB_ARCH=""
	BENCH_PARTS="" SMP=2 TCG_THREAD=single TEST_SCALE=1
	# shellcheck disable=SC1090
	. "$f"
	ARCH_NAME=$1
	case $BUSYBOX in /* | "") ;; *) BUSYBOX=$TOP/$BUSYBOX ;; esac
	case $TOOLS_ROOT in /* | "") ;; *) TOOLS_ROOT=$TOP/$TOOLS_ROOT ;; esac
}

# kmake SRC OBJ ARGS...: make in the kernel tree SRC, objects in OBJ, for
# the loaded architecture: every kernel build of the harness goes through
# here (ccache, cross compiler, LLVM=, reproducible build stamps).
# With LLVM (FTSDO_LLVM), clang takes its target from CROSS_COMPILE.
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=ftrace-sdo KBUILD_BUILD_HOST=qemu
kmake() {
	local src=$1 obj=$2 cc=$KCC
	shift 2
	[ -n "$LLVM_VARS" ] || cc=$CROSS_COMPILE$KCC
	command -v ccache >/dev/null && cc="ccache $cc"
	# shellcheck disable=SC2086
	make -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		CC="$cc" $LLVM_VARS "$@"
}

# kernel_fragments NAME: the config fragments of kernel NAME, its
# "%kernel NAME FRAGMENT..." line of configs/suites
kernel_fragments() {
	"$TOP/scripts/suites.py" kernel "$1"
}

# build_variant ARCH NAME: the kernel NAME of configs/suites, the scratch
# tree with its fragments (check-lockdep, check-cfi, check-debug), with
# its rootfs, in build/obj/ARCH-NAME.
build_variant() {
	local frags
	frags=$(kernel_fragments "$2") || die "configs/suites: no kernel $2"
	EXTRA_CONFIG=$frags "$TOP/scripts/build.sh" "$1" "$LINUX" "$BUILD/obj/$1-$2"
	"$TOP/scripts/rootfs.sh" "$1" "$LINUX" "$BUILD/obj/$1-$2"
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
		for d in lib/$MULTIARCH usr/lib/$MULTIARCH; do
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
# Read by tree.sh and export.sh
# shellcheck disable=SC2034
STAMP=$BUILD/.series-stamp

# patches/ holds one directory per series, applied in name order:
# patches/NN-name/ with its cover letter (0000-cover-letter.patch), its
# patches and a file "series" naming them in order.  In the scratch tree
# each series starts with a cover commit: an empty commit whose message is
# the cover letter, with the trailer "Series: NN-name" (scripts/cover.py).

# The series directories, in order.
series_dirs() {
	local d
	for d in "$PATCHES"/[0-9][0-9]-*/; do
		[ -f "$d/series" ] && basename "$d"
	done
	return 0
}

# The patch files of one series directory, in order.
series_dir_files() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/$1/series"
}

# The patch files of all series, in order, as NN-name/NNNN-subject.patch.
series_files() {
	local d p
	for d in $(series_dirs); do
		for p in $(series_dir_files "$d"); do
			echo "$d/$p"
		done
	done
}

# A hash of the series: what the scratch tree was made from.
series_hash() {
	local d
	for d in $(series_dirs); do
		echo "$d"
		cat "$PATCHES/$d/series" "$PATCHES/$d"/*.patch
	done | sha256sum | cut -d' ' -f1
}

# apply_series_to GITDIR: apply every series (cover commit, then git am of
# its patches) on GITDIR's HEAD; a patch's notes (below its "---") become
# the git note of its commit, in GIT_NOTES_REF when set.  On a patch that
# does not apply, print it with git's message and return 1, the am aborted.
apply_series_to() {
	local dir=$1 d p msg note
	msg=$(mktemp)
	for d in $(series_dirs); do
		if ! "$TOP/scripts/cover.py" message "$PATCHES/$d" >"$msg"; then
			rm -f "$msg"
			echo "error: ${PATCHES#"$TOP"/}/$d has no usable cover letter" >&2
			return 1
		fi
		GIT_AUTHOR_DATE=$("$TOP/scripts/cover.py" date "$PATCHES/$d") \
			LINUX=$dir kgit commit -q --allow-empty --no-verify -F "$msg"
		for p in $(series_dir_files "$d"); do
			if [ ! -f "$PATCHES/$d/$p" ]; then
				echo "error: ${PATCHES#"$TOP"/}/$d/series names $p, which does not exist" >&2
				rm -f "$msg"
				return 1
			fi
			if ! LINUX=$dir kgit am -q --keep-cr "$PATCHES/$d/$p" >"$msg" 2>&1; then
				LINUX=$dir kgit am --abort >/dev/null 2>&1 || true
				echo "error: patch does not apply: ${PATCHES#"$TOP"/}/$d/$p" >&2
				sed 's/^/    /' "$msg" >&2
				rm -f "$msg"
				return 1
			fi
			note=$("$TOP/scripts/patch-notes.py" "$PATCHES/$d/$p")
			[ -z "$note" ] ||
				LINUX=$dir kgit notes add -f -m "$note" HEAD
		done
	done
	rm -f "$msg"
}

# Whether commit C of the scratch tree is a cover commit; prints its series.
is_cover_commit() {
	local msg rc=0
	[ "$(kgit rev-parse "$1^{tree}")" = "$(kgit rev-parse "$1^^{tree}")" ] || return 1
	msg=$(mktemp)
	kgit log -1 --format=%B "$1" >"$msg"
	"$TOP/scripts/cover.py" is-cover "$msg" || rc=1
	rm -f "$msg"
	return $rc
}

# The commits of the series that change the tree (cover commits left out).
series_commits() {
	local c
	for c in $(kgit rev-list --reverse "$BASE_TAG..HEAD"); do
		is_cover_commit "$c" >/dev/null || echo "$c"
	done
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

# timing_add FILE KIND NAME START SECONDS STATUS [RETRIES FACTOR BEGIN CPU]:
# one line of the timing table (scripts/timing.sh prints it), tab-separated;
# one short append, so concurrent boots do not mix their lines.
timing_add() {
	local f=$1
	shift
	[ -f "$f" ] || printf '#kind\tname\tstart\tseconds\tstatus\tretries\tfactor\tbegin\tcpu\n' >"$f"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" \
		"${6:-0}" "${7:--}" "${8:--}" "${9:--}" >>"$f"
}

# timed FILE KIND NAME CMD...: run CMD, add its line to the timing table;
# CMD's exit status.
timed() {
	local f=$1 kind=$2 name=$3 start rc=0
	shift 3
	start=$(date +%s)
	"$@" || rc=$?
	timing_add "$f" "$kind" "$name" "$start" $(($(date +%s) - start)) \
		"$([ $rc = 0 ] && echo ok || echo "fail($rc)")"
	return $rc
}
