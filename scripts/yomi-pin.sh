#!/bin/sh
# yomi-pin.sh: build the yomi binary of a commit once, as a pinned player
# for long matches that resume across sessions and machines.
#
#   scripts/yomi-pin.sh COMMIT [DEST]
#
# DEST defaults to $PEERS/yomi-COMMIT (PEERS: /work/peers). Nothing is
# built when DEST exists. Prints DEST. Run it from inside the repository.
set -eu
COMMIT=$1
DEST=${2:-${PEERS:-/work/peers}/yomi-$COMMIT}
if [ ! -x "$DEST" ]; then
	tmp=$(mktemp -d)
	trap 'git worktree remove --force "$tmp/src" 2>/dev/null; rm -rf "$tmp"' EXIT
	git worktree add -q --detach "$tmp/src" "$COMMIT"
	(cd "$tmp/src" && go build -o "$DEST" ./cmd/yomi)
fi
echo "$DEST"
