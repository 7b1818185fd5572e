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

# The guest scales ftsdo.timeout and each test's limit by the factor it
# measures: its time to FTSDO-BEGIN against BEGIN_REF (the row's committed
# reference, configs/boot-weights), or FACTOR when given (guest/init).
FACTOR_MAX=4
APPEND="console=$CONSOLE panic=-1 ftsdo.run=$RUN ftsdo.timeout=$((TMO - 60))"
[ -z "${BEGIN_REF:-}" ] || [ "$BEGIN_REF" = 0 ] || APPEND="$APPEND ftsdo.begin_ref=$BEGIN_REF"
[ -z "${FACTOR:-}" ] || APPEND="$APPEND ftsdo.factor=$FACTOR"
[ "$TEST_SCALE" = 1 ] || APPEND="$APPEND ftsdo.scale=$TEST_SCALE"
APPEND=$(echo "$APPEND ${BOOT_APPEND:-} ${EXTRA_APPEND:-}" | tr -s ' ')
KERNEL=$OBJ/$IMAGE
if [ "$ACCEL" = kvm-probe ]; then
	ACCEL=$("$TOP/scripts/kvm-probe.sh" "$ARCH_NAME" "$OBJ")
else
	ACCEL="-accel tcg,thread=$TCG_THREAD -cpu $CPU"
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
log "boot $ARCH_NAME/${BOOT:-$(basename "$OUTDIR")} ($ACCEL), run '$RUN', limit ${TMO}s x the factor"
start=$(date +%s)
set +e
# The limit: TMO seconds until the guest reports its calibration factor
# on its FTSDO-BEGIN line (guest/init), then its time to that line plus
# TMO x that factor (the guest's own limit, 60 s less, starts there);
# timeout(1) is only the backstop, at the largest factor the guest may
# report.
# shellcheck disable=SC2086
timeout --foreground -k 10 $((TMO * FACTOR_MAX)) $QEMU -M "$MACHINE" $ACCEL -smp "$SMP" \
	-m "${QEMU_MEM:-2G}" -kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
	-drive file="$DISK",if=virtio,format=raw \
	-display none -serial stdio -monitor none -no-reboot -nodefaults \
	</dev/null >"$CONLOG" 2>&1 &
qpid=$!
factor="" up="" limit=$TMO over=0
while kill -0 "$qpid" 2>/dev/null; do
	sleep 2
	if [ -z "$factor" ]; then
		b=$(grep -a -m1 '^FTSDO-BEGIN' "$CONLOG" 2>/dev/null || true)
		factor=$(echo "$b" | sed -n 's/.* factor=\([0-9.]*\).*/\1/p')
		up=$(echo "$b" | sed -n 's/.* up=\([0-9.]*\).*/\1/p')
		[ -z "$factor" ] || limit=$(awk -v t="$TMO" -v f="$factor" -v u="${up:-0}" \
			'BEGIN { printf "%d", u + t * f }')
	fi
	if [ $(($(date +%s) - start)) -gt "$limit" ]; then
		echo "error: ${BOOT:-$OUTDIR}: the guest hit its limit of ${limit}s; stopped" >&2
		over=1
		kill "$qpid" 2>/dev/null
		break
	fi
done
wait "$qpid"
qrc=$?
set -e
secs=$(($(date +%s) - start))
# The CPU seconds of this boot (QEMU's, through timeout(1)): against the
# wall time, how much of a core the guest got
times >"$OUTDIR/times"
cpu=$(awk 'NR == 2 { gsub(/[ms]/, " "); print int($1 * 60 + $2 + $3 * 60 + $4) }' "$OUTDIR/times")
rm -f "$OUTDIR/times"
log "qemu exited ($qrc) after ${secs}s (${cpu}s CPU, factor ${factor:-?}); console: ${CONLOG#"$TOP"/}"

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
[ $over = 0 ] || echo "1 harness/within-time-limit" >>"$OUTDIR/harness.txt"
if [ $fail = 0 ] && [ "$grc" != 0 ]; then
	echo "error: guest command '$RUN' exited $grc" >&2
	fail=1
fi
# The boot's line of the timing table (scripts/timing.sh): its retries
# are the ftracetest cases the guest ran again
retries=$(grep -c '^FTSDO-RETRY ' "$OUTDIR/ftrace-retry-cases.txt" 2>/dev/null || true)
status=ok
[ $fail = 0 ] || status=fail
[ $over = 0 ] || status=limit
[ -z "${TIMING:-}" ] || timing_add "$TIMING" boot "${SUITE:-run}/$ARCH_NAME/${BOOT:-$(basename "$OUTDIR")}" \
	"$start" "$secs" "$status" "${retries:-0}" "${factor:--}" "${up:--}" "$cpu"
exit $fail
