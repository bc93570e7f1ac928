// RunDummy: a tiny stand-in AI speaking the protocol, with faults that can
// be switched on at a chosen turn, for referee tests and smoke runs.

package referee

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// Dummy strategies.
const (
	DummyRandom = "random" // a random drop that does not kill at once, the skill when it explodes something
	DummyLeft   = "left"   // always "0 0"
)

// ErrCrash is what RunDummy returns when told to crash.
var ErrCrash = errors.New("dummy: crashing as told")

// DummyOptions configures RunDummy. Turn-numbered faults are off at -1.
type DummyOptions struct {
	Name     string // name line (default "dummy")
	Strategy string // DummyRandom (default) or DummyLeft
	Seed     uint64
	Delay    time.Duration // think this long every turn

	CrashTurn   int    // return ErrCrash instead of answering this turn
	HangTurn    int    // never answer this turn (until ctx ends)
	GarbageTurn int    // print Garbage this turn
	Garbage     string // default "a 100"
	SkillTurn   int    // print "S" this turn whatever the gauge
}

// NoFaults returns options with every fault off.
func NoFaults() DummyOptions {
	return DummyOptions{CrashTurn: -1, HangTurn: -1, GarbageTurn: -1, SkillTurn: -1}
}

// RunDummy plays as an AI on in/out until in ends.
func RunDummy(ctx context.Context, in io.Reader, out io.Writer, o DummyOptions) error {
	if o.Name == "" {
		o.Name = "dummy"
	}
	if o.Garbage == "" {
		o.Garbage = "a 100"
	}
	w := bufio.NewWriter(out)
	say := func(s string) error {
		if _, err := w.WriteString(s + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := say(o.Name); err != nil {
		return err
	}
	rd := protocol.NewReader(in)
	pp, err := rd.ReadStart()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	packs := codevs.SimPacks(pp)
	rng := rand.New(rand.NewPCG(o.Seed, 0xd0d0))
	for {
		t, err := rd.ReadTurn()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if o.Delay > 0 {
			select {
			case <-time.After(o.Delay):
			case <-ctx.Done():
				return nil
			}
		}
		var line string
		switch t.Turn {
		case o.CrashTurn:
			return ErrCrash
		case o.HangTurn:
			<-ctx.Done()
			return nil
		case o.GarbageTurn:
			line = o.Garbage
		case o.SkillTurn:
			line = "S"
		default:
			me, err := codevs.PlayerFromProtocol(&t.Me)
			if err != nil {
				return fmt.Errorf("turn %d: %w", t.Turn, err)
			}
			line = DummyMove(&me, packs[t.Turn], o.Strategy, rng).String()
		}
		if err := say(line); err != nil {
			return err
		}
	}
}

// DummyMove is the dummy's choice for player me with this turn's pack:
// always "0 0" for DummyLeft; otherwise the skill if the gauge allows and it
// explodes something without dying, else a random drop that survives the
// turn (a random drop if none does).
func DummyMove(me *codevs.Player, pack sim.Pack, strategy string, rng *rand.Rand) codevs.Move {
	if strategy == DummyLeft {
		return codevs.Drop(0, 0)
	}
	if me.Gauge >= codevs.SkillCost {
		p := *me
		if h, err := p.Act(pack, codevs.Skill); err == nil && h.Exploded > 0 && !p.Dead() {
			return codevs.Skill
		}
	}
	// Random order over the 36 drops; the first that survives the turn
	// (counting the ojama row that falls first).
	order := rng.Perm(36)
	for _, k := range order {
		m := codevs.Drop(k/4, k%4)
		p := *me
		if _, err := p.Act(pack, m); err == nil && !p.Dead() {
			return m
		}
	}
	k := order[0]
	return codevs.Drop(k/4, k%4)
}
