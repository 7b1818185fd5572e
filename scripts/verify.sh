#!/bin/bash
# Check that patches/ applied to a fresh base gives exactly the scratch
# tree's HEAD: the same git tree object, and the same commit messages and
# notes (the notes of the copy go to refs/notes/verify, dropped after).
set -eu
. "$(dirname "$0")/lib.sh"
[ -d "$LINUX/.git" ] || die "no scratch tree at $LINUX: run make tree"
V=${VERIFY_DIR:-$BUILD/verify}
kgit worktree remove --force "$V" >/dev/null 2>&1 || rm -rf "$V"
kgit worktree prune
kgit worktree add -q --detach "$V" "$BASE_TAG"
kgit update-ref -d refs/notes/verify 2>/dev/null || true
GIT_NOTES_REF=refs/notes/verify apply_series_to "$V" ||
	die "patches/ does not apply to the base"
n=$(series_files | wc -l)
want=$(kgit rev-parse 'HEAD^{tree}')
got=$(git -C "$V" rev-parse 'HEAD^{tree}')
messages() { # GITDIR NOTES_REF
	GIT_NOTES_REF=$2 git -C "$1" log --format='%B%n-- notes --%n%N%n-- end --' \
		"$BASE_TAG..HEAD"
}
msgdiff=$(diff <(messages "$LINUX" refs/notes/commits) \
	<(messages "$V" refs/notes/verify) | head -n 20) || true
kgit worktree remove --force "$V"
kgit update-ref -d refs/notes/verify 2>/dev/null || true
if [ "$want" != "$got" ]; then
	echo "error: patches/ ($n patches) does not reproduce the scratch tree:" >&2
	echo "error: run make export, or rebuild the tree from patches/" >&2
	exit 1
fi
if [ -n "$msgdiff" ]; then
	echo "error: patches/ gives other commit messages or notes than the scratch tree:" >&2
	echo "$msgdiff" | sed 's/^/    /' >&2
	echo "error: run make export" >&2
	exit 1
fi
if [ -n "$(kgit status --porcelain --untracked-files=no)" ]; then
	echo "warning: the scratch tree has uncommitted changes, not in patches/" >&2
fi
log "verify: $n patches in $(series_dirs | wc -l) series reproduce the scratch tree (tree $want)"
