package ai

import (
	"context"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
)

// TestLateStance checks the late stance's rules at fixed widths on the
// constructed games of TestCounterStance, at our plan's fire turn with an
// 11+ chain ready: with no ojama coming it fires nothing of its own (build
// beam or held plan); it fires a chain of LateBig+; with a row in its
// stock it answers at once when the chain ready after the row out-sends
// the stock; and the stance ends after our first fire or at lateMaxTurn.
func TestLateStance(t *testing.T) {
	for _, c := range []struct {
		name  string
		seed  uint64
		cfg   Config
		stock int
		fire  bool   // the move fires the chain
		log   string // the decision's log note
	}{
		{"build beam, no ojama", 11, Config{Late: true}, 0, false, "late: build"},
		{"held plan, no ojama", 11, Config{Late: true, LatePlan: true}, 0, false, "late: hold"},
		{"under-rows key, no ojama", 11, Config{Late: true, LateRows: 2, LateHeight: 8}, 0, false, "late: build"},
		{"big chain", 11, Config{Late: true, LateBig: 11}, 0, true, "late: big fire"},
		{"hit by a row", 18, Config{Late: true}, codevs.OjamaRow, true, "late: hit, counter now"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, packs, mine := stanceGame(t, c.seed, false)
			fireTurn := len(mine.Moves) - 1
			var log strings.Builder
			cfg := c.cfg
			cfg.FixedWidth, cfg.OwnDepth, cfg.Threads, cfg.Log = 200, 2, 2, &log
			bot := NewBot(packs, cfg)
			in := g.Input(0, [2]int64{100000, 100000})
			in.Me.Ojama = c.stock
			me, _ := sideFrom(&in.Me)
			now := exhaust(context.Background(), me, packs[fireTurn:], 1, 2).Ply[0]
			if c.stock > 0 && now.Sent < c.stock {
				t.Fatalf("fixture: the chain after a row sends %d < stock %d", now.Sent, c.stock)
			}
			m, err := bot.decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			rot := rotate(packs[fireTurn])
			o := me.act(m, &rot)
			t.Logf("our %d chains at turn %d, ready now %d (%d sent); move %v fires %d\n%s", mine.Chains, fireTurn, now.Chains, now.Sent, toMove(m), o.chains, log.String())
			switch {
			case c.fire && (o.chains < now.Chains || !bot.fired):
				t.Errorf("move %v fires %d chains, want the ready %d", toMove(m), o.chains, now.Chains)
			case !c.fire && (o.chains > smallFire || bot.fired):
				t.Errorf("move %v fires %d chains, want no fire before the opponent's", toMove(m), o.chains)
			}
			if !strings.Contains(log.String(), c.log) {
				t.Errorf("log has no %q", c.log)
			}
			if bot.lateOn(fireTurn) == c.fire {
				t.Errorf("lateOn after the move = %v, want %v", !c.fire, c.fire)
			}
		})
	}
	b := NewBot(nil, Config{Late: true})
	if !b.lateOn(lateMaxTurn-1) || b.lateOn(lateMaxTurn) {
		t.Errorf("the stance should hold before turn %d and end there", lateMaxTurn)
	}
	b.lateFired(5)
	if b.lateOn(6) {
		t.Error("the stance holds after our fire without LateAgain")
	}
	b = NewBot(nil, Config{Late: true, LateAgain: true})
	b.lateFired(5)
	if !b.lateOn(6) || !b.lateOn(5+lateMaxTurn) || b.lateOn(6+lateMaxTurn) {
		t.Errorf("with LateAgain the stance should hold for %d turns after our fire", lateMaxTurn)
	}
	if NewBot(nil, Config{}).lateOn(0) {
		t.Error("the stance is on without Config.Late")
	}
}

// TestLateHoldMove checks the hold move against the game itself: it fires
// at most smallFire chains, and after it and one ojama row the next pack
// really fires the ojama it promised against a row next turn.
func TestLateHoldMove(t *testing.T) {
	for _, seed := range []uint64{18, 31} {
		g, packs, mine := stanceGame(t, seed, false)
		fireTurn := len(mine.Moves) - 1
		in := g.Input(0, [2]int64{100000, 100000})
		me, _ := sideFrom(&in.Me)
		ps := packs[fireTurn:]
		my := exhaust(context.Background(), me, ps, 2, 2)
		m, under, _ := lateHoldMove(context.Background(), me, ps, &my, 2, func(int) bool { return true })
		if m < 0 {
			t.Fatalf("seed %d: no hold move", seed)
		}
		s := me
		rot := rotate(ps[0])
		if o := s.act(m, &rot); o.chains > smallFire {
			t.Fatalf("seed %d: hold move %v fires %d chains", seed, toMove(m), o.chains)
		}
		s.stock += codevs.OjamaRow
		next := rotate(ps[1])
		best := 0
		for c := 0; c < moveSkill; c++ {
			if !next.uniq[c&3] {
				continue
			}
			x := s
			best = max(best, x.act(c, &next).sent)
		}
		t.Logf("seed %d: our %d chains (%d); hold %v keeps %d (the next pack after a row fires %d)", seed, mine.Chains, mine.Sent, toMove(m), under, best)
		if best < under || under <= 0 {
			t.Errorf("seed %d: after the hold move and a row the next pack fires %d, the hold promised %d", seed, best, under)
		}
	}
}

// TestCapKey checks the height cap of the late build beam: a field above
// the cap loses per chains a row from its bucket and ranks by the new
// bucket (its old key below), fields at or under the cap keep their
// bucket, and hash-only keys (fields at row 14) stay as they are.
func TestCapKey(t *testing.T) {
	for _, c := range []struct {
		h, cap, per int
		bucket      int8
		want        int8
	}{
		{9, 10, 1, 12, 12},
		{10, 10, 1, 12, 12},
		{12, 10, 1, 12, 10},
		{12, 10, 2, 12, 8},
		{16, 10, 3, 12, 0},
	} {
		key := int64(c.bucket)<<40 | 1<<20
		nb, nk := capKey(c.h, c.cap, c.per, c.bucket, key)
		if nb != c.want || nk>>56 != int64(c.want) || nk&(1<<56-1) != key {
			t.Errorf("h %d cap %d per %d bucket %d: got bucket %d key %x, want bucket %d over the old key", c.h, c.cap, c.per, c.bucket, nb, nk, c.want)
		}
	}
	// A lower bucket after the cap ranks below a higher one whatever the old keys.
	_, low := capKey(13, 10, 1, 14, int64(14)<<40)
	_, high := capKey(10, 10, 1, 12, int64(12)<<40)
	if low >= high {
		t.Errorf("capped 14 -> 11 key %x should rank below an uncapped 12 (%x)", low, high)
	}
	if nb, nk := capKey(14, 10, 1, 9, 0x1234); nb != 5 || nk != 0x1234 {
		t.Errorf("hash-only key: got %d %x, want 5 0x1234", nb, nk)
	}
}
