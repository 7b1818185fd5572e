#!/bin/bash
# Prepare the scratch kernel tree build/linux:
#   - first commit = the Debian linux-source-6.12 base, tagged "base";
#   - then patches/series applied with git am, one commit per patch.
#
# An existing tree is reused.  When patches/ changed since the tree was made
# and the tree holds no commits of its own, it is reset to the base and the
# series is applied again.  When the tree has commits that are not exported,
# it is left alone and a warning says so: that work is not in patches/ yet.
set -eu
. "$(dirname "$0")/lib.sh"

make_base() {
	[ -f "$BASE_TAR" ] || die "$BASE_TAR missing: run scripts/deps.sh"
	log "unpacking $(basename "$BASE_TAR") into $LINUX"
	rm -rf "$LINUX.tmp"
	mkdir -p "$LINUX.tmp"
	tar -C "$LINUX.tmp" --strip-components=1 -xJf "$BASE_TAR"
	git -C "$LINUX.tmp" init -q -b master
	# The base is committed as it is shipped, ignored files included.
	git -C "$LINUX.tmp" add -A -f .
	LINUX=$LINUX.tmp kgit commit -q -m "Linux $(kversion "$LINUX.tmp") (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?'))"
	LINUX=$LINUX.tmp kgit tag "$BASE_TAG"
	mv "$LINUX.tmp" "$LINUX"
}

apply_series() {
	local p n=0
	kgit reset -q --hard "$BASE_TAG"
	kgit clean -q -fdx
	for p in $(series_files); do
		[ -f "$PATCHES/$p" ] || die "${PATCHES#$TOP/}/series names $p, which does not exist"
		if ! kgit am -q --keep-cr "$PATCHES/$p" >"$BUILD/am.log" 2>&1; then
			kgit am --abort >/dev/null 2>&1 || true
			kgit reset -q --hard "$BASE_TAG"
			echo "error: patch does not apply: ${PATCHES#$TOP/}/$p" >&2
			sed 's/^/    /' "$BUILD/am.log" >&2
			echo "error: the scratch tree was reset to the base; fix or rebase ${PATCHES#$TOP/}/$p" >&2
			rm -f "$STAMP"
			exit 1
		fi
		n=$((n + 1))
	done
	echo "$(series_hash) $(kgit rev-parse HEAD)" >"$STAMP"
	log "applied $n patches from patches/series"
}

mkdir -p "$BUILD"
if [ ! -d "$LINUX/.git" ]; then
	make_base
	apply_series
else
	kgit rev-parse -q --verify "$BASE_TAG" >/dev/null ||
		die "$LINUX exists but has no '$BASE_TAG' tag; remove it and rerun"
	want=$(series_hash)
	had= head=
	[ -f "$STAMP" ] && read -r had head <"$STAMP"
	cur=$(kgit rev-parse HEAD)
	if [ "$had" = "$want" ] && [ "$head" = "$cur" ]; then
		:
	elif [ -z "$head" ] || [ "$head" = "$cur" ]; then
		log "patches/ changed: re-applying the series"
		apply_series
	else
		echo "warning: $LINUX has commits not exported to patches/ (make export);" >&2
		echo "warning: building the scratch tree as it is" >&2
	fi
fi
log "base: Linux $(kversion "$LINUX") ($(kgit log -1 --format=%s "$BASE_TAG")), $(kgit rev-list --count "$BASE_TAG"..HEAD) patches on top"
