// movegen_test.go checks the generator against the spec's vectors
// (empty-board counts §25.3, the SpinChecker TSD §25.2, a TST and tucks)
// and against a slow reference search on thousands of random boards.

package movegen

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

// ---- reference ----

type refState struct {
	r    tetris.Rot
	x, y int
	spin tetris.Spin
	last Input
}

type refItem struct {
	st   refState
	t, n int
}

type refHeap []refItem

func (h refHeap) Len() int { return len(h) }
func (h refHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].n < h[j].n
}
func (h refHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)   { *h = append(*h, x.(refItem)) }
func (h *refHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

type refKey struct {
	y0   int
	mask uint64
	spin tetris.Spin
}

type refResult struct{ t, n int }

// reference is the obvious search: Dijkstra on (time, inputs) over every
// (orientation, x, y, spin, last input) state reachable from the spawn by
// the engine's own Fits/Rotate/TSpin, locking every popped state at its
// drop position; placements keyed by covered cells and spin.
func reference(b *tetris.Board, p tetris.Piece, opts Options) map[refKey]refResult {
	out := map[refKey]refResult{}
	sx, sy, ok := b.Spawn(p, opts.Spawn)
	if !ok {
		return out
	}
	best := map[refState]refResult{}
	h := &refHeap{}
	start := refState{tetris.North, sx, sy, tetris.SpinNone, none}
	best[start] = refResult{}
	heap.Push(h, refItem{start, 0, 0})
	relax := func(st refState, t, n int) {
		if old, ok := best[st]; ok && (old.t < t || old.t == t && old.n <= n) {
			return
		}
		best[st] = refResult{t, n}
		heap.Push(h, refItem{st, t, n})
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(refItem)
		if best[it.st] != (refResult{it.t, it.n}) {
			continue
		}
		st := it.st
		// lock
		dy := b.DropY(p, st.r, st.x, st.y)
		spin := st.spin
		if dy != st.y {
			spin = tetris.SpinNone
		}
		pl := tetris.Placement{Piece: p, Rot: st.r, X: int8(st.x), Y: int8(dy), Spin: spin}
		lockOut := true
		for _, c := range pl.Cells() {
			if c.Y < 20 {
				lockOut = false
			}
		}
		if !lockOut {
			y0, m := pl.CellMask()
			k := refKey{y0, m, spin}
			if _, ok := out[k]; !ok {
				out[k] = refResult{it.t, it.n}
			}
		}
		step := func(in Input) int {
			if in == st.last {
				return it.t + 2
			}
			return it.t + 1
		}
		for _, d := range []int{-1, 1} {
			if b.Fits(p, st.r, st.x+d, st.y) {
				in := Left
				if d == 1 {
					in = Right
				}
				relax(refState{st.r, st.x + d, st.y, tetris.SpinNone, in}, step(in), it.n+1)
			}
		}
		if dy < st.y {
			relax(refState{st.r, st.x, dy, tetris.SpinNone, Drop}, it.t+2*(st.y-dy), it.n+1)
		}
		if opts.StepDrop && b.Fits(p, st.r, st.x, st.y-1) {
			relax(refState{st.r, st.x, st.y - 1, tetris.SpinNone, Down}, it.t+2, it.n+1)
		}
		if p == tetris.O {
			continue
		}
		turns := []Input{Cw, Ccw}
		if opts.Allow180 {
			turns = append(turns, Flip)
		}
		for _, in := range turns {
			to := map[Input]tetris.Rot{Cw: st.r.Cw(), Ccw: st.r.Ccw(), Flip: st.r.Flip()}[in]
			nx, ny, k, ok := b.Rotate(p, st.r, st.x, st.y, to)
			if !ok {
				continue
			}
			sp := tetris.SpinNone
			if p == tetris.T && !(in == Flip && opts.NoSpin180) {
				sp = b.TSpin(to, nx, ny, k, opts.SpinRule)
			}
			relax(refState{to, nx, ny, sp, in}, step(in), it.n+1)
		}
	}
	return out
}

// ---- helpers ----

func keyOf(pl tetris.Placement) refKey {
	y0, m := pl.CellMask()
	return refKey{y0, m, pl.Spin}
}

func mustField(t testing.TB, s string) tetris.Board {
	t.Helper()
	b, err := tetris.ParseField(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replay executes a path from the spawn with the engine and returns the
// final (hard-dropped) placement and the path's time.
func replay(t *testing.T, b *tetris.Board, p tetris.Piece, opts Options, path []Input) (tetris.Placement, int) {
	t.Helper()
	x, y, ok := b.Spawn(p, opts.Spawn)
	if !ok {
		t.Fatal("cannot spawn")
	}
	r, spin := tetris.North, tetris.SpinNone
	time, last := 0, none
	for _, in := range path {
		time++
		if in == last && in != Down {
			time++
		}
		switch in {
		case Left, Right:
			d := -1
			if in == Right {
				d = 1
			}
			if !b.Fits(p, r, x+d, y) {
				t.Fatalf("path %v: %v blocked", path, in)
			}
			x += d
			spin = tetris.SpinNone
		case Down:
			if !b.Fits(p, r, x, y-1) {
				t.Fatalf("path %v: down blocked", path)
			}
			y--
			time++
			spin = tetris.SpinNone
		case Drop:
			dy := b.DropY(p, r, x, y)
			if dy == y {
				t.Fatalf("path %v: drop does nothing", path)
			}
			time += 2*(y-dy) - 1
			y = dy
			spin = tetris.SpinNone
		default:
			to := map[Input]tetris.Rot{Cw: r.Cw(), Ccw: r.Ccw(), Flip: r.Flip()}[in]
			nx, ny, k, ok := b.Rotate(p, r, x, y, to)
			if !ok {
				t.Fatalf("path %v: %v blocked", path, in)
			}
			spin = tetris.SpinNone
			if p == tetris.T && !(in == Flip && opts.NoSpin180) {
				spin = b.TSpin(to, nx, ny, k, opts.SpinRule)
			}
			r, x, y = to, nx, ny
		}
		last = in
	}
	dy := b.DropY(p, r, x, y)
	if dy != y {
		spin = tetris.SpinNone
	}
	return tetris.Placement{Piece: p, Rot: r, X: int8(x), Y: int8(dy), Spin: spin}, time
}

// ---- vectors ----

func TestEmptyBoardCounts(t *testing.T) {
	want := map[tetris.Piece]int{tetris.I: 17, tetris.O: 9, tetris.T: 34, tetris.L: 34, tetris.J: 34, tetris.S: 17, tetris.Z: 17}
	g := New(Options{})
	var b tetris.Board
	for p := tetris.I; p <= tetris.Z; p++ {
		ms := g.Generate(nil, &b, p)
		if len(ms) != want[p] {
			t.Errorf("%v: %d placements, want %d", p, len(ms), want[p])
		}
		for _, m := range ms {
			if m.Spin != tetris.SpinNone {
				t.Errorf("%v: spin on an empty board: %v", p, m.Placement)
			}
		}
	}
}

// Spawn-zone times on an empty board match CC1's zero_g_starts (spec §16)
// exactly, for every column it lists.
func TestEmptyBoardTimes(t *testing.T) {
	g := New(Options{})
	var b tetris.Board
	type k struct {
		r tetris.Rot
		x int8
	}
	// CC1 zero_g_starts for T/L/J/S/Z (time of the start; the hard drop is free).
	cc := map[k]int32{
		{tetris.North, 1}: 5, {tetris.North, 2}: 3, {tetris.North, 3}: 1, {tetris.North, 4}: 0,
		{tetris.North, 5}: 1, {tetris.North, 6}: 3, {tetris.North, 7}: 5, {tetris.North, 8}: 7,
		{tetris.West, 1}: 5, {tetris.West, 2}: 3, {tetris.West, 3}: 2, {tetris.West, 4}: 1,
		{tetris.East, 4}: 1, {tetris.East, 5}: 2, {tetris.East, 6}: 3, {tetris.East, 7}: 5,
		{tetris.East, 8}: 7, {tetris.East, 0}: 7, {tetris.East, 1}: 5, {tetris.East, 2}: 3,
		{tetris.East, 3}: 2, {tetris.West, 5}: 2, {tetris.West, 6}: 3, {tetris.West, 7}: 5,
		{tetris.West, 8}: 7, {tetris.West, 9}: 9, {tetris.South, 1}: 5, {tetris.South, 2}: 4,
		{tetris.South, 3}: 3, {tetris.South, 4}: 3, {tetris.South, 5}: 3, {tetris.South, 6}: 4,
		{tetris.South, 7}: 5, {tetris.South, 8}: 7,
	}
	for _, m := range g.Generate(nil, &b, tetris.T) {
		want, ok := cc[k{m.Rot, m.X}]
		if !ok {
			t.Errorf("unexpected placement %v", m.Placement)
			continue
		}
		if m.Time != want {
			t.Errorf("%v: time %d, CC1 start %d", m.Placement, m.Time, want)
		}
		delete(cc, k{m.Rot, m.X})
	}
	if len(cc) != 0 {
		t.Errorf("missing: %v", cc)
	}
}

func findMove(ms []Move, p tetris.Placement) (Move, bool) {
	k := keyOf(p)
	for _, m := range ms {
		if keyOf(m.Placement) == k {
			return m, true
		}
	}
	return Move{}, false
}

func TestSpinVectors(t *testing.T) {
	tests := []struct {
		name  string
		field string
		want  tetris.Placement
		opts  Options
		lines int
	}{
		// spec §25.2 (sfinder SpinChecker case 1): TSD
		{"sfinder TSD", "X__XX_X___/X___XXXXXX/XX_XXXXXXX",
			tetris.Placement{Piece: tetris.T, Rot: tetris.South, X: 2, Y: 1, Spin: tetris.SpinFull}, Options{}, 2},
		// TST: T north slides left under the overhang at (1,4) onto (2,3);
		// a clockwise turn fails tests 0–3 and wins with test 4 (−1,−2).
		{"TST", "XX________/X_________/X_XXXXXXXX/X__XXXXXXX/X_XXXXXXXX",
			tetris.Placement{Piece: tetris.T, Rot: tetris.East, X: 1, Y: 1, Spin: tetris.SpinFull}, Options{}, 3},
		// Same with (2,0) open: three corners, one nub-side corner empty,
		// so only the 5th-test upgrade makes it full (mini without it).
		{"5th kick upgrade", "XX________/X_________/X_XXXXXXXX/X__XXXXXXX/X__XXXXXXX",
			tetris.Placement{Piece: tetris.T, Rot: tetris.East, X: 1, Y: 1, Spin: tetris.SpinFull}, Options{}, 2},
		// sfinder's rule upgrades N→E too
		{"5th kick upgrade (sfinder rule)", "XX________/X_________/X_XXXXXXXX/X__XXXXXXX/X__XXXXXXX",
			tetris.Placement{Piece: tetris.T, Rot: tetris.East, X: 1, Y: 1, Spin: tetris.SpinFull}, Options{SpinRule: tetris.FifthKickTST}, 2},
		// T-spin mini: T north resting on (1,0) turns clockwise into the
		// corner with test 1 (−1,0): walls + one nub-side corner.
		{"mini", "_X________",
			tetris.Placement{Piece: tetris.T, Rot: tetris.East, X: 0, Y: 1, Spin: tetris.SpinMini}, Options{}, 0},
		// the same cells dropped straight down: no spin
		{"mini cells without spin", "_X________",
			tetris.Placement{Piece: tetris.T, Rot: tetris.East, X: 0, Y: 1, Spin: tetris.SpinNone}, Options{}, 0},
		// plain tuck under an overhang (S slides left under a roof)
		{"tuck", "XXXX______/__________/__________",
			tetris.Placement{Piece: tetris.O, Rot: tetris.North, X: 0, Y: 0, Spin: tetris.SpinNone}, Options{}, 0},
	}
	g := New(Options{})
	for _, tc := range tests {
		b := mustField(t, tc.field)
		g.opts = tc.opts
		ms := g.Generate(nil, &b, tc.want.Piece)
		m, ok := findMove(ms, tc.want)
		if !ok {
			var got []string
			for _, m := range ms {
				got = append(got, m.Placement.String())
			}
			t.Errorf("%s: %v not generated; got %s", tc.name, tc.want, strings.Join(got, "; "))
			continue
		}
		path := g.Path(m, nil)
		pl, tm := replay(t, &b, tc.want.Piece, tc.opts, path)
		if keyOf(pl) != keyOf(tc.want) || int32(tm) != m.Time {
			t.Errorf("%s: path %v replays to %v time %d, move %v time %d", tc.name, path, pl, tm, m.Placement, m.Time)
		}
		s := tetris.State{Board: b}
		if res := s.Lock(m.Placement, &tetris.CC1Attack); res.Lines != tc.lines {
			t.Errorf("%s: clears %d lines, want %d", tc.name, res.Lines, tc.lines)
		}
	}
}

// differential: fast generator vs reference on random boards.

func randomBoard(rng *rand.Rand) tetris.Board {
	var b tetris.Board
	switch rng.IntN(3) {
	case 0: // random column heights with holes and overhangs
		top := 2 + rng.IntN(18)
		for x := range tetris.Width {
			h := rng.IntN(top + 1)
			for y := range h {
				if rng.IntN(6) != 0 {
					b.Set(x, y)
				}
			}
			if rng.IntN(4) == 0 && h+2 < 40 {
				b.Set(x, h+1+rng.IntN(2)) // floating overhang
			}
		}
	case 1: // random noise in the bottom rows
		rows := 1 + rng.IntN(16)
		dens := 3 + rng.IntN(5)
		for y := range rows {
			for x := range tetris.Width {
				if rng.IntN(10) < dens {
					b.Set(x, y)
				}
			}
		}
	default: // random play: drop random placements from the generator
		g := New(Options{})
		n := rng.IntN(30)
		for range n {
			p := tetris.Piece(rng.IntN(7))
			ms := g.Generate(nil, &b, p)
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			b.Place(m.Placement)
		}
	}
	b.ClearLines()
	return b
}

func checkAgainstReference(t *testing.T, g *Generator, b *tetris.Board, p tetris.Piece) {
	t.Helper()
	want := reference(b, p, g.opts)
	got := g.Generate(nil, b, p)
	seen := map[refKey]bool{}
	for _, m := range got {
		k := keyOf(m.Placement)
		if seen[k] {
			t.Fatalf("%v on\n%s\nduplicate %v", p, b, m.Placement)
		}
		seen[k] = true
		r, ok := want[k]
		if !ok {
			t.Fatalf("%v on\n%s\nextra %v", p, b, m.Placement)
		}
		if int(m.Time) != r.t || int(m.Inputs) != r.n {
			t.Fatalf("%v on\n%s\n%v: time %d inputs %d, reference %d %d", p, b, m.Placement, m.Time, m.Inputs, r.t, r.n)
		}
	}
	if len(got) != len(want) {
		var miss []string
		for k := range want {
			if !seen[k] {
				miss = append(miss, fmt.Sprint(k))
			}
		}
		sort.Strings(miss)
		t.Fatalf("%v on\n%s\n%d placements, reference %d; missing %v", p, b, len(got), len(want), miss)
	}
}

func TestDifferentialRandomBoards(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	variants := []Options{{}, {Allow180: true}, {SpinRule: tetris.FifthKickTST}, {Spawn: tetris.Row21AndFall},
		{StepDrop: true}, {Allow180: true, NoSpin180: true, StepDrop: true}}
	for i := range n {
		b := randomBoard(rng)
		opts := variants[i%len(variants)]
		g := New(opts)
		p := tetris.Piece(rng.IntN(14))
		if p >= 7 {
			p = tetris.T // spins are where bugs hide
		}
		checkAgainstReference(t, g, &b, p)
	}
}

// Every path replays with the engine to its placement at its time.
func TestPathsReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		b := randomBoard(rng)
		opts := Options{Allow180: i%2 == 1, StepDrop: i%3 == 1}
		g := New(opts)
		p := tetris.Piece(rng.IntN(7))
		var buf []Input
		for _, m := range g.Generate(nil, &b, p) {
			buf = g.Path(m, buf[:0])
			if int32(len(buf)) != m.Inputs {
				t.Fatalf("path %v has %d inputs, move says %d", buf, len(buf), m.Inputs)
			}
			pl, tm := replay(t, &b, p, opts, buf)
			if pl != m.Placement || int32(tm) != m.Time {
				t.Fatalf("on\n%s\npath %v replays to %v (time %d), move %v (time %d)", &b, buf, pl, tm, m.Placement, m.Time)
			}
		}
	}
}

func TestTurnHold(t *testing.T) {
	g := New(Options{})
	var b tetris.Board
	ms := g.Turn(nil, &b, tetris.T, tetris.NoPiece, tetris.I, true)
	nT, nI := 0, 0
	for _, m := range ms {
		if m.Hold {
			if m.Piece != tetris.I {
				t.Fatalf("hold move of %v", m.Piece)
			}
			nI++
		} else {
			nT++
		}
	}
	if nT != 34 || nI != 17 {
		t.Errorf("turn: %d T + %d I moves, want 34 + 17", nT, nI)
	}
	// hold time is one tick more than the same placement without hold
	var buf []Input
	for _, m := range ms {
		if m.Hold && m.X == 4 && m.Rot == tetris.North && m.Time != 1 {
			t.Errorf("held I at spawn column: time %d want 1", m.Time)
		}
		buf = g.Path(m, buf[:0]) // paths of both searches stay valid
	}
	if ms := g.Turn(nil, &b, tetris.T, tetris.T, tetris.I, true); len(ms) != 34 {
		t.Errorf("same piece in hold: %d moves, want 34", len(ms))
	}
	if ms := g.Turn(nil, &b, tetris.T, tetris.O, tetris.I, false); len(ms) != 34 {
		t.Errorf("hold off: %d moves, want 34", len(ms))
	}
}

func TestBlockedSpawn(t *testing.T) {
	var b tetris.Board
	b.Rows[19] = 0x3FF
	b.Rows[20] = 0x3FF
	g := New(Options{})
	if ms := g.Generate(nil, &b, tetris.T); len(ms) != 0 {
		t.Errorf("blocked spawn gave %d moves", len(ms))
	}
}

func TestNoAllocs(t *testing.T) {
	g := New(Options{})
	b := mustField(t, "X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	dst := make([]Move, 0, 512)
	g.Generate(dst, &b, tetris.T)
	allocs := testing.AllocsPerRun(20, func() {
		dst = g.Generate(dst[:0], &b, tetris.T)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Generate", allocs)
	}
}

// Fast mode: same counts on an empty board, a subset of the complete set
// elsewhere, never faster than the fastest path, and every path replays.
func TestFastMode(t *testing.T) {
	g := New(Options{})
	var empty tetris.Board
	for p := tetris.I; p <= tetris.Z; p++ {
		if a, b := len(g.FastGenerate(nil, &empty, p)), len(g.Generate(nil, &empty, p)); a != b {
			t.Errorf("%v: fast %d, complete %d on the empty board", p, a, b)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	missed, total := 0, 0
	var buf []Input
	for range 1000 {
		b := randomBoard(rng)
		p := tetris.Piece(rng.IntN(7))
		full := map[refKey]int32{}
		for _, m := range g.Generate(nil, &b, p) {
			full[keyOf(m.Placement)] = m.Time
		}
		fast := g.FastGenerate(nil, &b, p)
		for _, m := range fast {
			best, ok := full[keyOf(m.Placement)]
			if !ok {
				t.Fatalf("fast mode has %v not in the complete set on\n%s", m.Placement, &b)
			}
			if m.Time < best {
				t.Fatalf("fast %v time %d < fastest %d", m.Placement, m.Time, best)
			}
			buf = g.Path(m, buf[:0])
			pl, tm := replay(t, &b, p, Options{}, buf)
			if pl != m.Placement || int32(tm) != m.Time {
				t.Fatalf("on\n%s\nfast path %v replays to %v (time %d), move %v (time %d)", &b, buf, pl, tm, m.Placement, m.Time)
			}
		}
		missed += len(full) - len(fast)
		total += len(full)
	}
	t.Logf("fast mode found %d of %d placements", total-missed, total)
}

// Fast-mode Turn keeps the current piece's paths valid after the hold search.
func TestFastTurnPaths(t *testing.T) {
	g := New(Options{})
	b := mustField(t, "X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	ms := g.FastTurn(nil, &b, tetris.T, tetris.NoPiece, tetris.S, true)
	var buf []Input
	for _, m := range ms {
		buf = g.Path(m, buf[:0])
		pl, tm := replay(t, &b, m.Piece, Options{}, buf)
		if pl != m.Placement || int32(tm)+map[bool]int32{true: 1}[m.Hold] != m.Time {
			t.Fatalf("%v: replays to %v time %d, move time %d", buf, pl, tm, m.Time)
		}
	}
}

func TestFind(t *testing.T) {
	g := New(Options{})
	b := mustField(t, "X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	tsd := tetris.Placement{Piece: tetris.T, Rot: tetris.South, X: 2, Y: 1, Spin: tetris.SpinFull}
	if m, ok := g.Find(&b, tsd); !ok || m.Placement != tsd {
		t.Errorf("TSD not found: %v %v", m, ok)
	}
	tsd.Spin = tetris.SpinNone // the same cells without a spin are not reachable here
	if _, ok := g.Find(&b, tsd); ok {
		t.Errorf("TSD cells without spin reported reachable")
	}
	// an equivalent location: S east (x) covers the cells of S west (x+1)
	var e tetris.Board
	if _, ok := g.Find(&e, tetris.Placement{Piece: tetris.S, Rot: tetris.East, X: 0, Y: 1}); !ok {
		t.Errorf("S east at the left wall not found")
	}
	for _, bad := range []tetris.Placement{
		{Piece: tetris.T, X: 4, Y: 5},                        // floating
		{Piece: tetris.T, X: 0, Y: 0},                        // out of the board
		{Piece: tetris.NoPiece, X: 4, Y: 0},                  // no piece
		{Piece: tetris.O, X: 4, Y: 0, Spin: tetris.SpinFull}, // O never spins
	} {
		if _, ok := g.Find(&e, bad); ok {
			t.Errorf("%v reported reachable", bad)
		}
	}
}

// The I piece against CC1's zero_g_starts: per covered cells, the faster
// of the equivalent starts (East x / West x cover the same column; South
// x+1 covers North x's cells).
func TestEmptyBoardTimesI(t *testing.T) {
	N := map[int]int32{1: 5, 2: 3, 3: 1, 4: 0, 5: 1, 6: 3, 7: 5}
	S := map[int]int32{2: 5, 3: 4, 4: 3, 5: 3, 6: 3, 7: 4, 8: 5}
	E := map[int]int32{5: 1, 6: 2, 7: 3, 8: 5, 9: 7, 0: 9, 1: 7, 2: 5, 3: 3, 4: 2}
	W := map[int]int32{0: 7, 1: 5, 2: 3, 3: 2, 4: 1, 5: 2, 6: 3, 7: 5, 8: 7, 9: 9}
	want := map[refKey]int32{}
	var empty tetris.Board
	add := func(r tetris.Rot, x int, tm int32) {
		y := empty.DropY(tetris.I, r, x, 19)
		k := keyOf(tetris.Placement{Piece: tetris.I, Rot: r, X: int8(x), Y: int8(y)})
		if old, ok := want[k]; !ok || tm < old {
			want[k] = tm
		}
	}
	for x, tm := range N {
		add(tetris.North, x, tm)
	}
	for x, tm := range S {
		add(tetris.South, x, tm)
	}
	for x, tm := range E {
		add(tetris.East, x, tm)
	}
	for x, tm := range W {
		add(tetris.West, x, tm)
	}
	g := New(Options{})
	ms := g.Generate(nil, &empty, tetris.I)
	if len(ms) != len(want) {
		t.Fatalf("%d placements, CC1 table covers %d", len(ms), len(want))
	}
	for _, m := range ms {
		if w, ok := want[keyOf(m.Placement)]; !ok || w != m.Time {
			t.Errorf("%v: time %d, CC1 %d (listed %v)", m.Placement, m.Time, w, ok)
		}
	}
}

// FuzzGenerate compares the generator with the reference on boards built
// from the fuzz input: byte 0 picks the piece and options, then pairs of
// bytes are rows from the bottom (full rows are opened at one column).
func FuzzGenerate(f *testing.F) {
	f.Add([]byte{2, 0xff, 0x01, 0xf9, 0x03, 0xfb, 0x01})
	f.Add([]byte{0x12, 0x0f, 0x00, 0x00, 0x00, 0xf0, 0x03})
	f.Add([]byte{0x35, 0xaa, 0x02, 0x55, 0x01, 0xff, 0x00, 0x00, 0x02})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		p := tetris.Piece(data[0] % 7)
		opts := Options{Allow180: data[0]&0x10 != 0, StepDrop: data[0]&0x20 != 0, NoSpin180: data[0]&0x40 != 0}
		if data[0]&0x80 != 0 {
			opts.SpinRule = tetris.FifthKickTST
		}
		var b tetris.Board
		for y := 0; y < tetris.Height && 1+2*y+1 < len(data); y++ {
			r := (uint16(data[1+2*y]) | uint16(data[2+2*y])<<8) & tetris.FullRow
			if r == tetris.FullRow {
				r &^= 1 << (y % tetris.Width)
			}
			b.Rows[y] = r
		}
		g := New(opts)
		checkAgainstReference(t, g, &b, p)
	})
}
