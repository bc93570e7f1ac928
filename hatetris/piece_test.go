package hatetris

import (
	"fmt"
	"strings"
	"testing"
)

// TestShapes compares the derived orientation table with the spec's (§1.2).
func TestShapes(t *testing.T) {
	want := map[Piece]string{
		S: "0:(1,1,3,2,[6,3]) 1:(1,1,2,3,[1,3,2]) 2:(0,1,3,2,[6,3]) 3:(1,0,2,3,[1,3,2])",
		Z: "0:(1,1,3,2,[3,6]) 1:(1,1,2,3,[2,3,1]) 2:(0,1,3,2,[3,6]) 3:(1,0,2,3,[2,3,1])",
		O: "0:(1,1,2,2,[3,3]) 1:(1,1,2,2,[3,3]) 2:(1,1,2,2,[3,3]) 3:(1,1,2,2,[3,3])",
		I: "0:(0,1,4,1,[15]) 1:(2,0,1,4,[1,1,1,1]) 2:(0,2,4,1,[15]) 3:(1,0,1,4,[1,1,1,1])",
		L: "0:(1,1,3,2,[7,1]) 1:(1,1,2,3,[3,2,2]) 2:(0,1,3,2,[4,7]) 3:(1,0,2,3,[1,1,3])",
		J: "0:(1,1,2,3,[3,1,1]) 1:(0,1,3,2,[7,4]) 2:(1,0,2,3,[2,2,3]) 3:(1,1,3,2,[1,7])",
		T: "0:(1,1,3,2,[7,2]) 1:(1,1,2,3,[2,3,2]) 2:(0,1,3,2,[2,7]) 3:(1,0,2,3,[1,3,1])",
	}
	for p := Piece(0); p < NumPieces; p++ {
		var parts []string
		for o, sh := range shapes[p] {
			rows := make([]string, sh.yDim)
			for i := range rows {
				rows[i] = fmt.Sprint(sh.rows[i])
			}
			parts = append(parts, fmt.Sprintf("%d:(%d,%d,%d,%d,[%s])", o, sh.xMin, sh.yMin, sh.xDim, sh.yDim, strings.Join(rows, ",")))
		}
		if got := strings.Join(parts, " "); got != want[p] {
			t.Errorf("%v:\n got %s\nwant %s", p, got, want[p])
		}
	}
}

func TestParsePiece(t *testing.T) {
	for p := Piece(0); p < NumPieces; p++ {
		for _, s := range []string{p.String(), strings.ToLower(p.String())} {
			if q, err := ParsePiece(s); err != nil || q != p {
				t.Errorf("ParsePiece(%q) = %v, %v", s, q, err)
			}
		}
	}
	for _, s := range []string{"", "X", "SS"} {
		if _, err := ParsePiece(s); err == nil {
			t.Errorf("ParsePiece(%q) accepted", s)
		}
	}
}
