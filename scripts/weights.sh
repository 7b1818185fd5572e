#!/bin/bash
# The committed weights from measured runs:
#   weights.sh boots TIMING.TSV...    configs/boot-weights: per boot the
#                                     most seconds it took and the most
#                                     its guest took to FTSDO-BEGIN
#   weights.sh tests RESULTSDIR...    guest/test-weights.txt: per project,
#                                     tools and livepatch test the most
#                                     seconds it took (test-times.txt of
#                                     each boot directory below RESULTSDIR)
# (guest/ftrace-weights.txt, ftracetest's: scripts/ftrace-weights.sh.)
# Take them from a make check on this 2-core machine, cold or warm: the
# calibration factor of a slower host is measured against them.
# Usage: weights.sh boots|tests FILE... > the weights file
set -eu
what=$1
shift
case $what in
boots)
	echo "# suite arch boot seconds begin: the seconds each boot took in make check on"
	echo "# the project's 2-core machine, GUESTS=4, and those its guest took to reach"
	echo "# FTSDO-BEGIN (the calibration reference, guest/init).  scripts/suite.sh deals"
	echo "# the boots heaviest first.  Made by scripts/weights.sh boots TIMING.TSV..."
	awk -F'\t' '$1 == "boot" && $5 == "ok" {
		split($2, n, "/"); k = n[1] " " n[2] " " n[3]
		if ($4 > s[k]) s[k] = $4
		if ($8 != "-" && $8 > b[k]) b[k] = $8
	}
	END { for (k in s) printf "%s %d %d\n", k, s[k], b[k] + 0.5 }' "$@" | sort -k4,4nr -k1,3
	;;
tests)
	echo "# seconds name: what each project, tools and livepatch test took in a guest"
	echo "# of make check (x86_64, GUESTS=4); guest/limit.sh gives a test twice that"
	echo "# plus 120 s, times the calibration factor.  scripts/weights.sh tests DIR..."
	for d in "$@"; do
		find "$d" -name test-times.txt -exec cat {} +
	done | awk '!($2 in m) || $1 > m[$2] { m[$2] = $1 }
		END { for (t in m) print m[t], t }' | sort -k1,1nr -k2
	;;
*)
	echo "usage: weights.sh boots TIMING.TSV... | tests RESULTSDIR..." >&2
	exit 2
	;;
esac
