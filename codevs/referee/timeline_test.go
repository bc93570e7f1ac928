// Tests of NewTimeline on a hand-made replay.

package referee

import "testing"

// TestTimeline builds a replay whose big fires and death are known: player
// 2 fires 12/45 first at turn 3 (player 1 has 45 in stock at turn 4), player
// 1 answers 14/79 at turn 5 with that stock, player 2 fires 13/60 alone at
// turn 20, player 2 dies at turn 21; a 2-chain and a skill are small fires.
func TestTimeline(t *testing.T) {
	rp := &Replay{TimeMs: 1000, Players: [2]ReplayPlayer{{Name: "yomi"}, {Name: "tanzaku"}}}
	for turn := 0; turn < 22; turn++ {
		rec := TurnRecord{Turn: turn, Moves: [2]string{"0 0", "0 0"}}
		rp.Players[0].ThinkNs = append(rp.Players[0].ThinkNs, 10e6)
		rp.Players[1].ThinkNs = append(rp.Players[1].ThinkNs, 20e6)
		switch turn {
		case 1:
			rec.Chains[0] = 2
		case 2:
			rec.Moves[1], rec.Exploded[1], rec.Sent[1] = "S", 12, 8
		case 3:
			rec.Chains[1], rec.Sent[1] = 12, 45
		case 5:
			rec.Chains[0], rec.Sent[0] = 14, 79
		case 20:
			rec.Chains[1], rec.Sent[1] = 13, 60
		case 21:
			rec.Dead[1] = true
		}
		if turn >= 3 && turn < 5 {
			rec.Ojama[0] = 45
		}
		rp.Turns = append(rp.Turns, rec)
	}
	rp.Result = ReplayResult{Winner: 0, Turns: 22, Reason: "player 2 died"}
	tl := NewTimeline(rp, TimelineOptions{})
	if len(tl.Fires) != 5 {
		t.Fatalf("fires %+v, want 5", tl.Fires)
	}
	if f := tl.Fires[3]; f.Turn != 5 || f.Side != 0 || f.Stock != 45 || f.LeftMs != 1000-50 {
		t.Errorf("the answer is %+v, want turn 5, side 0, stock 45, 950 ms left", f)
	}
	if !tl.Fires[1].Skill || tl.Fires[1].Exploded != 12 {
		t.Errorf("the skill is %+v", tl.Fires[1])
	}
	if tl.FirstBig != 1 || len(tl.Exchanges) != 2 || tl.Exchanges[0].Net != [2]int{79, 45} || tl.Decisive != 0 {
		t.Errorf("first %d, exchanges %+v, decisive %d", tl.FirstBig, tl.Exchanges, tl.Decisive)
	}
	if tl.Dead != [2]int{-1, 21} || tl.ThinkMs != [2]int64{220, 440} {
		t.Errorf("dead %v, think %v", tl.Dead, tl.ThinkMs)
	}
	if got, want := tl.Line(0), "*t3 T12/45 t5 Y14/79! | t20 T13/60 ; T dies t21"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	// Same-turn fires and a wider gap: one exchange, first "both".
	rp.Turns[3].Chains[0], rp.Turns[3].Sent[0] = 12, 45
	tl = NewTimeline(rp, TimelineOptions{Gap: 20})
	if tl.FirstBig != 2 || len(tl.Exchanges) != 1 || tl.Exchanges[0].Net != [2]int{124, 105} || tl.Decisive != -1 {
		t.Errorf("same turn: first %d, exchanges %+v, decisive %d", tl.FirstBig, tl.Exchanges, tl.Decisive)
	}
}
