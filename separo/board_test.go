// This file tests the rules against the spec's vectors, hand-built positions
// (openings, the 45° rule, the one-cell region rule) and the slow references
// of reference_test.go on random games.

package separo

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type vector struct {
	size            int
	moves           []string
	legal, red, blu []int
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("testdata/games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	var cur vector
	ints := func(fs []string) []int {
		var xs []int
		for _, s := range fs {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatal(err)
			}
			xs = append(xs, n)
		}
		return xs
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		switch fs[0] {
		case "size":
			cur = vector{}
			cur.size, _ = strconv.Atoi(fs[1])
		case "moves":
			cur.moves = fs[1:]
		case "legal":
			cur.legal = ints(fs[1:])
		case "red":
			cur.red = ints(fs[1:])
		case "blue":
			cur.blu = ints(fs[1:])
		case "end":
			out = append(out, cur)
		}
	}
	if len(out) != 2 {
		t.Fatalf("want 2 vectors, got %d", len(out))
	}
	return out
}

func TestGameVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(strconv.Itoa(v.size), func(t *testing.T) {
			b := MustNew(v.size)
			ref := newRef(v.size)
			var buf []Move
			turn := Red
			for i, s := range v.moves {
				c, m, err := ParseColoredMove(s)
				if err != nil {
					t.Fatal(err)
				}
				if c != turn {
					t.Fatalf("move %d %s: side to move is %v", i, s, turn)
				}
				buf = b.Moves(c, buf)
				if len(buf) != v.legal[i] {
					t.Errorf("move %d %s: %d legal moves, want %d", i, s, len(buf), v.legal[i])
				}
				if err := b.Play(c, m); err != nil {
					t.Fatalf("move %d: %v", i, err)
				}
				ref.apply(c, m)
				if r, bl := b.Score(Red), b.Score(Blue); r != v.red[i] || bl != v.blu[i] {
					t.Errorf("move %d %s: score %d-%d, want %d-%d", i, s, r, bl, v.red[i], v.blu[i])
				}
				if r, bl := ref.score(Red), ref.score(Blue); r != v.red[i] || bl != v.blu[i] {
					t.Errorf("move %d %s: reference score %d-%d, want %d-%d", i, s, r, bl, v.red[i], v.blu[i])
				}
				next, ok := b.Next(c)
				if !ok {
					if i != len(v.moves)-1 {
						t.Fatalf("game over after move %d of %d", i, len(v.moves))
					}
					break
				}
				turn = next
			}
			if !b.GameOver() {
				t.Error("game not over after the last move")
			}
			if b.Plies() != len(v.moves) {
				t.Errorf("plies %d, want %d", b.Plies(), len(v.moves))
			}
		})
	}
}

func TestOpenings(t *testing.T) {
	for _, size := range []int{4, 5, 9, 19} {
		b := MustNew(size)
		u := int8(size - 1)
		want := map[Color][]Move{
			Red: {
				{Point{0, 0}, Point{1, 1}, Point{2, 1}}, {Point{0, 0}, Point{1, 1}, Point{1, 2}},
				{Point{u, u}, Point{u - 1, u - 1}, Point{u - 2, u - 1}}, {Point{u, u}, Point{u - 1, u - 1}, Point{u - 1, u - 2}},
			},
			Blue: {
				{Point{0, u}, Point{1, u - 1}, Point{2, u - 1}}, {Point{0, u}, Point{1, u - 1}, Point{1, u - 2}},
				{Point{u, 0}, Point{u - 1, 1}, Point{u - 2, 1}}, {Point{u, 0}, Point{u - 1, 1}, Point{u - 1, 2}},
			},
		}
		for c, w := range want {
			got := b.Moves(c, nil)
			if !slices.Equal(got, w) {
				t.Errorf("size %d %v: openings %v, want %v (in this order)", size, c, got, w)
			}
		}
		if b.Score(Red) != 1 || b.Score(Blue) != 1 {
			t.Errorf("size %d: initial scores %d %d, want 1 1", size, b.Score(Red), b.Score(Blue))
		}
	}
}

func TestNewRejectsSizes(t *testing.T) {
	for _, n := range []int{-1, 0, 3, 20, 100} {
		if _, err := New(n); err == nil {
			t.Errorf("New(%d) accepted", n)
		}
	}
}

// TestAngleRule checks the 45° rule at a stone with a root (1,1): new roots
// (1,1), (1,0), (0,1) are refused, the five others accepted.
func TestAngleRule(t *testing.T) {
	for d := range 8 {
		refused := conflict[d]&(1<<0) != 0
		want := dirs[d] == [2]int8{1, 1} || dirs[d] == [2]int8{1, 0} || dirs[d] == [2]int8{0, 1}
		if refused != want {
			t.Errorf("root (1,1) vs new %v: refused %v, want %v", dirs[d], refused, want)
		}
	}
	// On a board: Red plays 00-11-21, so (1,1) has roots (-1,-1) and (1,0).
	// A later Red move from (1,1) going (1,1) makes 45° with (1,0): refused;
	// (-1,1) makes 90° with (-1,-1)... is blocked by 45° with nothing: allowed.
	b := MustNew(9)
	must := func(s string) Move {
		m, err := ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if err := b.Play(Red, must("00-11-21")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		m     string
		legal bool
	}{
		{"11-22-32", false}, // d1 (1,1) at (1,1): 45° from root (1,0)
		{"11-22-23", false},
		{"11-02-03", true},  // d1 (-1,1): 90° from (-1,-1), 135° from (1,0)
		{"11-02-01", false}, // not a continuation at 135° (backward orthogonal)
		{"11-20-30", false}, // d1 (1,-1): 45° from (1,0)
		{"21-32-42", true},  // (2,1) has root (-1,0); (1,1) is fine
		{"21-12-02", false}, // (-1,1) is 45° from (-1,0)
		{"21-30-40", true},
		{"00-11-12", false}, // (1,1) occupied
	}
	for _, c := range cases {
		m, err := ParseMove(c.m)
		if err != nil {
			if c.legal {
				t.Errorf("%s: %v", c.m, err)
			}
			continue
		}
		if got := b.Legal(Red, m); got != c.legal {
			t.Errorf("%s: legal %v, want %v", c.m, got, c.legal)
		}
	}
	// The check at s3: Red 00-11-12 then 12-... joining back is blocked when
	// the arriving root is within 45° of a root of s3.
	b = MustNew(9)
	for _, s := range []string{"00-11-12", "88-77-67"} {
		if err := b.Play(Red, must(s)); err != nil {
			t.Fatal(err)
		}
	}
	// (1,2) has root (0,-1). A move ending at (1,2) from (2,2) arrives with
	// -d2 = (1,0) at (1,2): 90° from (0,-1), allowed only if (2,2) is reached
	// diagonally from a red stone: (1,1)→(2,2)? (1,1) has roots (-1,-1),(0,1);
	// d1 (1,1) is 45° from (0,1): refused. So no move ends that way.
	for _, m := range b.Moves(Red, nil) {
		if m.S3 == (Point{1, 2}) && m.S2 == (Point{2, 2}) {
			t.Errorf("unexpected move %v", m)
		}
	}
}

// TestOneCellRegion: a region of exactly four triangles (one unit cell)
// does not score, one of five does.
func TestOneCellRegion(t *testing.T) {
	// Build cuts directly: enclose cell (3,3) on a 9×9 board with its four
	// sides cut, and separately a cell plus one triangle.
	b := MustNew(9)
	g := 8
	cell := func(x, y int) int { return x*g + y }
	b.cut[Red][cell(2, 3)] |= cutEast  // west side of (3,3)
	b.cut[Red][cell(3, 3)] |= cutEast  // east side
	b.cut[Red][cell(3, 2)] |= cutSouth // north side
	b.cut[Red][cell(3, 3)] |= cutSouth // south side
	if got := b.Score(Red); got != 1 {
		t.Errorf("enclosed single cell: score %d, want 1 (the outside only)", got)
	}
	// Open the east side and draw both diagonals of cell (4,3): its W
	// triangle joins cell (3,3), a region of five triangles.
	b.cut[Red][cell(3, 3)] &^= cutEast
	b.cut[Red][cell(4, 3)] |= cutNW | cutSW | cutNE | cutSE
	if got := b.Score(Red); got != 2 {
		t.Errorf("cell plus one triangle: score %d, want 2", got)
	}
	// Cutting only N–W and S–W (not a pattern own diagonals make, but the
	// graph allows it) also detaches W from its cell: still five triangles.
	b.cut[Red][cell(4, 3)] &^= cutNE | cutSE
	if got := b.Score(Red); got != 2 {
		t.Errorf("cell plus a triangle cut off by two edges: score %d, want 2", got)
	}
	if got := b.Score(Blue); got != 1 {
		t.Errorf("blue unaffected: score %d, want 1", got)
	}
}

// TestRandomGamesAgainstReference plays random games on several sizes and
// compares every legal-move list (content and order) with the reference
// generator and the scores with the geometric reference.
func TestRandomGamesAgainstReference(t *testing.T) {
	games := 120
	if testing.Short() {
		games = 20
	}
	sizes := []int{4, 5, 6, 7, 9, 9, 9, 11}
	for g := range games {
		size := sizes[g%len(sizes)]
		rng := rand.New(rand.NewPCG(7, uint64(g)))
		b := MustNew(size)
		ref := newRef(size)
		var buf []Move
		turn := Red
		for ply := 0; ; ply++ {
			for _, c := range []Color{Red, Blue} {
				got := b.Moves(c, buf)
				want := ref.moves(c)
				if !slices.Equal(got, want) {
					t.Fatalf("game %d size %d ply %d %v: moves\n got %v\nwant %v", g, size, ply, c, got, want)
				}
			}
			buf = b.Moves(turn, buf)
			if len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			b.Apply(turn, m)
			ref.apply(turn, m)
			if ply%7 == 3 && size <= 7 {
				for _, c := range []Color{Red, Blue} {
					if s, r := b.Score(c), ref.score(c); s != r {
						t.Fatalf("game %d ply %d %v: score %d, reference %d", g, ply, c, s, r)
					}
				}
			}
			next, ok := b.Next(turn)
			if !ok {
				break
			}
			turn = next
		}
		if !b.GameOver() {
			t.Fatalf("game %d: stopped before game over", g)
		}
		for _, c := range []Color{Red, Blue} {
			if s, r := b.Score(c), ref.score(c); s != r {
				t.Fatalf("game %d size %d end %v: score %d, reference %d", g, size, c, s, r)
			}
		}
	}
}

func TestNotationRoundTrip(t *testing.T) {
	cases := []struct {
		in  string
		ok  bool
		out string
	}{
		{"00-11-12", true, "00-11-12"},
		{"88-77-67", true, "88-77-67"},
		{"ii-hh-gh", true, "ii-hh-gh"},
		{"II-HH-GH", true, "ii-hh-gh"},
		{"00-11-22", false, ""},
		{"00-10-11", false, ""},
		{"00-11-10", false, ""}, // backward orthogonal
		{"00-11-1", false, ""},
		{"0011-12x", false, ""},
		{"", false, ""},
		{"z0-11-12", false, ""},
	}
	for _, c := range cases {
		m, err := ParseMove(c.in)
		if (err == nil) != c.ok {
			t.Errorf("ParseMove(%q): err %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if c.ok && m.String() != c.out {
			t.Errorf("ParseMove(%q).String() = %q, want %q", c.in, m.String(), c.out)
		}
	}
	if _, _, err := ParseColoredMove("X:00-11-12"); err == nil {
		t.Error("ParseColoredMove accepted X:")
	}
}

func TestPlayRejects(t *testing.T) {
	b := MustNew(9)
	before := b
	for _, m := range []Move{
		{Point{0, 0}, Point{1, 1}, Point{1, 0}},
		{Point{-1, 0}, Point{0, 1}, Point{0, 2}},
		{Point{100, 100}, Point{101, 101}, Point{101, 102}},
		{Point{8, 0}, Point{7, 1}, Point{6, 1}}, // a Blue stone
	} {
		if err := b.Play(Red, m); err == nil {
			t.Errorf("Play(Red, %v) accepted", m)
		}
	}
	// Moves may prune its option cache; the position must not change.
	if !b.Equal(&before) || b.cut != before.cut || b.plies != before.plies {
		t.Error("rejected moves changed the board")
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"00-11-12", "ii-hh-gh", "", "00-11-22", "zz-zz-zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		if !m.wellShaped() {
			t.Fatalf("%q parsed to an ill-shaped move", s)
		}
		m2, err := ParseMove(m.String())
		if err != nil || m2 != m {
			t.Fatalf("%q: round trip %v -> %q -> %v, %v", s, m, m.String(), m2, err)
		}
		b := MustNew(9)
		_ = b.Play(Red, m) // must not panic whatever the coordinates
	})
}

// TestStonesAndRootEnds ports separo-rs's to_json test: after R:00-11-12
// and B:08-17-16 there are 8 stones and 8 root ends (each root seen from
// both of its stones).
func TestStonesAndRootEnds(t *testing.T) {
	b := MustNew(9)
	for _, s := range []string{"R:00-11-12", "B:08-17-16"} {
		c, m, err := ParseColoredMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Play(c, m); err != nil {
			t.Fatal(err)
		}
	}
	stones, ends := 0, 0
	want := map[Point]Color{{0, 0}: Red, {1, 1}: Red, {1, 2}: Red, {8, 8}: Red, {0, 8}: Blue, {1, 7}: Blue, {1, 6}: Blue, {8, 0}: Blue}
	for x := int8(0); x < 9; x++ {
		for y := int8(0); y < 9; y++ {
			p := Point{x, y}
			c, ok := b.At(p)
			if !ok {
				if len(b.Roots(p)) != 0 {
					t.Errorf("%v: roots on an empty point", p)
				}
				continue
			}
			stones++
			if w, in := want[p]; !in || w != c {
				t.Errorf("%v: stone %v, want %v (present %v)", p, c, w, in)
			}
			for _, d := range b.Roots(p) {
				q := Point{x + d.X, y + d.Y}
				if qc, ok := b.At(q); !ok || qc != c {
					t.Errorf("root %v→%v does not end on an own stone", p, q)
				}
				ends++
			}
		}
	}
	if stones != 8 || ends != 8 {
		t.Errorf("%d stones and %d root ends, want 8 and 8", stones, ends)
	}
}
