#!/bin/sh
# seigot-winner.sh: run the 2023 seigot/tetris contest winner's controllers (mattshamrock,
# branches level_2 and level_3) in the REAL game (seigot/tetris, PyQt6, headless), outside
# this repository, on a list of seeds, and write one JSON line per game.
#
#   scripts/peers/seigot-winner.sh LEVEL OUT.jsonl SEED...      (LEVEL 2 or 3)
#   scripts/peers/seigot-winner.sh 3 /tmp/w3.jsonl $(seq 1001 1040)
#
# Each line: {"level":L,"seed":S,"score":…,"lines":…,"line_stat":[n1,n2,n3,n4],
# "game_overs":…,"blocks":…,"all_clears":…,"wall_s":…}. A seed already in OUT is skipped,
# so a killed run resumes. Games run one at a time (the controller is single-threaded Python);
# run the script under nice and start two for two cores.
#
# Setup (once, under DEST=/work/peers/seigot unless SEIGOT_PEERS is set):
#   - the game: seigot/tetris at the pinned commit (the version our engine reproduces, README
#     "seigot/tetris"), from a clone or bare mirror in SEIGOT_SRC (else cloned);
#   - the winner: game_manager/block_controller.py from mattshamrock/tetris at the pinned
#     level_2 / level_3 commits (MATT_SRC likewise), copied over the game's own controller in a
#     per-level copy of the game (DEST/game-l2, DEST/game-l3). Nothing else of his is used.
#   - Python: Debian's python3-numpy (1.24.2, as the spec's vectors) and python3-pyqt6, run by
#     /usr/bin/python3 (PyPI is not needed).
# None of their files are committed here.
#
# SEIGOT_CONTROLLER=yomi runs OUR AI instead, through seigot/bridge/block_controller.py (this
# repository's bridge) in the same game and rules, with YOMI_BIN (default: yomi on PATH) and
# YOMI_ARGS passed on: a check that `yomi seigot play` scores what the real game scores.
#
# Contest rules: game_manager.py is started directly (as start.py would for the level) with
# the level's obstacles (level 3: 10 rows, 40 %), drop interval 1 ms, 180 pieces, the all-clear
# bonus 0 (the March-2023 contest had none; the current start.py adds 500 / 4000) and a game
# time of 10^6 s so that only the piece cap ends a game (the Python search would otherwise run
# out of the 180 s wall clock on a loaded machine). Compare with `yomi seigot play --level L
# --seed S` (contest rules by default).
set -eu
SEIGOT_URL=https://github.com/seigot/tetris
SEIGOT_COMMIT=d8298277199ab5c6b9e70e91dd7f37525a5b2855
MATT_URL=https://github.com/mattshamrock/tetris
MATT_L2=0b2384499f147190ab2c3523f597108af219c299
MATT_L3=43a4fdcde99bc071faaf1f88230e48e61ff811a7
DEST=${SEIGOT_PEERS:-/work/peers/seigot}
PY=${SEIGOT_PYTHON:-/usr/bin/python3}

usage() {
	echo "usage: $0 LEVEL OUT.jsonl SEED..." >&2
	exit 2
}
[ $# -ge 3 ] || usage
LEVEL=$1
OUT=$2
shift 2
case $LEVEL in
2) MATT=$MATT_L2 OBS_H=0 OBS_P=0 ;;
3) MATT=$MATT_L3 OBS_H=10 OBS_P=40 ;;
*) echo "$0: level must be 2 or 3, not $LEVEL" >&2; exit 2 ;;
esac
for s in "$@"; do
	case $s in '' | *[!0-9]*) echo "$0: seed must be a non-negative integer, not $s" >&2; exit 2 ;; esac
done

if ! "$PY" -c 'import numpy, PyQt6.QtWidgets' 2>/dev/null; then
	apt-get install -y --no-install-recommends python3-numpy python3-pyqt6 >/dev/null
fi

mirror() { # URL SRCVAR-value DIR -> a git dir holding URL
	if [ -n "$2" ]; then
		echo "$2"
	else
		[ -d "$3" ] || git clone --quiet --bare "$1" "$3"
		echo "$3"
	fi
}
GAME=$DEST/game-l$LEVEL
PIN="$SEIGOT_COMMIT $MATT"
if [ "${SEIGOT_CONTROLLER:-winner}" = yomi ]; then
	GAME=$DEST/game-yomi
	BRIDGE=$(cd "$(dirname "$0")/../.." && pwd)/seigot/bridge/block_controller.py
	PIN="$SEIGOT_COMMIT $(sha256sum <"$BRIDGE")"
elif [ "${SEIGOT_CONTROLLER:-winner}" != winner ]; then
	echo "$0: SEIGOT_CONTROLLER must be winner or yomi" >&2
	exit 2
fi
if [ ! -f "$GAME/.pinned" ] || [ "$(cat "$GAME/.pinned")" != "$PIN" ]; then
	mkdir -p "$DEST"
	SG=$(mirror "$SEIGOT_URL" "${SEIGOT_SRC:-}" "$DEST/seigot-tetris.git")
	MG=$(mirror "$MATT_URL" "${MATT_SRC:-}" "$DEST/mattshamrock-tetris.git")
	rm -rf "$GAME"
	mkdir -p "$GAME"
	git -C "$SG" archive "$SEIGOT_COMMIT" | tar -x -C "$GAME"
	if [ "$GAME" = "$DEST/game-yomi" ]; then
		cp "$BRIDGE" "$GAME/game_manager/block_controller.py"
		echo "set up $GAME: $SEIGOT_URL@$SEIGOT_COMMIT with our bridge" >&2
	else
		git -C "$MG" show "$MATT:game_manager/block_controller.py" >"$GAME/game_manager/block_controller.py"
		echo "set up $GAME: $SEIGOT_URL@$SEIGOT_COMMIT with $MATT_URL@$MATT (level_$LEVEL) controller" >&2
	fi
	echo "$PIN" >"$GAME/.pinned"
fi

touch "$OUT"
for SEED in "$@"; do
	if grep -q "\"seed\":$SEED," "$OUT"; then
		continue
	fi
	RES=$(mktemp "${TMPDIR:-/tmp}/seigot-winner.XXXXXX.json")
	T0=$(date +%s.%N)
	(cd "$GAME" && QT_QPA_PLATFORM=offscreen "$PY" game_manager/game_manager.py \
		--game_time 1000000 --seed "$SEED" --obstacle_height $OBS_H \
		--obstacle_probability $OBS_P --all_block_clear_score 0 --drop_interval 1 \
		--mode default --nextShapeMode default --user_name "${SEIGOT_CONTROLLER:-winner}" \
		--resultlogjson "$RES" --ShapeListMax 6 --BlockNumMax 180 \
		--train_yaml config/default.yaml --predict_weight outputs/latest/best_weight.pt \
		--art_config_filepath default.json >"$RES.log" 2>&1) || {
		echo "$0: level $LEVEL seed $SEED: the game failed (log: $RES.log)" >&2
		exit 1
	}
	T1=$(date +%s.%N)
	"$PY" - "$RES" "$LEVEL" "$SEED" "$T0" "$T1" >>"$OUT" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
j, d = r["judge_info"], r["debug_info"]
print(json.dumps({"level": int(sys.argv[2]), "seed": int(sys.argv[3]), "score": j["score"],
                  "lines": j["line"], "line_stat": d["line_score_stat"],
                  "game_overs": j["gameover_count"], "blocks": j["block_index"],
                  "all_clears": j["all_block_clear_count"],
                  "wall_s": round(float(sys.argv[5]) - float(sys.argv[4]), 1)},
                 separators=(",", ":")))
EOF
	rm -f "$RES" "$RES.log"
done
