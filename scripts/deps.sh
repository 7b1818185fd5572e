#!/bin/bash
# Install everything the harness needs from Debian packages.
# The cross compilers are for make build-matrix (arm64 is also booted);
# clang-16 builds the kCFI kernel of make check-cfi.
# Idempotent: when every package is present it returns in well under a second.
set -eu
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev cpio
dwarves qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu busybox-static
trace-cmd bpftrace ccache xz-utils kmod rsync python3 python3-ply python3-git git bash
devscripts dash util-linux clang llvm bpftool libbpf-dev zlib1g-dev
gcc-riscv64-linux-gnu gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu sparse
clang-16 lld-16 llvm-16"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Debian arm64 packages unpacked into DIR, not installed: installing
# them next to the host's amd64 ones would upgrade host packages (the
# multiarch copies must have the same version).
# Usage: unpack_arm64 DIR PACKAGE...
add_arm64() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64
		$SUDO apt-get update -qq
	fi
}
unpack_arm64() {
	local dir=$1 dl
	shift
	echo "deps: fetching $* (arm64) into ${dir#$TOP/}"
	add_arm64
	dl=$(mktemp -d)
	chmod 777 "$dl"	# apt-get download drops to the _apt user
	(cd "$dl" && apt-get download -qq "${@/%/:arm64}" 2>/dev/null) ||
		{ $SUDO apt-get update -qq && (cd "$dl" && apt-get download -qq "${@/%/:arm64}"); } ||
		die "could not download $* for arm64"
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$dir.new"
	done
	rm -rf "$dl" "$dir"
	mv "$dir.new" "$dir"
}

# The arm64 guest's busybox.
[ -x "$BUILD/busybox-arm64/bin/busybox" ] ||
	unpack_arm64 "$BUILD/busybox-arm64" busybox-static
[ -x "$BUILD/busybox-arm64/bin/busybox" ] || die "no bin/busybox in busybox-static:arm64"
# A sysroot to link tests/bpf statically for arm64.
SR=$BUILD/arm64-sysroot
[ -f "$SR/usr/lib/aarch64-linux-gnu/libbpf.a" ] ||
	unpack_arm64 "$SR" libc6-dev linux-libc-dev libbpf-dev libelf-dev zlib1g-dev
[ -f "$SR/usr/lib/aarch64-linux-gnu/libbpf.a" ] || die "no libbpf.a in $SR"
# Debian's bpftrace and bpftool for the arm64 guest (rootfs.sh's
# tools.cpio.gz), with every package they depend on.
if [ ! -x "$BUILD/arm64-tools/usr/bin/bpftrace" ]; then
	add_arm64
	# shellcheck disable=SC2046
	unpack_arm64 "$BUILD/arm64-tools" $(apt-cache depends --recurse --no-recommends \
		--no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
		bpftrace:arm64 bpftool:arm64 | sed -n 's/^\([a-z0-9][^ ]*\):arm64$/\1/p' | sort -u)
fi
[ -x "$BUILD/arm64-tools/usr/bin/bpftrace" ] || die "no usr/bin/bpftrace in bpftrace:arm64"
