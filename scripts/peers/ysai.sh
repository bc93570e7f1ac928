#!/bin/sh
# ysai.sh: build "ysai", the CODE VS Reborn AI of seed article 002 (ysgeso), outside this
# repository, for matches against our AI (yomi codevs match ... --p2 "$DEST/ysai -ut").
#
#   scripts/peers/ysai.sh [DEST]          (default DEST=/work/peers/ysai)
#
# Sources: https://github.com/ysgeso/codevs-reborn at the pinned commit below (the root
# files are the final-round version). Set YSAI_SRC to an existing clone (or a bare mirror)
# to build without network access. None of its files are committed here: they are copied
# into DEST/src and built there.
#
# Build line: the author's compile.sh (seed 002), g++ -std=c++11 -O2 -DNDEBUG -march=native
# -pthread. One change is needed for GCC 12: libstdc++ compares allocators with ==, and
# ysai's aligned allocator (MyAllocator in simd.hpp) defines no equality operators. It
# holds no state, so any two instances are equal; this script appends the two operators
# to the copied simd.hpp (a heredoc below, not a patch of its lines).
#
# How to run it in a match: `DEST/ysai -ut` (-ut: its threaded search, which the author says the
# online version needs). Without -ftl/-btl it keeps its contest defaults: 19 000 ms for the opening
# beam, 19 250 ms beam limit, out of the contest's 180 000 ms per game.
set -eu
REPO_URL=https://github.com/ysgeso/codevs-reborn
COMMIT=f088fa9af02da04a6be6960826ba2e4e2954b708
DEST=${1:-/work/peers/ysai}
FILES="codevsreborn.cpp codevsreborn.hpp simd.hpp tt.hpp"

mkdir -p "$DEST/src"
if [ -n "${YSAI_SRC:-}" ]; then
	GITDIR=$YSAI_SRC
else
	GITDIR=$DEST/clone
	[ -d "$GITDIR" ] || git clone --quiet "$REPO_URL" "$GITDIR"
fi
# Works for a work-tree clone and a bare mirror alike.
git -C "$GITDIR" archive "$COMMIT" $FILES | tar -x -C "$DEST/src"

cd "$DEST/src"
if ! grep -q 'yomi: GCC 12 allocator equality' simd.hpp; then
	cat >>simd.hpp <<'EOP'

// yomi: GCC 12 allocator equality. libstdc++ 12 compares allocators; MyAllocator is stateless,
// so every instance can free what any other allocated.
template <class T, class U>
inline bool operator==(const MyAllocator<T>&, const MyAllocator<U>&) { return true; }
template <class T, class U>
inline bool operator!=(const MyAllocator<T>&, const MyAllocator<U>&) { return false; }
EOP
fi
g++ -o "$DEST/ysai" -std=c++11 -O2 -DNDEBUG -march=native -pthread codevsreborn.cpp
echo "built $DEST/ysai from $REPO_URL@$COMMIT ($(g++ -dumpfullversion))"
