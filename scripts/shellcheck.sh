#!/bin/bash
# Debian's shellcheck on every shell script of the harness, at severity
# warning (errors and warnings; not info or style), each file in the
# dialect it runs in: "#!/bin/bash" as bash, "#!/bin/sh" as POSIX sh (dash
# on the host and in the x86_64 guest, busybox ash in the arm64 one), a
# sourced file without "#!" by its "# shellcheck shell=" line, else as sh
# (the .inc files are sourced by the guest's sh tests).  Each file is
# checked on its own (no -x: the guest's tests source /guest/... paths).
# Prints the findings and exits 1 if there are any.
# Usage: shellcheck.sh [FILE...]   (default: all of them)
set -eu
. "$(dirname "$0")/lib.sh"
SEVERITY=warning
command -v shellcheck >/dev/null || die "no shellcheck: run scripts/deps.sh"
if [ $# = 0 ]; then
	cd "$TOP"
	set -- scripts/*.sh scripts/bench/*.sh guest/init guest/*.sh \
		tests/guest/*.sh tests/guest/*.inc tests/tools/*.sh tests/tools/*.inc .ci/run
fi

# The dialect of a file, for shellcheck -s.
dialect() {
	local first d
	IFS= read -r first <"$1" || true
	case $first in
	'#!/bin/bash' | '#!/bin/bash '* | '#!/usr/bin/env bash'*) echo bash; return ;;
	'#!/bin/sh' | '#!/bin/sh '*) echo sh; return ;;
	'#!'*) die "$1: no shellcheck dialect for '$first'" ;;
	esac
	d=$(sed -n 's/^# shellcheck shell=\([a-z]*\).*/\1/p' "$1" | head -n 1)
	echo "${d:-sh}"
}

declare -A files=()
for f in "$@"; do
	[ -f "$f" ] || die "no file $f"
	d=$(dialect "$f")
	files[$d]="${files[$d]:-} $f"
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
for d in "${!files[@]}"; do
	# The file names of one dialect, none with spaces
	# shellcheck disable=SC2086
	shellcheck --norc -S "$SEVERITY" -s "$d" ${files[$d]} >>"$out" || rc=$?
done
cat "$out"
n=$(grep -o 'SC[0-9]* ([a-z]*):' "$out" | wc -l)
if [ $rc = 0 ]; then
	log "shellcheck: $# file(s) clean (severity $SEVERITY)"
elif [ "$n" -gt 0 ]; then
	log "shellcheck: $n finding(s) in $# file(s) (severity $SEVERITY)"
	exit 1
else
	die "shellcheck failed (exit $rc)"
fi
