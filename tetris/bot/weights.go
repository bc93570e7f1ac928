// weights.go holds the evaluator weights (spec §19), their JSON file format
// and Cold Clear's default and fast_config values.

package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Weights are the "Standard" evaluator weights of CC1, one field per term.
// JSON names follow CC1's field names so files are easy to compare.
type Weights struct {
	BackToBack     int32     `json:"back_to_back"`
	Bumpiness      int32     `json:"bumpiness"`
	BumpinessSq    int32     `json:"bumpiness_sq"`
	RowTransitions int32     `json:"row_transitions"`
	Height         int32     `json:"height"`
	TopHalf        int32     `json:"top_half"`
	TopQuarter     int32     `json:"top_quarter"`
	Jeopardy       int32     `json:"jeopardy"`
	CavityCells    int32     `json:"cavity_cells"`
	CavityCellsSq  int32     `json:"cavity_cells_sq"`
	OverhangCells  int32     `json:"overhang_cells"`
	OverhangSq     int32     `json:"overhang_cells_sq"`
	CoveredCells   int32     `json:"covered_cells"`
	CoveredSq      int32     `json:"covered_cells_sq"`
	TSlot          [4]int32  `json:"tslot"`
	WellDepth      int32     `json:"well_depth"`
	MaxWellDepth   int32     `json:"max_well_depth"`
	WellColumn     [10]int32 `json:"well_column"`
	B2BClear       int32     `json:"b2b_clear"`
	Clear1         int32     `json:"clear1"`
	Clear2         int32     `json:"clear2"`
	Clear3         int32     `json:"clear3"`
	Clear4         int32     `json:"clear4"`
	TSpin1         int32     `json:"tspin1"`
	TSpin2         int32     `json:"tspin2"`
	TSpin3         int32     `json:"tspin3"`
	MiniTSpin1     int32     `json:"mini_tspin1"`
	MiniTSpin2     int32     `json:"mini_tspin2"`
	PerfectClear   int32     `json:"perfect_clear"`
	ComboGarbage   int32     `json:"combo_garbage"`
	MoveTime       int32     `json:"move_time"`
	WastedT        int32     `json:"wasted_t"`
	// Death is what a piece that dies costs a speculated node: it counts
	// as the worst live piece's value minus Death (CC1: 1000). Not one
	// of CC1's weights (a constant there), so a search can be made to
	// fear deaths it sees as much as Cold Clear 2 does. 0 means 1000.
	Death         int32 `json:"death"`
	UseBag        bool  `json:"use_bag"`
	TimedJeopardy bool  `json:"timed_jeopardy"`
	StackPCDamage bool  `json:"stack_pc_damage"`
}

// DefaultWeights returns CC1's `Standard::default()` weights.
func DefaultWeights() Weights {
	return Weights{
		BackToBack: 52, Bumpiness: -24, BumpinessSq: -7, RowTransitions: -5,
		Height: -39, TopHalf: -150, TopQuarter: -511, Jeopardy: -11,
		CavityCells: -173, CavityCellsSq: -3, OverhangCells: -34, OverhangSq: -1,
		CoveredCells: -17, CoveredSq: -1, TSlot: [4]int32{8, 148, 192, 407},
		WellDepth: 57, MaxWellDepth: 17, WellColumn: [10]int32{20, 23, 20, 50, 59, 21, 59, 10, -10, 24},
		B2BClear: 104, Clear1: -143, Clear2: -100, Clear3: -58, Clear4: 390,
		TSpin1: 121, TSpin2: 410, TSpin3: 602, MiniTSpin1: -158, MiniTSpin2: -93,
		PerfectClear: 999, ComboGarbage: 150, MoveTime: -3, WastedT: -152, Death: cc1Death,
		UseBag: true, TimedJeopardy: true, StackPCDamage: false,
	}
}

// FastWeights returns CC1's `Standard::fast_config()` weights.
func FastWeights() Weights {
	return Weights{
		BackToBack: 10, Bumpiness: -7, BumpinessSq: -28, RowTransitions: -5,
		Height: -46, TopHalf: -126, TopQuarter: -493, Jeopardy: -11,
		CavityCells: -176, CavityCellsSq: -6, OverhangCells: -47, OverhangSq: -9,
		CoveredCells: -25, CoveredSq: 1, TSlot: [4]int32{0, 150, 296, 207},
		WellDepth: 158, MaxWellDepth: -2, WellColumn: [10]int32{31, 16, -41, 37, 49, 30, 56, 48, -27, 22},
		B2BClear: 74, Clear1: -122, Clear2: -174, Clear3: 11, Clear4: 424,
		TSpin1: 131, TSpin2: 392, TSpin3: 628, MiniTSpin1: -188, MiniTSpin2: -682,
		PerfectClear: 991, ComboGarbage: 272, MoveTime: -1, WastedT: -147, Death: cc1Death,
		UseBag: true, TimedJeopardy: false, StackPCDamage: false,
	}
}

// ParseWeights decodes a JSON weights file. Fields missing from the file
// keep Cold Clear's defaults; unknown fields are an error.
func ParseWeights(data []byte) (Weights, error) {
	w := DefaultWeights()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return w, fmt.Errorf("bot: weights: %w", err)
	}
	return w, nil
}

// LoadWeights reads a JSON weights file (see ParseWeights).
func LoadWeights(path string) (Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Weights{}, err
	}
	w, err := ParseWeights(data)
	if err != nil {
		return w, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

// JSON returns the weights as indented JSON.
func (w Weights) JSON() []byte {
	b, _ := json.MarshalIndent(w, "", "  ")
	return append(b, '\n')
}
