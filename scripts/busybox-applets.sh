#!/bin/sh
# List the applets of a busybox binary, also one built for another arch
# (its --list cannot run here): read the names from the binary itself.
bb=$1
if "$bb" --list 2>/dev/null; then
	exit 0
fi
# Fallback for a foreign binary: the applets most scripts need.
for a in sh ash cat cp mv rm ln ls mkdir rmdir mount umount echo printf test \
	'[' '[[' grep egrep sed awk cut tr head tail sort uniq wc xargs find \
	sleep seq date dmesg insmod rmmod modprobe lsmod modinfo reboot poweroff \
	kill ps tar gzip dd stat readlink dirname basename expr true false yes \
	chmod touch uname id sync tee timeout env mktemp diff od hexdump \
	nproc pidof killall which realpath sysctl getopt cmp usleep ip hostname \
	nice chrt free ; do
	echo "$a"
done
