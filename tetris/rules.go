// rules.go holds the configurable rule set (kicks, spins, spawn, attack
// table, garbage), placement kinds (spec §10), and State.Lock: locking a
// placement with line clears, combo (§11), back-to-back (§12) and perfect
// clear (§13).

package tetris

import (
	"fmt"
	"strings"
)

// Rules configures the game. DefaultRules is Cold Clear 1's battle setup;
// NamedRules gives the other published rule sets.
type Rules struct {
	Name      string    // the rule set's name ("cc1", "guideline"; "" = unnamed/custom)
	Allow180  bool      // 180° rotation with the jstris table (spec §5); CC1 has none
	NoSpin180 bool      // a 180° turn never makes a T-spin (default: the corner rule applies; spec §5 calls this UNCERTAIN)
	SpinRule  SpinRule  // 5th-kick upgrade rule (spec §9)
	Spawn     SpawnRule // spawn position rule (spec §3)
	Hold      bool      // hold allowed
	QueueSize int       // visible next pieces
	Attack    AttackTable

	MaxGarbageAdd   int     // garbage lines inserted per deal (CC1: 10)
	Messiness       float64 // probability each garbage line re-rolls its hole (CC1: 0.3)
	GarbageBlocking bool    // if true, no garbage is dealt after a clearing placement

	Timing Timing
}

// Timing is CC1's GameConfig timing in 60 Hz ticks (spec §16), for versus
// loops that convert placements and input paths to time.
type Timing struct {
	SpawnDelay     int // ticks from lock (or end of line-clear delay) to the next spawn
	LineClearDelay int // extra ticks after a clearing lock
	DAS            int // delayed auto shift
	ARR            int // auto repeat rate
	SoftDropSpeed  int // ticks per cell of soft drop
	LockDelay      int
	Gravity        int // 1/100 tick per cell
	MoveLockRule   int // moves before a forced lock
}

// CC1Timing is GameConfig::default() ("approximates Puyo Puyo Tetris").
var CC1Timing = Timing{SpawnDelay: 7, LineClearDelay: 35, DAS: 9, ARR: 2, SoftDropSpeed: 2,
	LockDelay: 30, Gravity: 4500, MoveLockRule: 15}

// Delay returns the ticks between a lock that cleared lines rows and the
// next spawn.
func (t Timing) Delay(lines int) int {
	if lines > 0 {
		return t.LineClearDelay + t.SpawnDelay
	}
	return t.SpawnDelay
}

// AttackTable gives lines sent per placement kind (spec §10–§13).
type AttackTable struct {
	Clear        [5]int        // by lines 0..4, no spin
	Mini         [3]int        // mini T-spin by lines 0..2
	Full         [4]int        // full T-spin by lines 0..3
	Combo        [ComboLen]int // by pre-increment combo, last entry for ComboLen−1 or more
	B2B          int           // bonus for a back-to-back hard clear
	PerfectClear int           // attack of a perfect clear
	PCAdditive   bool          // add PerfectClear to the normal attack instead of replacing it
}

// ComboLen is the length of AttackTable.Combo: long enough for the
// modern guideline table, whose last step comes at the 14th clear in a row.
const ComboLen = 14

// CC1Attack is Cold Clear 1's attack table (lock_data.rs; COMBO_GARBAGE
// has 12 entries, its last one repeated here up to ComboLen). Its combo
// table is TETR.IO's "classic guideline" one.
var CC1Attack = AttackTable{
	Clear:        [5]int{0, 0, 1, 2, 4},
	Mini:         [3]int{0, 0, 1},
	Full:         [4]int{0, 2, 4, 6},
	Combo:        [ComboLen]int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5},
	B2B:          1,
	PerfectClear: 10,
}

// GuidelineAttack is the modern Tetris Guideline table as TETR.IO offers
// it (combo table "modern guideline"), taken from Genius6942/triangle
// src/engine/utils/damageCalc/index.ts (garbageData): the same line,
// T-spin, back-to-back (+1) and perfect-clear (10) values as CC1, but the
// combo bonus [0,1,1,2,2,2,3,3,3,3,3,3,4] indexed by combo−1 from the
// second clear in a row (triangle's combo counts clears before this one,
// as ours does), i.e. 2 from the 5th to the 7th clear and 3 from the 8th
// to the 13th, where CC1 gives 2,3,3 and 4,4,4,5….
var GuidelineAttack = AttackTable{
	Clear:        [5]int{0, 0, 1, 2, 4},
	Mini:         [3]int{0, 0, 1},
	Full:         [4]int{0, 2, 4, 6},
	Combo:        [ComboLen]int{0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4},
	B2B:          1,
	PerfectClear: 10,
}

// DefaultRules returns CC1's GameConfig::default() rules: SRS without 180,
// CC spins, Row19Or20 spawn, hold, 5 next pieces, 10 garbage lines per
// deal with messiness 0.3, no garbage blocking.
func DefaultRules() Rules {
	return Rules{
		Name:          "cc1",
		Spawn:         Row19Or20,
		Hold:          true,
		QueueSize:     5,
		Attack:        CC1Attack,
		MaxGarbageAdd: 10,
		Messiness:     0.3,
		Timing:        CC1Timing,
	}
}

// RuleNames lists the rule sets NamedRules knows, the default first.
var RuleNames = []string{"cc1", "guideline"}

// NamedRules returns a published rule set: "cc1" (DefaultRules, Cold
// Clear 1's battle rules, which our evaluator was tuned for) or
// "guideline" (CC1's battle rules with GuidelineAttack, so that strength
// is not measured only on CC1's combo table).
func NamedRules(name string) (Rules, error) {
	r := DefaultRules()
	switch name {
	case "cc1":
	case "guideline":
		r.Name, r.Attack = name, GuidelineAttack
	default:
		return r, fmt.Errorf("tetris: unknown rules %q (want one of %s)", name, strings.Join(RuleNames, ", "))
	}
	return r, nil
}

// Kind classifies a lock by lines cleared and spin (spec §10).
type Kind int8

// Placement kinds, in CC1's PlacementKind terms.
const (
	KindNone Kind = iota
	KindClear1
	KindClear2
	KindClear3
	KindClear4
	KindMini
	KindMini1
	KindMini2
	KindTspin
	KindTspin1
	KindTspin2
	KindTspin3
)

var kindNames = [...]string{"none", "single", "double", "triple", "tetris", "mini tspin",
	"mini tspin single", "mini tspin double", "tspin", "tspin single", "tspin double", "tspin triple"}

// String names the kind ("tspin double", …).
func (k Kind) String() string { return kindNames[k] }

// KindOf returns the kind for (lines, spin); a (3, mini) cannot occur and
// maps to KindTspin3 (spec §9).
func KindOf(lines int, spin Spin) Kind {
	switch spin {
	case SpinMini:
		if lines >= 3 {
			return KindTspin3
		}
		return KindMini + Kind(lines)
	case SpinFull:
		return KindTspin + Kind(min(lines, 3))
	}
	return KindNone + Kind(min(lines, 4))
}

// Hard reports whether the kind continues back-to-back: tetrises and every
// T-spin including minis.
func (k Kind) Hard() bool { return k == KindClear4 || k >= KindMini }

// Lines returns the number of lines of the kind.
func (k Kind) Lines() int {
	switch {
	case k <= KindClear4:
		return int(k)
	case k <= KindMini2:
		return int(k - KindMini)
	}
	return int(k - KindTspin)
}

// Base returns the kind's attack before combo, b2b and perfect clear.
func (t *AttackTable) Base(k Kind) int {
	switch {
	case k <= KindClear4:
		return t.Clear[k]
	case k <= KindMini2:
		return t.Mini[k-KindMini]
	}
	return t.Full[k-KindTspin]
}

// State is the scoring state of one playfield: cells (the embedded
// Board, so its methods apply to a State), combo and back-to-back. It is a
// value type; Lock mutates it in place.
type State struct {
	Board
	Combo uint32 // consecutive clearing placements (CC and TBP convention)
	B2B   bool
}

// LockResult describes what a lock did.
type LockResult struct {
	Kind         Kind
	Lines        int
	LockedOut    bool
	B2BBonus     bool // this placement got the back-to-back bonus
	PerfectClear bool
	Combo        uint32 // State.Combo after the lock (displayed REN = Combo−1)
	Attack       int    // lines this placement attacks with (0 if no clear)
}

// Lock writes pl (spin as given) onto the board, clears lines and updates
// combo and back-to-back, computing the attack with table t (spec §8–§13).
// The caller ensures pl fits; LockedOut reports a lock-out (spec §15).
func (s *State) Lock(pl Placement, t *AttackTable) LockResult {
	lines, lockedOut := s.Board.Place(pl)
	return s.locked(pl, t, lines, lockedOut)
}

// LockClean is Lock for a board with no full row (every board Lock
// leaves), through Board.PlaceClean: the same result on such a board.
func (s *State) LockClean(pl Placement, t *AttackTable) LockResult {
	lines, lockedOut := s.Board.PlaceClean(pl)
	return s.locked(pl, t, lines, lockedOut)
}

// locked finishes Lock once the piece is placed and lines are cleared.
func (s *State) locked(pl Placement, t *AttackTable, lines int, lockedOut bool) LockResult {
	var res LockResult
	res.Lines, res.LockedOut = lines, lockedOut
	res.Kind = KindOf(res.Lines, pl.Spin)
	if res.Lines > 0 {
		res.Attack = t.Base(res.Kind)
		if res.Kind.Hard() {
			if s.B2B {
				res.Attack += t.B2B
				res.B2BBonus = true
			}
			s.B2B = true
		} else {
			s.B2B = false
		}
		res.Attack += t.Combo[min(s.Combo, uint32(len(t.Combo)-1))]
		s.Combo++
		if s.Board.Rows[0] == 0 {
			res.PerfectClear = true
			if t.PCAdditive {
				res.Attack += t.PerfectClear
			} else {
				res.Attack = t.PerfectClear
			}
		}
	} else {
		s.Combo = 0
	}
	res.Combo = s.Combo
	return res
}
