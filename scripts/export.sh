#!/bin/bash
# Export the scratch tree's commits (base..HEAD) into patches/ and rewrite
# patches/series.  File names come from the subjects; --zero-commit and
# --no-signature keep commit ids and the git version out of the files, so
# an unchanged commit exports to an unchanged file.
set -eu
. "$(dirname "$0")/lib.sh"
[ -d "$LINUX/.git" ] || die "no scratch tree at $LINUX: run make tree"
if [ -n "$(kgit status --porcelain --untracked-files=no)" ]; then
	echo "warning: $LINUX has uncommitted changes; they are not exported" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kgit format-patch -q --zero-commit --no-signature -N --stat=80 -o "$tmp" \
	"$BASE_TAG..HEAD" >/dev/null
rm -f "$TOP"/patches/*.patch
mkdir -p "$TOP/patches"
: >"$TOP/patches/series.new"
for f in "$tmp"/*.patch; do
	[ -f "$f" ] || continue
	cp "$f" "$TOP/patches/"
	basename "$f" >>"$TOP/patches/series.new"
done
mv "$TOP/patches/series.new" "$TOP/patches/series"
# The tree now matches patches/: record it so make does not re-apply.
echo "$(series_hash) $(kgit rev-parse HEAD)" >"$STAMP"
log "exported $(wc -l <"$TOP/patches/series") patches to patches/"
