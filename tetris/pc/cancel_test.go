// This file checks that long searches stop soon after their context ends
// and that progress reports cover a whole run.

package pc

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestCancelMidRun cancels searches that take minutes to hours: each must
// return context.Canceled within 2 s (the depth-first search, path
// enumeration and the bitset path alike).
func TestCancelMidRun(t *testing.T) {
	empty4 := "__________ __________ __________ __________"
	cases := []struct {
		name, field, pattern string
		path                 bool
	}{
		{"path dfs", empty4, "I,O,L,J,S,Z,T,*p4", true},                                   // issue 25's command
		{"percent dfs", empty4, "I,[SZ]p2,[SZ]p2,[SZ]p2,[SZ]p2,[SZ]p2", false},            // 10 placements: depth-first, ~1 s a sequence
		{"percent listing", empty4, "*p7,*p4", false},                                     // 4.2 M sequences to list first
		{"percent sets", "XX________ XX________ XX________ XX________", "*p7,*p2", false}, // 8: bitsets
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, h, err := ParseField(c.field)
			if err != nil {
				t.Fatal(err)
			}
			pat, err := ParsePattern(c.pattern)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var at time.Time
			var mu sync.Mutex
			time.AfterFunc(300*time.Millisecond, func() {
				mu.Lock()
				at = time.Now()
				mu.Unlock()
				cancel()
			})
			opt := Options{Height: h, Hold: true}
			if c.path {
				_, _, err = Paths(ctx, f, pat, opt)
			} else {
				_, _, err = Percent(ctx, f, pat, opt)
			}
			end := time.Now()
			mu.Lock()
			defer mu.Unlock()
			if at.IsZero() {
				t.Fatalf("finished (err %v) before the cancel: the case is too small to test it", err)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err %v, want context.Canceled", err)
			}
			if d := end.Sub(at); d > 2*time.Second {
				t.Errorf("returned %v after the cancel, want within 2 s", d)
			}
		})
	}
}

// TestProgress: reports never exceed their total and end at it, and the
// results are those of a run without progress.
func TestProgress(t *testing.T) {
	cases := []struct {
		field, pattern string
		path           bool
	}{
		{"XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____", "*p7", true},
		{"X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", false},           // bitsets
		{"__________ __________ __________ __________", "I,O,L,J,S,Z,T,I,O,L", false}, // depth-first
	}
	for _, c := range cases {
		f, h, _ := ParseField(c.field)
		pat, _ := ParsePattern(c.pattern)
		var mu sync.Mutex
		calls, last, total := 0, 0, 0
		opt := Options{Height: h, Hold: true, Progress: func(done, tot int) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if done > tot || (total != 0 && tot != total) {
				t.Errorf("%s: progress %d of %d (total before %d)", c.pattern, done, tot, total)
			}
			last, total = max(last, done), tot
		}}
		var a, b any
		if c.path {
			s1, _, err1 := Paths(context.Background(), f, pat, opt)
			s2, _, err2 := Paths(context.Background(), f, pat, Options{Height: h, Hold: true})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			a, b = len(s1), len(s2)
		} else {
			x1, n1, err1 := Percent(context.Background(), f, pat, opt)
			x2, n2, err2 := Percent(context.Background(), f, pat, Options{Height: h, Hold: true})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			a, b = [2]int{x1, n1}, [2]int{x2, n2}
		}
		if a != b {
			t.Errorf("%s: %v with progress, %v without", c.pattern, a, b)
		}
		if calls == 0 || last != total {
			t.Errorf("%s: %d reports, last %d of %d", c.pattern, calls, last, total)
		}
	}
}
