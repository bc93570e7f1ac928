// Tests and benchmarks the net evaluator on wells.
package train

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/nn"
)

// TestNetEvalMatchesForward: the incremental evaluator (empty-row sums plus
// the stack's rows and windows) equals a plain forward pass over the
// reference features, on random wells and the 752 wells of the 289 game.
func TestNetEvalMatchesForward(t *testing.T) {
	// 24 and 48 as the seed's nets; 1 and 7 because --hidden takes any
	// size (an odd one leaves half of the last packed word unused).
	for _, hidden := range []int{24, 48, 1, 7} {
		net, _ := nn.New(Inputs, hidden, uint64(hidden))
		for i := range net.B1 {
			net.B1[i] = float32(i%5) * 0.1
		}
		tab, err := NewTables(net)
		if err != nil {
			t.Fatal(err)
		}
		e := tab.New()
		r := rand.New(rand.NewPCG(2, 3))
		wells, err := player.BenchGame()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			wells = append(wells, randWell(r))
		}
		acc := make([]float32, hidden)
		for i := range wells {
			w := &wells[i]
			got, err := e.Value(w)
			if err != nil {
				t.Fatal(err)
			}
			var feats []nn.Feature
			for k, v := range refFeatures(w) {
				feats = append(feats, nn.Feature{Index: k, Count: v})
			}
			want, _ := net.Forward(acc, feats)
			if d := math.Abs(float64(got - want)); d > tab.MaxError() {
				t.Fatalf("hidden %d well %d: %g vs %g (bound %g)\n%v", hidden, i, got, want, tab.MaxError(), *w)
			}
			if v := e.Eval(w, 7); v != float64(got) {
				t.Fatalf("Eval %g, Value %g", v, got)
			}
			// A fresh evaluator (empty cache) gives the same bits.
			if v, _ := tab.New().Value(w); v != got {
				t.Fatalf("well %d: cached %g, fresh %g", i, got, v)
			}
		}
	}
	small, _ := nn.New(10, 4, 1)
	if _, err := NewTables(small); err == nil {
		t.Fatal("wrong input count accepted")
	}
	net, _ := nn.New(Inputs, 4, 1)
	tab, _ := NewTables(net)
	var w hatetris.Well
	w[1] = 3
	if _, err := tab.New().Value(&w); err == nil {
		t.Fatal("game-over well accepted")
	}
}

// BenchmarkForward is the nn/forward figure for HATETRIS wells (the 752
// wells of the 289 game, incremental evaluator, hidden 24).
func BenchmarkForward(b *testing.B) {
	wells, err := player.BenchGame()
	if err != nil {
		b.Fatal(err)
	}
	for _, hidden := range []int{24, 48} {
		b.Run(map[int]string{24: "h24", 48: "h48"}[hidden], func(b *testing.B) {
			net, _ := nn.New(Inputs, hidden, 1)
			tab, _ := NewTables(net)
			e := tab.New()
			i := 0
			for b.Loop() {
				e.Eval(&wells[i%len(wells)], 0)
				i++
			}
		})
	}
}

// BenchmarkFeaturesForward is the non-incremental path for comparison:
// sorted, merged features then nn.Net.Forward.
func BenchmarkFeaturesForward(b *testing.B) {
	wells, _ := player.BenchGame()
	net, _ := nn.New(Inputs, 24, 1)
	acc := make([]float32, 24)
	var feats []nn.Feature
	var idx []int32
	i := 0
	for b.Loop() {
		feats, idx, _ = Features(feats[:0], idx, &wells[i%len(wells)])
		net.Forward(acc, feats)
		i++
	}
}

// BenchmarkBeamNN is the beam's wells/s with a net evaluator (hidden 24,
// width 500, at most 60 pieces, one worker) on a random net; a random net's
// game dies early, so compare wells/s, not time per op.
func BenchmarkBeamNN(b *testing.B) {
	net, _ := nn.New(Inputs, 24, 1)
	tab, _ := NewTables(net)
	for b.Loop() {
		res, err := player.Search(context.Background(), player.Options{Width: 500, MaxDepth: 60, Workers: 1,
			NewEval: func() player.Evaluator { return tab.New() }})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Wells)/res.Elapsed.Seconds(), "wells/s")
	}
}

// TestBeamNNDeterministic: a beam with the net evaluator (per-worker caches)
// plays the same game with 1 and 3 workers, and its replay scores what it says.
func TestBeamNNDeterministic(t *testing.T) {
	net, _ := nn.New(Inputs, 16, 5)
	tab, _ := NewTables(net)
	var first string
	for _, workers := range []int{1, 3} {
		res, err := player.Search(context.Background(), player.Options{Width: 40, MaxDepth: 40, Workers: workers, Quiescence: true,
			NewEval: func() player.Evaluator { return tab.New() }})
		if err != nil {
			t.Fatal(err)
		}
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(res.Moves)
		if g.Score != res.Score {
			t.Fatalf("replay scores %d, search says %d", g.Score, res.Score)
		}
		if s := hatetris.MovesString(res.Moves); first == "" {
			first = s
		} else if s != first {
			t.Fatal("the game depends on the number of workers")
		}
	}
}

// TestNetEvalIncremental: after SetParent, Eval of every child of every
// piece (the 752 wells of the 289 game as parents, plus random wells as
// references for random wells) gives exactly the bits of a from-scratch
// Value and stays within Tables.MaxError of a plain float forward pass,
// and most children of a real parent take the incremental path.
func TestNetEvalIncremental(t *testing.T) {
	for _, hidden := range []int{24, 48} {
		net, _ := nn.New(Inputs, hidden, uint64(hidden)+7)
		for i := range net.W1 {
			net.W1[i] *= 8 // pre-activations over the whole table range
		}
		tab, _ := NewTables(net)
		e := tab.New()
		wells, err := player.BenchGame()
		if err != nil {
			t.Fatal(err)
		}
		bound := tab.MaxError()
		if bound > 0.01 {
			t.Fatalf("hidden %d: error bound %g (scale %g) is useless", hidden, bound, tab.Scale())
		}
		fresh := tab.New()
		acc := make([]float32, hidden)
		var feats []nn.Feature
		var idx []int32
		check := func(w *hatetris.Well, got float64, what string) {
			t.Helper()
			if v, _ := fresh.Value(w); float64(v) != got {
				t.Fatalf("hidden %d %s: Eval %g, Value %g: not the same bits", hidden, what, got, v)
			}
			feats, idx, _ = Features(feats[:0], idx, w)
			want, _ := net.Forward(acc, feats)
			if d := math.Abs(got - float64(want)); d > bound {
				t.Fatalf("hidden %d %s: %g vs forward %g (bound %g)\n%v", hidden, what, got, want, bound, *w)
			}
		}
		var futs []hatetris.Future
		children := 0
		for i := 0; i < len(wells); i += 3 {
			e.SetParent(&wells[i])
			for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
				futs = hatetris.Futures(futs[:0], &wells[i], p)
				for k := range futs {
					if futs[k].Well.Over() {
						continue
					}
					children++
					check(&futs[k].Well, e.Eval(&futs[k].Well, 0), "child")
				}
			}
		}
		if e.incr < int64(children)/2 {
			t.Fatalf("only %d of %d children incremental", e.incr, children)
		}
		r := rand.New(rand.NewPCG(9, 9))
		for i := 0; i < 300; i++ {
			ref, w := randWell(r), randWell(r)
			if i%2 == 0 { // a few changed rows only
				w = ref
				for y := r.IntN(Rows); y < Rows && r.IntN(3) > 0; y++ {
					w[hatetris.Bar+y] = uint16(r.IntN(hatetris.FullRow))
				}
			}
			e.SetParent(&ref)
			check(&w, e.Eval(&w, 0), "random")
			check(&ref, e.Eval(&ref, 0), "the parent itself")
		}
	}
}

// TestNetEvalChains: after SetParent, Eval of the wells of quiescence-like
// chains (a child, then locks that clear lines, two levels deep, so the
// rows above the change are the parent's moved down) and of random wells
// moved down with a few rows changed gives exactly the bits of a
// from-scratch Value, and most chain wells take the moved-down path.
func TestNetEvalChains(t *testing.T) {
	net, _ := nn.New(Inputs, 24, 11)
	for i := range net.W1 {
		net.W1[i] *= 8
	}
	tab, _ := NewTables(net)
	e, fresh := tab.New(), tab.New()
	wells, err := player.BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	check := func(w *hatetris.Well, what string) {
		t.Helper()
		got := e.Eval(w, 0)
		if v, _ := fresh.Value(w); float64(v) != got {
			t.Fatalf("%s: Eval %g, Value %g: not the same bits\n%v", what, got, v, *w)
		}
	}
	var clr hatetris.Clearer
	var futs, c1, c2 []hatetris.Future
	chains := 0
	for i := 0; i < len(wells); i += 2 {
		e.SetParent(&wells[i])
		for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
			futs = hatetris.Futures(futs[:0], &wells[i], p)
			for k := range futs {
				if futs[k].Well.Over() {
					continue
				}
				check(&futs[k].Well, "child")
				for q := hatetris.Piece(0); q < hatetris.NumPieces; q++ {
					c1 = clr.Clears(c1[:0], &futs[k].Well, q)
					for j := range c1 {
						if c1[j].Well.Over() {
							continue
						}
						chains++
						check(&c1[j].Well, "chain well")
						c2 = clr.Clears(c2[:0], &c1[j].Well, (q+p)%hatetris.NumPieces)
						for l := range c2 {
							if !c2[l].Well.Over() {
								chains++
								check(&c2[l].Well, "chain well, level 2")
							}
						}
					}
				}
			}
		}
	}
	// Low wells are summed from scratch (it is as cheap), so not all.
	if chains == 0 || e.shift < int64(chains)/10 {
		t.Fatalf("only %d of %d chain wells moved down", e.shift, chains)
	}
	if e.chain < int64(chains)/10 {
		t.Fatalf("only %d of %d chain wells from the last well summed from scratch", e.chain, chains)
	}
	t.Logf("%d chain wells: %d incremental, %d moved down, %d from the last scratch well", chains, e.incr, e.shift, e.chain)
	r := rand.New(rand.NewPCG(5, 6))
	before := e.shift
	for i := 0; i < 2000; i++ {
		ref := randWell(r)
		k := 1 + r.IntN(4)
		var w hatetris.Well
		copy(w[hatetris.Bar+k:], ref[hatetris.Bar:hatetris.Height-k])
		for y := r.IntN(Rows); y < Rows && r.IntN(3) > 0; y++ {
			w[hatetris.Bar+y] = uint16(r.IntN(hatetris.FullRow))
		}
		if r.IntN(4) == 0 {
			w[hatetris.Bar+r.IntN(Rows)] = uint16(r.IntN(hatetris.FullRow)) // one more change anywhere
		}
		e.SetParent(&ref)
		check(&w, "random moved down")
	}
	if e.shift-before < 200 {
		t.Fatalf("only %d of 2000 random wells moved down", e.shift-before)
	}
}

// TestNetEvalNoAlloc: neither Eval (scratch or incremental), Value nor
// SetParent allocates.
func TestNetEvalNoAlloc(t *testing.T) {
	net, _ := nn.New(Inputs, 24, 3)
	tab, _ := NewTables(net)
	e := tab.New()
	wells, _ := player.BenchGame()
	futs := hatetris.Futures(nil, &wells[200], hatetris.Piece(0))
	if n := testing.AllocsPerRun(20, func() {
		e.Eval(&wells[100], 0)
		e.Value(&wells[101])
		e.SetParent(&wells[200])
		for k := range futs {
			e.Eval(&futs[k].Well, 0)
		}
	}); n != 0 {
		t.Fatalf("%g allocations per run", n)
	}
}

// TestQuantisationScale: the scale adapts to the weights (larger weights,
// smaller scale) and keeps the value within MaxError of the float net even
// for a net whose sums would overflow a lane at a fixed scale.
func TestQuantisationScale(t *testing.T) {
	wells, _ := player.BenchGame()
	prev := math.Inf(1)
	for _, mul := range []float32{1, 30, 3000} {
		net, _ := nn.New(Inputs, 24, 11)
		for i := range net.W1 {
			net.W1[i] *= mul
		}
		tab, err := NewTables(net)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Scale() >= prev {
			t.Fatalf("weights ×%g: scale %g not below %g", mul, tab.Scale(), prev)
		}
		prev = tab.Scale()
		e := tab.New()
		acc := make([]float32, 24)
		for i := 0; i < len(wells); i += 7 {
			feats, _, _ := Features(nil, nil, &wells[i])
			want, _ := net.Forward(acc, feats)
			got, _ := e.Value(&wells[i])
			if d := math.Abs(float64(got - want)); d > tab.MaxError() {
				t.Fatalf("weights ×%g well %d: %g vs %g (bound %g)", mul, i, got, want, tab.MaxError())
			}
		}
		t.Logf("weights ×%g: scale %g, bound %.2g", mul, tab.Scale(), tab.MaxError())
	}
	bad, _ := nn.New(Inputs, 4, 1)
	bad.W1[5] = float32(math.Inf(1))
	if _, err := NewTables(bad); err == nil {
		t.Fatal("infinite weight accepted")
	}
}

// TestTanhExpSlope: the slope bound used by MaxError holds on a dense grid.
func TestTanhExpSlope(t *testing.T) {
	worst := 0.0
	for x := -20.0; x < 20; x += 1e-3 {
		e := math.Exp(x)
		th := math.Tanh(e)
		worst = math.Max(worst, math.Abs(th+x*e*(1-th*th)))
	}
	if worst > tanhExpSlope || worst < 1 {
		t.Fatalf("max slope %g, bound %g", worst, tanhExpSlope)
	}
}

// chainOps returns an evaluation sequence like a quiescence beam's: for
// every step-th well of the 289 game, the well as parent (parent = true)
// and then each child of the enemy's piece followed by its chain wells
// (single-line clears of each piece, two levels).
func chainOps(tb testing.TB, step int) (wells []hatetris.Well, parent []bool) {
	game, err := player.BenchGame()
	if err != nil {
		tb.Fatal(err)
	}
	var exp hatetris.Expander
	var clr hatetris.Clearer
	var c1, c2 []hatetris.Future
	for i := 0; i < len(game); i += step {
		wells, parent = append(wells, game[i]), append(parent, true)
		_, futs := exp.Choose(&game[i], nil)
		for k := range futs {
			if futs[k].Well.Over() {
				continue
			}
			wells, parent = append(wells, futs[k].Well), append(parent, false)
			for q := hatetris.Piece(0); q < hatetris.NumPieces; q++ {
				c1 = clr.Clears(c1[:0], &futs[k].Well, q)
				for j := range c1 {
					if c1[j].Well.Over() || c1[j].Lines != 1 {
						continue
					}
					wells, parent = append(wells, c1[j].Well), append(parent, false)
					c2 = clr.Clears(c2[:0], &c1[j].Well, q)
					for l := range c2 {
						if !c2[l].Well.Over() && c2[l].Lines == 1 {
							wells, parent = append(wells, c2[l].Well), append(parent, false)
						}
					}
				}
			}
		}
	}
	return wells, parent
}

// BenchmarkNetEvalChains times EvalRaw (the quiescence's call) with the
// net of the width-1 M game on chainOps' sequence, on one locked thread;
// compare cpu-ns/eval.
func BenchmarkNetEvalChains(b *testing.B) {
	net, err := nn.LoadFile("../nets/h24-run4-gen19.yomi")
	if err != nil {
		b.Fatal(err)
	}
	tab, _ := NewTables(net)
	e := tab.New()
	wells, parent := chainOps(b, 1)
	evals := 0
	for _, p := range parent {
		if !p {
			evals++
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := bench.ThreadCPU()
	b.ResetTimer()
	for b.Loop() {
		for i := range wells {
			if parent[i] {
				e.SetParent(&wells[i])
			} else {
				e.EvalRaw(&wells[i], 0)
			}
		}
	}
	c1, ok1 := bench.ThreadCPU()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*evals), "ns/eval")
	if ok0 && ok1 {
		b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(b.N*evals), "cpu-ns/eval")
	}
}

// TestUnpackLanes: outputRaw unpacks each packed word into its two lanes'
// values (the low lane signed, the high lane after the low one's borrow)
// for random lane values of both signs, hidden 24 (the two-lane fast path,
// fused with the output layer) and 7 (the general loop), and its value is
// OutputFastRaw of them, bit for bit.
func TestUnpackLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	for _, hidden := range []int{24, 7} {
		net, _ := nn.New(Inputs, hidden, 5)
		tab, _ := NewTables(net)
		e := tab.New()
		inv := float32(1 / tab.Scale())
		want := make([]float32, hidden)
		for trial := 0; trial < 2000; trial++ {
			clear(e.acc)
			for j := range hidden {
				v := int64(r.Int32N(1<<31-1)) - 1<<30
				if trial%4 == 0 {
					v = int64(r.IntN(5)) - 2 // small lanes: borrows at 0 and -1
				}
				e.acc[j/lanes] += uint64(v << (laneBits * (j % lanes)))
				want[j] = float32(v) * inv
			}
			got := e.outputRaw()
			// The two-lane path (hidden 24) fuses the unpacking into the
			// output layer: only its value is checked, below.
			for j := range hidden {
				if hidden%lanes != 0 && e.pre[j] != want[j] {
					t.Fatalf("hidden %d unit %d: unpacked %g, want %g", hidden, j, e.pre[j], want[j])
				}
			}
			if w := net.OutputFastRaw(want); got != w {
				t.Fatalf("hidden %d: outputRaw %g, OutputFastRaw %g", hidden, got, w)
			}
		}
	}
}
