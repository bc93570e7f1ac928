// Test of Config.ReplanAnti on the position of pack set 8001 at 180 s
// where a race replan fired our 12-chain at once into a read answer of 16
// chains (session codevs-fire, type D).

package ai

import (
	"context"
	"strings"
	"testing"
)

// TestReplanAnti decides our turn 12 of pack set 8001 (dc2d5b1, game 0;
// game 1 the same) with no plan, as the game's bot had none (its counter
// plan no longer replayed), on 3 000 states per search. Without ReplanAnti
// the race replan's one-move plan fires as in the game; with it the
// anti-counter reads the answer first and holds: the move is not the fire
// and the plan grows to a longer chain.
func TestReplanAnti(t *testing.T) {
	if testing.Short() {
		t.Skip("chokudai searches of 3 000 states")
	}
	fx := raceFixture{name: "tanzaku-s8001-replan-turn12", seed: 8001, enHist: 60}
	packs, in := loadTurnFixture(t, fx.seed, fx.name+".txt")
	me, err := sideFrom(&in.Me)
	if err != nil {
		t.Fatal(err)
	}
	var fire int
	for v, on := range []bool{false, true} {
		var log strings.Builder
		cfg := raceConfig(3000, false)
		cfg.ReplanAnti, cfg.Log = on, &log
		bot := raceBot(packs, fx, cfg)
		m, err := bot.decide(context.Background(), &in)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("replan-anti %v: move %v\n%s", on, toMove(m), log.String())
		rot := rotate(packs[in.Turn])
		r := me
		o := r.act(m, &rot)
		if v == 0 {
			if o.chains < antiMinChains || !bot.fired {
				t.Fatalf("without ReplanAnti the replan should fire (as the game's 12/45): move %v fires %d chains, fired %v", toMove(m), o.chains, bot.fired)
			}
			fire = m
			continue
		}
		switch {
		case strings.Count(log.String(), "anti-counter: answer") < 2:
			t.Errorf("ReplanAnti: the anti-counter did not read the replan's fire")
		case m == fire || o.chains >= antiMinChains:
			t.Errorf("ReplanAnti: move %v fires %d chains; the read answer is longer, it should hold", toMove(m), o.chains)
		case bot.plan == nil || len(bot.plan.moves) < 2 || bot.plan.moves[0] != m:
			t.Errorf("ReplanAnti: no grow plan starting with %v: %+v", toMove(m), bot.plan)
		}
	}
}
