#!/bin/bash
# What make check prints about time (scripts/check-all.sh):
#   timing.sh facts            the host: cores, CPU model, memory, load
#                              average, steal time over the last second
#   timing.sh table FILE       the timing table FILE (build/results/
#                              timing.tsv: one line per package step,
#                              build and boot, lib.sh's timing_add) as
#                              columns, and the calibration factor
#   timing.sh steal            the host's CPU steal since boot, in percent
set -eu

# cpu_ticks: "total steal" jiffies of /proc/stat's cpu line
cpu_ticks() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t, $9; exit }' /proc/stat
}

case ${1:-} in
facts)
	read -r t0 s0 < <(cpu_ticks)
	sleep 1
	read -r t1 s1 < <(cpu_ticks)
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	echo "host: $(nproc) cores (${model:-unknown CPU}), $mem memory," \
		"load average $(cut -d' ' -f1-3 /proc/loadavg)," \
		"steal $(awk -v d=$((t1 - t0)) -v s=$((s1 - s0)) 'BEGIN { printf "%.1f", d ? 100 * s / d : 0 }')%" \
		"(last second), $(awk '/^MemAvailable:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) available," \
		"disk $(df -h "${2:-.}" | awk 'NR == 2 { print $4 }') free"
	;;
steal)
	read -r t s < <(cpu_ticks)
	awk -v d="$t" -v s="$s" 'BEGIN { printf "%.1f\n", d ? 100 * s / d : 0 }'
	;;
table)
	f=$2
	[ -f "$f" ] || { echo "timing: no $f"; exit 0; }
	awk -F'\t' '
	/^#/ { next }
	{
		n++; k[n] = $1; nm[n] = $2; st[n] = $3; s[n] = $4; r[n] = $5
		re[n] = $6; fa[n] = $7; be[n] = $8; cp[n] = $9
		if (first == "" || $3 < first) first = $3
		if ($3 + $4 > last) last = $3 + $4
		if ($1 == "boot") { bs += $4; if ($9 != "-") bc += $9 }
		if (length($2) > w) w = length($2)
	}
	END {
		printf "%-8s %-*s %7s %7s %7s %-8s %7s %6s %6s %6s\n", "step", w, "name", "from", "to",
			"seconds", "status", "retries", "factor", "begin", "cpu"
		for (i = 1; i <= n; i++)
			printf "%-8s %-*s %7d %7d %7d %-8s %7s %6s %6s %6s\n", k[i], w, nm[i],
				st[i] - first, st[i] - first + s[i], s[i], r[i], re[i], fa[i], be[i], cp[i]
		printf "wall %d s from the first step to the last; boots: %d guest-seconds", last - first, bs
		if (bc) printf ", %d CPU seconds (%.0f%% of %d cores over the boots'"'"' span)", bc,
			100 * bc / (bspan() * cores), cores
		printf "\n"
	}
	function bspan(   i, a, b) {
		for (i = 1; i <= n; i++) if (k[i] == "boot") {
			if (a == "" || st[i] < a) a = st[i]
			if (st[i] + s[i] > b) b = st[i] + s[i]
		}
		return (b > a) ? b - a : 1
	}' cores="$(nproc)" "$f"
	# The calibration factor: that of the first boot to start
	awk -F'\t' '$1 == "boot" && $7 != "-" { if (a == "" || $3 < a) { a = $3; l = $0 } }
		END { if (l != "") { split(l, x, "\t"); printf "calibration: factor %s (%s: FTSDO-BEGIN after %s s)\n", x[7], x[2], x[8] } }' "$f"
	;;
*)
	echo "usage: timing.sh facts [DIR] | steal | table FILE" >&2
	exit 2
	;;
esac
