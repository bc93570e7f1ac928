// bot_test.go tests the search: determinism, obvious tetrises and T-spins,
// AddPiece/Play bookkeeping and the final-move rule.
package bot

import (
	"context"
	"testing"
)

func mustField(t *testing.T, rows ...string) Board {
	t.Helper()
	b, err := ParseField(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestThinkEmpty(t *testing.T) {
	b := New(Options{Seed: 1})
	if err := b.Reset(Board{}, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	st := b.Think(context.Background(), Budget{Nodes: 20000})
	t.Logf("%+v nps=%.0f", st, st.NodesPerSecond())
	if st.Nodes < 20000 || st.Depth < 3 {
		t.Fatalf("too little search: %+v", st)
	}
	if len(b.Suggest(0)) == 0 {
		t.Fatal("no suggestion")
	}
	t.Logf("plan %v", b.Plan())
}
