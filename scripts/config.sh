#!/bin/bash
# Make the .config for ARCH in its object directory: tinyconfig +
# configs/base.config + configs/$ARCH.config (+ configs/$ARCH-series.config
# unless BASE_BUILD=1), then olddefconfig.
# Fails when an option a fragment asks for did not stick.
# Usage: config.sh ARCH SRC OBJ
set -eu
. "$(dirname "$0")/lib.sh"

ARCH_NAME=$1 SRC=$2 OBJ=$3
case $ARCH_NAME in
x86_64) KARCH=x86_64; MAKEVARS="" ;;
arm64) KARCH=arm64; MAKEVARS="CROSS_COMPILE=aarch64-linux-gnu-" ;;
*) die "unknown arch $ARCH_NAME" ;;
esac
frags="$TOP/configs/base.config $TOP/configs/$ARCH_NAME.config"
# Options the series adds; the unpatched base (BASE_BUILD=1) has no such symbols.
if [ -z "${BASE_BUILD:-}" ] && [ -f "$TOP/configs/$ARCH_NAME-series.config" ]; then
	frags="$frags $TOP/configs/$ARCH_NAME-series.config"
fi
for f in ${EXTRA_CONFIG:-}; do frags="$frags $f"; done
mkdir -p "$OBJ"

# Skip when the fragments are older than the .config.
if [ -f "$OBJ/.config" ] && [ -z "$(find $frags -newer "$OBJ/.config")" ]; then
	exit 0
fi

kmake() { make -s -C "$SRC" O="$OBJ" ARCH=$KARCH $MAKEVARS "$@"; }
kmake tinyconfig >/dev/null
# shellcheck disable=SC2086
(cd "$OBJ" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config $frags >/dev/null)
kmake olddefconfig >/dev/null

bad=0
for f in $frags; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) ;;
		"# CONFIG_"*" is not set") ;;
		*) continue ;;
		esac
		if [ "${line#\# }" != "$line" ]; then
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=" "$OBJ/.config"; then
				echo "config: $opt is set but $(basename "$f") asks it off" >&2
				bad=1
			fi
		elif ! grep -qx "$line" "$OBJ/.config"; then
			opt=${line%%=*}
			have=$(grep -E "^($opt=|# $opt is not set)" "$OBJ/.config" || echo "$opt missing")
			echo "config: $(basename "$f") asks $line, got: $have" >&2
			bad=1
		fi
	done <"$f"
done
if [ $bad != 0 ]; then
	rm -f "$OBJ/.config"
	die "config for $ARCH_NAME did not take every fragment option (see above)"
fi
echo "== config: $ARCH_NAME from tinyconfig + $(echo $frags | xargs -n1 basename | xargs)"
