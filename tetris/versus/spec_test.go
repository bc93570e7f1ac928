package versus

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
)

// A match travels to fabric workers as JSON: every setting must survive.
func TestMatchSpecRoundTrip(t *testing.T) {
	for _, name := range tetris.RuleNames {
		rules, err := tetris.NamedRules(name)
		if err != nil {
			t.Fatal(err)
		}
		rules.QueueSize = 7
		w := bot.DefaultWeights()
		w.Height = -123
		b := Spec{Cmd: "cold-clear --threads 2"}
		in := MatchSpec{
			Game: Config{Rules: rules, Think: 37 * time.Millisecond, MaxPieces: 123, Record: true},
			A:    Spec{Options: bot.Options{Threads: 2, Seed: 9, Weights: &w, NoHold: true, MaxNodes: 5000, PerfectClear: true, PCNodes: 77}},
			B:    &b,
		}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out MatchSpec
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("%s: spec changed on the way:\n%+v\n%+v", name, in, out)
		}
		if _, err := PairFactory(raw); err != nil {
			t.Fatal(err)
		}
		if _, err := SoloFactory(raw); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := PairFactory(json.RawMessage(`{"a":{}}`)); err == nil {
		t.Fatal("a match without B was accepted")
	}
}
