// This file holds the fixed workload of the speed benchmarks: the wells of
// knewjade's 289-line game (seed 001's record), embedded in the binary.

package player

import (
	_ "embed"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
)

//go:embed testdata/knewjade5-289.txt
var knewjade289 string

// BenchGame replays knewjade's 289-line game and returns the well at every
// spawn (752 wells) with the game's loop-rule history.
func BenchGame() ([]hatetris.Well, error) {
	ms, _, err := replay.Decode(knewjade289)
	if err != nil {
		return nil, err
	}
	g := hatetris.NewGame(hatetris.Hatetris)
	g.Play(ms)
	return g.History, nil
}

// ExpandAll produces, for every well in order, the enemy's choice (with the
// loop rule over the wells before it, as in the game) and all children of
// that piece, and returns the number of children and the time taken.
func ExpandAll(wells []hatetris.Well, rounds int) (children int64, elapsed time.Duration) {
	var exp hatetris.Expander
	start := time.Now()
	for r := 0; r < rounds; r++ {
		seen := make(map[hatetris.Well]int, len(wells))
		for i := range wells {
			seen[wells[i]]++
			_, futs := exp.Choose(&wells[i], func(f *hatetris.Well) int { return seen[*f] })
			children += int64(len(futs))
		}
	}
	return children, time.Since(start)
}
