// codevs_holds_test.go runs `yomi codevs holds` on a small node budget and
// checks its JSON and flag errors.
package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCodevsHoldsVerb(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"codevs", "holds", "--help"}, 0, "counter done"},
		{[]string{"codevs", "holds", "--mode", "all"}, 2, "--mode must be solo, pressure or both"},
		{[]string{"codevs", "holds", "--nodes", "0"}, 2, "--nodes must be positive"},
		{[]string{"codevs", "holds", "--turns", "17"}, 2, "--turns entries must be 0..16"},
		{[]string{"codevs", "holds", "--seeds", "9-1"}, 2, "bad seed range"},
		{[]string{"codevs", "holds", "--chok-open-x", "10"}, 2, "--chok-open-x 0..9"},
		{[]string{"codevs", "holds", "x"}, 2, "unexpected"},
		{[]string{"codevs", "holds", "--chok-ext-later", "11"}, 2, "--chok-ext-later and --chok-ext-shorter 0..10"},
		{[]string{"codevs", "holds", "--chok-row-from", "-1"}, 2, "--chok-row-from must not be negative"},
	} {
		code, out, errs := run(t, c.args...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s%s", c.args, code, c.code, c.want, out, errs)
		}
	}
	code, out, errs := run(t, "codevs", "holds", "--seeds", "9000,9001", "--turns", "4,8", "--nodes", "300", "--second", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep holdsReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Solo) != 2 || len(rep.Solo[0].Fires) != 2 || rep.Solo[1].Fires[1].Ply != 9 || len(rep.SoloMean) != 2 {
		t.Errorf("solo part: %+v", rep.Solo)
	}
	if len(rep.Pressure) < 10 || rep.RefMean < 13 {
		t.Errorf("pressure part: %d fixtures, tanzaku's mean %.2f", len(rep.Pressure), rep.RefMean)
	}
	for _, s := range rep.Solo {
		// The replan starts after the opening plan's fire.
		if s.Plan.Chains > 0 && (s.SecondTurn != s.Plan.Ply || s.Second.Chains == 0) {
			t.Errorf("seed %d: plan %+v, replan at turn %d: %+v", s.Seed, s.Plan, s.SecondTurn, s.Second)
		}
	}
	counters := 0
	for _, p := range rep.Pressure {
		if len(p.PerPly) != 10 || p.Incoming <= 0 || p.Best.Chains < p.Later.Chains {
			t.Errorf("%s: %+v", p.Name, p)
		}
		// The counter plan is one of the search's fires: never longer
		// than its longest.
		if p.Counter.Chains > p.Best.Chains {
			t.Errorf("%s: counter plan %+v longer than the longest %+v", p.Name, p.Counter, p.Best)
		}
		if p.Counter.Chains > 0 {
			counters++
		}
	}
	if counters == 0 || rep.CounterMean == 0 {
		t.Errorf("no counter plan in the pressure part (mean %.2f)", rep.CounterMean)
	}
}
