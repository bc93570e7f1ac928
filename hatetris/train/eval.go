// This file holds NetEval, the net as a beam-search evaluator for wells.
package train

import (
	"fmt"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// Tables is the per-net precomputation NetEval shares across goroutines:
// the first-layer sum of a well's empty top rows, by how many there are.
type Tables struct {
	net *nn.Net
	// empty[k] = B1 + the weights of k empty rows and of the windows lying
	// wholly inside them.
	empty [][]float32
}

// NewTables checks the net's shape and precomputes its empty-row sums.
func NewTables(net *nn.Net) (*Tables, error) {
	if net.Inputs != Inputs {
		return nil, fmt.Errorf("train: net has %d inputs, HATETRIS features need %d", net.Inputs, Inputs)
	}
	t := &Tables{net: net, empty: make([][]float32, Rows+1)}
	var w hatetris.Well
	pad := padded(&w)
	var win [hatetris.Width]int32
	windows(&pad, 0, &win) // every window row inside the empty area looks the same
	h := net.Hidden
	for k := 0; k <= Rows; k++ {
		acc := append([]float32(nil), net.B1...)
		for y := 0; y < k; y++ {
			addRow(acc, net.W1[0:h])
		}
		for s := 0; s+3 < k; s++ {
			for _, i := range win {
				addRow(acc, net.W1[int(i)*h:int(i+1)*h])
			}
		}
		t.empty[k] = acc
	}
	return t, nil
}

// Net returns the net the tables were built for.
func (t *Tables) Net() *nn.Net { return t.net }

// addRow adds row to acc, four lanes at a time (the compiler does not
// vectorise; unrolling removes most loop and bounds-check overhead).
func addRow(acc, row []float32) {
	row = row[:len(acc)]
	j := 0
	for ; j+4 <= len(acc); j += 4 {
		a, r := acc[j:j+4:j+4], row[j:j+4:j+4]
		a[0] += r[0]
		a[1] += r[1]
		a[2] += r[2]
		a[3] += r[3]
	}
	for ; j < len(acc); j++ {
		acc[j] += row[j]
	}
}

// NetEval values wells with a net: the first layer starts from the
// precomputed sum of the empty rows above the stack, adds the weight rows of
// the stack's row patterns, and for each window row (4 rows of the well)
// adds the sum of its 10 windows' weight rows. Window-row sums are always
// formed on their own before being added, so they can be cached by the 4
// rows' contents (children of one parent share most of them) without
// changing a single bit of the result. It owns its buffers and cache, so
// use one per goroutine (see Tables.New).
type NetEval struct {
	t    *Tables
	acc  []float32
	keys []uint64  // cache of window-row sums: the 4 padded rows, 0 = empty slot
	vals []float32 // cacheSize × Hidden sums
}

// cacheBits sizes the per-goroutine window-row cache (4096 entries).
const cacheBits = 12

// New returns an evaluator for one goroutine.
func (t *Tables) New() *NetEval {
	h := t.net.Hidden
	return &NetEval{t: t, acc: make([]float32, h), keys: make([]uint64, 1<<cacheBits), vals: make([]float32, h<<cacheBits)}
}

// Value returns the net's value in [-1, 1] for w (higher is better for the
// player). Wells with cells above the bar or full rows are an error.
func (e *NetEval) Value(w *hatetris.Well) (float32, error) {
	if err := check(w); err != nil {
		return 0, err
	}
	return e.value(w), nil
}

// windowRow returns the sum of the 10 window weight rows of window row s.
func (e *NetEval) windowRow(pad *[Rows + 1]uint16, s int) []float32 {
	v := uint64(pad[s]) | uint64(pad[s+1])<<12 | uint64(pad[s+2])<<24 | uint64(pad[s+3])<<36
	h := e.t.net.Hidden
	slot := int((v * 0x9e3779b97f4a7c15) >> (64 - cacheBits))
	sum := e.vals[slot*h : (slot+1)*h]
	if e.keys[slot] == v {
		return sum
	}
	clear(sum)
	w1 := e.t.net.W1
	for x := 0; x < hatetris.Width; x++ {
		t := v >> uint(x)
		i := RowPatterns + int(t&7|t>>9&0x38|t>>18&0x1c0|t>>27&0xe00)
		addRow(sum, w1[i*h:(i+1)*h])
	}
	e.keys[slot] = v
	return sum
}

func (e *NetEval) value(w *hatetris.Well) float32 {
	k := 0
	for k < Rows && w[hatetris.Bar+k] == 0 {
		k++
	}
	net := e.t.net
	h := net.Hidden
	acc := e.acc
	copy(acc, e.t.empty[k])
	for y := k; y < Rows; y++ {
		i := int(w[hatetris.Bar+y])
		addRow(acc, net.W1[i*h:(i+1)*h])
	}
	pad := padded(w)
	for s := max(0, k-3); s < WindowStarts; s++ {
		addRow(acc, e.windowRow(&pad, s))
	}
	return net.Output(acc)
}

// Eval implements player.Evaluator: the net's value, ignoring the score (as
// in the seed, the beam maximises the net's value only). The beam only
// hands it wells after a lock, which have no full rows and, below game
// over, no cells above the bar.
func (e *NetEval) Eval(w *hatetris.Well, score int) float64 { return float64(e.value(w)) }
