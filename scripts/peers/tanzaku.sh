#!/bin/sh
# tanzaku.sh: build tanzaku's CODE VS Reborn AI (qualifier 2nd, the likely champion) outside
# this repository, offline, for matches against our AI
# (yomi codevs match ... --p2 "$DEST/test-ai").
#
#   scripts/peers/tanzaku.sh [DEST]          (default DEST=/work/peers/tanzaku)
#
# Sources: two repositories at pinned commits, the AI's main crate and its library:
#   https://github.com/tanzaku/codevs-reborn      (binary "test-ai"; main.rs runs best_ai::BestAi)
#   https://github.com/tanzaku/codevs-reborn-lib  (the search; the main crate's path dependency
#                                                  "../codevs-reborn-lib")
# Set TANZAKU_SRC and TANZAKU_LIB_SRC to existing clones (or bare mirrors) to build without
# network access. None of their files are committed here: they are copied into DEST/src and
# built there.
#
# Build: cargo build --release --offline with the toolchain on PATH. The library has no
# dependencies; the main crate has one, rayon, and only as a dev-dependency (its #[test]s use
# par_iter). It is the one change: the copied Cargo.toml loses its [dev-dependencies] section
# (a sed below), since the release binary never uses it and rayon is not needed offline.
# Their .cargo/config only names linkers (x86_64-linux-gnu-gcc, Debian's gcc provides it) and
# sets no target CPU, so their bit-board's BMI2 pext is an out-of-line call (as that config builds);
# RUSTFLAGS='-C target-cpu=native' (passed through to cargo) would inline it.
#
# How to run it in a match: `DEST/test-ai` (no flags; it reports the name "test-best-ai"). It
# reads the remaining time from the protocol: 15-18 s searches while 30 s or more remain, 1 s
# below that, so it plays any --time-ms, but its strength is that of the contest's 180 s.
#
# A second binary, DEST/test-ai-fixed, is the same AI with one more change, for matches whose
# result must not depend on the machine's load: with TANZAKU_POPS_PER_S=R in its environment,
# each search stops after (its think time in ms) * R / 1000 states popped from its per-turn
# queues (each pop expands every action of one state, so pops measure work far more evenly than
# the main loop's iterations, whose rate varied 717-2 571 per s within one game) instead of at the
# think time (15-18 s, or 1 s below 30 s left). Its search is single-threaded and its random
# generator has a fixed seed, so such a game is the same on any machine at any load. Its own
# remaining time (it searches 1 s instead of 15-18 s below 30 s left, and 13 s in one case) then
# comes from a virtual clock too: TANZAKU_CLOCK_MS (default 180000) less the pops so far / R,
# not from the referee, so a loaded machine cannot change its moves (only, at worst, make it time
# out, which the referee reports). Without the variable it stops on the clock as test-ai does.
# Either way it prints "yomi-fixed: iter=I pops=P think_ms=T ms=M" to stderr after each search:
# R is measured from it.
set -eu
REPO_URL=https://github.com/tanzaku/codevs-reborn
LIB_URL=https://github.com/tanzaku/codevs-reborn-lib
COMMIT=fbfca1ce00a32db56efc326e7c9b278a68d9fa39
LIB_COMMIT=e94bdd0c2bd3240118036ba6bcd22946abb89da3
DEST=${1:-/work/peers/tanzaku}

# gitdir VAR URL NAME: the git directory to read, cloning URL into DEST/NAME when VAR is unset.
gitdir() {
	if [ -n "$1" ]; then
		echo "$1"
	else
		[ -d "$DEST/$3" ] || git clone --quiet --bare "$2" "$DEST/$3"
		echo "$DEST/$3"
	fi
}
mkdir -p "$DEST"
MAIN_GIT=$(gitdir "${TANZAKU_SRC:-}" "$REPO_URL" clone)
LIB_GIT=$(gitdir "${TANZAKU_LIB_SRC:-}" "$LIB_URL" clone-lib)

# A fresh copy each time (so the sed below always starts from their file). Only the sources
# and manifests: the repositories also hold jars and zips this build does not need.
rm -rf "$DEST/src"
mkdir -p "$DEST/src/codevs-reborn/src" "$DEST/src/codevs-reborn-lib/src"
# Works for a work-tree clone and a bare mirror alike.
for pair in "$MAIN_GIT:$COMMIT:codevs-reborn" "$LIB_GIT:$LIB_COMMIT:codevs-reborn-lib"; do
	g=${pair%%:*}
	rest=${pair#*:}
	c=${rest%%:*}
	d=$DEST/src/${rest#*:}
	git -C "$g" show "$c:Cargo.toml" >"$d/Cargo.toml"
	git -C "$g" archive "$c:src" | tar -x -C "$d/src"
done

cd "$DEST/src/codevs-reborn"
# build LOG: a quiet offline release build; its messages go to LOG, shown on failure.
build() {
	nice -n 10 cargo build --release --offline --quiet 2>"$1" || {
		cat "$1" >&2
		exit 1
	}
}
# The one change: no [dev-dependencies] (rayon, used only by their #[test]s; it is the last
# section of the file).
sed -i '/^\[dev-dependencies\]/,$d' Cargo.toml
build "$DEST/build.log"
cp target/release/test-ai "$DEST/test-ai"

# test-ai-fixed: rensa_plan.rs's loop test `milli >= context.think_time_in_milli` gains the
# pop budget described above, each pop from a queue is counted, and the commented-out report
# of the iteration count becomes the "yomi-fixed:" line. Each pattern is checked to occur
# exactly once: a source that no longer matches fails the build.
P=$DEST/src/codevs-reborn-lib/src/rensa_plan.rs
for pat in '^    let mut _iter = 0;$' 'if milli >= context.think_time_in_milli ||' \
	'if let Some(b) = heaps\[search_turn\].pop() {$' '^    // eprintln!("iter={}", _iter);$'; do
	[ "$(grep -c "$pat" "$P")" = 1 ] || {
		echo "tanzaku.sh: $P: '$pat' does not occur exactly once" >&2
		exit 1
	}
done
sed -i \
	-e 's|^    let mut _iter = 0;$|    let mut _iter: u64 = 0;\n    let mut _pops: u64 = 0;\n    let fixed_rate: Option<u64> = std::env::var("TANZAKU_POPS_PER_S").ok().and_then(\|s\| s.parse().ok());|' \
	-e 's|if milli >= context.think_time_in_milli \|\||if (match fixed_rate { Some(r) => _pops >= context.think_time_in_milli * r / 1000, None => milli >= context.think_time_in_milli }) \|\||' \
	-e 's|if let Some(b) = heaps\[search_turn\].pop() {$|if let Some(b) = heaps[search_turn].pop() { _pops += 1;|' \
	-e 's|^    // eprintln!("iter={}", _iter);$|    eprintln!("yomi-fixed: iter={} pops={} think_ms={} ms={}", _iter, _pops, context.think_time_in_milli, timer.elapsed().as_millis());|' \
	"$P"
# The virtual remaining time: a process-wide count of pops (YOMI_POPS, added to after each search)
# and, in best_ai.rs, the remaining time read from the protocol replaced by the virtual one.
B=$DEST/src/codevs-reborn-lib/src/best_ai.rs
[ "$(grep -c '^        self.rest_time_in_milli = self.read1::<usize>();$' "$B")" = 1 ] || {
	echo "tanzaku.sh: $B: the remaining-time read does not occur exactly once" >&2
	exit 1
}
sed -i 's|^    eprintln!("yomi-fixed: |    YOMI_POPS.fetch_add(_pops, std::sync::atomic::Ordering::Relaxed);\n    eprintln!("yomi-fixed: |' "$P"
printf '\n// Added by yomi scripts/peers/tanzaku.sh: pops of all searches (the virtual clock).\npub static YOMI_POPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);\n' >>"$P"
sed -i 's|^        self.rest_time_in_milli = self.read1::<usize>();$|        self.rest_time_in_milli = self.read1::<usize>();\n        if let Some(r) = std::env::var("TANZAKU_POPS_PER_S").ok().and_then(\|s\| s.parse::<u64>().ok()).filter(\|\&r\| r > 0) { let total = std::env::var("TANZAKU_CLOCK_MS").ok().and_then(\|s\| s.parse::<u64>().ok()).unwrap_or(180000); self.rest_time_in_milli = total.saturating_sub(rensa_plan::YOMI_POPS.load(std::sync::atomic::Ordering::Relaxed) * 1000 / r) as usize; }|' "$B"
build "$DEST/build-fixed.log"
cp target/release/test-ai "$DEST/test-ai-fixed"
echo "built $DEST/test-ai from $REPO_URL@$COMMIT and $LIB_URL@$LIB_COMMIT ($(rustc --version))"
echo "built $DEST/test-ai-fixed (TANZAKU_POPS_PER_S=R: a fixed amount of work per search)"
echo "run line: $DEST/test-ai"
