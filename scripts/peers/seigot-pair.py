#!/usr/bin/env python3
"""Pair two seigot results files seed by seed: OURS minus THEIRS.

    scripts/peers/seigot-pair.py OURS.jsonl THEIRS.jsonl [--json]

Each file holds one game per line, either as `yomi seigot play --results FILE` writes it
({"seed":..,"info":{"score":..,"gameovers":..}}) or as scripts/peers/seigot-winner.sh
writes it ({"seed":..,"score":..,"game_overs":..}). Only seeds present in both count.
Prints n, both means, the mean paired difference with its 95 % t interval, wins/losses
and game overs on each side. Standard library only.
"""
import json
import math
import sys

# Two-sided 95 % quantiles of Student's t by degrees of freedom (1-30), then 1.96 beyond.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def load(path):
    games = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError as e:
                sys.exit("%s:%d: not JSON: %s" % (path, n, e))
            g = r.get("info", r)
            if "seed" not in g or "score" not in g:
                sys.exit("%s:%d: no seed or score" % (path, n))
            games[int(g["seed"])] = (g["score"], g.get("gameovers", g.get("game_overs", 0)))
    return games


def main(argv):
    args = [a for a in argv if a != "--json"]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    ours, theirs = load(args[0]), load(args[1])
    seeds = sorted(set(ours) & set(theirs))
    n = len(seeds)
    if n < 2:
        sys.stderr.write("only %d seed(s) in both files\n" % n)
        return 1
    d = [ours[s][0] - theirs[s][0] for s in seeds]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    half = (T95[n - 2] if n - 1 <= len(T95) else 1.96) * sd / math.sqrt(n)
    out = {"n": n, "seeds": [seeds[0], seeds[-1]],
           "ours_mean": round(sum(ours[s][0] for s in seeds) / n, 1),
           "theirs_mean": round(sum(theirs[s][0] for s in seeds) / n, 1),
           "diff": round(mean, 1), "ci95": [round(mean - half, 1), round(mean + half, 1)],
           "wins": sum(x > 0 for x in d), "losses": sum(x < 0 for x in d),
           "ours_gameovers": sum(ours[s][1] for s in seeds),
           "theirs_gameovers": sum(theirs[s][1] for s in seeds)}
    out["lo"], out["hi"] = out["ci95"]
    if "--json" in argv:
        del out["lo"], out["hi"]
        print(json.dumps(out))
    else:
        print("n=%(n)d ours %(ours_mean).0f theirs %(theirs_mean).0f diff %(diff)+.0f "
              "95%% [%(lo).0f, %(hi).0f] W%(wins)d/L%(losses)d game overs ours %(ours_gameovers)d "
              "theirs %(theirs_gameovers)d" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
