// A slow, obviously-correct reference of a whole turn, written straight from
// the rules (spec §2–§6) with its own field code, and the differential tests
// that hold Game.Step to it on random states and random games.
package codevs

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/yomi-ai/yomi/codevs/sim"
)

// refField holds each column as a slice, bottom first.
type refField [10][]int8

type refPlayer struct {
	f     refField
	stock int
	gauge int
	score int64
}

// refRotate returns the pack's cells TL, TR, BL, BR after r clockwise turns,
// from the spec's table.
func refRotate(p sim.Pack, r int) [4]int8 {
	a, b, c, d := p.Top[0], p.Top[1], p.Bottom[0], p.Bottom[1]
	switch r {
	case 0:
		return [4]int8{a, b, c, d}
	case 1:
		return [4]int8{c, a, d, b}
	case 2:
		return [4]int8{d, c, b, a}
	}
	return [4]int8{b, d, a, c}
}

func (f *refField) at(x, h int) int8 {
	if x < 0 || x >= 10 || h < 0 || h >= len(f[x]) {
		return 0
	}
	return f[x][h]
}

// remove deletes the marked cells and lets every column close its gaps.
func (f *refField) remove(mark map[[2]int]bool) {
	for x := range f {
		var col []int8
		for h, v := range f[x] {
			if !mark[[2]int{x, h}] {
				col = append(col, v)
			}
		}
		f[x] = col
	}
}

// chains runs the vanish/fall loop: every pair of 8-adjacent numbered blocks
// summing to 10 vanishes at once; one step is one chain.
func (f *refField) chains() int {
	n := 0
	for {
		mark := map[[2]int]bool{}
		for x := range f {
			for h, v := range f[x] {
				if v == 11 {
					continue
				}
				for dx := -1; dx <= 1; dx++ {
					for dh := -1; dh <= 1; dh++ {
						w := f.at(x+dx, h+dh)
						if (dx != 0 || dh != 0) && w != 0 && w != 11 && v+w == 10 {
							mark[[2]int{x, h}] = true
						}
					}
				}
			}
		}
		if len(mark) == 0 {
			return n
		}
		n++
		f.remove(mark)
	}
}

// refScore is S(C) by the float formula the contest AIs used (exact for
// C ≤ 90 per the spec).
func refScore(c int) int64 {
	var s int64
	for i := 1; i <= c; i++ {
		s += int64(math.Floor(math.Pow(1.3, float64(i))))
	}
	return s
}

// refTurn plays one turn for both players literally in the order of spec
// §6.1 and returns chains, explosion sizes and sent ojama.
func refTurn(ps *[2]refPlayer, pack sim.Pack, m [2]Move) (chains, blasts, sent [2]int) {
	var points [2]int64
	for i := range ps {
		p := &ps[i]
		// 1–2: one ojama row if the stock is at least 10.
		if p.stock >= 10 {
			for x := range p.f {
				p.f[x] = append(p.f[x], 11)
			}
			p.stock -= 10
		}
		// 3–4: drop or skill, then chains.
		if m[i].Skill {
			p.gauge = 0
			mark := map[[2]int]bool{}
			for x := range p.f {
				for h, v := range p.f[x] {
					if v != 5 {
						continue
					}
					for dx := -1; dx <= 1; dx++ {
						for dh := -1; dh <= 1; dh++ {
							if w := p.f.at(x+dx, h+dh); w != 0 && w != 11 {
								mark[[2]int{x + dx, h + dh}] = true
							}
						}
					}
				}
			}
			blasts[i] = len(mark)
			p.f.remove(mark)
			chains[i] = p.f.chains()
			var e int64
			if blasts[i] > 0 {
				e = sim.ExplosionScore(blasts[i])
			}
			points[i] = e + refScore(chains[i])
			sent[i] = int(e/2 + refScore(chains[i])/2)
		} else {
			c := refRotate(pack, m[i].R)
			col := [2][2]int8{{c[2], c[0]}, {c[3], c[1]}}
			for k := 0; k < 2; k++ {
				for _, v := range col[k] {
					if v != 0 {
						p.f[m[i].X+k] = append(p.f[m[i].X+k], v)
					}
				}
			}
			chains[i] = p.f.chains()
			points[i] = refScore(chains[i])
			sent[i] = int(points[i] / 2)
		}
		p.score += points[i]
		// 5: own gauge +8 if anything vanished through chains.
		if chains[i] > 0 {
			p.gauge = min(p.gauge+8, 100)
		}
	}
	// 6: drain by the opponent's chains.
	for i := range ps {
		if c := chains[1-i]; c >= 3 {
			ps[i].gauge = max(ps[i].gauge-(12+2*c), 0)
		}
	}
	// 7: ojama to the opponent; 8: offset one by one while both are positive.
	ps[1].stock += sent[0]
	ps[0].stock += sent[1]
	for ps[0].stock > 0 && ps[1].stock > 0 {
		ps[0].stock--
		ps[1].stock--
	}
	return
}

func (p *refPlayer) dead() bool {
	for _, col := range p.f {
		if len(col) > 16 {
			return true
		}
	}
	return false
}

func (p *refPlayer) toPlayer() Player {
	q := Player{Ojama: p.stock, Gauge: p.gauge, Score: p.score}
	for x, col := range p.f {
		copy(q.Board.Cell[x][:], col)
	}
	return q
}

// randomRefPlayer builds a random mid-game state: columns of random height
// with numbered blocks and some ojama, random stock, gauge and score.
func randomRefPlayer(rng *rand.Rand) refPlayer {
	var p refPlayer
	maxH := 1 + rng.IntN(16)
	ojama := rng.IntN(4) // 0: none … 3: many
	// Half the fields use only a few digits, which leaves many blocks one
	// fall away from a partner and so gives longer chains.
	digits := []int8{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if rng.IntN(2) == 0 {
		rng.Shuffle(len(digits), func(i, j int) { digits[i], digits[j] = digits[j], digits[i] })
		digits = digits[:2+rng.IntN(3)]
	}
	for x := range p.f {
		h := rng.IntN(maxH + 1)
		for range h {
			v := digits[rng.IntN(len(digits))]
			if rng.IntN(8) < ojama {
				v = 11
			}
			p.f[x] = append(p.f[x], v)
		}
	}
	p.f.chains() // a real field never holds a vanishing pair between turns
	p.stock = []int{0, rng.IntN(10), 10 + rng.IntN(30), rng.IntN(200)}[rng.IntN(4)]
	p.gauge = []int{0, rng.IntN(101), 80 + rng.IntN(21), 100}[rng.IntN(4)]
	p.score = int64(rng.IntN(1000))
	return p
}

// refVector is a case of testdata/simulator_vectors.json as a start field.
type refVector struct {
	field    refField
	pack     sim.Pack
	x, r     int
	ojamaRow bool
}

func loadVectors(t *testing.T) []refVector {
	data, err := os.ReadFile("testdata/simulator_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Board    [][]int8 `json:"board_top_to_bottom"`
		Pack     [][]int8 `json:"pack_rows"`
		Rotation int      `json:"rotation"`
		Position int      `json:"position"`
		OjamaRow bool     `json:"drop_ojama_row_first"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var vs []refVector
	for _, r := range raw {
		v := refVector{x: r.Position, r: r.Rotation, ojamaRow: r.OjamaRow}
		v.pack = sim.Pack{Top: [2]int8{r.Pack[0][0], r.Pack[0][1]}, Bottom: [2]int8{r.Pack[1][0], r.Pack[1][1]}}
		for i := len(r.Board) - 1; i >= 0; i-- {
			for x, c := range r.Board[i] {
				if c != 0 {
					v.field[x] = append(v.field[x], c)
				}
			}
		}
		vs = append(vs, v)
	}
	if len(vs) != 7 {
		t.Fatalf("%d vectors, want 7", len(vs))
	}
	return vs
}

func randomPack(rng *rand.Rand) sim.Pack {
	var c [4]int8
	for i := range c {
		c[i] = int8(1 + rng.IntN(9))
	}
	if rng.IntN(4) > 0 {
		c[rng.IntN(4)] = 0
	}
	return sim.Pack{Top: [2]int8{c[0], c[1]}, Bottom: [2]int8{c[2], c[3]}}
}

func randomMove(rng *rand.Rand, gauge int) Move {
	if gauge >= SkillCost && rng.IntN(3) == 0 {
		return Skill
	}
	return Drop(rng.IntN(9), rng.IntN(4))
}

// TestStepMatchesReference steps random states with random moves (drops and
// skills, ojama rows, drains, offsets) and compares everything with refTurn.
func TestStepMatchesReference(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 3000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	vectors := loadVectors(t)
	skills, blasts, drains, falls, bigChains := 0, 0, 0, 0, 0
	for k := range n {
		ps := [2]refPlayer{randomRefPlayer(rng), randomRefPlayer(rng)}
		packs := make([]sim.Pack, Turns)
		turn := rng.IntN(Turns)
		packs[turn] = randomPack(rng)
		g := &Game{Packs: packs, Turn: turn, P: [2]Player{ps[0].toPlayer(), ps[1].toPlayer()}}
		m := [2]Move{randomMove(rng, ps[0].gauge), randomMove(rng, ps[1].gauge)}
		if k%4 == 0 {
			// Player 1 on a chain-ready field from the simulator vectors,
			// playing the vector's move: long chains, drains, big ojama.
			v := vectors[rng.IntN(len(vectors))]
			ps[0].f = v.field
			ps[0].stock = rng.IntN(10)
			if v.ojamaRow {
				ps[0].stock += 10
			}
			packs[turn], m[0] = v.pack, Drop(v.x, v.r)
			g.P[0] = ps[0].toPlayer()
		}
		before := g.P
		h, err := g.Step(m)
		if err != nil {
			t.Fatal(err)
		}
		chains, blast, sent := refTurn(&ps, packs[turn], m)
		for i := range 2 {
			if got, want := g.P[i], ps[i].toPlayer(); got != want {
				t.Fatalf("case %d player %d after %v: state differs\n got %+v\nwant %+v\nbefore %+v", k, i+1, m, got, want, before[i])
			}
			if h[i].Chains != chains[i] || h[i].Exploded != blast[i] || h[i].Sent != sent[i] {
				t.Fatalf("case %d player %d: half %+v, reference chains %d blast %d sent %d", k, i+1, h[i], chains[i], blast[i], sent[i])
			}
			if m[i].Skill {
				skills++
			}
			if blast[i] > 0 {
				blasts++
			}
			if chains[i] >= 3 {
				drains++
			}
			if chains[i] >= 6 {
				bigChains++
			}
			if h[i].OjamaFell {
				falls++
			}
		}
		d0, d1 := ps[0].dead(), ps[1].dead()
		if g.Over != (d0 || d1 || turn == Turns-1) {
			t.Fatalf("case %d: over %v, reference dead %v %v turn %d", k, g.Over, d0, d1, turn)
		}
		if d0 != d1 && g.Result.Winner != map[bool]int{true: 1, false: 0}[d0] {
			t.Fatalf("case %d: winner %d with deaths %v %v", k, g.Result.Winner, d0, d1)
		}
	}
	// The random states must actually exercise every rule.
	t.Logf("skills %d blasts %d drains %d falls %d chains≥6 %d", skills, blasts, drains, falls, bigChains)
	if skills < n/20 || blasts < n/20 || drains < n/50 || falls < n/5 || bigChains == 0 {
		t.Fatalf("weak coverage: skills %d blasts %d drains %d falls %d chains≥6 %d", skills, blasts, drains, falls, bigChains)
	}
}

// TestRandomGamesMatchReference plays whole games from random starting
// fields, comparing every turn with the reference.
func TestRandomGamesMatchReference(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	rng := rand.New(rand.NewPCG(5, 9))
	turns := 0
	for gi := range games {
		packs, err := GeneratePacks(rng, Profiles[gi%len(Profiles)])
		if err != nil {
			t.Fatal(err)
		}
		ps := [2]refPlayer{randomRefPlayer(rng), randomRefPlayer(rng)}
		if gi%2 == 0 {
			ps = [2]refPlayer{}
		}
		g, _ := NewGame(packs)
		g.P = [2]Player{ps[0].toPlayer(), ps[1].toPlayer()}
		for !g.Over {
			m := [2]Move{randomMove(rng, ps[0].gauge), randomMove(rng, ps[1].gauge)}
			pack := g.Packs[g.Turn]
			if _, err := g.Step(m); err != nil {
				t.Fatal(err)
			}
			refTurn(&ps, pack, m)
			turns++
			for i := range 2 {
				if g.P[i] != ps[i].toPlayer() {
					t.Fatalf("game %d turn %d player %d differs", gi, g.Turn-1, i+1)
				}
			}
		}
	}
	t.Logf("%d turns compared", turns)
}
