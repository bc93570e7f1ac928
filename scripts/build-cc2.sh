#!/bin/sh
# build-cc2.sh: build Cold Clear 2 (MinusKelvin/cold-clear-2) OUTSIDE this
# repository, offline, for the speed comparison in BENCHMARKS.md (issue 6).
#
# Inputs (none of them is part of this repository):
#   CC2_GIT      git dir of a cold-clear-2 clone   (default /work/.mirror/MinusKelvin+cold-clear-2/repo)
#   MIRRORS      dir holding git mirrors of the crates Debian does not package:
#                vorner+bumpalo-herd, n8pjl+enum_dispatch, EmbarkStudios+puffin,
#                paritytech+nohash-hasher                  (default /work/.mirror)
#   PEER         output dir (default /work/peers/cc2); the binaries end up as
#                $PEER/bin/cold-clear-2-w1 (upstream: one search thread) and
#                $PEER/bin/cold-clear-2-w2 (the same with two search threads)
# Everything else comes from Debian's librust-*-dev packages
# (/usr/share/cargo/registry) through a cargo directory source.
set -eu
CC2_GIT=${CC2_GIT:-/work/.mirror/MinusKelvin+cold-clear-2/repo}
MIRRORS=${MIRRORS:-/work/.mirror}
PEER=${PEER:-/work/peers/cc2}
CC2_REV=${CC2_REV:-ed8b193}

apt-get install -y --no-install-recommends \
  librust-ahash-dev librust-bumpalo-dev librust-enum-map-dev librust-enumset-dev \
  librust-futures-dev librust-once-cell-dev librust-ordered-float-dev \
  librust-ouroboros-dev librust-parking-lot-dev librust-rand-dev librust-serde-dev \
  librust-serde-derive-dev librust-serde-json-dev librust-structopt-dev \
  librust-syn-dev librust-quote-dev librust-proc-macro2-dev librust-byteorder-dev >/dev/null

mkdir -p "$PEER"
rm -rf "$PEER/src" "$PEER/vendor"
mkdir -p "$PEER/src" "$PEER/vendor"

# Vendor directory: every Debian crate plus the four fetched ones.
for d in /usr/share/cargo/registry/*/; do ln -s "$d" "$PEER/vendor/"; done
gitdir() { if [ -d "$MIRRORS/$1/repo/.git" ]; then echo "$MIRRORS/$1/repo/.git"; else echo "$MIRRORS/$1/repo"; fi; }
crate() { # crate NAME-VERSION MIRROR REV SUBDIR
  out="$PEER/vendor/$1"; mkdir -p "$out"
  git --git-dir="$(gitdir "$2")" archive "$3" "$4" | tar -x -C "$out" --strip-components="$5"
  # dev-dependencies of vendored crates are never built; drop them so the
  # resolver does not look for them.
  sed -i '/^\[dev-dependencies\]/,/^\[/{/^\[dev-dependencies\]/d;/^\[/!d}; /^\[\[bench\]\]/,/^$/d' "$out/Cargo.toml"
  echo '{"files":{},"package":""}' > "$out/.cargo-checksum.json"
}
crate bumpalo-herd-0.1.1 vorner+bumpalo-herd v0.1.1 . 0
crate enum_dispatch-0.3.7 n8pjl+enum_dispatch v0.3.7 . 0
crate puffin-0.10.0 EmbarkStudios+puffin 0.10.0 puffin 1
crate nohash-hasher-0.2.0 paritytech+nohash-hasher 99b0216 . 0

git --git-dir="$CC2_GIT" archive "$CC2_REV" | tar -x -C "$PEER/src"
cd "$PEER/src"
rm -f Cargo.lock
# Manifest: Debian's versions (enum-map 2, ouroboros 0.15, parking_lot 0.12),
# nohash 0.2 is the same code published as nohash-hasher 0.2; no profiler
# server, no criterion bench.
sed -i \
  -e 's/^enum-map = .*/enum-map = "2"/' \
  -e 's/^ouroboros = .*/ouroboros = "0.15"/' \
  -e 's/^parking_lot = .*/parking_lot = "0.12"/' \
  -e 's/^nohash = .*/nohash = { package = "nohash-hasher", version = "0.2" }/' \
  -e '/^puffin_http/d' \
  -e '/^\[dev-dependencies\]/,$d' \
  Cargo.toml
mkdir -p .cargo
cat > .cargo/config.toml <<EOT
[source.crates-io]
replace-with = "local"
[source.local]
directory = "$PEER/vendor"
[net]
offline = true
EOT
# upstream HEAD spawns one search thread (spawn_workers: `for _ in 0..1`);
# the w2 build changes only that count.
mkdir -p "$PEER/bin"
grep -q 'for _ in 0\.\.1 {' src/lib.rs
nice -n 10 cargo build --release --offline
cp target/release/cold-clear-2 "$PEER/bin/cold-clear-2-w1"
sed -i 's/for _ in 0\.\.1 {/for _ in 0..2 {/' src/lib.rs
nice -n 10 cargo build --release --offline
cp target/release/cold-clear-2 "$PEER/bin/cold-clear-2-w2"
sed -i 's/for _ in 0\.\.2 {/for _ in 0..1 {/' src/lib.rs
echo "built $PEER/bin/cold-clear-2-w1 and $PEER/bin/cold-clear-2-w2"
