# Common settings for the harness scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX=${LINUX:-$BUILD/linux}
BASE_TAR=${BASE_TAR:-/usr/src/linux-source-6.12.tar.xz}
BASE_TAG=base
JOBS=${JOBS:-$(nproc)}

die() { echo "error: $*" >&2; exit 1; }
log() { echo "== $*"; }

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
