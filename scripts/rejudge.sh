#!/bin/bash
# make rejudge DIR=<results directory>: judge the boots already in DIR
# (build/results/<arch>[-<suite>], or build/results/one/<arch> of make
# check-one) again, with the same code and the same base as when they
# ran, without booting: after a change to scripts/ftsdo/ or to the base's
# recorded results.  The suite and architecture come from the boots'
# manifests.
# Usage: rejudge.sh DIR
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1%/}
[ -d "$dir" ] || die "rejudge: no directory $dir"
m=$(find "$dir" -mindepth 2 -maxdepth 2 -name manifest | head -n 1)
[ -n "$m" ] || die "rejudge: no boot results (*/manifest) in $dir"
suite=$(sed -n 's/^suite=//p' "$m")
arch=$(sed -n 's/^arch=//p' "$m")
side=series
case $dir in *-base) side=base ;; esac
[ $side = series ] || die "rejudge: $dir is a base run: make baseline records it"
res=$(cd "$(dirname "$dir")" && pwd)
log "rejudge: suite $suite on $arch, results in ${dir#"$TOP"/}"
# Every row of the suite whose boot left results there (make check-one's
# one boot, or all of them); the tests judged as then (only.txt)
REJUDGE=1 RESULTS=$res exec "$TOP/scripts/suite.sh" "$suite" "$arch"
