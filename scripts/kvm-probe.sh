#!/bin/bash
# Print the QEMU acceleration options for ARCH (configs/arch/ARCH with
# ACCEL=kvm-probe).  KVM is used only when a quick boot under it reaches
# the guest's first marker: on some hosts /dev/kvm exists but guests hang.
# The verdict is cached per host.
# Usage: kvm-probe.sh ARCH OBJ
. "$(dirname "$0")/lib.sh"
arch_load "$1"
OBJ=$2
TCG="-accel tcg,thread=$TCG_THREAD -cpu $CPU"
CACHE=$BUILD/.kvm-probe-$ARCH_NAME
if [ "${FTSDO_KVM:-auto}" = no ] || [ ! -w /dev/kvm ]; then
	echo "$TCG"; exit 0
fi
if [ -f "$CACHE" ]; then
	cat "$CACHE"; exit 0
fi
out=$(timeout -k 2 25 "$QEMU" -M "$MACHINE" -accel kvm -cpu host -smp 1 -m 512M \
	-kernel "$OBJ/$IMAGE" -initrd "$OBJ/rootfs.cpio.gz" \
	-append "console=$CONSOLE panic=-1 ftsdo.run=none" \
	-display none -serial stdio -monitor none -no-reboot -nodefaults \
	</dev/null 2>/dev/null | grep -m1 -a '^FTSDO-BEGIN')
if [ -n "$out" ]; then
	echo "-accel kvm -cpu host" | tee "$CACHE"
else
	echo "$TCG" | tee "$CACHE"
fi
