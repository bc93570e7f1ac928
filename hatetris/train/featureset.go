// This file holds the feature sets a net can be trained on: knewjade's
// pattern counts (Features, the default) and David & Felipe's positional
// windows (DNFFeatures, spec §7.2), and how a net file says which it uses.
package train

import (
	"fmt"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// FeatureSet names a net's input encoding.
type FeatureSet string

// The feature sets.
const (
	// Knewjade is knewjade's pattern counts (Features): the same row or
	// window pattern anywhere shares one weight. A net file without a
	// feature-set name (every file before the name existed) uses it.
	Knewjade FeatureSet = "knewjade"
	// DNF is David & Felipe's positional windows (DNFFeatures): each
	// window position has its own weights, 120 of 442 368 inputs active.
	DNF FeatureSet = "dnf"
)

// FeatureSets lists the feature sets for help texts.
var FeatureSets = []FeatureSet{Knewjade, DNF}

// ParseFeatureSet returns the feature set named s ("" is Knewjade).
func ParseFeatureSet(s string) (FeatureSet, error) {
	switch FeatureSet(s) {
	case "", Knewjade:
		return Knewjade, nil
	case DNF:
		return DNF, nil
	}
	return "", fmt.Errorf("train: unknown feature set %q (want %s or %s)", s, Knewjade, DNF)
}

// Inputs is the number of net inputs the feature set has.
func (f FeatureSet) Inputs() int {
	if f == DNF {
		return DNFInputs
	}
	return Inputs
}

// netName is the name a net file records: none for Knewjade, so that its
// nets keep the version-1 bytes of every committed net.
func (f FeatureSet) netName() string {
	if f == DNF {
		return string(DNF)
	}
	return ""
}

// NewNet returns a net with random weights (nn.New) for this feature set,
// named so that its file records the set.
func (f FeatureSet) NewNet(hidden int, seed uint64) (*nn.Net, error) {
	n, err := nn.New(f.Inputs(), hidden, seed)
	if err != nil {
		return nil, err
	}
	n.Features = f.netName()
	return n, nil
}

// Extract appends the well's features under this set to dst (Features or
// DNFFeatures; idx is scratch).
func (f FeatureSet) Extract(dst []nn.Feature, idx []int32, w *hatetris.Well) ([]nn.Feature, []int32, error) {
	if f == DNF {
		d, err := DNFFeatures(dst, w)
		return d, idx, err
	}
	return Features(dst, idx, w)
}

// NetFeatures returns the feature set a net was trained on, from the name
// its file records, and checks that the net's input count fits it.
func NetFeatures(net *nn.Net) (FeatureSet, error) {
	f := Knewjade
	switch net.Features {
	case "":
	case string(DNF):
		f = DNF
	default:
		return "", fmt.Errorf("train: net uses feature set %q, which this build does not know", net.Features)
	}
	if net.Inputs != f.Inputs() {
		return "", fmt.Errorf("train: net has %d inputs, %s features need %d", net.Inputs, f, f.Inputs())
	}
	return f, nil
}

// LoadNet reads a net file and checks its feature set (NetFeatures).
func LoadNet(path string) (*nn.Net, FeatureSet, error) {
	n, err := nn.LoadFile(path)
	if err != nil {
		return nil, "", err
	}
	f, err := NetFeatures(n)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return n, f, nil
}

// D&F's layout: 16 row windows (1 × 10) of 1 024 patterns each, then
// (4 × 3) block windows at 8 column offsets × 13 row offsets of 4 096
// patterns each, over the 16 rows below the bar without padding. Inputs
// are numbered window position by window position (rows first, then the
// blocks column by column, top to bottom within a column), each position
// owning its pattern range.
const (
	dnfRowPatterns   = 1 << hatetris.Width
	dnfBlockPatterns = 1 << 12
	// DNFBlockCols and DNFBlockRows are the block windows' column and row offsets.
	DNFBlockCols = hatetris.Width - 3 + 1
	DNFBlockRows = Rows - 4 + 1
	// DNFActive is the number of windows, one active input each.
	DNFActive    = Rows + DNFBlockCols*DNFBlockRows
	dnfBlockBase = Rows * dnfRowPatterns
	// DNFInputs is the input count: 1 024·16 + 4 096·104 = 442 368.
	DNFInputs = dnfBlockBase + DNFBlockCols*DNFBlockRows*dnfBlockPatterns
)

// DNFFeatures appends the well's DNFActive positional features to dst,
// sorted by index, each with count 1: row y's pattern at y·1024 + row,
// and the block at column offset c and rows y..y+3 at its position's
// offset plus the 4 rows' 3-cell slices concatenated, row y most
// significant, column c the low bit of each slice.
func DNFFeatures(dst []nn.Feature, w *hatetris.Well) ([]nn.Feature, error) {
	if err := check(w); err != nil {
		return dst, err
	}
	for y := 0; y < Rows; y++ {
		dst = append(dst, nn.Feature{Index: int32(y*dnfRowPatterns + int(w[hatetris.Bar+y])), Count: 1})
	}
	rows := w[hatetris.Bar:]
	for c := 0; c < DNFBlockCols; c++ {
		// v rolls the last 4 rows' slices: each step shifts in one row.
		v := uint32(rows[0]>>c&7)<<6 | uint32(rows[1]>>c&7)<<3 | uint32(rows[2]>>c&7)
		base := dnfBlockBase + c*DNFBlockRows*dnfBlockPatterns
		for y := 0; y < DNFBlockRows; y++ {
			v = (v<<3 | uint32(rows[y+3]>>c&7)) & (dnfBlockPatterns - 1)
			dst = append(dst, nn.Feature{Index: int32(base + y*dnfBlockPatterns + int(v)), Count: 1})
		}
	}
	return dst, nil
}
