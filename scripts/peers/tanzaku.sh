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
# The one change: no [dev-dependencies] (rayon, used only by their #[test]s; it is the last
# section of the file).
sed -i '/^\[dev-dependencies\]/,$d' Cargo.toml
nice -n 10 cargo build --release --offline --quiet 2>"$DEST/build.log" || {
	cat "$DEST/build.log" >&2
	exit 1
}
cp target/release/test-ai "$DEST/test-ai"
echo "built $DEST/test-ai from $REPO_URL@$COMMIT and $LIB_URL@$LIB_COMMIT ($(rustc --version))"
echo "run line: $DEST/test-ai"
