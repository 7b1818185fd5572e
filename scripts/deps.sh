#!/bin/bash
# Install everything the harness needs from Debian packages.
# The cross compilers are for make build-matrix (arm64 is also booted);
# clang-16 builds the kCFI kernel of make check-cfi.
# Idempotent: when every package is present it returns in well under a second.
set -eu

PKGS="linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev cpio
dwarves qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu busybox-static
trace-cmd ccache xz-utils kmod rsync python3 python3-ply python3-git git bash
devscripts dash util-linux clang llvm bpftool libbpf-dev zlib1g-dev
gcc-riscv64-linux-gnu gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu sparse
clang-16 lld-16 llvm-16"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

if [ -z "$missing" ]; then
	exit 0
fi

echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
