#!/bin/sh
# tetris-bot-ab.sh ROUNDS BIN...: interleave `yomi bench tetris/bot/1t` and
# `/2t` for several yomi binaries (A/B of bot changes, BENCHMARKS issue-6
# rows), each run under /usr/bin/time for its CPU seconds (user+sys); one
# line per run: binary, threads, rate, CPU.
set -u
ROUNDS=$1
shift
for r in $(seq "$ROUNDS"); do
  echo "== round $r $(uptime)"
  for bin in "$@"; do
    for t in 1 2; do
      /usr/bin/time -f "cpu %U+%S" "$bin" bench tetris/bot/${t}t 2>&1 | grep -E "/rate |cpu" | tr '\n' ' ' | sed "s|^|$bin ${t}t: |"
      echo
    done
  done
done
