#!/bin/sh
# cc2-speed.sh ROUNDS: interleave Cold Clear 2 (built by build-cc2.sh) and
# Yomi's tetris/bot benchmark so that both see the same machine load, for
# the speed row of BENCHMARKS.md (issue 6). Each round: uptime, CC2 with 2
# and 1 search threads on the tetris/bot positions (yomi tetris tbp-speed,
# 100k nodes per position, polled), yomi bench tetris/bot/2t and /1t, and
# Yomi's own TBP server through the same harness. /usr/bin/time adds the
# CPU seconds (user+sys) of each bot process. At the end: each figure's
# median over the rounds, and the per-round ratios Yomi/CC2 (same round,
# so the same machine state) with their median, minimum and maximum.
set -u
ROUNDS=${1:-3}
YOMI=${YOMI:-yomi}
CC2=${CC2:-/work/peers/cc2/bin}
T=/usr/bin/time
OUT=$(mktemp)
trap 'rm -f "$OUT" /tmp/cc2-cpu.$$' EXIT
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
done | tee "$OUT"
# Summary: r<round> <name> <M nodes/s> lines, then medians and ratios.
awk '
/^== round/ { r = $3 }
/^cc2 w[12]: total/ { v = $0; sub(/.*= /, "", v); sub(/ M.*/, "", v); x[r, "cc2-" substr($2, 1, 2)] = v }
/^yomi [12]t: .*\/rate/ { t = $2; sub(/:/, "", t); x[r, "yomi-" t] = $4 / 1e6 }
/^yomi-tbp/ { v = $0; sub(/.*= /, "", v); sub(/ M.*/, "", v); x[r, "yomi-tbp-2t"] = v }
END {
  n = split("cc2-w2 cc2-w1 yomi-2t yomi-1t yomi-tbp-2t", k, " ")
  for (i = 1; i <= n; i++) { m = 0; for (j = 1; j <= r; j++) if ((j, k[i]) in x) a[++m] = x[j, k[i]]; med(k[i], a, m) }
  ratio("yomi 2t / cc2 2 threads", "yomi-2t", "cc2-w2")
  ratio("yomi 1t / cc2 1 thread", "yomi-1t", "cc2-w1")
  ratio("yomi tbp 2t / cc2 2 threads", "yomi-tbp-2t", "cc2-w2")
}
function ratio(name, num, den,   j, m, a) {
  m = 0
  for (j = 1; j <= r; j++) if ((j, num) in x && (j, den) in x && x[j, den] > 0) a[++m] = x[j, num] / x[j, den]
  med(name, a, m)
}
function med(name, a, m,   i, j, t, mid) {
  if (m == 0) return
  for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  mid = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  printf "summary %-28s median %.2f  min %.2f  max %.2f  (%d rounds)\n", name, mid, a[1], a[m], m
}' "$OUT"
