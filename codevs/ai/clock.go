// Clock budgets (Config.ClockBudgets, session codevs-clock2): every
// search budget of the chokudai builder, replans, counter mode and
// anti-counter as a share of the game's total clock (its cap) and of the
// free clock (the remaining time less a reserve kept for the late game),
// so the same settings play sensibly at 60 s and at the contest's 180 s. Without it
// the budgets are the variant's of session codevs-anti, tuned at 60 s: an
// opening of OpeningShare of the remaining time (54 s at 180 s), replans
// of ReplanShare of it up to ReplanMax, reads of min(5 s, remaining/12).

package ai

import "time"

// Defaults of the clock budgets' shares of the total clock.
const (
	// defReserveShare is the share of the total clock kept for turns
	// reserveFull..reserveEnd: at 60 s one loss played turns 32+ on 10 s.
	defReserveShare = 0.2
	// defOpeningCap caps the opening search (tanzaku: 18 s of 180).
	defOpeningCap = 0.2
	// defReplanCap caps a replan, counter-mode or grow plan (tanzaku:
	// 15 s of 180, 8 %).
	defReplanCap = 0.1
	// readCap caps the anti-counter's read of the opponent's answer
	// (tanzaku: 5 s of 180).
	readCap = 5.0 / 180
	// readShare is the read's share of the free clock (the variant's
	// remaining/12).
	readShare = 1.0 / 12
	// perTurnShare and perTurnCap bound the per-turn reads (the seed's
	// remaining/40, at most 4 s).
	perTurnShare = 1.0 / 40
	perTurnCap   = 4.0 / 180
	// reserveFull is the last turn the whole reserve is kept; it is
	// released linearly until reserveEnd (games rarely last longer).
	reserveFull = 30
	reserveEnd  = 80
	// floorTurns is the fewest turns a budget spread over the turns left
	// assumes (near and after reserveEnd).
	floorTurns = 10
	// minBudget is the shortest budget of any search (as the seed's 20 ms)
	// while the clock holds lowFloorDiv of it; below, lowFloor is the floor.
	minBudget = 20 * time.Millisecond
	// lowFloorDiv: with under 400 ms left a turn's several 20 ms searches
	// (replan, reads, per-turn beams) plus their overheads outran the clock
	// (self-play at 15 s, a 96-turn game: a 20 ms replan at 47 ms left took
	// 49 ms), so the floor shrinks to remaining/lowFloorDiv.
	lowFloorDiv = 20
)

// clockBudgets are the search budgets of one turn.
type clockBudgets struct {
	reserve time.Duration // kept for later turns
	free    time.Duration // remaining less reserve (0 when below it)
	opening time.Duration // the opening plan's search
	replan  time.Duration // a replan, counter-mode, counter-hit or grow plan
	read    time.Duration // the anti-counter's read of the opponent's answer
	perTurn time.Duration // the per-turn reads (counter rule, per-turn counter beam)
}

// turnBudgets returns the budgets at turn with remaining of a game's total
// clock: budgetsAt under ClockBudgets, else the budgets of session
// codevs-anti (no reserve; the opening OpeningShare of remaining, a replan
// ReplanShare (or 1/10) of it up to ReplanMax, the read min(5 s,
// remaining/12), per turn remaining/40 up to 4 s; 20 ms at least).
func (c Config) turnBudgets(total, remaining time.Duration, turn int) clockBudgets {
	if c.ClockBudgets {
		return c.budgetsAt(total, remaining, turn)
	}
	share := remaining / 10
	if c.ReplanShare > 0 {
		share = time.Duration(float64(remaining) * c.ReplanShare)
	}
	floor := lowFloor(remaining)
	return clockBudgets{
		free:    remaining,
		opening: time.Duration(float64(remaining) * c.OpeningShare),
		replan:  min(max(share, floor), c.ReplanMax),
		read:    min(antiBudget, remaining/12),
		perTurn: min(max(remaining/40, floor), 4*time.Second),
	}
}

// budgetsAt returns the budgets at turn with remaining of a game's total
// clock under Config.ClockBudgets: the reserve is ReserveShare of total to
// turn reserveFull, falling linearly to 0 at reserveEnd; each search takes
// its share of the free clock (OpeningShare, ReplanShare or 1/10, 1/12 for
// the read, 1/40 per turn), at most its cap of total (OpeningCap,
// ReplanCap, 5/180, 4/180), and
// at least a floor spread over the turns left (the remaining time per turn
// left for a plan, a quarter of it for a read), which is what a turn
// spends once the clock is down to the reserve.
func (c Config) budgetsAt(total, remaining time.Duration, turn int) clockBudgets {
	total = max(total, remaining)
	share := func(v, def float64) float64 {
		if v > 0 {
			return v
		}
		return def
	}
	ramp := 1.0
	if turn > reserveFull {
		ramp = max(float64(reserveEnd-turn), 0) / float64(reserveEnd-reserveFull)
	}
	var b clockBudgets
	b.reserve = time.Duration(float64(total) * share(c.ReserveShare, defReserveShare) * ramp)
	b.free = max(remaining-b.reserve, 0)
	perTurn := remaining / time.Duration(max(reserveEnd-turn, floorTurns))
	pick := func(sh, capShare float64, floor time.Duration) time.Duration {
		d := max(time.Duration(float64(b.free)*sh), floor)
		return max(min(d, time.Duration(float64(total)*capShare)), lowFloor(remaining))
	}
	b.opening = pick(c.OpeningShare, share(c.OpeningCap, defOpeningCap), perTurn)
	b.replan = pick(share(c.ReplanShare, 0.1), share(c.ReplanCap, defReplanCap), perTurn)
	b.read = pick(readShare, readCap, perTurn/4)
	b.perTurn = pick(perTurnShare, perTurnCap, perTurn/4)
	return b
}

// lowFloor is the shortest budget of a search with remaining on the clock:
// minBudget, or remaining/lowFloorDiv when that is less.
func lowFloor(remaining time.Duration) time.Duration {
	return min(minBudget, remaining/lowFloorDiv)
}
