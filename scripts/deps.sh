#!/bin/bash
# Install from Debian packages what the harness needs, by target.
# No argument: what make and make check need (the Makefile runs it before
# every target).  Each GROUP adds what one more target needs; its script
# asks for it when it starts (build-matrix.sh: matrix, series-check.sh:
# series-check, check-cfi.sh: cfi, check-bpf.sh: bpf).
# Idempotent: when every package is present it returns in well under a second.
# Usage: deps.sh [GROUP...]
set -eu
. "$(dirname "$0")/lib.sh"

# The packages of GROUP, and why.
pkgs() {
	case $1 in
	default)
		# The base tree (tree.sh): Debian's tarball, unpacked with xz
		# (which also packs the bzImage: KERNEL_XZ) into a git tree
		echo linux-source-6.12 xz-utils git
		# Kernel builds: bc, flex, bison; libelf for objtool and
		# resolve_btfids; pahole (dwarves) for the BTF; ccache (lib.sh
		# kmake); kmod's depmod for modules_install.  arm64 is built
		# and booted too.
		echo gcc make bc flex bison libelf-dev dwarves ccache kmod
		echo gcc-aarch64-linux-gnu
		# The initramfs (rootfs.sh) and the boots (qemu-run.sh)
		echo cpio busybox-static qemu-system-x86 qemu-system-arm
		# Copied from the host into the x86_64 guest (rootfs.sh,
		# HOST_TOOLS): bash, dash as /bin/sh, chrt, sysctl, trace-cmd,
		# checkbashisms for selftest/bashisms.tc; bpftrace and bpftool
		# into tools.cpio.gz
		echo bash dash util-linux procps trace-cmd devscripts bpftrace bpftool
		# tests/bpf: clang -target bpf, llvm-objdump for its check;
		# bpftool makes vmlinux.h and the skeletons; static libbpf,
		# libelf and zlib
		echo clang llvm libbpf-dev zlib1g-dev
		# results.py, cover.py, splat-expected.py; shellcheck.sh (make
		# harness-unit)
		echo python3 shellcheck
		;;
	matrix)
		# make build-matrix: the cross compilers of configs/arch (arm64's
		# is in default; i386 uses the host's gcc); sparse for make C=1
		# on the files the series touches
		echo gcc-riscv64-linux-gnu gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu sparse
		;;
	series-check)
		# checkbashisms (devscripts); checkpatch.pl's modules beyond
		# perl-base (perl) and its SPDX check, scripts/spdxcheck.py
		# (ply, git); sparse as in matrix
		echo devscripts perl python3-ply python3-git sparse
		;;
	cfi)
		# make check-cfi: the kernel built with LLVM=-16 (clang-16,
		# ld.lld-16, llvm-ar-16, llvm-objcopy-16, ...)
		echo clang-16 lld-16 llvm-16
		;;
	bpf)
		# make check-bpf and baseline-bpf: test_progs' BPF objects
		# (clang-16, llc-16, llvm-strip-16, llvm-config-16); rsync for
		# check-bpf.sh's copy of tools/ and the selftests' Makefile;
		# libssl-dev for sign-file (the kernel's, MODULE_SIG=y in the
		# selftests' config, and the selftests' own)
		echo clang-16 llvm-16 rsync libssl-dev
		;;
	*) return 1 ;;
	esac
}

groups=(default)
for g in "$@"; do
	pkgs "$g" >/dev/null ||
		die "unknown package group '$g' (usage: deps.sh [matrix|series-check|cfi|bpf]...)"
	groups+=("$g")
done
# One dpkg-query for every package: those installed.
# shellcheck disable=SC2046
have=" $(dpkg-query -W -f='${db:Status-Status} ${Package}\n' \
	$(for g in "${groups[@]}"; do pkgs "$g"; done) 2>/dev/null |
	sed -n 's/^installed //p' | xargs) "
# Per group the packages still missing, each once; one line per group.
missing=""
for g in "${groups[@]}"; do
	m=""
	for p in $(pkgs "$g"); do
		case "$have$missing$m " in *" $p "*) continue ;; esac
		m="$m $p"
	done
	[ -z "$m" ] || echo "deps: installing for $g:$m"
	missing="$missing$m"
done

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
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
