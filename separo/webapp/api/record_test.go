// Tests of game records: export and paste round trips, the output of
// `yomi separo game`, bad records, and the notation and regions in Response.

package api

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			_, moves := parseGame(t, v.game)
			r, err := Step(ctx, Request{Size: v.size, Moves: moves})
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Fields(v.game)
			if !slices.Equal(r.Notation, want) {
				t.Fatalf("notation\n got %v\nwant %v", r.Notation, want)
			}
			if r.Record != FormatRecord(v.size, want) || !strings.HasPrefix(r.Record, "size ") {
				t.Fatalf("record %q", r.Record)
			}
			// Paste the export back, with the page's size set to another one.
			back, err := Step(ctx, Request{Size: 7, Record: r.Record})
			if err != nil {
				t.Fatal(err)
			}
			if back.Size != v.size || !slices.Equal(back.Moves, moves) || back.Score != r.Score || back.Result != v.result {
				t.Fatalf("pasted: size %d, %d moves, score %v, result %q; want %d, %d, %v, %q",
					back.Size, len(back.Moves), back.Score, back.Result, v.size, len(moves), r.Score, v.result)
			}
			for c := range 2 {
				n := map[int]bool{}
				for _, l := range r.Regions[c] {
					if l >= 0 {
						n[l] = true
					}
				}
				if len(r.Regions[c]) != 4*(v.size-1)*(v.size-1) || len(n) != r.Score[c] {
					t.Errorf("colour %d: %d region labels over %d triangles, score %d", c, len(n), len(r.Regions[c]), r.Score[c])
				}
			}
		})
	}
}

func TestRecordForms(t *testing.T) {
	ctx := context.Background()
	// What `yomi separo game --size 5` prints, numbers, board and result line included.
	cli := `  1 R:44-33-23
  2 B:40-31-21
  3 R:23-12-02
R . . . B
. R . B .
. . . . .
. . . . .
R . . . B
Red (yomi) 2 - Blue (uct) 1: red
`
	plain := "# no colours, no size: the request's size\n1. 44-33-23 2. 40-31-21\n3. 23-12-02\n"
	for name, rec := range map[string]string{"cli": cli, "plain": "size 5\n" + plain, "request size": plain} {
		r, err := Step(ctx, Request{Size: 5, Record: rec})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(r.Notation, " "); got != "R:44-33-23 B:40-31-21 R:23-12-02" || r.Size != 5 {
			t.Errorf("%s: size %d, moves %q", name, r.Size, got)
		}
	}
}

func TestRecordErrors(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Record: "size 5\nmoves B:44-33-23"}, "move 1 B:44-33-23: it is Red's turn"},
		{Request{Record: "size 5\nmoves R:44-33-23 B:44-33-23"}, "move 2 B:44-33-23: (4,4)-(3,3)-(2,3) is not a legal move for Blue"},
		{Request{Record: "size 5\nmoves R:44-33-2"}, `line 2: move "44-33-2": want x1y1-x2y2-x3y3`},
		{Request{Record: "size 5\nmoves hello"}, `line 2: move "hello"`},
		{Request{Record: "size 40\n"}, `line 1: board size "40": want 5..19`},
		{Request{Record: "R:44-33-23\nsize 5"}, "line 2: size after the moves"},
		{Request{Record: "size 5", Moves: []Move{{4, 4, 3, 3, 2, 3}}}, "either moves or record"},
	} {
		_, err := Step(ctx, tc.req)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.req.Record, err, tc.want)
		}
	}
}

// FuzzParseRecord checks that any text is refused cleanly or, when its
// moves replay, that the export reads back to the same game.
func FuzzParseRecord(f *testing.F) {
	f.Add("size 5\nmoves R:44-33-23 B:40-31-21")
	f.Add("1. 44-33-23 2. 40-31-21\n# c\nR . . . B\nRed (x) 1 - Blue (y) 1: draw")
	f.Add("size 19\nmoves R:ij-hi-gi")
	f.Fuzz(func(t *testing.T, text string) {
		if _, _, err := ParseRecord(text); err != nil {
			return
		}
		r, err := Step(context.Background(), Request{Size: 5, Record: text})
		if err != nil {
			return
		}
		back, err := Step(context.Background(), Request{Record: r.Record})
		if err != nil || !slices.Equal(back.Moves, r.Moves) || back.Size != r.Size {
			t.Fatalf("export %q does not read back: %v", r.Record, err)
		}
	})
}
