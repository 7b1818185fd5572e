#!/bin/bash
# make check-bpf: the kernel's own BPF selftests (test_progs) on the series,
# judged against the unpatched base.  make baseline-bpf records the base.
#
# The kernel: the x86_64 test config plus tools/testing/selftests/bpf/config
# and config.x86_64 of the tree being tested, less the options
# configs/bpf-selftests-drop.txt lists with the reason, built into its own
# object directory (build/obj/x86_64-bpf, build/base/obj/x86_64-bpf).
# test_progs, bpf_testmod.ko and the BPF objects: built by the selftests'
# own Makefile from a copy of that tree's tools/ (the module build writes
# into its source directory), BPF programs with Debian's clang-16; the
# cpuv4 flavour needs clang 17 and is not built, and the files
# tests/bpf-selftests/exclude.txt lists are left out.  They go into the guest
# as a second initramfs archive, /bpf.  The guest runs the tests of
# tests/bpf-selftests/select.txt; every subtest is a result
# (bpf/TEST/SUBTEST), compared with tests/baseline/x86_64-bpf.txt as
# make check compares its tests; TAP in build/results/x86_64-bpf/check.tap,
# the boot in build/results/x86_64-bpf/run.
#
# Usage: check-bpf.sh [series|base]   (base: record the base's results)
set -eu
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" bpf
SIDE=${1:-series}
ARCH_NAME=x86_64
case $SIDE in
series) SRC=$LINUX OBJ=$BUILD/obj/$ARCH_NAME-bpf ;;
base)
	base_worktree
	SRC=$BASE_SRC OBJ=$BUILD/base/obj/$ARCH_NAME-bpf
	export BASE_BUILD=1
	;;
*) die "usage: check-bpf.sh [series|base]" ;;
esac
DROP=$TOP/configs/bpf-selftests-drop.txt
SEL=$TOP/tests/bpf-selftests/select.txt
EXCL=$TOP/tests/bpf-selftests/exclude.txt
LLVM_SUFFIX=-16
command -v "clang$LLVM_SUFFIX" >/dev/null || die "clang$LLVM_SUFFIX missing: run scripts/deps.sh bpf"
start=$(date +%s)

# The selftests' config fragments, less the dropped options; rewritten only
# when it changes, so that config.sh keeps an up-to-date .config.
S=$SRC/tools/testing/selftests/bpf
mkdir -p "$OBJ"
frag=$OBJ/bpf-selftests.config
drop_re=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\) |.*/\1/p' "$DROP" | paste -sd'|')
cat "$S/config" "$S/config.$ARCH_NAME" |
	grep -vE "^(# )?($drop_re)[= ]" >"$frag.new" || true
if cmp -s "$frag.new" "$frag"; then rm "$frag.new"; else mv "$frag.new" "$frag"; fi

EXTRA_CONFIG=$frag "$TOP/scripts/build.sh" "$ARCH_NAME" "$SRC" "$OBJ"
"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$SRC" "$OBJ"

# A copy of the tree's tools/ (the selftests' paths into the rest of the
# tree resolve through symlinks), brought up to date with the tree.  The
# test modules build in their source directories: their objects are kept,
# so that make rebuilds them only when their sources change.
# The files of $EXCL are left out; prog_tests/tests.h, the list of tests,
# is made again when that list changes (make only sees new test files).
STAGE=$OBJ/bpf-src
mkdir -p "$STAGE"
set --
while read -r f; do
	set -- "$@" --exclude="/testing/selftests/bpf/$f"
done < <(sed -n 's/^\([^#][^ ]*\) |.*/\1/p' "$EXCL")
rsync -a --delete --delete-excluded "$@" \
	--filter='P /testing/selftests/bpf/bpf_test*/**' \
	--filter='P /testing/selftests/bpf/prog_tests/tests.h' \
	"$SRC/tools/" "$STAGE/tools/"
if ! printf '%s\n' "$@" | cmp -s - "$STAGE/excluded"; then
	rm -f "$STAGE/tools/testing/selftests/bpf/prog_tests/tests.h"
	printf '%s\n' "$@" >"$STAGE/excluded"
fi
for e in "$SRC"/*; do
	[ "$(basename "$e")" = tools ] || ln -sfn "$e" "$STAGE/$(basename "$e")"
done
SO=$OBJ/selftests-bpf
mkdir -p "$SO"
log "test_progs: building from ${SRC#$TOP/} into ${SO#$TOP/} (clang$LLVM_SUFFIX)"
t0=$(date +%s)
# CLANG_CPUV4= and BPF_GCC=: no cpuv4 (clang 17) or bpf-gcc flavour.
# feature-llvm=0: no LLVM disassembler in test_progs (it checks the JIT-ed
# code of some verifier tests, none of the selection); the feature probe
# finds whichever llvm-config has headers (llvm-14-dev, if installed)
# while the build asks LLVM_CONFIG, whose llvm-16-dev is not installed.
# vpath: a test object compiles in OUTPUT with -I., so its dependency file
# names the skeletons it includes relative to OUTPUT, which the next make
# (run in the source directory) does not find ("No rule to make target
# 'atomics.lskel.h'"): vpath finds them in OUTPUT.
if ! make -C "$STAGE/tools/testing/selftests/bpf" -j"$JOBS" \
	--eval="vpath %.skel.h $SO" --eval="vpath %.lskel.h $SO" \
	--eval="vpath %.subskel.h $SO" \
	O="$OBJ" OUTPUT="$SO" VMLINUX_BTF="$OBJ/vmlinux" KDIR="$SRC" \
	CLANG="clang$LLVM_SUFFIX" LLC="llc$LLVM_SUFFIX" LLVM_STRIP="llvm-strip$LLVM_SUFFIX" \
	LLVM_CONFIG="llvm-config$LLVM_SUFFIX" CLANG_CPUV4= BPF_GCC= feature-llvm=0 \
	test_progs >"$SO/build.log" 2>&1; then
	tail -n 30 "$SO/build.log" >&2
	die "building test_progs failed (log: ${SO#$TOP/}/build.log)"
fi
log "test_progs built in $(( $(date +%s) - t0 ))s"

# /bpf in the guest: test_progs runs from there, finding its objects and
# modules in its working directory.  A second archive after the rootfs.
BR=$OBJ/bpf-root
rm -rf "$BR"
mkdir -p "$BR/bpf"
# test_progs' extra files (TRUNNER_EXTRA_FILES in the selftests' Makefile)
ST=$STAGE/tools/testing/selftests/bpf
(cd "$SO" && cp -a test_progs ./*.bpf.o ./*.ko urandom_read liburandom_read.so \
	uprobe_multi sign-file xdp_synproxy "$BR/bpf/")
cp -a "$ST/ima_setup.sh" "$ST/verify_sig_setup.sh" "$ST"/progs/btf_dump_test_case_*.c "$BR/bpf/"
cp -L "$SO/bpftool" "$BR/bpf/bpftool"	# a symlink into tools/build/bpftool
strip --strip-debug "$BR/bpf/test_progs"
install -m 644 "$SEL" "$BR/bpf/select.txt"
for b in test_progs sign-file; do
	install_libs "$BR" "$BR/bpf/$b"
done
# glibc loads libgcc_s when a thread exits (pthread_exit unwinds), which
# ldd does not show: without it test_progs aborts after test_overhead.
gcc_s=$(ldconfig -p | sed -n 's/.*libgcc_s\.so\.1 (libc6,x86-64) => //p' | head -n 1)
[ -n "$gcc_s" ] || die "libgcc_s.so.1 not found"
install -D -m 755 "$gcc_s" "$BR$gcc_s"
# Programs tests run by path: /bin/bash (test_bprm_opts; Debian's bash is
# in /usr/bin, the rootfs has no /bin/bash), and GNU rm as /bin/rm
# (test_local_storage runs a copy of /bin/rm, which busybox's multi-call
# binary does not survive: it looks for an applet named copy_of_rm).
mkdir -p "$BR/bin"
ln -s /usr/bin/bash "$BR/bin/bash"
install -m 755 "$(command -v rm)" "$BR/bin/rm"
install_libs "$BR" "$BR/bin/rm"
(cd "$BR" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >>"$OBJ/rootfs.cpio.gz"
log "rootfs: /bpf added ($(du -sh "$BR" | cut -f1))"

# Suite "bpf" of configs/suites boots it (with 4G: headroom for
# test_progs and its maps) and judges it against
# tests/baseline/x86_64-bpf.txt, or records that file on the base.
rc=0
"$TOP/scripts/suite.sh" bpf "$ARCH_NAME" "$SIDE" || rc=$?
log "check-bpf ($SIDE) took $(( $(date +%s) - start ))s"
exit $rc
