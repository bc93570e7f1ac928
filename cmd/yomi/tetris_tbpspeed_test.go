package main

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

func TestTBPStartBag(t *testing.T) {
	cases := []struct {
		queue string
		bag   []string
	}{
		{"TIOLJSZ", []string{"I", "O", "T", "L", "J", "S", "Z"}}, // a whole bag: the next one is full
		{"TOILJ", []string{"S", "Z"}},
		{"IOSZL", []string{"T", "J"}},
		{"SZJLTIOS", []string{"I", "O", "T", "L", "J", "Z"}},
	}
	for _, c := range cases {
		st, err := tbpStart(nil, c.queue)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(st.Randomizer.BagState)
		slices.Sort(got)
		want := slices.Clone(c.bag)
		slices.Sort(want)
		if st.Hold != nil || len(st.Queue) != len(c.queue) || !slices.Equal(got, want) {
			t.Errorf("%s: hold %v queue %v bag %v, want bag %v", c.queue, st.Hold, st.Queue, got, want)
		}
	}
	st, err := tbpStart([]string{"XX________", "X___XXXXXX"}, "T")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := st.Board.Engine(); err != nil || !b.Occupied(0, 1) || !b.Occupied(1, 1) || b.Occupied(2, 1) || !b.Occupied(9, 0) || b.Occupied(1, 0) {
		t.Errorf("board not carried over: %v", err)
	}
}

// TestTBPSpeedYomi times Yomi's own TBP server (this test binary acting as
// yomi) in the one-suggest mode: four positions, nodes reported, rate
// consistent with nodes and time.
func TestTBPSpeedYomi(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.Setenv("YOMI_TEST_AS_MAIN", "1")
	defer os.Unsetenv("YOMI_TEST_AS_MAIN")
	c, err := tbp.Launch(context.Background(), self+" tetris tbp --quiet", 30*time.Second, arena.ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := tbpSpeed(context.Background(), c, 1, time.Millisecond, 20*time.Millisecond, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Positions) != len(tetrisBotPositions) {
		t.Fatalf("%d positions", len(res.Positions))
	}
	var sum int64
	for i, p := range res.Positions {
		if p.Nodes <= 0 || p.Seconds < 0.02 || p.Polls != 1 {
			t.Errorf("position %d: %+v", i+1, p)
		}
		sum += p.Nodes
	}
	if sum != res.Nodes || res.Rate <= 0 || res.Bot == "" {
		t.Errorf("total %+v", res)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatal(err)
	}
}

func TestTBPSpeedUsage(t *testing.T) {
	for _, args := range [][]string{
		{"tetris", "tbp-speed"},
		{"tetris", "tbp-speed", "--bot", "x", "--nodes", "0"},
		{"tetris", "tbp-speed", "--bot", "x", "--wait-ms", "-1"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
