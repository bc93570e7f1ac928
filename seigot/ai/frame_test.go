// This file tests the Misfit term's exact fillability search on depth vectors.
package ai

import "testing"

func TestFillable(t *testing.T) {
	var fr framer
	for _, tc := range []struct {
		name string
		need [frameCols]int8
		want bool
	}{
		{"complete", [frameCols]int8{}, true},
		{"empty frame", [frameCols]int8{4, 4, 4, 4, 4, 4, 4, 4, 4}, true},
		{"one flat I", [frameCols]int8{1, 1, 1, 1, 0, 0, 0, 0, 0}, true},
		{"three cells", [frameCols]int8{1, 1, 1, 0, 0, 0, 0, 0, 0}, false},
		{"two flat I", [frameCols]int8{1, 1, 1, 1, 1, 1, 1, 1, 0}, true},
		{"O", [frameCols]int8{0, 0, 2, 2, 0, 0, 0, 0, 0}, true},
		{"T pointing down", [frameCols]int8{1, 2, 1, 0, 0, 0, 0, 0, 0}, true},
		{"strips of 5 and 3", [frameCols]int8{1, 1, 1, 1, 1, 0, 1, 1, 1}, false},
		{"one deep column", [frameCols]int8{0, 0, 0, 0, 4, 0, 0, 0, 0}, true},
		{"lone cell under a step", [frameCols]int8{2, 1, 1, 0, 0, 0, 0, 0, 0}, true}, // J
		{"S gap", [frameCols]int8{1, 2, 1, 0, 0, 0, 0, 0, 0}, true},
		{"depth 3 then 1", [frameCols]int8{3, 1, 0, 0, 0, 0, 0, 0, 0}, true},          // L/J upright
		{"three pits under a row", [frameCols]int8{2, 1, 2, 1, 2, 0, 0, 0, 0}, false}, // a T takes one pit, two 2-cell columns stay
		{"two isolated singles", [frameCols]int8{1, 0, 1, 0, 1, 0, 1, 0, 0}, false},
	} {
		if got := fr.fillable(&tc.need); got != tc.want {
			t.Errorf("%s %v: fillable %v, want %v", tc.name, tc.need, got, tc.want)
		}
	}
}
