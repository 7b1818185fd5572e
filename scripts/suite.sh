#!/bin/bash
# Run one suite of configs/suites on ARCH and judge it: every row of the
# suite for ARCH boots in a guest of its own (scripts/qemu-run.sh), GUESTS
# at a time (default 4: TCG guests on a 2-core host leave a core idle
# whenever one waits), then scripts/results.py compares all their results
# with the base's recorded ones (series) or records them (base).
#
# Results: build/results/ARCH (suite check) or build/results/ARCH-SUITE,
# "-base" appended on the base; one directory per boot, check.tap, and
# "summary" with the line "N passed, N failed, N skipped".
# The kernels must be built already (by make, or the target's script).
# Knobs: GUESTS, CHECK_TIMEOUT (the default time limit of a boot),
# EXTRA_APPEND (appended to every boot's command line).
# Usage: suite.sh SUITE ARCH [series|base]
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
SUITE=$1 SIDE=${3:-series}
arch_load "$2"
TABLE=$TOP/configs/suites
case $SIDE in
series) OBJROOT=$BUILD/obj commit=$(kgit rev-parse HEAD) sfx="" ;;
base) OBJROOT=$BUILD/base/obj commit=$(kgit rev-parse "$BASE_TAG") sfx=-base ;;
*) die "usage: suite.sh SUITE ARCH [series|base]" ;;
esac
OUT=$BUILD/results/$ARCH_NAME
[ "$SUITE" = check ] || OUT=$OUT-$SUITE
OUT=$OUT$sfx

# The rows of SUITE for ARCH, named lists expanded: one line each,
# "kernel boot tests opts append".
rows() {
	local line name value s a kernel boot tests opts append sh
	declare -A lists=()
	while IFS= read -r line; do
		case $line in "#"* | "") continue ;; esac
		if [[ $line =~ ^@([A-Za-z0-9_-]+)\ *=\ *(.*)$ ]]; then
			lists[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
			continue
		fi
		read -r s a kernel boot tests opts append <<<"$line"
		[ "$s" = "$SUITE" ] || continue
		[ "$a" = "$ARCH_NAME" ] || [ "$a" = "*" ] || continue
		value=""
		for name in ${tests//,/ }; do
			case $name in
			@*)
				# @list@K/N: the list, sharded (guest/check.sh
				# takes the suffix of any ftrace selector for
				# the whole selection)
				sh=""
				case ${name#@} in *@*) sh=@${name##*@} name=${name%@*} ;; esac
				[ -n "${lists[${name#@}]:-}" ] ||
					die "configs/suites: no list ${name} (suite $SUITE, boot $boot)"
				name=${lists[${name#@}]}
				[ -z "$sh" ] || name=${name%%,*}$sh${name#"${name%%,*}"}
				;;
			esac
			value=$value${value:+,}$name
		done
		echo "$kernel $boot $value $opts $append"
	done <"$TABLE"
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

mapfile -t ROWS < <(rows)
[ ${#ROWS[@]} -gt 0 ] || die "configs/suites has no boot of suite '$SUITE' for $ARCH_NAME"
base=$ARCH_NAME subset="" baserun="" dirs=() pids=() expects=()
mkdir -p "$OUT"
rm -f "$OUT/summary"
rc=0
for row in "${ROWS[@]}"; do
	read -r kernel boot tests opts append <<<"$row"
	obj=$OBJROOT/$ARCH_NAME
	[ "$kernel" = main ] || obj=$obj-$kernel
	[ -f "$obj/rootfs.cpio.gz" ] || die "no kernel and rootfs in ${obj#$TOP/}: build it first"
	needs=$(opt "$opts" needs)
	if [ -n "$needs" ] && ! grep -q "^CONFIG_$needs=y" "$obj/.config"; then
		log "$SUITE/$boot: not on this kernel (no CONFIG_$needs)"
		continue
	fi
	base=$(opt "$opts" base "$base")
	[ -z "$(opt "$opts" subset)" ] || subset=--subset
	[ -z "$(opt "$opts" base-run)" ] || baserun=yes
	[ "$append" != - ] || append=""
	bootline=$append
	[ "$tests" = - ] || bootline="ftsdo.tests=$tests $append"
	tools=0
	case ,$tests, in *,tools,*) tools=1 ;; esac
	# A free guest slot
	while [ "$(jobs -rp | wc -l)" -ge "${GUESTS:-4}" ]; do
		wait -n || true
	done
	SUITE=$SUITE BOOT=$boot VARIANT=$(opt "$opts" label) KERNEL_COMMIT=$commit \
		OBJ=$obj INITRD_TOOLS=$tools QEMU_MEM=$(opt "$opts" mem 2G) BOOT_APPEND=$bootline \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" "$(opt "$opts" run check)" "$OUT/$boot" \
		"$(opt "$opts" timeout "${CHECK_TIMEOUT:-3000}")" >&2 &
	pids+=($!)
	dirs+=("$OUT/$boot")
	expects+=("$(opt "$opts" expect)")
done
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
# expect=RE: the console must show RE (a boot that must report a mode)
for i in "${!dirs[@]}"; do
	want=${expects[$i]}
	[ -n "$want" ] || continue
	d=${dirs[$i]}
	echo "$(grep -q "$want" "$d/console.log"; echo $?) harness/console-shows" >>"$d/harness.txt"
	grep -m1 "$want" "$d/console.log" | sed "s/^/== ${d##*/} boot: /" >&2 || true
done
# base-run: the kernel reports of each boot are judged against the base's
# boots of the suite (results.py splats): only those the base does not
# show fail.  qemu-run.sh failed the boot on any report; the harness
# results of each boot say what failed.
if [ -n "$baserun" ] && [ "$SIDE" = series ]; then
	rc=0
	bds=$(find "$OUT-base" -mindepth 2 -maxdepth 2 -name manifest -printf '%h,' 2>/dev/null)
	[ -n "$bds" ] || die "no base run in ${OUT#$TOP/}-base: run it first (suite.sh $SUITE $ARCH_NAME base)"
	for d in "${dirs[@]}"; do
		log "kernel reports of ${d##*/}, against the base's:"
		"$TOP/scripts/results.py" splats --base "${bds%,}" "$d" >&2 || true
	done
fi
for d in "${dirs[@]}"; do
	[ -f "$d/ftracetest.ktap" ] && grep '^# Totals' "$d/ftracetest.ktap" |
		sed "s|^# |ftracetest ${d##*/}: |" >&2 || true
done

# The recorded base, or with base-run the base's run of this very suite
BASELINE=$TOP/tests/baseline/$base.txt
[ -z "$baserun" ] || BASELINE=$BUILD/results/$ARCH_NAME-$SUITE-base/baseline.txt
if [ "$SIDE" = base ]; then
	[ $rc = 0 ] || echo "warning: the base run was not clean; recording what it gave" >&2
	mkdir -p "$(dirname "$BASELINE")"
	"$TOP/scripts/results.py" record --base "$BASELINE" "${dirs[@]}"
	exit
fi
[ -f "$BASELINE" ] || die "no recorded base results ${BASELINE#$TOP/}: run make baseline"
log "results: ${OUT#$TOP/}/check.tap (compared with ${BASELINE#$TOP/})"
"$TOP/scripts/results.py" check --base "$BASELINE" --tap "$OUT/check.tap" $subset "${dirs[@]}" |
	tee "$OUT/check.out" || rc=1
tail -n 1 "$OUT/check.out" >"$OUT/summary"
exit $rc
