#!/bin/bash
# Prepare the scratch kernel tree build/linux:
#   - first commit = the Debian linux-source-6.12 base, tagged "base";
#   - then the series of patches/NN-name/, each as a cover commit and one
#     commit per patch (lib.sh apply_series_to).
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
	# Dated by the package's changelog, so that the base commit, and the
	# base-commit: line of the cover letters, is the same on every machine
	# with this package.
	date=$(zcat /usr/share/doc/linux-source-6.12/changelog.Debian.gz 2>/dev/null |
		sed -n '1,/^ -- /s/^ -- .*>  //p' | tail -n 1)
	date=$(date -u -d "${date:-@0}" -R)
	LINUX=$LINUX.tmp GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		kgit commit -q -m "Linux $(kversion "$LINUX.tmp") (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?'))"
	LINUX=$LINUX.tmp kgit tag "$BASE_TAG"
	mv "$LINUX.tmp" "$LINUX"
}

apply_series() {
	# Rebases and amends carry the notes along (see export.sh).
	kgit config notes.rewriteRef refs/notes/commits
	kgit reset -q --hard "$BASE_TAG"
	kgit clean -q -fdx
	if ! apply_series_to "$LINUX"; then
		kgit reset -q --hard "$BASE_TAG"
		echo "error: the scratch tree was reset to the base; fix or rebase that patch" >&2
		rm -f "$STAMP"
		exit 1
	fi
	echo "$(series_hash) $(kgit rev-parse HEAD)" >"$STAMP"
	log "applied $(series_files | wc -l) patches in $(series_dirs | wc -l) series from patches/"
}

mkdir -p "$BUILD"
if [ ! -d "$LINUX/.git" ]; then
	make_base
	apply_series
else
	kgit rev-parse -q --verify "$BASE_TAG" >/dev/null ||
		die "$LINUX exists but has no '$BASE_TAG' tag; remove it and rerun"
	want=$(series_hash)
	had="" head=""
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
log "base: Linux $(kversion "$LINUX") ($(kgit log -1 --format=%s "$BASE_TAG")), $(series_commits | wc -l) patches on top"
