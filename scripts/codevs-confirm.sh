#!/bin/sh
# codevs-confirm.sh: issue 27's done-when matches at 180 s per player, played
# round-robin so that every opponent's figure grows together: each round
# plays 2 pack sets against tanzaku and 1 each against togatoga, kera and
# ysai (the ratio of the 50 / 25 / 25 / 25 pairs asked for). Every match
# appends to its results file under codevs/matches/ and resumes from it, so
# a stop at any moment loses at most the game under way; rerun the same
# command (on any machine with the peers built) to go on.
#
#   scripts/codevs-confirm.sh COMMIT [ROUND]
#
# COMMIT  the yomi commit whose default `yomi codevs ai` plays (a pinned
#         binary /work/peers/yomi-COMMIT is built from it when missing).
# ROUND   the round to start at (default 1; finished games are skipped
#         whatever it is, so 1 is always safe).
# Env: SEED (first pack seed, default 9000), PEERS (default /work/peers,
# built by scripts/peers/*.sh), LOGS (per-game logs, default
# /work/logs/games; not committed), STOP (a file whose existence ends the
# run after the match under way, default /work/logs/confirm.stop).
#
# Results: codevs/matches/OPP-180s-COMMIT-sSEED.jsonl; read them with
# `yomi arena report FILE` or `yomi codevs replay --timeline LOGS/...`.
set -eu
COMMIT=$1
ROUND=${2:-1}
SEED=${SEED:-9000}
PEERS=${PEERS:-/work/peers}
LOGS=${LOGS:-/work/logs/games}
STOP=${STOP:-/work/logs/confirm.stop}
Y=$PEERS/yomi-$COMMIT
for p in tanzaku/test-ai togatoga/togatog_ai kera/kera ysai/ysai; do
	if [ ! -x "$PEERS/$p" ]; then
		echo "codevs-confirm.sh: $PEERS/$p missing: build it with scripts/peers/$(dirname $p).sh" >&2
		exit 2
	fi
done
"$(dirname "$0")/yomi-pin.sh" "$COMMIT" "$Y" >/dev/null
while [ "$ROUND" -le 50 ]; do
	for opp in tanzaku togatoga kera ysai; do
		case $opp in
		tanzaku) cmd=$PEERS/tanzaku/test-ai n=$((2 * ROUND)) max=50 ;;
		togatoga) cmd=$PEERS/togatoga/togatog_ai n=$ROUND max=25 ;;
		kera) cmd=$PEERS/kera/kera n=$ROUND max=25 ;;
		ysai) cmd="$PEERS/ysai/ysai -ut" n=$ROUND max=25 ;;
		esac
		[ "$n" -gt "$max" ] && continue
		echo "$(date -u +%T) round $ROUND: $opp, pack sets to $n"
		"$Y" codevs match --p1 "$Y codevs ai -v" --p2 "$cmd" --name1 "yomi-$COMMIT" --name2 $opp \
			--games "$n" --seed "$SEED" --time-ms 180000 --sequential --concurrency 1 --quiet \
			--log-dir "$LOGS/$opp-s$SEED" --results "codevs/matches/$opp-180s-$COMMIT-s$SEED.jsonl"
		if [ -e "$STOP" ]; then
			echo "codevs-confirm.sh: $STOP exists: stopped after round $ROUND, $opp"
			exit 0
		fi
	done
	ROUND=$((ROUND + 1))
done
