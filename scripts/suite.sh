#!/bin/bash
# Run one suite of configs/suites on one or more architectures and judge
# it.  Every row of the suite for those architectures boots in a guest of
# its own (scripts/qemu-run.sh), in one pool of GUESTS slots: the heaviest
# boot that can start (configs/boot-weights; scripts/suites.py lists the
# rows heaviest first) takes the next free slot, so the long boots do not
# end up last.  The rows of an architecture whose kernel is still being
# built (PENDING_BUILDS, by scripts/check-all.sh) wait for its
# build/results/ARCH-build.rc.  Then scripts/results.py compares each
# architecture's boots with that architecture's recorded base (series) or
# records them (base).
#
# Results: build/results/ARCH (suite check) or build/results/ARCH-SUITE,
# "-base" appended on the base; one directory per boot, check.tap, and
# "summary" with the line "N passed, N failed, N skipped".  Each boot
# appends its line to TIMING (build/results/timing.tsv).
# Knobs: GUESTS (slots, default 4), CHECK_TIMEOUT (a boot's limit before
# the calibration factor), EXTRA_APPEND (appended to every boot's command
# line), ONLY_BOOTS (boot names to run, the others left out), SUITE_ROWS
# (rows to run instead of the table's, as suites.py prints them: make
# check-one), JUDGE_ONLY (judge only these test names: make check-one),
# RESULTS (instead of build/results), REJUDGE (boot nothing: judge the
# results directories already there, make rejudge).
# Usage: suite.sh SUITE "ARCH..." [series|base]
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
SUITE=$1 SIDE=${3:-series}
read -r -a ARCHES <<<"$2"
case $SIDE in
series) OBJROOT=$BUILD/obj commit=$(kgit rev-parse HEAD) sfx="" ;;
base) OBJROOT=$BUILD/base/obj commit=$(kgit rev-parse "$BASE_TAG") sfx=-base ;;
*) die "usage: suite.sh SUITE \"ARCH...\" [series|base]" ;;
esac
export TIMING=${TIMING:-$BUILD/results/timing.tsv}
SLOTS=${GUESTS:-4}

# out_dir ARCH: the results directory of the suite's boots on ARCH
out_dir() {
	local o=${RESULTS:-$BUILD/results}/$1
	[ "$SUITE" = check ] || o=$o-$SUITE
	echo "$o$sfx"
}

# opt OPTS KEY [DEFAULT]: the value of KEY in a row's opts ("yes" for a
# bare KEY)
opt() {
	local o
	for o in ${1//,/ }; do
		case $o in
		"$2") echo yes; return ;;
		"$2"=*) echo "${o#*=}"; return ;;
		esac
	done
	echo "${3:-}"
}

# arch_state ARCH: ready, wait (its kernel is still being built) or failed
arch_state() {
	case " ${PENDING_BUILDS:-} " in
	*" $1 "*)
		local f=$BUILD/results/$1-build.rc
		[ -f "$f" ] || { echo wait; return; }
		[ "$(cat "$f")" = 0 ] && echo ready || echo failed
		;;
	*) echo ready ;;
	esac
}

if [ -n "${SUITE_ROWS:-}" ]; then
	mapfile -t ROWS <<<"$SUITE_ROWS"
else
	rows=$("$TOP/scripts/suites.py" rows "$SUITE" "${ARCHES[@]}") ||
		die "configs/suites: see above"
	mapfile -t ROWS <<<"$rows"
fi
if [ -n "${ONLY_BOOTS:-}" ]; then
	keep=()
	for r in "${ROWS[@]}"; do
		IFS=$'\t' read -r _ _ boot _ <<<"$r"
		case " $ONLY_BOOTS " in *" $boot "*) keep+=("$r") ;; esac
	done
	ROWS=("${keep[@]}")
fi
[ ${#ROWS[@]} -gt 0 ] && [ -n "${ROWS[0]}" ] ||
	die "configs/suites has no boot of suite '$SUITE' for ${ARCHES[*]}"
for a in "${ARCHES[@]}"; do
	mkdir -p "$(out_dir "$a")"
	rm -f "$(out_dir "$a")/summary"
	[ -n "${REJUDGE:-}" ] || echo "${JUDGE_ONLY:-}" >"$(out_dir "$a")/only.txt"
done
# REJUDGE: judge the results already there, as they were judged
[ -z "${REJUDGE:-}" ] || JUDGE_ONLY=$(cat "$(out_dir "${ARCHES[0]}")/only.txt" 2>/dev/null || true)

# start_row ROW: boot one row in the background; its results directory
# goes to dirs_ARCH, its expect= to the expects map.
declare -A expects=() dirs=() baserun=() subset=() basename=()
pids=()
start_row() {
	local arch kernel boot weight begin tests opts append obj needs out tmo bootline tools
	IFS=$'\t' read -r arch kernel boot weight begin tests opts append <<<"$1"
	obj=$OBJROOT/$arch
	[ "$kernel" = main ] || obj=$obj-$kernel
	out=$(out_dir "$arch")/$boot
	if [ -n "${REJUDGE:-}" ]; then
		[ -f "$out/manifest" ] || { log "$SUITE/$arch/$boot: no results in ${out#"$TOP"/}"; return 0; }
	else
		[ -f "$obj/rootfs.cpio.gz" ] || die "no kernel and rootfs in ${obj#"$TOP"/}: build it first"
	fi
	needs=$(opt "$opts" needs)
	if [ -z "${REJUDGE:-}" ] && [ -n "$needs" ] && ! grep -q "^CONFIG_$needs=y" "$obj/.config"; then
		log "$SUITE/$arch/$boot: not on this kernel (no CONFIG_$needs)"
		return 0
	fi
	basename[$arch]=$(opt "$opts" base "${basename[$arch]:-$arch}")
	[ -z "$(opt "$opts" subset)" ] || subset[$arch]=--subset
	[ -z "$(opt "$opts" base-run)" ] || baserun[$arch]=yes
	[ "$append" != - ] || append=""
	bootline=$append
	[ "$tests" = - ] || bootline="ftsdo.tests=$tests $append"
	tools=0
	case ,$tests, in *,tools,*) tools=1 ;; esac
	# The boot's limit before the factor: timeout=, CHECK_TIMEOUT, or three
	# times its weight (at least 900 s)
	tmo=$(opt "$opts" timeout "${CHECK_TIMEOUT:-}")
	[ -n "$tmo" ] || tmo=$((weight * 3 > 900 ? weight * 3 : 900))
	expects[$out]=$(opt "$opts" expect)
	if [ -n "${REJUDGE:-}" ]; then
		dirs[$arch]="${dirs[$arch]:-}$out "
		return 0
	fi
	SUITE=$SUITE BOOT=$boot VARIANT=$(opt "$opts" label) KERNEL_COMMIT=$commit \
		OBJ=$obj INITRD_TOOLS=$tools QEMU_MEM=$(opt "$opts" mem 2G) BOOT_APPEND=$bootline \
		BEGIN_REF=$begin \
		"$TOP/scripts/qemu-run.sh" "$arch" "$(opt "$opts" run check)" "$out" "$tmo" >&2 &
	pids+=($!)
	dirs[$arch]="${dirs[$arch]:-}$out "
}

# The pool: the heaviest row that can start takes a free slot; with none
# that can start, wait for a guest to end (or, while a build is pending,
# look again in a few seconds).
pending=("${ROWS[@]}")
while [ ${#pending[@]} -gt 0 ]; do
	started=0 waiting=0
	if [ "$(jobs -rp | wc -l)" -lt "$SLOTS" ]; then
		for i in "${!pending[@]}"; do
			IFS=$'\t' read -r arch _ boot _ <<<"${pending[$i]}"
			case $(arch_state "$arch") in
			wait) waiting=1; continue ;;
			failed)
				log "$SUITE/$arch/$boot: not run, the $arch build failed"
				unset "pending[$i]"
				continue
				;;
			esac
			start_row "${pending[$i]}"
			unset "pending[$i]"
			started=1
			break
		done
	fi
	pending=("${pending[@]}")
	[ $started = 0 ] || continue
	[ ${#pending[@]} -gt 0 ] || break
	if [ $waiting = 1 ] && [ "$(jobs -rp | wc -l)" -lt "$SLOTS" ]; then
		sleep 5
	elif [ -n "$(jobs -rp)" ]; then
		wait -n || true
	fi
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc = 0 ] || [ "$SIDE" != base ] ||
	echo "warning: the base run was not clean; recording what it gave" >&2

# Judge each architecture's boots
for arch in "${ARCHES[@]}"; do
	OUT=$(out_dir "$arch")
	read -r -a ds <<<"${dirs[$arch]:-}"
	if [ ${#ds[@]} = 0 ]; then
		[ "$SIDE" = base ] || echo "error: no boot of suite $SUITE ran on $arch" >&2
		rc=1
		continue
	fi
	arc=0
	# expect=RE: the console must show RE (a boot that must report a mode)
	for d in "${ds[@]}"; do
		want=${expects[$d]:-}
		[ -n "$want" ] || continue
		echo "$(grep -q "$want" "$d/console.log"; echo $?) harness/console-shows" >>"$d/harness.txt"
		grep -m1 "$want" "$d/console.log" | sed "s/^/== ${d##*/} boot: /" >&2 || true
	done
	# base-run: the kernel reports of each boot are judged against the
	# base's boots of the suite (results.py splats): only those the base
	# does not show fail.  qemu-run.sh failed the boot on any report; the
	# harness results of each boot say what failed.
	if [ -n "${baserun[$arch]:-}" ] && [ "$SIDE" = series ]; then
		bds=$(find "$OUT-base" -mindepth 2 -maxdepth 2 -name manifest -printf '%h,' 2>/dev/null)
		[ -n "$bds" ] || die "no base run in ${OUT#"$TOP"/}-base: run it first (suite.sh $SUITE $arch base)"
		for d in "${ds[@]}"; do
			log "kernel reports of ${d##*/}, against the base's:"
			"$TOP/scripts/results.py" splats --base "${bds%,}" "$d" >&2 || true
		done
	fi
	for d in "${ds[@]}"; do
		[ -f "$d/ftracetest.ktap" ] && grep '^# Totals' "$d/ftracetest.ktap" |
			sed "s|^# |ftracetest $arch/${d##*/}: |" >&2 || true
	done
	# The recorded base, or with base-run the base's run of this very suite
	BASELINE=$TOP/tests/baseline/${basename[$arch]:-$arch}.txt
	[ -z "${baserun[$arch]:-}" ] || BASELINE=$BUILD/results/$arch-$SUITE-base/baseline.txt
	if [ "$SIDE" = base ]; then
		mkdir -p "$(dirname "$BASELINE")"
		"$TOP/scripts/results.py" record --base "$BASELINE" "${ds[@]}" || rc=1
		continue
	fi
	[ -f "$BASELINE" ] || die "no recorded base results ${BASELINE#"$TOP"/}: run make baseline"
	only=()
	for t in ${JUDGE_ONLY:-}; do only+=(--only "$t"); done
	log "results: ${OUT#"$TOP"/}/check.tap (compared with ${BASELINE#"$TOP"/})"
	# shellcheck disable=SC2086
	"$TOP/scripts/results.py" check --base "$BASELINE" --tap "$OUT/check.tap" \
		${subset[$arch]:-} "${only[@]}" "${ds[@]}" | tee "$OUT/check.out" || arc=1
	tail -n 1 "$OUT/check.out" >"$OUT/summary"
	[ $arc = 0 ] || rc=1
done
exit $rc
