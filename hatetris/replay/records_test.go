package replay

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// TestRecords: every committed record replays to the score in its name
// (<score>-<method>.txt) against the HATETRIS AI and ends in game over.
func TestRecords(t *testing.T) {
	files, err := filepath.Glob("../records/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no records in hatetris/records")
	}
	for _, f := range files {
		want, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "-", 2)[0])
		if err != nil {
			t.Fatalf("%s: name does not start with the score", f)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms, enc, err := Decode(string(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(ms)
		if g.Score != want || !g.Over || enc != Base2048 {
			t.Errorf("%s: score %d over %v encoding %s, want %d, game over, base2048", f, g.Score, g.Over, enc, want)
		}
	}
}
