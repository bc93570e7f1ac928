// Checks that a checkpoint written by the search before the speed work of
// branch hatetris-speed resumes, under the current code, to the game the old
// code plays without interruption.
package train

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/hatetris/replay"
	"github.com/yomi-ai/yomi/nn"
)

// TestOldCheckpointResumes resumes testdata/old-checkpoint-w1000-d30.bin,
// written by the 0b11835 binary (`yomi hatetris search --beam 1000
// --quiescence --max-depth 30 --workers 2 --eval
// nn:hatetris/nets/h24-run4-gen19.yomi --checkpoint FILE`), to depth 45 and
// compares the game with that binary's uninterrupted `--max-depth 45` run
// (testdata/old-checkpoint-w1000-d45.json, its --json output without the
// time): same replay, score, pieces and wells expanded.
func TestOldCheckpointResumes(t *testing.T) {
	const netFile = "../nets/h24-run4-gen19.yomi"
	net, err := nn.LoadFile(netFile)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := NewTables(net)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(netFile)
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(t.TempDir(), "ckpt.bin")
	b, err := os.ReadFile("testdata/old-checkpoint-w1000-d30.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ckpt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var want struct {
		Score, Pieces int
		Replay        string
		Wells         int64
	}
	b, err = os.ReadFile("testdata/old-checkpoint-w1000-d45.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	resumed := -1
	res, err := player.Search(context.Background(), player.Options{
		Width: 1000, Quiescence: true, MaxDepth: 45, Workers: 2,
		NewEval: func() player.Evaluator { return tab.New() },
		// as `yomi hatetris search --eval nn:FILE` names the net
		EvalID:     fmt.Sprintf("nn:sha256:%x", sha256.Sum256(raw)),
		Checkpoint: ckpt,
		Resumed:    func(s player.Stats) { resumed = s.Depth },
	})
	if err != nil {
		t.Fatal(err)
	}
	if resumed != 30 {
		t.Fatalf("resumed at depth %d, want 30", resumed)
	}
	code, err := replay.Encode(res.Moves, replay.Base2048)
	if err != nil {
		t.Fatal(err)
	}
	g := hatetris.NewGame(hatetris.Hatetris) // the CLI's score and pieces are the emulator's
	g.Play(res.Moves)
	if g.Score != want.Score || g.Pieces != want.Pieces || res.Wells != want.Wells || code != want.Replay {
		t.Errorf("resumed game: score %d pieces %d wells %d replay %s\nwant %d %d %d %s", g.Score, g.Pieces, res.Wells, code, want.Score, want.Pieces, want.Wells, want.Replay)
	}
}
