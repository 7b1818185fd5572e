#!/bin/bash
# Print the QEMU acceleration options for x86_64.  KVM is used only when a
# quick boot under it reaches the guest's first marker: on some hosts
# /dev/kvm exists but guests hang.  The verdict is cached per host.
. "$(dirname "$0")/lib.sh"
OBJ=$1
TCG="-accel tcg,thread=single -cpu max"
CACHE=$BUILD/.kvm-probe
if [ "${FTSDO_KVM:-auto}" = no ] || [ ! -w /dev/kvm ]; then
	echo "$TCG"; exit 0
fi
if [ -f "$CACHE" ]; then
	cat "$CACHE"; exit 0
fi
out=$(timeout -k 2 25 qemu-system-x86_64 -M q35 -accel kvm -cpu host -smp 1 -m 512M \
	-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$OBJ/rootfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 ftsdo.run=none" \
	-display none -serial stdio -monitor none -no-reboot -nodefaults \
	</dev/null 2>/dev/null | grep -m1 -a '^FTSDO-BEGIN')
if [ -n "$out" ]; then
	echo "-accel kvm -cpu host" | tee "$CACHE"
else
	echo "$TCG" | tee "$CACHE"
fi
