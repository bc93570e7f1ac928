// Differential tests of the chain kernel (Fast) against refFast, the
// kernel as it stood before it was sped up: every operation and every
// query must give the same results on random and near-full fields.
package sim

import (
	"math/rand/v2"
	"testing"
)

// kernelPair is one field held by both kernels.
type kernelPair struct {
	f Fast
	r refFast
}

// pairFrom loads a Board (stable or not) into both kernels.
func pairFrom(b *Board) kernelPair {
	return kernelPair{FastFrom(b), refFastFrom(b)}
}

// check compares the two fields and every read-only query on them; q and x
// are a rotated pack and column for the pack queries.
func (p *kernelPair) check(t testing.TB, what string, q Pack, x int) {
	t.Helper()
	fb, rb := p.f.Board(), p.r.Board()
	if fb != rb {
		t.Fatalf("%s: fields differ\nfast %v\nref  %v", what, fb, rb)
	}
	for c := 0; c < Width; c++ {
		if p.f.Height(c) != p.r.Height(c) {
			t.Fatalf("%s: height of column %d: fast %d, ref %d", what, c, p.f.Height(c), p.r.Height(c))
		}
	}
	if p.f.Hash() != p.r.Hash() || p.f.Dead() != p.r.Dead() || p.f.MaxHeight() != p.r.MaxHeight() {
		t.Fatalf("%s: Hash/Dead/MaxHeight differ", what)
	}
	fbl, foj := p.f.Count()
	rbl, roj := p.r.Count()
	if fbl != rbl || foj != roj || p.f.SkillBlocks() != p.r.SkillBlocks() {
		t.Fatalf("%s: Count or SkillBlocks differ", what)
	}
	before := p.f
	fc, fx, frow := p.f.ErasePotential()
	rc, rx, rrow := p.r.ErasePotential()
	if fc != rc || fx != rx || frow != rrow {
		t.Fatalf("%s: ErasePotential fast (%d,%d,%d), ref (%d,%d,%d)\n%v", what, fc, fx, frow, rc, rx, rrow, fb)
	}
	fc, fx, frow = p.f.Potential()
	rc, rx, rrow = p.r.Potential()
	if fc != rc || fx != rx || frow != rrow {
		t.Fatalf("%s: Potential fast (%d,%d,%d), ref (%d,%d,%d)\n%v", what, fc, fx, frow, rc, rx, rrow, fb)
	}
	if ft, rt := p.f.Triggers(q, x), p.r.Triggers(q, x); ft != rt {
		t.Fatalf("%s: Triggers(%v, %d) fast %v, ref %v\n%v", what, q, x, ft, rt, fb)
	}
	if fh, rh := p.f.FireHeight(q, x), p.r.FireHeight(q, x); fh != rh {
		t.Fatalf("%s: FireHeight(%v, %d) fast %d, ref %d\n%v", what, q, x, fh, rh, fb)
	}
	if p.f != before {
		t.Fatalf("%s: a query changed the field", what)
	}
}

// step applies one operation chosen by op to both kernels and compares the
// results; it returns the chain count.
func (p *kernelPair) step(t testing.TB, op int, q Pack, x int) int {
	t.Helper()
	switch op {
	case 0:
		p.f.DropOjamaRow()
		p.r.DropOjamaRow()
		return 0
	case 1:
		fb, fch := p.f.Explode()
		rb, rch := p.r.Explode()
		if fb != rb || fch != rch {
			t.Fatalf("Explode: fast %d blocks %d chains, ref %d %d", fb, fch, rb, rch)
		}
		return fch
	default:
		fc := p.f.DropRotated(q, x)
		rc := p.r.DropRotated(q, x)
		if fc != rc {
			t.Fatalf("DropRotated(%v, %d): fast %d chains, ref %d", q, x, fc, rc)
		}
		return fc
	}
}

// randField fills columns with random values (ojama included) to random
// heights, up to full: such fields need not be stable, which exercises the
// kernels on cells the game would never leave (both must still agree).
func randField(rng *rand.Rand) Board {
	var b Board
	for x := 0; x < Width; x++ {
		n := rng.IntN(fastCap + 1)
		for h := 0; h < n; h++ {
			if rng.IntN(6) == 0 {
				b.Cell[x][h] = Ojama
			} else {
				b.Cell[x][h] = int8(1 + rng.IntN(9))
			}
		}
	}
	return b
}

// TestFastKernelMatchesRef plays random games (packs, ojama rows, skills,
// up to dead and full fields) and random unstable fields on both kernels,
// comparing every result and query after every step.
func TestFastKernelMatchesRef(t *testing.T) {
	games := 3000
	if testing.Short() {
		games = 300
	}
	rng := rand.New(rand.NewPCG(31, 32))
	maxChain, steps, full := 0, 0, 0
	for g := 0; g < games; g++ {
		var p kernelPair
		if g%4 == 3 {
			b := randField(rng)
			p = pairFrom(&b)
		}
		ojama := rng.IntN(10) // per-game ojama rate: some games get near-full ojama fields
		for i := 0; i < 200 && p.f.MaxHeight() < fastCap; i++ {
			q, x := randPack(rng).Rotate(rng.IntN(4)), rng.IntN(9)
			p.check(t, "before step", q, x)
			op := 2
			switch {
			case rng.IntN(12) < ojama/2:
				op = 0
			case rng.IntN(15) == 0:
				op = 1
			}
			maxChain = max(maxChain, p.step(t, op, q, x))
			steps++
		}
		p.check(t, "end", randPack(rng), rng.IntN(9))
		if p.f.MaxHeight() >= fastCap {
			full++
		}
	}
	if maxChain < 4 || full == 0 {
		t.Fatalf("weak coverage: max chain %d, %d full fields", maxChain, full)
	}
	t.Logf("%d steps, max chain %d, %d games ended full", steps, maxChain, full)
}

// FuzzFastKernel decodes a byte string into a field and a sequence of
// operations and compares the kernels after each.
func FuzzFastKernel(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 0, 0, 0, 9, 1, 9, 1, 5, 5, 5, 5, 2, 8, 2, 8})
	f.Add([]byte{255, 7, 3, 3, 7, 255, 1, 9, 4, 6, 6, 4, 1, 1, 9, 9, 0, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			v := int(data[0])
			data = data[1:]
			return v
		}
		var b Board
		if n := next(); n&1 == 1 { // a random-ish starting field
			for x := 0; x < Width; x++ {
				hgt := next() % (fastCap + 1)
				for h := 0; h < hgt; h++ {
					v := next() % 11 // 0 ends the column, 10 is ojama
					if v == 0 {
						break
					}
					if v == 10 {
						v = Ojama
					}
					b.Cell[x][h] = int8(v)
				}
			}
		}
		p := pairFrom(&b)
		for steps := 0; len(data) > 0 && steps < 64; steps++ {
			c := next()
			var q Pack
			q.Bottom[0], q.Bottom[1] = int8(next()%10), int8(next()%10)
			q.Top[0], q.Top[1] = int8(next()%10), int8(next()%10)
			x := c % 9
			p.check(t, "fuzz", q, x)
			op := 2
			switch c / 9 % 8 {
			case 0:
				op = 0
			case 1:
				op = 1
			}
			p.step(t, op, q, x)
		}
		p.check(t, "fuzz end", Pack{}, 0)
	})
}
