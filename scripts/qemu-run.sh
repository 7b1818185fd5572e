#!/bin/bash
# Boot the built kernel of ARCH under QEMU and run one guest command.
# Usage: qemu-run.sh ARCH RUN OUTDIR [TIMEOUT_SECONDS]
#
# The guest runs /guest/RUN.sh, then writes /results as a tar archive to a
# virtio disk, which is unpacked into OUTDIR.  The full console goes to
# OUTDIR/console.log.  Fails when:
#   - the guest's end marker is missing (timeout, panic, hang),
#   - the console or the kernel log the guest saved (dmesg.txt) shows a
#     kernel WARNING, BUG, Oops, lockdep report, RCU stall or panic, or
#     that log does not reach back to boot,
#   - the guest command itself failed.
#
# The machine comes from configs/arch/ARCH.  The kernel command line is
# the console, ftsdo.run=RUN, then BOOT_APPEND (what the caller's suite
# row asks: scripts/suite.sh), then EXTRA_APPEND (the user's, last: for a
# kernel parameter given twice the guest reads the last one).
# OUTDIR/manifest records what booted: arch, suite, boot, variant (the
# label of a suite row, SUITE/BOOT/VARIANT from the caller), kernel
# release, the commit of the tree it was built from, command line, accel.
set -eu
. "$(dirname "$0")/lib.sh"

arch_load "$1"
RUN=$2 OUTDIR=$3 TMO=${4:-1800}
OBJ=${OBJ:-$BUILD/obj/$ARCH_NAME}
mkdir -p "$OUTDIR"
rm -rf "${OUTDIR:?}"/*
DISK=$OUTDIR/results.img
truncate -s 256M "$DISK"
CONLOG=$OUTDIR/console.log

APPEND="console=$CONSOLE panic=-1 ftsdo.run=$RUN ftsdo.timeout=$((TMO - 60))"
APPEND=$(echo "$APPEND ${BOOT_APPEND:-} ${EXTRA_APPEND:-}" | tr -s ' ')
KERNEL=$OBJ/$IMAGE
if [ "$ACCEL" = kvm-probe ]; then
	ACCEL=$("$TOP/scripts/kvm-probe.sh" "$ARCH_NAME" "$OBJ")
else
	ACCEL="-accel tcg,thread=single -cpu $CPU"
fi
# QEMU_MEM: guest memory (default 2G).
# QEMU_ICOUNT="shift=0,sleep=off" runs the guest with -icount: guest time
# follows the instructions executed (1 ns each with shift=0), so per-call
# timings are deterministic path lengths; they model no caches.  TCG only.
[ -z "${QEMU_ICOUNT:-}" ] || ACCEL="$ACCEL -icount $QEMU_ICOUNT"
[ -f "$KERNEL" ] || die "no kernel image $KERNEL: build first"
[ -f "$OBJ/rootfs.cpio.gz" ] || die "no rootfs: run scripts/rootfs.sh $ARCH_NAME"
# INITRD_TOOLS=1: bpftrace and bpftool too (rootfs.sh's tools.cpio.gz,
# x86_64), an archive after the rootfs in the same initramfs.
INITRD=$OBJ/rootfs.cpio.gz
if [ "${INITRD_TOOLS:-0}" = 1 ] && [ -f "$OBJ/tools.cpio.gz" ]; then
	INITRD=$OUTDIR/initrd.cpio.gz
	cat "$OBJ/rootfs.cpio.gz" "$OBJ/tools.cpio.gz" >"$INITRD"
fi

# What booted, for results.py and for whoever reads the results later
commit=${KERNEL_COMMIT:-}
[ -n "$commit" ] || [ ! -d "$LINUX/.git" ] || commit=$(kgit rev-parse HEAD)
{
	echo "arch=$ARCH_NAME"
	echo "suite=${SUITE:-}"
	echo "boot=${BOOT:-$(basename "$OUTDIR")}"
	echo "variant=${VARIANT:-}"
	echo "kernel=$(cat "$OBJ/include/config/kernel.release" 2>/dev/null)"
	echo "commit=$commit"
	echo "cmdline=$APPEND"
	echo "accel=$ACCEL"
} >"$OUTDIR/manifest"
log "boot $ARCH_NAME ($ACCEL), run '$RUN', timeout ${TMO}s"
start=$(date +%s)
set +e
# shellcheck disable=SC2086
timeout --foreground -k 10 "$TMO" $QEMU -M "$MACHINE" $ACCEL -smp 2 -m "${QEMU_MEM:-2G}" \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
	-drive file="$DISK",if=virtio,format=raw \
	-display none -serial stdio -monitor none -no-reboot -nodefaults \
	</dev/null >"$CONLOG" 2>&1
qrc=$?
set -e
log "qemu exited ($qrc) after $(( $(date +%s) - start ))s; console: ${CONLOG#$TOP/}"

tar -xf "$DISK" -C "$OUTDIR" 2>/dev/null || true
rm -f "$DISK" "$OUTDIR/initrd.cpio.gz"

fail=0
if ! grep -q '^FTSDO-DONE' "$CONLOG"; then
	echo "error: the guest did not finish (timeout ${TMO}s, hang or panic); console tail:" >&2
	tail -n 30 "$CONLOG" | sed 's/^/    /' >&2
	fail=1
fi
# Splats: on the console, and in the kernel log the guest saved at the end
# (guest/init lowers the console loglevel, so a WARNING raised after boot
# reaches only the kernel log).  That log must still start at boot: if the
# buffer wrapped (LOG_BUF_SHIFT too small), a splat may have been lost.
logs=$CONLOG
DMESG=$OUTDIR/dmesg.txt
lost=""
if [ -f "$DMESG" ]; then
	logs="$logs $DMESG"
	grep -q 'Linux version' "$DMESG" ||
		lost="the kernel log in ${DMESG#$TOP/} does not reach back to boot (buffer wrapped: raise CONFIG_LOG_BUF_SHIFT)"
elif grep -q '^FTSDO-DONE' "$CONLOG"; then
	lost="the guest finished but saved no kernel log (dmesg.txt)"
fi
# shellcheck disable=SC2086
if "$TOP/scripts/splat-scan.sh" $logs >"$OUTDIR/splats.txt" && [ -z "$lost" ]; then
	:
else
	[ -z "$lost" ] || echo "harness: $lost" >>"$OUTDIR/splats.txt"
	echo "error: kernel splat (console or kernel log), or the kernel log is incomplete:" >&2
	head -n 40 "$OUTDIR/splats.txt" | sed 's/^/    /' >&2
	fail=1
fi
{
	echo "$(grep -q '^FTSDO-DONE' "$CONLOG"; echo $?) harness/guest-completed"
	echo "$([ -s "$OUTDIR/splats.txt" ]; echo $((1 - $?))) harness/no-kernel-splat"
} >"$OUTDIR/harness.txt"
grc=$(sed -n 's/^FTSDO-DONE rc=\([0-9]*\).*/\1/p' "$CONLOG" | tail -n 1)
if [ $fail = 0 ] && [ "$grc" != 0 ]; then
	echo "error: guest command '$RUN' exited $grc" >&2
	fail=1
fi
exit $fail
