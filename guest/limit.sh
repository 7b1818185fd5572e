# The time limit of each test, sourced by guest/check.sh and
# guest/project-tests.sh.  A test may take twice the seconds its weight
# gives plus 120 s, or 600 s without a weight (a new test), or
# ftsdo.test_timeout seconds when that is set (the debug kernels' boots,
# for the project's tests); times the calibration factor guest/init
# measured (FTSDO_FACTOR) and the scale of the architecture and the
# kernel (FTSDO_SCALE: ftsdo.scale x ftsdo.slow, guest/init).
# The weights: /guest/ftrace-weights.txt (ftracetest, "seconds path") and
# /guest/test-weights.txt (the others, "seconds group/name"), seconds on
# the x86_64 test kernel in a guest of make check.
# FTSDO_GUEST and FTSDO_RESULTS: where /guest and /results are (the
# harness's unit tests run these functions on the host).
# shellcheck shell=sh

# limits: for each test name on stdin (ftrace/<path>, project/<name>,
# livepatch/<name>, tools/<name>), "SECONDS name"
limits() {
	awk -v f="${FTSDO_FACTOR:-1}" -v s="${FTSDO_SCALE:-1}" -v G="${FTSDO_GUEST:-/guest}" \
		-v tt="$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ftsdo\.test_timeout=//p' | tail -n 1)" '
	BEGIN {
		while ((getline l < (G "/ftrace-weights.txt")) > 0) {
			split(l, a, " "); if (a[2] != "" && l !~ /^#/) w["ftrace/" a[2]] = a[1]
		}
		while ((getline l < (G "/test-weights.txt")) > 0) {
			split(l, a, " "); if (a[2] != "" && l !~ /^#/) w[a[2]] = a[1]
		}
	}
	$1 != "" {
		b = ($1 in w) ? 2 * w[$1] + 120 : 600
		if (tt != "" && $1 !~ /^ftrace\//) b = tt
		printf "%d %s\n", b * f * s, $1
	}'
}

# limit NAME: the seconds test NAME may take
limit() {
	echo "$1" | limits | cut -d' ' -f1
}

# run_limited SECONDS NAME LOG CMD...: CMD with its output in LOG, ended
# when it takes longer than SECONDS; then "FTSDO-TIMEOUT NAME SECONDS" on
# the console and in "${FTSDO_RESULTS:-/results}"/timeouts.txt (the host's results name the
# test TIMEOUT).  The seconds it took go to "${FTSDO_RESULTS:-/results}"/test-times.txt
# (scripts/weights.sh).  CMD's exit status.
run_limited() {
	_lim=$1 _name=$2 _log=$3
	shift 3
	_t0=$(date +%s)
	timeout "$_lim" "$@" >"$_log" 2>&1
	_rc=$?
	echo "$(($(date +%s) - _t0)) $_name" >>"${FTSDO_RESULTS:-/results}"/test-times.txt
	if [ $_rc != 0 ] && [ $(($(date +%s) - _t0)) -ge "$_lim" ]; then
		echo "FTSDO-TIMEOUT $_name $_lim"
		echo "$_lim $_name" >>"${FTSDO_RESULTS:-/results}"/timeouts.txt
		echo "ftsdo: $_name ended after its limit of ${_lim}s" >>"$_log"
	fi
	return $_rc
}

# children PID: the PIDs whose parent is PID
children() {
	_pp=$1
	for _d in /proc/[0-9]*; do
		{ read -r _st <"$_d/stat"; } 2>/dev/null || continue
		_st=${_st##*) }
		# shellcheck disable=SC2086
		set -- $_st
		[ "$2" = "$_pp" ] && echo "${_d#/proc/}"
	done
}
# tree_of PID: PID's children, their children, ...
tree_of() {
	for _c in $(children "$1"); do
		echo "$_c"
		tree_of "$_c"
	done
}

# ftrace_watchdog PIDFILE LOGDIR CASES TAG: in the background while
# ftracetest (its PID in PIDFILE) runs: each case starts by creating its
# log, LOGDIR/<N>-<test>-log.*; when case N (CASES: "TAG N path" lines)
# runs longer than its limit, kill the processes under ftracetest (the
# case's subshell and what it started): ftracetest reports the case
# failed and goes on with the next one.  "FTSDO-TIMEOUT ftrace/path
# SECONDS" on the console and in "${FTSDO_RESULTS:-/results}"/timeouts.txt.
ftrace_watchdog() {
	_pf=$1 _ld=$2 _cases=$3 _tag=$4
	_lims=$(sed -n "s/^$_tag [0-9]* //p" "$_cases" | sed 's/ (instance)$//; s|^|ftrace/|' | limits |
		cut -d' ' -f1)
	_cur="" _t0=0
	while :; do
		sleep 3
		[ -s "$_pf" ] || continue
		read -r _p <"$_pf"
		kill -0 "$_p" 2>/dev/null || break
		# shellcheck disable=SC2012
		_n=$(ls "$_ld" 2>/dev/null | sed -n 's/^\([0-9]*\)-.*-log\..*/\1/p' | sort -n | tail -n 1)
		[ -n "$_n" ] || continue
		if [ "$_n" != "$_cur" ]; then
			_cur=$_n _t0=$(date +%s)
			_lim=$(echo "$_lims" | sed -n "${_n}p")
			continue
		fi
		[ -n "$_lim" ] && [ $(($(date +%s) - _t0)) -gt "$_lim" ] || continue
		_path=$(sed -n "s/^$_tag $_n //p" "$_cases")
		echo "FTSDO-TIMEOUT ftrace/$_path $_lim"
		echo "$_lim ftrace/$_path" >>"${FTSDO_RESULTS:-/results}"/timeouts.txt
		for _f in "$_ld/$_n"-*-log.*; do
			echo "ftsdo: ended after its limit of ${_lim}s" >>"$_f"
		done
		# shellcheck disable=SC2046
		kill -9 $(tree_of "$_p") 2>/dev/null
		_lim=""
	done
}
