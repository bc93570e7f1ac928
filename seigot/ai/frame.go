// This file holds the Misfit term's test: can the four rows above the
// well's bottom be completed exactly (no cell above them, no hole) by some
// sequence of pieces hard-dropped onto them?
package ai

// frameCols is the number of columns beside the well.
const frameCols = width - 1

// profile is one orientation's underside and top per column, in rows above
// the piece's lowest cell.
type profile struct {
	w        int
	bot, top [4]int8
}

// profiles are the 19 distinct orientations of the seven shapes
// (shapeProfiles' lists, shape by shape).
var profiles = func() (ps []profile) {
	for _, l := range shapeProfiles {
		ps = append(ps, l...)
	}
	return ps
}()

// framer memoises exact fillability per depth vector (the cells each of
// the nine columns still needs, 0..4, read as a base-5 number).
type framer struct {
	memo []uint8 // 0 unknown, 1 no, 2 yes
}

// fillable reports whether pieces dropped one at a time, each resting on
// the surface with no gap under any of its cells and none above the four
// rows, can fill exactly the cells given by need (column c needs need[c]).
func (fr *framer) fillable(need *[frameCols]int8) bool {
	if fr.memo == nil {
		n := 1
		for range frameCols {
			n *= 5
		}
		fr.memo = make([]uint8, n)
	}
	sum := 0
	for _, d := range need {
		sum += int(d)
	}
	if sum%4 != 0 {
		return false
	}
	return fr.fill(need, sum)
}

func (fr *framer) fill(need *[frameCols]int8, sum int) bool {
	if sum == 0 {
		return true
	}
	key := 0
	for _, d := range need {
		key = key*5 + int(d)
	}
	if m := fr.memo[key]; m != 0 {
		return m == 2
	}
	ok := false
search:
	for pi := range profiles {
		p := &profiles[pi]
		for x := 0; x+p.w <= frameCols; x++ {
			// Surface height of column c is 4 - need[c]; the piece rests
			// at level L with every column touching (no gap under it).
			l := 4 - need[x] - p.bot[0]
			fits := true
			for i := 1; i < p.w; i++ {
				if 4-need[x+i]-p.bot[i] != l {
					fits = false
					break
				}
			}
			if !fits || l < 0 {
				continue
			}
			for i := range p.w {
				if l+p.top[i]+1 > 4 {
					fits = false
					break
				}
			}
			if !fits {
				continue
			}
			next := *need
			for i := range p.w {
				next[x+i] = 4 - (l + p.top[i] + 1)
			}
			if fr.fill(&next, sum-4) {
				ok = true
				break search
			}
		}
	}
	fr.memo[key] = 1
	if ok {
		fr.memo[key] = 2
	}
	return ok
}

// frameFits reports whether the four rows above the well's bottom can be
// completed exactly, ignoring cells already above them. Columns lower
// than the well's bottom never fit.
func (fr *framer) frameFits(ft *features, well int) bool {
	b := ft.heights[well]
	var need [frameCols]int8
	i := 0
	for c, h := range ft.heights {
		if c == well {
			continue
		}
		d := b + 4 - h
		if d > 4 {
			return false
		}
		need[i] = int8(max(d, 0))
		i++
	}
	return fr.fillable(&need)
}
