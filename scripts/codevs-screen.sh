#!/bin/sh
# codevs-screen.sh: screen a CODE VS candidate against tanzaku at 180 s per
# player on the development pack sets (9000-9007, then 8000-8008: 17 pack
# sets, about 2.5 h), before its done-when matches (scripts/codevs-confirm.sh,
# pack seeds from 10000). Resumable: each match appends to its results file
# and skips the games it holds, so rerun the same command to go on.
#
#   scripts/codevs-screen.sh COMMIT TAG [AI FLAGS...]
#
# COMMIT  the yomi commit to play (a pinned /work/peers/yomi-COMMIT is built
#         from it when missing).
# TAG     names the results files: codevs/matches/tanzaku-180s-COMMIT-TAG-sSEED.jsonl
# FLAGS   extra flags for `yomi codevs ai -v` (none: the default).
# Env: PEERS (default /work/peers), LOGS (default /work/logs/games), STOP
# (default /work/logs/screen.stop: its existence ends the run after the
# match under way).
set -eu
COMMIT=$1
TAG=$2
shift 2
PEERS=${PEERS:-/work/peers}
LOGS=${LOGS:-/work/logs/games}
STOP=${STOP:-/work/logs/screen.stop}
Y=$PEERS/yomi-$COMMIT
if [ ! -x "$PEERS/tanzaku/test-ai" ]; then
	echo "codevs-screen.sh: $PEERS/tanzaku/test-ai missing: build it with scripts/peers/tanzaku.sh" >&2
	exit 2
fi
"$(dirname "$0")/yomi-pin.sh" "$COMMIT" "$Y" >/dev/null
for set in 9000:8 8000:9; do
	seed=${set%:*} n=${set#*:}
	echo "$(date -u +%T) tanzaku, pack seeds $seed+$n"
	"$Y" codevs match --p1 "$Y codevs ai -v $*" --p2 "$PEERS/tanzaku/test-ai" --name1 "yomi-$COMMIT-$TAG" --name2 tanzaku \
		--games "$n" --seed "$seed" --time-ms 180000 --sequential --concurrency 1 --quiet \
		--log-dir "$LOGS/s-$TAG-tanzaku-s$seed" --results "codevs/matches/tanzaku-180s-$COMMIT-$TAG-s$seed.jsonl"
	if [ -e "$STOP" ]; then
		echo "codevs-screen.sh: $STOP exists: stopped after pack seeds $seed+"
		exit 0
	fi
done
