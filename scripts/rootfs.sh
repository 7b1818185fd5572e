#!/bin/bash
# Build the initramfs for ARCH: busybox, the kernel's modules and the
# harness's test module (tests/ftsdo-test), the ftrace and livepatch
# selftests of the tree that was built, trace-cmd and a few GNU tools the
# selftests rely on (x86_64 only: they are copied from the host), and the
# project's guest scripts and tests.  Also tools.cpio.gz: bpftrace
# and bpftool (see the end).  What differs between architectures comes
# from configs/arch/ARCH.
# Usage: rootfs.sh ARCH [SRC] [OBJ]
set -eu
. "$(dirname "$0")/lib.sh"

arch_load "${1:-x86_64}"
SRC=${2:-$LINUX}
OBJ=${3:-$BUILD/obj/$ARCH_NAME}
OUT=$OBJ/rootfs.cpio.gz
ROOT=$OBJ/rootfs
CROSS=$CROSS_COMPILE
# make in this tree and object directory, quietly, in parallel
kmk() { kmake "$SRC" "$OBJ" -s -j"$JOBS" "$@"; }

# Copy a dynamically linked host binary and the libraries it needs.
copy_host_bin() {
	local bin
	bin=$(command -v "$1") || die "host binary $1 not found"
	install -D -m 755 "$bin" "$ROOT/usr/bin/$(basename "$1")"
	install_libs "$ROOT" "$bin"
}

rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,results,mnt}

# busybox: the shell and most commands.
BB=$BUSYBOX
[ -x "$BB" ] || die "busybox for $ARCH_NAME not found at $BB"
install -m 755 "$BB" "$ROOT/bin/busybox"
for a in $("$TOP/scripts/busybox-applets.sh" "$BB"); do
	[ -e "$ROOT/bin/$a" ] || ln -s busybox "$ROOT/bin/$a"
done

# Modules, with modules.dep for modprobe.
kmk INSTALL_MOD_PATH="$ROOT" INSTALL_MOD_STRIP=1 modules_install >/dev/null
KREL=$(cat "$OBJ/include/config/kernel.release")
rm -f "$ROOT/lib/modules/$KREL/build"
mkdir -p "$ROOT/lib/modules/$KREL/build"	# livepatch selftests want KDIR

# The harness's test module, tests/ftsdo-test (ftsdo_test.ko, for make
# bench, the demo and the project's tests), where the kernel exports the
# batch API of the shared direct ops (not on the unpatched base): built out
# of tree against this kernel in OBJ/ftsdo-test, installed in
# /lib/modules/KREL/extra (modules_install runs depmod again).
FM=$OBJ/ftsdo-test
rm -rf "$FM"
if grep -q "	update_ftrace_direct_add	" "$OBJ/Module.symvers"; then
	mkdir -p "$FM"
	cp "$TOP/tests/ftsdo-test/Kbuild" "$TOP"/tests/ftsdo-test/*.[ch] "$FM/"
	kmk M="$FM" modules >"$FM/build.log" 2>&1 ||
		die "building tests/ftsdo-test failed (${FM#$TOP/}/build.log)"
	kmk M="$FM" INSTALL_MOD_PATH="$ROOT" INSTALL_MOD_STRIP=1 INSTALL_MOD_DIR=extra \
		modules_install >/dev/null
	[ -f "$ROOT/lib/modules/$KREL/extra/ftsdo_test.ko" ] ||
		die "tests/ftsdo-test: no ftsdo_test.ko installed"
fi

# Selftests of this very tree.
mkdir -p "$ROOT/selftests"
cp -a "$SRC/tools/testing/selftests/ftrace" "$ROOT/selftests/ftrace"
cp -a "$SRC/tools/testing/selftests/kselftest" "$ROOT/selftests/" 2>/dev/null || true
# The livepatch selftests, where the kernel has livepatch (arm64 6.12
# has not).
LP=$OBJ/livepatch-selftests
rm -rf "$LP"
if grep -q '^CONFIG_LIVEPATCH=y' "$OBJ/.config"; then
	cp -a "$SRC/tools/testing/selftests/livepatch" "$LP"
	kmk M="$LP/test_modules" modules >/dev/null
	${CROSS}gcc -static -O2 -o "$LP/test_klp-call_getpid" "$LP/test_klp-call_getpid.c"
	mkdir -p "$ROOT/selftests/livepatch/test_modules"
	cp "$LP"/*.sh "$LP"/settings "$LP/test_klp-call_getpid" "$ROOT/selftests/livepatch/"
	for m in "$LP"/test_modules/*.ko; do
		${CROSS}strip --strip-debug -o "$ROOT/selftests/livepatch/test_modules/$(basename "$m")" "$m"
	done
fi

# Host tools the selftests use beyond busybox (GNU options), and trace-cmd:
# where the guest runs the host's architecture (HOST_TOOLS).
if [ "$HOST_TOOLS" = yes ]; then
	for b in bash date stat sysctl getconf trace-cmd; do
		copy_host_bin "$b"
	done
	copy_host_bin kmod
	# The livepatch selftests expect kmod's insmod messages, and call
	# /bin/stat with GNU options.
	for a in modinfo insmod rmmod; do
		ln -sf kmod "$ROOT/usr/bin/$a"
	done
	ln -sf /usr/bin/stat "$ROOT/bin/stat"
	# /bin/sh is Debian's: dash, a shell binary of its own.  ftracetest
	# and every test run in it, and dynevent/add_remove_uprobe.tc puts a
	# uprobe on the executable mapping of a "*sh" in its own maps, which
	# the busybox multi-call binary does not give.
	copy_host_bin dash
	ln -sf /usr/bin/dash "$ROOT/bin/sh"
	# chrt (util-linux) for tracer/wakeup.tc and wakeup_rt.tc, nice
	# (coreutils) for the inter-event onchange and snapshot tests: Debian's
	# busybox-static has neither.
	copy_host_bin chrt
	copy_host_bin nice
	# checkbashisms (Debian's devscripts) for selftest/bashisms.tc: a
	# perl script that needs only perl-base's modules.
	copy_host_bin perl
	PERLBASE=$(perl -e 'for (@INC) { print "$_\n" if m{/perl-base$} }')
	[ -d "$PERLBASE" ] || die "perl-base modules not found"
	mkdir -p "$ROOT$PERLBASE"
	cp -a "$PERLBASE/." "$ROOT$PERLBASE/"
	install -m 755 "$(command -v checkbashisms)" "$ROOT/usr/bin/checkbashisms"
fi

# The BPF test and benchmark program (tests/bpf): BPF objects by clang,
# loaded by Debian's libbpf, linked statically (for arm64 against the
# sysroot deps.sh unpacked); its vmlinux.h comes from this kernel's BTF.
# FTSDO_BPF_BIN: install that build of it instead (make bench runs one
# binary on both kernels).
bpfbin=${FTSDO_BPF_BIN:-$OBJ/bpf/ftsdo-bpf}
if [ -z "${FTSDO_BPF_BIN:-}" ]; then
	bpfvars=""
	if [ -n "$DEB_ARCH" ]; then
		SR=$BUILD/$DEB_ARCH-sysroot
		bpfvars="ARCH=$KARCH LIBDIR=$SR/usr/lib/$MULTIARCH"
		set -- CC="${CROSS}gcc --sysroot=$SR"
	else
		set --
	fi
	# shellcheck disable=SC2086
	make -s -C "$TOP/tests/bpf" $bpfvars "$@" VMLINUX="$OBJ/vmlinux" OUT="$OBJ/bpf" >/dev/null ||
		die "building tests/bpf failed"
fi
install -m 755 "$bpfbin" "$ROOT/usr/bin/ftsdo-bpf"

# tmulti (tests/bpf-multi, series 07's test): where the kernel's own
# libbpf (SRC/tools/lib/bpf) has tracing_multi links; built against that
# libbpf, not Debian's (for arm64 cross-built, against the sysroot)
if grep -q attach_tracing_multi "$SRC/tools/lib/bpf/libbpf.map" 2>/dev/null; then
	tmvars=""
	[ -z "$DEB_ARCH" ] || tmvars="ARCH=$KARCH SYSROOT=$BUILD/$DEB_ARCH-sysroot"
	# shellcheck disable=SC2086
	make -s -C "$TOP/tests/bpf-multi" $tmvars LINUX="$SRC" VMLINUX="$OBJ/vmlinux" \
		OUT="$OBJ/bpf-multi" >/dev/null || die "building tests/bpf-multi failed"
	install -m 755 "$OBJ/bpf-multi/tmulti" "$ROOT/usr/bin/tmulti"
	# The tree's bpftool, which shows tracing_multi links: in /usr/bin,
	# before Debian's (/usr/sbin, in tools.cpio.gz) in the guest's PATH
	install -m 755 "$OBJ/bpf-multi/bpftool/bpftool" "$ROOT/usr/bin/bpftool"
	# tmulti_mod, the module of its module case (with its BTF)
	TM=$OBJ/bpf-multi/mod
	rm -rf "$TM"
	mkdir -p "$TM"
	cp "$TOP"/tests/bpf-multi/mod/{Kbuild,*.c} "$TM/"
	kmk M="$TM" modules >"$TM/build.log" 2>&1 ||
		die "building tests/bpf-multi/mod failed (${TM#$TOP/}/build.log)"
	kmk M="$TM" INSTALL_MOD_PATH="$ROOT" INSTALL_MOD_STRIP=1 INSTALL_MOD_DIR=extra \
		modules_install >/dev/null
fi

# failnth (tests/failnth): one file operation with the N-th fault
# injection point of its task failing, for the fault sweep tests
sysroot=""
[ -z "$DEB_ARCH" ] || sysroot=--sysroot=$BUILD/$DEB_ARCH-sysroot
"${CROSS}gcc" $sysroot -static -O2 -Wall -o "$ROOT/usr/bin/failnth" \
	"$TOP/tests/failnth/failnth.c" || die "building tests/failnth failed"

# Users and groups: the tracefs gid= and ownership tests
# (00basic/mount_options.tc, test_ownership.tc) pick another group and
# user from /etc/group and /etc/passwd.
cat >"$ROOT/etc/passwd" <<'EOT'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOT
cat >"$ROOT/etc/group" <<'EOT'
root:x:0:
daemon:x:1:
tracing:x:100:
nogroup:x:65534:
EOT

# The project's guest side.
cp -a "$TOP/guest" "$ROOT/guest"
[ -d "$TOP/tests/guest" ] && cp -a "$TOP/tests/guest" "$ROOT/guest/tests"
cp -a "$TOP/tests/tools" "$ROOT/guest/tools"
install -m 755 "$TOP/guest/init" "$ROOT/init"
grep -v '^#' "$TOP/tests/skip/$ARCH_NAME.txt" >"$ROOT/guest/skip.txt" 2>/dev/null || true
echo "$ARCH_NAME" >"$ROOT/etc/ftsdo-arch"

(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$OUT"
log "rootfs: ${OUT#$TOP/} ($(du -h "$OUT" | cut -f1), kernel $KREL)"

# Debian's bpftrace and bpftool: a second archive, tools.cpio.gz, that
# qemu-run.sh appends for the guests that run them (INITRD_TOOLS=1).
# bpftrace brings LLVM and clang (200 MB of libraries): unpacking them
# under TCG is not worth paying in every guest of make check.  x86_64: the
# host's; arm64: the packages deps.sh unpacked, with their libraries and
# glibc's loader (TOOLS_ROOT of configs/arch/ARCH).
TR=$OBJ/tools-root
rm -rf "$TR"
mkdir -p "$TR/usr/bin" "$TR/usr/sbin"
install -m 755 "$TOOLS_ROOT/usr/bin/bpftrace" "$TR/usr/bin/bpftrace"
install -m 755 "$TOOLS_ROOT/usr/sbin/bpftool" "$TR/usr/sbin/bpftool"
if [ "$TOOLS_ROOT" = / ]; then
	install_libs "$TR" "$TR/usr/bin/bpftrace" "$ROOT"
	install_libs "$TR" "$TR/usr/sbin/bpftool" "$ROOT"
else
	install_sysroot_libs "$TR" "$TOOLS_ROOT" "$TR/usr/bin/bpftrace"
	install_sysroot_libs "$TR" "$TOOLS_ROOT" "$TR/usr/sbin/bpftool"
	# The loader the binaries name (PT_INTERP), where they look for it
	interp=$(readelf -l "$TR/usr/bin/bpftrace" | sed -n 's/.*interpreter: \(.*\)\]$/\1/p')
	[ -e "$TR$interp" ] || ln -s "$MULTIARCH/$(basename "$interp")" "$TR$interp"
fi
(cd "$TR" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$OBJ/tools.cpio.gz"
log "rootfs: ${OBJ#$TOP/}/tools.cpio.gz (bpftrace, bpftool: $(du -h "$OBJ/tools.cpio.gz" | cut -f1))"
