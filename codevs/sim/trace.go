// Traces for viewers: DropTraced and ExplodeTraced (and codevs's traced
// turns) show an observer each stage of the rules' own loop, so a replay
// viewer draws exactly what the simulator did.

package sim

// Stages of a turn on one field.
const (
	StageOjama   = "ojama"   // a row of ojama fell at the start of the turn
	StagePack    = "pack"    // the pack landed
	StageExplode = "explode" // the skill: the cells around every 5 are about to go
	StageVanish  = "vanish"  // chain Frame.Chain: neighbours summing to 10 are about to go
)

// Frame is one stage: the field as it stands, the cells about to be removed
// and why (for StageVanish the pairs of 8-neighbours summing to 10, as x1,
// h1, x2, h2; for StageExplode each 5 as x, h, x, h).
type Frame struct {
	Stage  string
	Chain  int // 1-based chain number of a StageVanish frame
	Board  Board
	Vanish [][2]int // (x, h) cells removed after this frame
	Pairs  [][4]int
}

func marked(kill *[Width][Height + 2]bool) [][2]int {
	var out [][2]int
	for x := range Width {
		for h := range Height + 2 {
			if kill[x][h] {
				out = append(out, [2]int{x, h})
			}
		}
	}
	return out
}
