// Tests the committed nets: each loads (checksum, shape) and gives a
// finite value in [-1, 1] on the 289 game's wells.
package train

import (
	"path/filepath"
	"testing"

	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

func TestCommittedNets(t *testing.T) {
	files, _ := filepath.Glob("../nets/*.yomi")
	if len(files) == 0 {
		t.Fatal("no nets in hatetris/nets")
	}
	wells, err := player.BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		net, err := nn.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := NewTables(net)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e := tab.New()
		for i := range wells {
			v, err := e.Value(&wells[i])
			if err != nil || !(v >= -1 && v <= 1) {
				t.Fatalf("%s well %d: value %g, %v", f, i, v, err)
			}
		}
		if tab.MaxError() > 1e-3 {
			t.Errorf("%s: evaluator error bound %g", f, tab.MaxError())
		}
	}
}
