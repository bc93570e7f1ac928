#!/bin/sh
# cc2-speed.sh ROUNDS: interleave Cold Clear 2 (built by build-cc2.sh) and
# Yomi's tetris/bot benchmark so that both see the same machine load, for
# the speed row of BENCHMARKS.md (issue 6). Each round: uptime, CC2 with 2
# and 1 search threads on the tetris/bot positions (yomi tetris tbp-speed,
# 100k nodes per position, polled), yomi bench tetris/bot/2t and /1t, and
# Yomi's own TBP server through the same harness. /usr/bin/time adds the
# CPU seconds (user+sys) of each bot process.
set -u
ROUNDS=${1:-3}
YOMI=${YOMI:-yomi}
CC2=${CC2:-/work/peers/cc2/bin}
T=/usr/bin/time
for r in $(seq "$ROUNDS"); do
  echo "== round $r $(uptime)"
  for w in 2 1; do
    rm -f /tmp/cc2-cpu.$$
    $YOMI tetris tbp-speed --bot "$T -f 'cpu %U+%S s' -o /tmp/cc2-cpu.$$ $CC2/cold-clear-2-w$w" | tail -1 | sed "s/^/cc2 w$w: /"
    if [ -s /tmp/cc2-cpu.$$ ]; then sed "s/^/cc2 w$w /" /tmp/cc2-cpu.$$; else echo "cc2 w$w cpu n/a"; fi
  done
  for t in 2 1; do
    $T -f "yomi ${t}t cpu %U+%S s" $YOMI bench tetris/bot/${t}t 2>&1 | grep -E "/nodes |/rate |cpu" | sed "s/^/yomi ${t}t: /"
  done
  $YOMI tetris tbp-speed --wait-ms 70 --bot "$YOMI tetris tbp --threads 2 --quiet" | tail -1 | sed "s/^/yomi-tbp 2t wait 70ms: /"
done
rm -f /tmp/cc2-cpu.$$
