package player

import (
	"context"
	"os"
	"testing"
)

func TestTuneTmp(t *testing.T) {
	if os.Getenv("TUNE") == "" {
		t.Skip()
	}
	sets := map[string]Heuristic{
		"default": DefaultHeuristic(),
		"noLines": {Holes: -30, Covered: -3, Height: -1, MaxHeight: -2, Bumpiness: -1, Wells: -1, RowTrans: -1.5},
		"el":      {Lines: 7.6, Holes: -3.6, Height: -5.1, Bumpiness: -1.8},
		"holes":   {Lines: 10, Holes: -50, Covered: -5, Height: -2, MaxHeight: -1, Bumpiness: -2, Wells: -2, RowTrans: -3},
		"flat":    {Lines: 10, Holes: -20, Covered: -2, Height: -0.5, MaxHeight: -5, Bumpiness: -4, Wells: -3, RowTrans: -2},
	}
	for name, h := range sets {
		for _, q := range []bool{false, true} {
			res, _ := Search(context.Background(), Options{Width: 200, Quiescence: q, NewEval: func() Evaluator { return h }})
			t.Logf("%-8s q=%v: %d lines %d pieces %v", name, q, res.Score, res.Pieces, res.Elapsed)
		}
	}
}
