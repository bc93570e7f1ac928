#!/bin/sh
# kera.sh: build kera's CODE VS Reborn AI (Java; qualifier 5th, tied with ysgeso) outside this
# repository, for matches against our AI (yomi codevs match ... --p2 "$DEST/kera").
#
#   scripts/peers/kera.sh [DEST]          (default DEST=/work/peers/kera)
#
# Sources: https://github.com/kera6rhy/codevs_reborn at the pinned commit below (its only
# commit: seven .java files in the default package, Main is the entry point). Set KERA_SRC to
# an existing clone (or a bare mirror) to build without network access. None of its files are
# committed here: they are copied into DEST/src and compiled there.
#
# Build: plain javac (Debian's JDK; 17 here), no source change. -encoding UTF-8 because the
# comments are Japanese and javac otherwise takes the locale's encoding.
#
# How to run it in a match: `DEST/kera`, a two-line wrapper this script writes
# (exec java -cp DEST/classes Main); it reports the name "kera". Its search is timed by the
# wall clock (fixed 2.5-15 s budgets per turn, longest on turn 0) and only shrinks its beam
# below 30 s left: it is built for the contest's 180 s, and runs out of time at a 20 s clock.
set -eu
REPO_URL=https://github.com/kera6rhy/codevs_reborn
COMMIT=597beadd18d4d9793fb311c6d2f2676a54ce2543
DEST=${1:-/work/peers/kera}

command -v javac >/dev/null || apt-get install -y --no-install-recommends default-jdk-headless >/dev/null
mkdir -p "$DEST"
if [ -n "${KERA_SRC:-}" ]; then
	GITDIR=$KERA_SRC
else
	GITDIR=$DEST/clone
	[ -d "$GITDIR" ] || git clone --quiet --bare "$REPO_URL" "$GITDIR"
fi
rm -rf "$DEST/src" "$DEST/classes"
mkdir -p "$DEST/src" "$DEST/classes"
# Works for a work-tree clone and a bare mirror alike.
git -C "$GITDIR" archive "$COMMIT" | tar -x -C "$DEST/src"
javac -encoding UTF-8 -nowarn -d "$DEST/classes" "$DEST"/src/*.java
cat >"$DEST/kera" <<EOT
#!/bin/sh
exec java -cp '$DEST/classes' Main
EOT
chmod +x "$DEST/kera"
echo "built $DEST/classes from $REPO_URL@$COMMIT ($(javac -version 2>&1))"
echo "run line: $DEST/kera"
