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
set -eu
. "$(dirname "$0")/lib.sh"

ARCH_NAME=$1 RUN=$2 OUTDIR=$3 TMO=${4:-1800}
OBJ=${OBJ:-$BUILD/obj/$ARCH_NAME}
mkdir -p "$OUTDIR"
rm -rf "${OUTDIR:?}"/*
DISK=$OUTDIR/results.img
truncate -s 256M "$DISK"
CONSOLE=$OUTDIR/console.log

APPEND="panic=-1 ftsdo.run=$RUN ftsdo.timeout=$((TMO - 60)) ${EXTRA_APPEND:-}"
case $ARCH_NAME in
x86_64)
	QEMU=qemu-system-x86_64
	KERNEL=$OBJ/arch/x86/boot/bzImage
	MACHINE="-M q35"
	APPEND="console=ttyS0 $APPEND"
	ACCEL=$("$TOP/scripts/kvm-probe.sh" "$OBJ")
	;;
arm64)
	QEMU=qemu-system-aarch64
	KERNEL=$OBJ/arch/arm64/boot/Image
	MACHINE="-M virt"
	APPEND="console=ttyAMA0 $APPEND"
	ACCEL="-accel tcg,thread=single -cpu max"
	;;
*) die "unknown arch $ARCH_NAME" ;;
esac
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

log "boot $ARCH_NAME ($ACCEL), run '$RUN', timeout ${TMO}s"
start=$(date +%s)
set +e
# shellcheck disable=SC2086
timeout --foreground -k 10 "$TMO" $QEMU $MACHINE $ACCEL -smp 2 -m "${QEMU_MEM:-2G}" \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
	-drive file="$DISK",if=virtio,format=raw \
	-display none -serial stdio -monitor none -no-reboot -nodefaults \
	</dev/null >"$CONSOLE" 2>&1
qrc=$?
set -e
log "qemu exited ($qrc) after $(( $(date +%s) - start ))s; console: ${CONSOLE#$TOP/}"

tar -xf "$DISK" -C "$OUTDIR" 2>/dev/null || true
rm -f "$DISK" "$OUTDIR/initrd.cpio.gz"

fail=0
if ! grep -q '^FTSDO-DONE' "$CONSOLE"; then
	echo "error: the guest did not finish (timeout ${TMO}s, hang or panic); console tail:" >&2
	tail -n 30 "$CONSOLE" | sed 's/^/    /' >&2
	fail=1
fi
# Splats: on the console, and in the kernel log the guest saved at the end
# (guest/init lowers the console loglevel, so a WARNING raised after boot
# reaches only the kernel log).  That log must still start at boot: if the
# buffer wrapped (LOG_BUF_SHIFT too small), a splat may have been lost.
logs=$CONSOLE
DMESG=$OUTDIR/dmesg.txt
lost=""
if [ -f "$DMESG" ]; then
	logs="$logs $DMESG"
	grep -q 'Linux version' "$DMESG" ||
		lost="the kernel log in ${DMESG#$TOP/} does not reach back to boot (buffer wrapped: raise CONFIG_LOG_BUF_SHIFT)"
elif grep -q '^FTSDO-DONE' "$CONSOLE"; then
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
	echo "$(grep -q '^FTSDO-DONE' "$CONSOLE"; echo $?) harness/guest-completed"
	echo "$([ -s "$OUTDIR/splats.txt" ]; echo $((1 - $?))) harness/no-kernel-splat"
} >"$OUTDIR/harness.txt"
grc=$(sed -n 's/^FTSDO-DONE rc=\([0-9]*\).*/\1/p' "$CONSOLE" | tail -n 1)
if [ $fail = 0 ] && [ "$grc" != 0 ]; then
	echo "error: guest command '$RUN' exited $grc" >&2
	fail=1
fi
exit $fail
