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

# The guest packages of every booted architecture that is not the host's
# (DEB_ARCH in configs/arch/ARCH) are Debian packages unpacked into
# build/, not installed: installing them next to the host's amd64 ones
# would upgrade host packages (the multiarch copies must have the same
# version).
add_foreign() {
	if ! dpkg --print-foreign-architectures | grep -qx "$1"; then
		$SUDO dpkg --add-architecture "$1"
		$SUDO apt-get update -qq
	fi
}
# Usage: unpack DEB_ARCH DIR PACKAGE...
unpack() {
	local da=$1 dir=$2 dl
	shift 2
	echo "deps: fetching $* ($da) into ${dir#$TOP/}"
	add_foreign "$da"
	dl=$(mktemp -d)
	chmod 777 "$dl"	# apt-get download drops to the _apt user
	(cd "$dl" && apt-get download -qq "${@/%/:$da}" 2>/dev/null) ||
		{ $SUDO apt-get update -qq && (cd "$dl" && apt-get download -qq "${@/%/:$da}"); } ||
		die "could not download $* for $da"
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$dir.new"
	done
	rm -rf "$dl" "$dir"
	mv "$dir.new" "$dir"
}

for f in "$TOP"/configs/arch/*; do
	[ "$(basename "$f")" != README ] || continue
	arch_load "$(basename "$f")"
	[ -n "$DEB_ARCH" ] || continue
	# The guest's busybox (BUSYBOX: build/busybox-DEB_ARCH/bin/busybox)
	[ -x "$BUSYBOX" ] || unpack "$DEB_ARCH" "${BUSYBOX%/bin/busybox}" busybox-static
	[ -x "$BUSYBOX" ] || die "no bin/busybox in busybox-static:$DEB_ARCH"
	# A sysroot to link tests/bpf statically
	SR=$BUILD/$DEB_ARCH-sysroot
	[ -f "$SR/usr/lib/$MULTIARCH/libbpf.a" ] ||
		unpack "$DEB_ARCH" "$SR" libc6-dev linux-libc-dev libbpf-dev libelf-dev zlib1g-dev
	[ -f "$SR/usr/lib/$MULTIARCH/libbpf.a" ] || die "no libbpf.a in $SR"
	# Debian's bpftrace and bpftool for the guest (TOOLS_ROOT, rootfs.sh's
	# tools.cpio.gz), with every package they depend on.
	if [ ! -x "$TOOLS_ROOT/usr/bin/bpftrace" ]; then
		add_foreign "$DEB_ARCH"
		# shellcheck disable=SC2046
		unpack "$DEB_ARCH" "$TOOLS_ROOT" $(apt-cache depends --recurse --no-recommends \
			--no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
			"bpftrace:$DEB_ARCH" "bpftool:$DEB_ARCH" |
			sed -n "s/^\([a-z0-9][^ ]*\):$DEB_ARCH\$/\1/p" | sort -u)
	fi
	[ -x "$TOOLS_ROOT/usr/bin/bpftrace" ] || die "no usr/bin/bpftrace in bpftrace:$DEB_ARCH"
done
