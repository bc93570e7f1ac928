// rules_test.go checks the named rule sets: the combo bonus of each
// clear in a row under CC1's and the modern guideline's tables, and the
// error for an unknown name.

package tetris

import "testing"

func TestNamedRulesCombo(t *testing.T) {
	tests := []struct {
		name string
		want []int // combo bonus of the 1st, 2nd, … single in a row
	}{
		{"cc1", []int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5}},
		{"guideline", []int{0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4}},
	}
	for _, tc := range tests {
		r, err := NamedRules(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if r.Name != tc.name {
			t.Errorf("%s: Name %q", tc.name, r.Name)
		}
		var s State
		s.Board.Set(0, 0) // no perfect clear
		for i, want := range tc.want {
			// a single (base 0) after i clears in a row: its attack is the combo bonus
			if got := s.locked(Placement{Piece: I}, &r.Attack, 1, false).Attack; got != want {
				t.Errorf("%s: clear %d in a row: attack %d, want %d", tc.name, i+1, got, want)
			}
		}
	}
	if r, _ := NamedRules("cc1"); r != DefaultRules() {
		t.Errorf("cc1 is not DefaultRules")
	}
	if _, err := NamedRules("tetrio"); err == nil {
		t.Error("unknown rules accepted")
	}
}
