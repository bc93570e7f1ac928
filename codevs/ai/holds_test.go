// Tests of the chain-size measurement's fixtures, the chokudai horizon
// shared by plans and the race counter (chokDepthAt), and OpenX.

package ai

import (
	"context"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// TestHoldFixtures loads every pressure fixture and checks the landing it
// computes (the other side's best fire now) against the number the game's
// logs give: our counter mode's "opponent can fire N now" for side me,
// our fire for side opp.
func TestHoldFixtures(t *testing.T) {
	fxs, err := LoadHoldFixtures("testdata/chains/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"9007-t11-me": 60, "9007-t11-opp": 60,
		"9003-t11-me": 105, "9003-t11-opp": 60,
		"9004-t12-me": 60, "9004-t12-opp": 60,
		"9005g1-t12-me": 60,
		"9005g1-t14-me": 79, "9005g1-t14-opp": 105,
		"9005g0-t14-opp": 60,
		"9006-t12-me":    60, "9006-t12-opp": 60,
		"9006-t27-opp": 33, // the manifest's incoming: the counter rule's fire was not the best now
	}
	seen := 0
	for _, fx := range fxs {
		pos, err := fx.Load()
		if err != nil {
			t.Fatal(err)
		}
		if pos.Player.Board.Dead() || len(pos.Packs) == 0 {
			t.Errorf("%s: bad position", fx.Name)
		}
		if w, ok := want[fx.Name]; ok {
			seen++
			if pos.Incoming != w {
				t.Errorf("%s: landing %d (best fire now %d), the game's %d", fx.Name, pos.Incoming, pos.FireNow, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d logged fixtures in the manifest", seen, len(want))
	}
}

// TestChokDepthAt checks the horizon of plans (runChokudai) and of the race
// counter at a turn: --chok-depth and --chok-late-depth as set, and the
// race counter's floor of its landing ply + 1.
func TestChokDepthAt(t *testing.T) {
	packs, err := codevs.PacksForSeed(1, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		depth, late, turn int
		landing           int // the race counter's landing ply
		plan, race        int // plies
	}{
		{0, 10, 5, 3, 13, 13},   // the default, to turn 10
		{0, 10, 20, 3, 10, 10},  // the default, after turn 10
		{8, 0, 20, 3, 8, 8},     // --chok-depth alone (the race counter took 13)
		{8, 10, 5, 3, 8, 8},     // --chok-depth to turn 10
		{8, 10, 20, 3, 10, 10},  // --chok-late-depth after it
		{0, 0, 20, 3, 13, 13},   // neither
		{6, 0, 20, 9, 6, 10},    // the landing ply's floor
		{16, 10, 10, 3, 16, 16}, // turn 10 is not late
	} {
		cfg := ContestConfig()
		cfg.ChokDepth, cfg.ChokLateDepth, cfg.ChokNodes, cfg.Threads = c.depth, c.late, 30, 1
		b := NewBot(packs, cfg)
		b.runChokudai(context.Background(), side{}, c.turn, BeamConfig{Depth: 20, Target: 13})
		if b.chokLast.Depth != c.plan {
			t.Errorf("%+v: plan searched %d plies, want %d", c, b.chokLast.Depth, c.plan)
		}
		b.chokLast = ChokudaiConfig{}
		fires := make([]int, 12)
		fires[c.landing-1] = 60
		b.raceCounter(context.Background(), side{}, c.turn, fires, Fire{}, 0, 0, func(int) bool { return true })
		if b.chokLast.Depth != c.race {
			t.Errorf("%+v: race counter searched %d plies, want %d", c, b.chokLast.Depth, c.race)
		}
	}
}

// TestOpenX checks ChokudaiConfig.OpenX: from an empty field every first
// move of the search is in column OpenX−1; without it, or from a field
// that is not empty, first moves use several columns. Config.ChokOpenX
// reaches the bot's opening plan.
func TestOpenX(t *testing.T) {
	packs, err := codevs.PacksForSeed(9007, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	var nonEmpty side // two drops of the first packs that leave blocks
	for i := 0; nonEmpty.f.MaxHeight() == 0; i++ {
		rot := rotate(packs[i])
		nonEmpty.act(0, &rot)
	}
	for _, c := range []struct {
		name    string
		root    side
		open    int
		onlyCol int // -1: several columns expected
	}{
		{"empty, column 5", side{}, 6, 5},
		{"empty, column 0", side{}, 1, 0},
		{"empty, off", side{}, 0, -1},
		{"not empty", nonEmpty, 6, -1},
	} {
		var ch Chokudai
		ch.search(context.Background(), c.root, packs[1:], ChokudaiConfig{Depth: 6, Nodes: 400, XMax: 8, OpenX: c.open, ByFirst: true, Threads: 1})
		cols := map[int]bool{}
		for _, f := range ch.byFirst() {
			cols[f.Moves[0]>>2] = true
		}
		if c.onlyCol >= 0 && (len(cols) != 1 || !cols[c.onlyCol]) {
			t.Errorf("%s: first-move columns %v, want only %d", c.name, cols, c.onlyCol)
		}
		if c.onlyCol < 0 && len(cols) < 2 {
			t.Errorf("%s: first-move columns %v, want several", c.name, cols)
		}
	}
	for _, open := range []int{0, 6, 2} {
		cfg := ContestConfig()
		cfg.ChokOpenX, cfg.ChokNodes, cfg.Threads = open, 2000, 1
		b := NewBot(packs, cfg)
		g, err := codevs.NewGame(packs)
		if err != nil {
			t.Fatal(err)
		}
		turn := g.Input(0, [2]int64{180000, 180000})
		m, err := b.decide(context.Background(), &turn)
		if err != nil {
			t.Fatal(err)
		}
		if open > 0 && m>>2 != open-1 {
			t.Errorf("ChokOpenX %d: opening move %v, want column %d", open, toMove(m), open-1)
		}
		if open == 0 && m>>2 == 5 {
			t.Logf("ChokOpenX 0: the opening move is in column 5 by itself (%v)", toMove(m))
		}
	}
}

// TestEdgeFree checks the free-room count and that ChokudaiConfig.FreeW
// adds it to every queued child's key, and that Config.ChokFree and
// ChokOpenX reach every own search (plans, counter plans, grow plans, the
// race counter) but not the reads of the opponent.
func TestEdgeFree(t *testing.T) {
	col := func(xs ...int) sim.Fast {
		var b sim.Board
		for _, x := range xs {
			b.Cell[x][0] = 5
		}
		return sim.FastFrom(&b)
	}
	for _, c := range []struct {
		cols []int
		want int
	}{
		{nil, 10},
		{[]int{0}, 9},
		{[]int{9}, 9},
		{[]int{3, 4, 5, 6}, 3},
		{[]int{1, 8}, 1},
		{[]int{2, 7}, 2},
		{[]int{0, 9}, 0},
	} {
		f := col(c.cols...)
		if got := edgeFree(&f); got != c.want {
			t.Errorf("edgeFree(columns %v) = %d, want %d", c.cols, got, c.want)
		}
	}
	packs, err := codevs.PacksForSeed(9003, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	var root side
	for i, m := range []int{12, 16, 20} {
		rot := rotate(packs[i])
		root.act(m, &rot)
	}
	keys := func(free int) map[[2]int32]int64 {
		var c Chokudai
		c.search(context.Background(), root, packs[3:], ChokudaiConfig{Depth: 3, Nodes: 1, XMax: 8, FreeW: free, Threads: 1})
		out := map[[2]int32]int64{}
		for _, e := range c.heaps[1] {
			out[[2]int32{e.parent, int32(e.mv)}] = e.key
		}
		return out
	}
	k0, k1 := keys(0), keys(3000)
	if len(k0) == 0 || len(k0) != len(k1) {
		t.Fatalf("%d and %d children queued", len(k0), len(k1))
	}
	rot := rotate(packs[3])
	varied := map[int]bool{}
	for id, k := range k0 {
		s := root
		s.act(int(id[1]), &rot)
		e := edgeFree(&s.f)
		varied[e] = true
		if d := k1[id] - k; d != int64(3000*e)<<8 {
			t.Errorf("move %v: key +%d with FreeW 3000, want 3000 × %d << 8", toMove(int(id[1])), d, e)
		}
	}
	if len(varied) < 2 {
		t.Errorf("every child has edgeFree %v: the test does not tell", varied)
	}

	cfg := ContestConfig()
	cfg.ChokFree, cfg.ChokOpenX, cfg.ChokNodes, cfg.Threads = 1234, 6, 20, 1
	cfg.ChokExt, cfg.ChokExtK = 10, 2
	b := NewBot(packs, cfg)
	b.enHist = []int{0}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func()
		own  bool
	}{
		{"plan", func() { b.runChokudai(ctx, root, 3, BeamConfig{Depth: 13, Target: 13}) }, true},
		{"counter plan", func() { b.ownRead(ctx, root, 3, 10, 60, 15, 0) }, true},
		{"counter-mode plan", func() { b.counterRead(ctx, root, 3, 10, 60, 15, 0) }, true},
		{"grow plan", func() { b.growPick(ctx, root, 3, 5, 0, func(int) bool { return true }) }, true},
		{"race counter", func() {
			b.raceCounter(ctx, root, 3, []int{0, 60}, Fire{}, 0, 0, func(int) bool { return true })
		}, true},
		{"opponent read", func() { b.chokRead(ctx, root, 3, 7, 60, 0, 0) }, false},
	} {
		b.chokLast = ChokudaiConfig{}
		c.run()
		got := b.chokLast.FreeW == 1234 && b.chokLast.OpenX == 6
		if got != c.own || b.chokLast.Depth == 0 {
			t.Errorf("%s: searched with FreeW %d, OpenX %d (depth %d); own search %v", c.name, b.chokLast.FreeW, b.chokLast.OpenX, b.chokLast.Depth, c.own)
		}
		// The extension pick is for plans only.
		if ext := b.chokLast.ExtNodes == 10 && b.chokLast.ExtK == 2; ext != (c.name == "plan") {
			t.Errorf("%s: ExtNodes %d, ExtK %d", c.name, b.chokLast.ExtNodes, b.chokLast.ExtK)
		}
	}
	// ChokExtCounter adds the counter-mode plans (counterRead), and the
	// widening reaches every search that picks.
	b.cfg.ChokExtCounter, b.cfg.ChokExtLater, b.cfg.ChokExtShorter = true, 1, 2
	for _, c := range []struct {
		name string
		run  func()
		ext  bool
	}{
		{"plan", func() { b.runChokudai(ctx, root, 3, BeamConfig{Depth: 13, Target: 13}) }, true},
		{"counter-mode plan", func() { b.counterRead(ctx, root, 3, 10, 60, 15, 0) }, true},
		{"counter plan", func() { b.ownRead(ctx, root, 3, 10, 60, 15, 0) }, false},
		{"opponent read", func() { b.chokRead(ctx, root, 3, 7, 60, 0, 0) }, false},
	} {
		b.chokLast = ChokudaiConfig{}
		c.run()
		l := b.chokLast
		if ext := l.ExtNodes == 10 && l.ExtK == 2 && l.ExtLater == 1 && l.ExtShorter == 2; ext != c.ext {
			t.Errorf("ChokExtCounter: %s: ExtNodes %d, ExtK %d, ExtLater %d, ExtShorter %d; want the pick %v", c.name, l.ExtNodes, l.ExtK, l.ExtLater, l.ExtShorter, c.ext)
		}
	}
}

// TestSearchExt checks the extension pick: without ExtNodes searchExt is
// search; with it the chosen fire is the search's or a candidate at least
// as long and no later whose extension is longer, and on some of the
// seeds it is a candidate (the rule changes plans).
func TestSearchExt(t *testing.T) {
	changed := 0
	for _, seed := range []uint64{9000, 9001, 9003} {
		packs, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		cfg := ChokudaiConfig{Depth: 13, Nodes: 4000, XMax: 8, Target: 13, Threads: 1}
		var c Chokudai
		base := c.search(context.Background(), side{}, packs, cfg)
		same := c.searchExt(context.Background(), side{}, packs, cfg)
		if !slices.Equal(base.Best.Moves, same.Best.Moves) || same.ExtReads != 0 {
			t.Errorf("seed %d: searchExt without ExtNodes chose %v, search %v", seed, same.Best.Moves, base.Best.Moves)
		}
		cfg.ExtNodes, cfg.ExtK = 1500, 6
		res := c.searchExt(context.Background(), side{}, packs, cfg)
		if base.Best.Chains == 0 {
			continue
		}
		e0 := c.extension(context.Background(), side{}, packs, base.Best, 0, 0, ojamaOf(base.Best.Chains), 1500, 0, 1)
		if slices.Equal(res.Best.Moves, base.Best.Moves) {
			if res.ExtReads > 0 && res.Ext != e0 {
				t.Errorf("seed %d: kept the search's fire, extension %d, read again %d", seed, res.Ext, e0)
			}
			continue
		}
		changed++
		e := c.extension(context.Background(), side{}, packs, res.Best, 0, 0, ojamaOf(res.Best.Chains), 1500, 0, 1)
		if res.Best.Chains < base.Best.Chains || res.Best.Ply > base.Best.Ply || e <= e0 || e != res.Ext {
			t.Errorf("seed %d: picked %d chains at ply %d (extension %d, reported %d) over the search's %d at ply %d (extension %d)",
				seed, res.Best.Chains, res.Best.Ply, e, res.Ext, base.Best.Chains, base.Best.Ply, e0)
		}
		t.Logf("seed %d: %d chains at ply %d, extension %d -> %d chains at ply %d, extension %d (%d reads)", seed, base.Best.Chains, base.Best.Ply, e0, res.Best.Chains, res.Best.Ply, e, res.ExtReads)
	}
	if changed == 0 {
		t.Errorf("the extension pick changed no plan")
	}
}
