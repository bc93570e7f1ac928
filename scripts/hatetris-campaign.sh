#!/bin/sh
# hatetris-campaign.sh: run a committed HATETRIS training campaign one
# generation at a time, committing each finished generation (its net, game,
# learn log, gzipped targets and the summary table) to the current branch,
# so that any later session (any machine) resumes it from the repository.
#
#   scripts/hatetris-campaign.sh DIR UNTIL [train flags…]
#
# DIR     the campaign directory (e.g. hatetris/campaigns/c1); it must hold a
#         config.json (start it once with `yomi hatetris train --dir DIR …
#         --gens 0` and commit it) — the settings come from there.
# UNTIL   the generation to stop after.
# Extra flags go to `yomi hatetris train` (e.g. --workers 2, --nats URL).
# YOMI    the yomi binary (default: go run ./cmd/yomi, built once to /tmp).
#
# Stopping it (Ctrl-C, kill) at any moment loses at most the generation
# under way, and not even that on this machine: its checkpoints stay in DIR
# (git-ignored) and the next run of this script resumes them.
set -eu
DIR=$1
UNTIL=$2
shift 2
if [ ! -f "$DIR/config.json" ]; then
	echo "hatetris-campaign.sh: $DIR/config.json missing: start the campaign with yomi hatetris train --dir $DIR --gens 0" >&2
	exit 2
fi
if [ -z "${YOMI:-}" ]; then
	YOMI=/tmp/yomi-campaign.$$
	go build -o "$YOMI" ./cmd/yomi
fi
# The generation whose net exists last is the one to finish next.
g=0
while [ -f "$DIR/gen-$(printf %03d $((g + 1)))/net.yomi" ]; do
	g=$((g + 1))
done
while [ "$g" -lt "$UNTIL" ]; do
	g=$((g + 1))
	"$YOMI" hatetris train --resume "$DIR" --gens "$g" "$@" >/dev/null
	lines=$(sed -n "s/^ *$g  *\([0-9]*\) .*/\1/p" "$DIR/summary.txt")
	git add -- "$DIR"
	git commit -q -m "hatetris campaign $(basename "$DIR"): generation $g (its search: $lines lines)" -- "$DIR"
	echo "generation $g committed ($lines lines)"
done
