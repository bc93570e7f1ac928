#!/bin/sh
# sfinder.sh: build solution-finder (sfinder) 1.43, the perfect-clear finder `yomi tetris pc`
# is compared with, outside this repository.
#
#   scripts/peers/sfinder.sh [DEST]          (default DEST=/work/peers/sfinder)
#
# Sources: https://github.com/knewjade/solution-finder at tag v1.43 (pinned to its commit below).
# Set SFINDER_SRC to an existing clone or bare mirror to build without network access. None of
# its files are committed here: they are extracted into DEST/src and compiled there.
#
# Build: plain javac (no Gradle) against Debian's commons-cli (libcommons-cli-java), the one
# runtime dependency; the kicks/, theme/ and input/ folders of its distribution are copied next
# to the classes because sfinder reads them relative to the working directory.
#
# Run: cd DEST && ./sfinder percent -fp FIELD_FILE -p PATTERN -c LINES   (see compare below)
set -eu
REPO_URL=https://github.com/knewjade/solution-finder
TAG=v1.43
DEST=${1:-/work/peers/sfinder}
CP=/usr/share/java/commons-cli.jar

command -v javac >/dev/null || apt-get install -y --no-install-recommends default-jdk-headless >/dev/null
[ -f "$CP" ] || apt-get install -y --no-install-recommends libcommons-cli-java >/dev/null
mkdir -p "$DEST"
if [ -n "${SFINDER_SRC:-}" ]; then
	GITDIR=$SFINDER_SRC
else
	GITDIR=$DEST/clone
	[ -d "$GITDIR" ] || git clone --quiet --bare "$REPO_URL" "$GITDIR"
fi
COMMIT=$(git -C "$GITDIR" rev-parse "$TAG^{commit}")
rm -rf "$DEST/src" "$DEST/classes"
mkdir -p "$DEST/src" "$DEST/classes"
# (a partial mirror may lack unrelated blobs, e.g. test images: git archive then complains
# on stderr but still writes the requested folders, checked below)
git -C "$GITDIR" archive "$COMMIT" src/main distribution 2>"$DEST/archive.log" | tar -x -C "$DEST/src"
[ -f "$DEST/src/src/main/java/Main.java" ] || { cat "$DEST/archive.log" >&2; exit 1; }
find "$DEST/src/src/main/java" -name '*.java' >"$DEST/sources.txt"
javac -encoding UTF-8 -nowarn -cp "$CP" -d "$DEST/classes" @"$DEST/sources.txt" 2>&1 | grep -v '^Note:' || true
[ -f "$DEST/classes/Main.class" ] || { echo "sfinder.sh: build failed" >&2; exit 1; }
if [ -d "$DEST/src/src/main/resources" ]; then
	cp -r "$DEST/src/src/main/resources/." "$DEST/classes/"
fi
for d in kicks theme; do
	rm -rf "${DEST:?}/$d"
	cp -r "$DEST/src/distribution/$d" "$DEST/$d"
done
mkdir -p "$DEST/input" "$DEST/output"
cat >"$DEST/sfinder" <<EOT
#!/bin/sh
# Runs sfinder $TAG from its folder (it reads kicks/ and writes output/ relative to it).
cd '$DEST' && exec java -cp '$DEST/classes:$CP' Main "\$@"
EOT
chmod +x "$DEST/sfinder"
echo "built $DEST/classes from $REPO_URL@$TAG ($COMMIT, $(javac -version 2>&1))"
echo "run line: $DEST/sfinder percent -t 'v115@...' -p PATTERN -c LINES"
