// pcmode_test.go checks that the built-in player follows the bot's
// perfect-clear plans through PlaySolo (a plan move the search tree does not
// hold must not rebuild the tree and drop the plan).

package versus

import (
	"context"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
)

func TestSoloFollowsPerfectClearPlans(t *testing.T) {
	r := tetris.DefaultRules()
	r.QueueSize = 12
	cfg := Config{Rules: r, Think: 5 * time.Millisecond, MaxPieces: 22}
	total := 0
	for seed := uint64(1); seed <= 3; seed++ {
		b := &Builtin{b: bot.New(bot.Options{PerfectClear: true})}
		rec, err := PlaySolo(context.Background(), cfg, b, seed)
		if err != nil {
			t.Fatal(err)
		}
		st := b.b.PCStats()
		t.Logf("seed %d: %d perfect clears, pc stats %+v", seed, rec.Side.PerfectClears, st)
		if rec.Side.Death != "" || rec.Side.Loss != "" {
			t.Fatalf("seed %d: died: %s %s", seed, rec.Side.Death, rec.Side.Loss)
		}
		if st.Found > 0 && st.Broken > 0 {
			t.Errorf("seed %d: %d plan(s) broken without garbage: %+v", seed, st.Broken, st)
		}
		if st.Completed > rec.Side.PerfectClears {
			t.Errorf("seed %d: %d completed plans but %d perfect clears", seed, st.Completed, rec.Side.PerfectClears)
		}
		total += rec.Side.PerfectClears
	}
	if total < 2 {
		t.Fatalf("%d perfect clears in 3 games of 22 pieces with a 12-piece preview, want at least 2", total)
	}
}
