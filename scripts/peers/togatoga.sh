#!/bin/sh
# togatoga.sh: build togatoga's CODE VS Reborn AI (togatog_ai 4.0; qualifier 9th, final 4th)
# outside this repository, offline, for matches against our AI
# (yomi codevs match ... --p2 "$DEST/togatog_ai").
#
#   scripts/peers/togatoga.sh [DEST]          (default DEST=/work/peers/togatoga)
#
# Sources: https://github.com/togatoga/codevs_reborn at the pinned commit below (the last one;
# Cargo.toml says 4.0.0, the AI names itself togatog_ai_4.0). Set TOGATOGA_SRC to an existing
# clone (or a bare mirror) to build without network access. None of its files are committed
# here: Cargo.toml and src/ are copied into DEST/src and built there.
#
# Crates: Debian's librust-*-dev packages (/usr/share/cargo/registry, installed below) through
# a cargo directory source, as scripts/build-cc2.sh does. Changes to the copied Cargo.toml,
# each by a sed below:
#   - clap "~2.33" becomes "2.34": Debian packages clap 2.34 only, and 2.34 keeps 2.33's API
#     (App, Arg::with_name, SubCommand are all main.rs uses).
#   - min-max-heap "1.2.2" becomes a path dependency on DEST/min-max-heap: Debian does not
#     package that crate. The stand-in is our own code, written by this script: the five
#     methods togatoga's beams call (new, push, pop_max, pop_min, len) on an ordered set
#     (BTreeSet of item and insertion number, so equal items are all kept), O(log n) each
#     like a min-max heap. Equal items may come out in another order than the real crate's.
#   - no [dev-dependencies]/[[bench]] (criterion, for benches/ only, which is not copied).
#
# How to run it in a match: `DEST/togatog_ai` (no flags; it prints its name, reads packs and
# turns from stdin). It picks its beam sizes from the remaining time (45 s, 30 s, 10 s steps),
# so it plays any --time-ms, but its strength is that of the contest's 180 s.
set -eu
REPO_URL=https://github.com/togatoga/codevs_reborn
COMMIT=99ea1eb2ee2d0ca4eef90f060708e0577e318031
DEST=${1:-/work/peers/togatoga}

DEBS="librust-clap-2-dev librust-csv-dev librust-serde-derive-dev librust-fnv-dev"
# shellcheck disable=SC2086
dpkg -s $DEBS >/dev/null 2>&1 || apt-get install -y --no-install-recommends $DEBS >/dev/null

mkdir -p "$DEST"
if [ -n "${TOGATOGA_SRC:-}" ]; then
	GITDIR=$TOGATOGA_SRC
else
	GITDIR=$DEST/clone
	[ -d "$GITDIR" ] || git clone --quiet --bare "$REPO_URL" "$GITDIR"
fi
rm -rf "$DEST/src" "$DEST/vendor" "$DEST/min-max-heap"
mkdir -p "$DEST/src/src" "$DEST/vendor" "$DEST/min-max-heap/src"
# Works for a work-tree clone and a bare mirror alike.
git -C "$GITDIR" show "$COMMIT:Cargo.toml" >"$DEST/src/Cargo.toml"
git -C "$GITDIR" archive "$COMMIT:src" | tar -x -C "$DEST/src/src"
for d in /usr/share/cargo/registry/*/; do ln -s "$d" "$DEST/vendor/"; done

# The min-max-heap stand-in (ours; see above).
cat >"$DEST/min-max-heap/Cargo.toml" <<'EOT'
[package]
name = "min-max-heap"
version = "0.1.0"
edition = "2018"
EOT
cat >"$DEST/min-max-heap/src/lib.rs" <<'EOT'
//! yomi's stand-in for the min-max-heap crate: only what togatog_ai calls. A BTreeSet ordered
//! by (item, insertion number) gives both ends in O(log n) and keeps equal items apart.
use std::collections::BTreeSet;

pub struct MinMaxHeap<T: Ord> {
    set: BTreeSet<(T, u64)>,
    next: u64,
}

impl<T: Ord> MinMaxHeap<T> {
    pub fn new() -> Self {
        MinMaxHeap { set: BTreeSet::new(), next: 0 }
    }
    pub fn len(&self) -> usize {
        self.set.len()
    }
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
    pub fn push(&mut self, item: T) {
        self.next += 1;
        self.set.insert((item, self.next));
    }
    pub fn pop_min(&mut self) -> Option<T> {
        self.set.pop_first().map(|(item, _)| item)
    }
    pub fn pop_max(&mut self) -> Option<T> {
        self.set.pop_last().map(|(item, _)| item)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_ends() {
        let mut h = super::MinMaxHeap::new();
        for x in [5, 1, 9, 5, 3] {
            h.push(x);
        }
        assert_eq!((h.pop_max(), h.pop_min(), h.len()), (Some(9), Some(1), 3));
        assert_eq!((h.pop_max(), h.pop_max(), h.pop_min(), h.pop_min()), (Some(5), Some(5), Some(3), None));
    }
}
EOT

cd "$DEST/src"
grep -q '^clap = "~2.33"$' Cargo.toml
grep -q '^min-max-heap = "1.2.2"$' Cargo.toml
sed -i \
	-e 's/^clap = "~2.33"$/clap = "2.34"/' \
	-e "s|^min-max-heap = \"1.2.2\"\$|min-max-heap = { path = \"$DEST/min-max-heap\" }|" \
	-e '/^\[dev-dependencies\]/,$d' \
	Cargo.toml
mkdir -p .cargo
cat >.cargo/config.toml <<EOT
[source.crates-io]
replace-with = "local"
[source.local]
directory = "$DEST/vendor"
[net]
offline = true
EOT
(cd "$DEST/min-max-heap" && cargo test --offline --quiet >"$DEST/build.log" 2>&1) || {
	cat "$DEST/build.log" >&2
	exit 1
}
nice -n 10 cargo build --release --offline --quiet 2>>"$DEST/build.log" || {
	cat "$DEST/build.log" >&2
	exit 1
}
cp target/release/togatog_ai "$DEST/togatog_ai"
echo "built $DEST/togatog_ai from $REPO_URL@$COMMIT ($(rustc --version))"
echo "run line: $DEST/togatog_ai"
