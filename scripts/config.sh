#!/bin/bash
# Make the .config for ARCH in its object directory: tinyconfig +
# configs/base.config + configs/$ARCH.config (+ configs/$ARCH-series.config
# unless BASE_BUILD=1), then olddefconfig.
# Fails when an option a fragment asks for did not stick.
# SERIES_PREFIX=1: a prefix of the series (see below).
# Usage: config.sh ARCH SRC OBJ
set -eu
. "$(dirname "$0")/lib.sh"

arch_load "$1"
SRC=$2 OBJ=$3
frags="$TOP/configs/base.config $TOP/configs/$ARCH_NAME.config"
mkdir -p "$OBJ"
# Options the series adds; the unpatched base (BASE_BUILD=1) has no such symbols.
# A prefix of the series (SERIES_PREFIX=1, from series-check.sh) may not
# have them yet either: it gets only those whose symbol its Kconfig defines.
sf=$TOP/configs/$ARCH_NAME-series.config
if [ -z "${BASE_BUILD:-}" ] && [ -f "$sf" ]; then
	if [ -n "${SERIES_PREFIX:-}" ]; then
		while IFS= read -r line; do
			opt=$(echo "$line" | sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\)[= ].*/\2/p')
			if [ -n "$opt" ] && ! kconfig_has "$SRC" "$opt"; then
				echo "config: CONFIG_$opt is not in this prefix of the series: left out" >&2
				continue
			fi
			echo "$line"
		done <"$sf" >"$OBJ/series-prefix.config.new"
		if cmp -s "$OBJ/series-prefix.config.new" "$OBJ/series-prefix.config"; then
			rm "$OBJ/series-prefix.config.new"
		else
			mv "$OBJ/series-prefix.config.new" "$OBJ/series-prefix.config"
		fi
		sf=$OBJ/series-prefix.config
	fi
	frags="$frags $sf"
fi
for f in ${EXTRA_CONFIG:-}; do frags="$frags $f"; done

# Skip when the fragments are older than the .config.
if [ -f "$OBJ/.config" ] && [ -z "$(find $frags -newer "$OBJ/.config")" ]; then
	exit 0
fi

kmake "$SRC" "$OBJ" -s tinyconfig >/dev/null || die "make tinyconfig failed for $ARCH_NAME in $SRC"
# shellcheck disable=SC2086
(cd "$OBJ" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config $frags >/dev/null) ||
	die "merge_config.sh failed for $ARCH_NAME ($frags)"
kmake "$SRC" "$OBJ" -s olddefconfig >/dev/null || die "make olddefconfig failed for $ARCH_NAME"

bad=0
strict=$frags
if [ -n "${SERIES_PREFIX:-}" ] && [ "$sf" = "$OBJ/series-prefix.config" ]; then
	# A prefix can define a symbol whose dependencies a later patch
	# brings (arm64's batch sample before arm64 selects the shared ops):
	# what the series' fragment asks and the prefix cannot have is said,
	# not an error.  The whole series' build checks all of it.
	strict=$(echo " $frags " | sed "s| $sf | |")
	config_check "$OBJ" "$sf" 2>&1 | sed 's/$/ (not possible in this prefix)/' >&2
fi
# shellcheck disable=SC2086
config_check "$OBJ" $strict || bad=1
if [ $bad != 0 ]; then
	rm -f "$OBJ/.config"
	die "config for $ARCH_NAME did not take every fragment option (see above)"
fi
echo "== config: $ARCH_NAME from tinyconfig + $(echo $frags | xargs -n1 basename | xargs)"
