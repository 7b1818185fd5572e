#!/bin/bash
# Export the scratch tree's commits (base..HEAD) into patches/: one
# directory per series (patches/NN-name/), each with the cover letter made
# from its cover commit, its patches and a file "series" naming them.
# --zero-commit and --no-signature keep commit ids and the git version out
# of the files, so an unchanged series exports to unchanged files; the
# base-commit: line names the base commit, which tree.sh makes the same on
# every machine.  --notes writes each commit's git note (checkpatch
# findings and why they stay) below the "---" line: not part of the commit
# message, and given back to the commit by apply_series_to (lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"
[ -d "$LINUX/.git" ] || die "no scratch tree at $LINUX: run make tree"
if [ -n "$(kgit status --porcelain --untracked-files=no)" ]; then
	echo "warning: $LINUX has uncommitted changes; they are not exported" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# export_series NAME PREFIX COVER LAST: the series from cover commit COVER
# to commit LAST.
export_series() {
	local d=$tmp/$1 f
	[ "$(kgit rev-list --count "$3..$4")" -gt 0 ] ||
		die "series $1 has no patches (cover commit $(kgit rev-parse --short "$3"))"
	kgit format-patch -q --zero-commit --no-signature --stat=80 --notes \
		--cover-letter --base="$BASE_TAG" --subject-prefix="$2" \
		-o "$d" "$3..$4" >/dev/null
	kgit log -1 --format=%B "$3" >"$tmp/msg"
	"$TOP/scripts/cover.py" fill "$d/0000-cover-letter.patch" "$tmp/msg" \
		"$(kgit log -1 --format=%aD "$3")"
	for f in "$d"/[0-9]*.patch; do
		case $f in */0000-cover-letter.patch) ;; *) basename "$f" ;; esac
	done >"$d/series"
}

name="" prefix="" cover="" last="" n=0
for c in $(kgit rev-list --reverse "$BASE_TAG..HEAD"); do
	if info=$(is_cover_commit "$c"); then
		[ -z "$name" ] || export_series "$name" "$prefix" "$cover" "$last"
		read -r name prefix <<<"$info"
		[ ! -d "$tmp/$name" ] || die "two cover commits name the series $name"
		cover=$c last=$c
		continue
	fi
	[ -n "$name" ] || die "commit $(kgit log -1 --format='%h ("%s")' "$c") comes before the first cover commit"
	last=$c n=$((n + 1))
done
[ -z "$name" ] || export_series "$name" "$prefix" "$cover" "$last"

rm -rf "$PATCHES"/[0-9][0-9]-*/ "$PATCHES"/*.patch "$PATCHES/series"
mkdir -p "$PATCHES"
cp -r "$tmp"/[0-9][0-9]-*/ "$PATCHES/" 2>/dev/null || true
# The tree now matches patches/: record it so make does not re-apply.
echo "$(series_hash) $(kgit rev-parse HEAD)" >"$STAMP"
log "exported $n patches in $(series_dirs | wc -l) series to ${PATCHES#"$TOP"/}/"
