// Bot: one decision per turn from the beam plan, the exhaustive tables of
// both sides and the fire/counter/skill rules; Run speaks the protocol.

package ai

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// Config sets the bot. Zero fields take the defaults of DefaultConfig.
type Config struct {
	Name         string  // name line printed at start-up
	Threads      int     // search threads
	Target       int     // chain count the opening plan aims for (fastest-target rule)
	MaxWidth     int     // widest beam
	BeamDepth    int     // beam plies
	OwnDepth     int     // exhaustive plies for the own side (the most; fewer when time is short)
	EnemyDepth   int     // exhaustive plies for the opponent
	OpeningShare float64 // share of the remaining time the opening beam may use
	// OpeningHorizon is the plies the opening beam plans its budget over
	// (BeamConfig.Horizon; 0: Target+2, where it usually stops; BeamDepth or
	// more: all its plies, the AI before session codevs-clock).
	OpeningHorizon int
	ReplanMax      time.Duration // longest replan beam (remaining/10 below it)
	// ReplanShare, when positive, replaces the 1/10 of the remaining time
	// a replan may use (below ReplanMax): tanzaku spends 15 s a replan.
	ReplanShare float64
	FixedWidth  int  // if > 0, beams use exactly this width and no time budget (deterministic)
	WorstCase   bool // rank own moves by survival under the opponent's best fire (both-sides search)
	DenySkill   bool // drain a charging opponent's gauge with a 3+ chain before it can bomb
	SkillMode   bool // the seed's skill mode: give up the chain race when it is lost and build for the skill (skill.go)
	HoldAlways  bool // holdFire grows the chain even when the opponent can fire first (the AI before issue 27)
	NoRace      bool // replans ignore when the opponent can fire (the AI before issue 27)
	// NoRaceHorizon makes replans plan their budget over all their plies
	// (before session codevs-clock) instead of up to the opponent's fire ply.
	NoRaceHorizon bool
	NextPackKey   bool // rank beam states by the chain the next pack can trigger (the AI before issue 27) instead of the one-block potential
	// Counter turns on the counter stance (counterWait, answerBelow): the
	// plan's fire and the pre-empt rule go first only when the opponent
	// cannot answer bigger. Off by default: it lost more games against
	// tanzaku at 60 s than the AI without it (BENCHMARKS.md).
	Counter bool
	// FollowCounterPlan makes the counter plan under ojama once, with a
	// replan's budget, and follows it while the stock falls as expected,
	// instead of a new per-turn beam every turn (off by default, as Counter).
	FollowCounterPlan bool
	// RowProof orders own beam states by the chain left after one ojama row
	// within a potential bucket (BeamConfig.RowProof; off by default, as
	// Counter).
	RowProof bool
	// RowKeep buckets own beam states by the chain kept under one ojama row
	// (BeamConfig.RowKeep; off by default, see BENCHMARKS.md).
	RowKeep bool
	// Key is the potential own beams bucket states by (BeamConfig.Key;
	// KeyAdd, the zero value, is the AI before session codevs-pot).
	Key PotentialKey
	// EnemyKey is the potential the opponent's beams (its fire timing and
	// answers read by the race, hold-fire, early-fire and counter rules)
	// bucket states by; KeyAdd is the AI before it was added.
	EnemyKey PotentialKey
	// EarlyFire, when positive, fires the biggest chain this turn as soon
	// as it has at least EarlyFire chains and the opponent's best answer
	// (its chain beam over counterDepth plies with our ojama landing as in
	// answer) sends less: against tanzaku our 12-chain fired at the plan's
	// end was answered with a 13-14 chain one turn later (session
	// codevs-row). 0: off.
	EarlyFire int
	// EarlyDepth is the plies of the opponent's answer EarlyFire reads
	// (0: counterDepth).
	EarlyDepth int
	// Late turns on the late, high counter stance (late.go, after kera,
	// PEERS.md): no fire of our own until ojama hits us, a low build of the
	// biggest potential meanwhile, and the counter when the hit comes. Off
	// by default.
	Late bool
	// LateHeight is the late stance's soft height cap (0: lateHeight).
	LateHeight int
	// LateBig is the chain count the late stance fires without being hit
	// (0: lateBig).
	LateBig int
	// LateRows, when positive, buckets the late stance's build beam by
	// the potential left after that many ojama rows (BeamConfig.UnderRows)
	// instead of Key's.
	LateRows int
	// LatePlan makes the late stance build along the usual target plan
	// and hold its chain at the plan's fire (latePlanMove) instead of the
	// build beam.
	LatePlan bool
	// LateAgain keeps the late stance after our fires: every exchange
	// waits for the opponent's fire (else only the first one does).
	LateAgain bool
	// Chokudai makes own plans (opening, replans, counter plans) with the
	// chokudai builder (chokudai.go, after tanzaku) instead of the chain
	// beam: all 9 columns, up to ChokDepth plies. Off by default.
	Chokudai bool
	// ChokDepth is the chokudai builder's plies at most (0: 13, tanzaku's
	// opening horizon).
	ChokDepth int
	// ChokLateDepth, when positive, is the chokudai builder's plies at most
	// after turn 10 (tanzaku: 13 plies to turn 10, then 10): with the
	// fastest-target rule's fallback (the longest fire, the earliest of
	// equals) a short horizon fires the second chain sooner.
	ChokLateDepth int
	// ChokNodes, when positive, gives each chokudai search that many
	// expanded states and no time budget (deterministic); with FixedWidth
	// and no ChokNodes it is FixedWidth × the plies.
	ChokNodes int64
	// NodeRate, when positive, runs the bot on a virtual clock of NodeRate
	// expanded states per second (issue 27, fixed-work matches): every
	// time budget of a search becomes a budget of budget × NodeRate states,
	// and the remaining time its budgets are shares of is the game's total
	// clock less the states spent so far over NodeRate, not the time the
	// referee reports. With one thread its moves then do not depend on the
	// machine's speed or load; the hard deadline and the watchdog still run
	// on the real clock (guard.go). Not with FixedWidth or ChokNodes.
	NodeRate float64
	// ChokRow, 1..100, makes own chokudai searches (plans, replans,
	// counter-mode and grow plans; not the reads of the opponent) rank
	// states partly by the chain left after one ojama row
	// (ChokudaiConfig.RowW, in percent). 0: off, tanzaku's key.
	ChokRow int
	// ChokRowMin is ChokudaiConfig.RowMin under ChokRow.
	ChokRowMin int
	// ChokRowPack is ChokudaiConfig.RowPack under ChokRow.
	ChokRowPack int
	// ChokRowFrom is the first turn ChokRow applies on (0: from the
	// opening): the row term costs the opening chain length, and the
	// chains that broke under a row were replans (BENCHMARKS.md).
	ChokRowFrom int
	// ChokOpenX is ChokudaiConfig.OpenX of own chokudai searches: from an
	// empty field the first ply tries only pack column ChokOpenX−1
	// (tanzaku: column 5). 0: every column.
	ChokOpenX int
	// ChokFree is ChokudaiConfig.FreeW of own chokudai searches: a key
	// bonus per empty column at a wall, for room to extend a ready chain
	// under ojama. 0: off.
	ChokFree int
	// ChokExt, when positive, makes plans (the opening and replans;
	// counter plans under ChokExtCounter) choose among up to ChokExtK
	// ready fields at least as long and early as the search's choice by
	// how far each grows in 10 plies while an opponent's fire of its size
	// falls on it, on ChokExt states per read (ChokudaiConfig.ExtNodes;
	// ChokExtK 0: 4). 0: off.
	ChokExt  int64
	ChokExtK int
	// ChokExtLater and ChokExtShorter widen ChokExt's candidates to fires
	// up to that many plies later or chains shorter than the search's
	// choice, read after the as-long-and-early ones and taken only when
	// they grow more than all of them (ChokudaiConfig.ExtLater,
	// ExtShorter). 0: off.
	ChokExtLater, ChokExtShorter int
	// ChokExtCounter applies ChokExt's pick to counter plans too (the
	// counter mode's plan under the opponent's threatened fire and its
	// plan under our stock: counterMode, counterHit), read with their
	// landing. Off by default.
	ChokExtCounter bool
	// ChokEnemy makes the opponent's reads (its fire timing and answers,
	// enemyFiresHit) with the chokudai builder instead of the chain beam:
	// their key is the add potential, which an ojama row covers, so the
	// beam under-reads an opponent's counter. Off by default.
	ChokEnemy bool
	// AntiCounter holds the plan's fire when the opponent's answer (the
	// chokudai search, our ojama landing) has a chain more, and grows it
	// into the biggest fire within 8 plies if the grow move keeps a chain
	// under one ojama row (antiCounter, after tanzaku). Replaces holdFire
	// and, with Counter, counterWait at the plan's fire; the counter rule
	// and the pre-empt fire only when antiPreempt allows. Off by default.
	AntiCounter bool
	// AntiPick makes the anti-counter grow along the longest fire within
	// 8 plies whose first move keeps a chain under one ojama row, among
	// every first move's best fire per ply (growPick), instead of checking
	// only the longest fire's first move. Off by default.
	AntiPick bool
	// AntiHold (ojama; 0: off) keeps the anti-counter's hold when no grow
	// plan keeps a chain under one ojama row but our fire sends fewer than
	// AntiHold: it grows along the longest fire within 8 plies anyway
	// (tanzaku's extend, which has no row check). A small first fire into
	// a longer answer lost 6 of 10 times at 180 s (BENCHMARKS.md, session
	// codevs-study). Off by default.
	AntiHold int
	// CounterMode plans, when the opponent's immediate fire jumps to 40+
	// (30+ from turn 15), a chokudai line that takes it and answers 1.5×
	// (counterMode, after tanzaku), and when ojama has landed, a line
	// that answers the stock 1.5× before a fire now (counterHit). Off by
	// default.
	CounterMode bool
	// RaceLate, when positive, replaces raceThreat (the opponent fire a
	// replan races) from turn 15 on: tanzaku's second chains send 18-33.
	// 0: raceThreat throughout.
	RaceLate int
	// CounterStrict follows a counter-mode plan (made with the opponent's
	// fire landing after our move) only while our stock is what the plan
	// expected: without it, when the opponent held its fire, the plan's
	// next moves, made for a field with ojama rows, were played on the
	// field without them (at 180 s one fired an 11-chain by accident).
	// Off by default.
	CounterStrict bool
	// CounterAgain (with CounterStrict) plans the counter again when a
	// counter-mode plan no longer applies because the opponent held its
	// fire (our stock is below what the plan expected) and its fire now
	// is still a threat, instead of the race replan (which fired our
	// smaller chain first at 180 s, pack seed 8000). Off by default.
	CounterAgain bool
	// RaceCounter makes a race replan whose fire comes after the
	// opponent's read fire of a raceThreatAt-sized chain plan again with
	// that fire landing at its ply (raceCounter): the line aiming at 1.5×
	// it replaces the plan when it fires after the landing with at least
	// the plan's chains and no later, and is followed while our stock is
	// as it expects. In 7 of 14 games lost to tanzaku at 180 s its chain came
	// a ply or more before our plan's and our answer, made on rows the
	// plan had not expected, was smaller (BENCHMARKS.md, session
	// codevs-fire). Off by default.
	RaceCounter bool
	// ReplanAnti (with AntiCounter) sends a replan whose plan fires this
	// turn through the anti-counter, as the fire of a followed plan goes:
	// without it a one-move replan fires unasked. At 180 s against
	// tanzaku a race replan fired our 12-chain at once where the read
	// answer was 16 chains, and lost both games of pack set 8001
	// (BENCHMARKS.md, session codevs-fire, type D). Off by default.
	ReplanAnti bool
	// ClockBudgets sets every search budget as a share of the game's
	// total clock and of the remaining time less a reserve for the late
	// game (clock.go): OpeningShare and ReplanShare become shares of that
	// free time, ReplanMax gives way to ReplanCap. Off by default (the
	// budgets tuned at 60 s).
	ClockBudgets bool
	// ReserveShare is the share of the total clock ClockBudgets keeps for
	// turns 30-80 (0: 0.2).
	ReserveShare float64
	// OpeningCap and ReplanCap cap the opening search and a replan under
	// ClockBudgets, as shares of the total clock (0: 0.2 and 0.1).
	OpeningCap, ReplanCap float64
	// Log receives per-turn notes (nil: none).
	Log io.Writer
}

// chokDepth is the default chokudai horizon (tanzaku: 13 plies to turn
// 10); Config.ChokLateDepth applies after chokLateTurn.
const (
	chokDepth    = 13
	chokLateTurn = 10
)

// DefaultConfig returns the base settings: the chain-beam builder and the
// seed's fire rules (the AI of the ysai matches). Zero fields of a Config
// take these values; ContestConfig is what `yomi codevs ai` plays.
func DefaultConfig() Config {
	return Config{Name: "yomi", Threads: 2, Target: 12, MaxWidth: 40000, BeamDepth: 20, OwnDepth: 4, EnemyDepth: 2, OpeningShare: 0.15, ReplanMax: 15 * time.Second, DenySkill: true}
}

// ContestConfig returns the default of `yomi codevs ai`: DefaultConfig with
// the chokudai builder (13-chain target, 10 plies after turn 10, 30 % of
// the clock for the opening, 25 % per replan) and tanzaku's anti-counter
// and counter mode, racing opponent fires of 18+ ojama from turn 15. Against
// tanzaku at 60 s it took 28 of 48 games on pack seeds 6100-6123, where
// DefaultConfig took 14 (BENCHMARKS.md, "Anti-counter, counter mode, late
// race on the chokudai builder"). At the contest's 180 s it adds clock
// budgets (AntiPick's grow line, budgets as shares of the clock) and the
// row term in replans (ChokRow 50 on the pack after next): 11 of 18 games
// against tanzaku on pack seeds 8000-8008, where the 60 s setting took 4 of
// 10 and it with clock budgets 9 of 18 (BENCHMARKS.md, "The default and
// clock budgets at 180 s against tanzaku"). ContestConfig60 is the 60 s
// setting.
func ContestConfig() Config {
	c := ContestConfig60()
	c.AntiPick, c.ClockBudgets = true, true
	c.ChokRow, c.ChokRowPack, c.ChokRowFrom = 50, 2, 1
	return c
}

// ContestConfig60 returns the default of `yomi codevs ai` before the 180 s
// matches: the chokudai builder with tanzaku's anti-counter and counter
// mode, as tuned against tanzaku at 60 s per player.
func ContestConfig60() Config {
	c := DefaultConfig()
	c.Target, c.OpeningShare, c.ReplanShare = 13, 0.3, 0.25
	c.Chokudai, c.ChokLateDepth = true, 10
	c.AntiCounter, c.CounterMode, c.RaceLate = true, true, 18
	return c
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Name == "" {
		c.Name = d.Name
	}
	if c.Threads <= 0 {
		c.Threads = d.Threads
	}
	if c.Target <= 0 {
		c.Target = d.Target
	}
	if c.MaxWidth <= 0 {
		c.MaxWidth = d.MaxWidth
	}
	if c.BeamDepth <= 0 {
		c.BeamDepth = d.BeamDepth
	}
	if c.OwnDepth <= 0 {
		c.OwnDepth = d.OwnDepth
	}
	if c.EnemyDepth <= 0 {
		c.EnemyDepth = d.EnemyDepth
	}
	if c.OpeningShare <= 0 {
		c.OpeningShare = d.OpeningShare
	}
	if c.OpeningHorizon <= 0 {
		c.OpeningHorizon = c.Target + 2
	}
	if c.ReplanMax <= 0 {
		c.ReplanMax = d.ReplanMax
	}
	return c
}

// plan is a line of own moves from the beam, replayed while the field is
// exactly as expected.
type plan struct {
	start  int // turn of moves[0]
	moves  []int
	fields []sim.Fast
	// stocks is the own ojama stock expected before each move when the
	// plan was made under ojama (nil: none expected).
	stocks []int
	// exact makes the plan valid only while the stock is exactly as
	// expected (Config.CounterStrict, for plans made with the opponent's
	// fire landing): a plan that expected rows which did not fall no
	// longer applies.
	exact  bool
	chains int
	sent   int
}

// valid reports whether the plan's move for this turn still applies: the
// field is as planned and no ojama row falls that the plan did not expect.
func (p *plan) valid(turn int, me *side) bool {
	if p == nil {
		return false
	}
	i := turn - p.start
	if i < 0 || i >= len(p.moves) || p.fields[i] != me.f {
		return false
	}
	if p.exact {
		return me.stock == p.stocks[i]
	}
	return me.stock < codevs.OjamaRow || (p.stocks != nil && me.stock == p.stocks[i])
}

// Bot decides moves for one game.
type Bot struct {
	cfg   Config
	packs []sim.Pack
	plan  *plan
	fired bool // a chain of more than smallFire has been fired
	// lateFrom is the turn the late stance holds from (after its last fire).
	lateFrom int
	skill    skillTrack
	chok     Chokudai // the chokudai builder's buffers, reused across turns
	// enHist is the opponent's best fire (net) of the last turns, for
	// CounterMode.
	enHist []int
	// antiLast is the last read of the opponent's answer (AntiCounter).
	antiLast antiRead
	// total is the game's clock: the most remaining time seen.
	total time.Duration
	// spent sums the states the node-budgeted searches of the game
	// expanded under Config.NodeRate: the virtual clock's use. The
	// fixed-work searches (the exhaustive tables) are not charged: at
	// about 50 M states/s they would take most of a clock counted at the
	// chokudai builder's rate of about 14 k/s.
	spent int64
	// timed counts the searches run on a time budget (for the test that
	// none does under Config.NodeRate).
	timed int
	// bud is this turn's search budgets (Config.turnBudgets).
	bud clockBudgets
	// budgeted sums the time budgets given to searches this turn (with
	// node budgets too), for the clock tests.
	budgeted time.Duration
	// nodes sums the states this turn's searches expanded, emergencies
	// counts its emergency moves (0 or 1), and cuts the decisions the
	// hard deadline cut in the game (guard.go; for the guard tests).
	nodes       int64
	emergencies int
	cuts        int
	// watchdogs counts the turns the watchdog answered (guard.go).
	watchdogs int
	// chokLast is the last chokudai search's settings (for the tests of
	// what reaches the searches).
	chokLast ChokudaiConfig
}

// NewBot returns a bot for a game on packs.
func NewBot(packs []sim.Pack, cfg Config) *Bot {
	return &Bot{cfg: cfg.withDefaults(), packs: packs}
}

func (b *Bot) logf(format string, a ...any) {
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, format+"\n", a...)
	}
}

// beam runs a chain beam for s from turn with the given time budget.
func (b *Bot) beam(ctx context.Context, s side, turn, depth, target int, budget time.Duration, xmin, xmax int) BeamResult {
	return b.beamBy(ctx, s, turn, depth, target, 0, 0, budget, xmin, xmax)
}

// beamBy is beam with a deadline ply (BeamConfig.Deadline; 0: none) and a
// budget horizon (BeamConfig.Horizon; 0: depth).
func (b *Bot) beamBy(ctx context.Context, s side, turn, depth, target, deadline, horizon int, budget time.Duration, xmin, xmax int) BeamResult {
	cfg := BeamConfig{Depth: depth, Width: b.cfg.MaxWidth, XMin: xmin, XMax: xmax, Target: target, Threads: b.cfg.Threads, Budget: budget, Potential: !b.cfg.NextPackKey, RowProof: b.cfg.RowProof, RowKeep: b.cfg.RowKeep, Key: b.cfg.Key}
	cfg.Deadline, cfg.DeadlineMin, cfg.Horizon = deadline, raceMinChains, horizon
	if b.cfg.Chokudai {
		return b.runChokudai(ctx, s, turn, cfg)
	}
	return b.runOwn(ctx, s, turn, cfg)
}

// runChokudai runs the chokudai builder in place of an own beam: the same
// target, deadline and budget, all 9 columns, at most ChokDepth plies, and
// ChokNodes (or FixedWidth × plies) expanded states instead of the budget
// when set.
func (b *Bot) runChokudai(ctx context.Context, s side, turn int, bc BeamConfig) BeamResult {
	cfg := ChokudaiConfig{Depth: min(bc.Depth, b.chokDepthAt(turn)), Budget: bc.Budget, XMin: 0, XMax: 8, Target: bc.Target,
		Deadline: bc.Deadline, DeadlineMin: bc.DeadlineMin, Incoming: bc.Incoming, Threads: b.cfg.Threads}
	return b.ownSearch(ctx, s, turn, b.withExt(cfg))
}

// withExt is cfg with the extension pick of Config.ChokExt (its nodes,
// candidates and widening).
func (b *Bot) withExt(cfg ChokudaiConfig) ChokudaiConfig {
	cfg.ExtNodes, cfg.ExtK = b.cfg.ChokExt, b.cfg.ChokExtK
	cfg.ExtLater, cfg.ExtShorter = b.cfg.ChokExtLater, b.cfg.ChokExtShorter
	return cfg
}

// ownSearch is chokSearch for our own plans (not the reads of the
// opponent): with the row term (Config.ChokRow from ChokRowFrom on) and
// the opening and free-room terms (ChokOpenX, ChokFree).
func (b *Bot) ownSearch(ctx context.Context, s side, turn int, cfg ChokudaiConfig) BeamResult {
	cfg.RowW, cfg.RowMin, cfg.RowPack = b.rowW(turn), b.cfg.ChokRowMin, b.cfg.ChokRowPack
	cfg.OpenX, cfg.FreeW = b.cfg.ChokOpenX, b.cfg.ChokFree
	return b.chokSearch(ctx, s, turn, cfg)
}

// chokDepthAt is the chokudai builder's plies at most at turn:
// Config.ChokDepth (0: chokDepth), or Config.ChokLateDepth after
// chokLateTurn when set. Plans and the race counter both take it.
func (b *Bot) chokDepthAt(turn int) int {
	if turn > chokLateTurn && b.cfg.ChokLateDepth > 0 {
		return b.cfg.ChokLateDepth
	}
	if b.cfg.ChokDepth > 0 {
		return b.cfg.ChokDepth
	}
	return chokDepth
}

// rowW is the row term's weight of own chokudai searches at turn
// (Config.ChokRow from Config.ChokRowFrom on).
func (b *Bot) rowW(turn int) int {
	if turn < b.cfg.ChokRowFrom {
		return 0
	}
	return b.cfg.ChokRow
}

// chokSearch runs a chokudai search from turn, on ChokNodes (or FixedWidth
// × plies, or cfg.Budget × NodeRate) expanded states instead of cfg.Budget
// when one is set.
func (b *Bot) chokSearch(ctx context.Context, s side, turn int, cfg ChokudaiConfig) BeamResult {
	b.budgeted += cfg.Budget
	if cfg.ExtNodes > 0 { // the extension reads (searchExt)
		b.budgeted += extBudget(cfg.Budget) * time.Duration(extReadsMax(cfg))
	}
	b.chokLast = cfg
	switch {
	case b.cfg.ChokNodes > 0:
		cfg.Nodes, cfg.Budget = b.cfg.ChokNodes, 0
	case b.cfg.FixedWidth > 0:
		cfg.Nodes, cfg.Budget = int64(b.cfg.FixedWidth)*int64(cfg.Depth), 0
	case b.cfg.NodeRate > 0:
		cfg.Nodes, cfg.Budget = b.nodesFor(cfg.Budget), 0
	}
	b.noteTimed(cfg.Budget)
	res := b.chok.searchExt(ctx, s, b.packs[turn:], cfg)
	b.nodes += res.Nodes
	b.charge(res.Nodes)
	return res
}

// runOwn runs an own-side beam from turn: FixedWidth replaces the width
// and budget (NodeRate the budget by its states), buckets hold 30 % of the
// width, and a budgeted beam is cut off at 1.5× its budget.
func (b *Bot) runOwn(ctx context.Context, s side, turn int, cfg BeamConfig) BeamResult {
	b.budgeted += cfg.Budget
	if b.cfg.FixedWidth > 0 {
		cfg.Width, cfg.Budget = b.cfg.FixedWidth, 0
	} else if b.cfg.NodeRate > 0 {
		cfg.Nodes, cfg.Budget = b.nodesFor(cfg.Budget), 0
	}
	cfg.BucketWidth = max(cfg.Width*3/10, 4)
	b.noteTimed(cfg.Budget)
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget*3/2)
		defer cancel()
	}
	res := runBeam(ctx, s, b.packs[turn:], cfg)
	b.nodes += res.Nodes
	b.charge(res.Nodes)
	return res
}

// nodesFor is a time budget's states under Config.NodeRate (at least one:
// a search with neither budget would run to its context's end).
func (b *Bot) nodesFor(budget time.Duration) int64 {
	return max(int64(budget.Seconds()*b.cfg.NodeRate), 1)
}

// charge counts n states of a budgeted search on the virtual clock
// (Config.NodeRate; a fixed-width search is not on it).
func (b *Bot) charge(n int64) {
	if b.cfg.NodeRate > 0 && b.cfg.FixedWidth == 0 && b.cfg.ChokNodes == 0 {
		b.spent += n
	}
}

// noteTimed counts a search about to run on a time budget.
func (b *Bot) noteTimed(budget time.Duration) {
	if budget > 0 {
		b.timed++
	}
}

// clockLeft is the remaining time the budgets of turn block t share: the
// referee's, or under Config.NodeRate the virtual clock's (the game's
// total clock less the states spent over NodeRate). It notes the total.
func (b *Bot) clockLeft(t *protocol.Turn) time.Duration {
	real := time.Duration(t.Me.TimeMs) * time.Millisecond
	b.total = max(b.total, real)
	if b.cfg.NodeRate <= 0 {
		return real
	}
	used := time.Duration(float64(b.spent) / b.cfg.NodeRate * float64(time.Second))
	return max(b.total-used, 0)
}

func (b *Bot) setPlan(turn int, f Fire) {
	b.plan = &plan{start: turn, moves: f.Moves, fields: f.Fields, chains: f.Chains, sent: f.Sent}
}

// setPlanUnder is setPlan for a plan made under ojama: it replays the
// moves from me to record the stock expected before each.
func (b *Bot) setPlanUnder(turn int, f Fire, me side) {
	b.setPlan(turn, f)
	b.plan.stocks = make([]int, len(f.Moves))
	for i, m := range f.Moves {
		b.plan.stocks[i] = me.stock
		rot := rotate(b.packs[turn+i])
		me.act(m, &rot)
	}
}

// Decide returns the move for turn block t, read now (DecideAt).
func (b *Bot) Decide(ctx context.Context, t *protocol.Turn) (codevs.Move, error) {
	return b.DecideAt(ctx, t, time.Now())
}

// sides checks t's turn against the packs and returns both sides.
func (b *Bot) sides(t *protocol.Turn) (me, en side, err error) {
	turn := t.Turn
	if turn < 0 || turn >= len(b.packs) {
		return me, en, fmt.Errorf("turn %d outside the %d packs", turn, len(b.packs))
	}
	if me, err = sideFrom(&t.Me); err != nil {
		return me, en, fmt.Errorf("turn %d: own field: %w", turn, err)
	}
	if en, err = sideFrom(&t.Opp); err != nil {
		return me, en, fmt.Errorf("turn %d: opponent field: %w", turn, err)
	}
	return me, en, nil
}

// decide is the full decision for turn block t; its searches stop when ctx
// ends (decideGuarded's hard deadline).
func (b *Bot) decide(ctx context.Context, t *protocol.Turn) (int, error) {
	turn := t.Turn
	me, en, err := b.sides(t)
	if err != nil {
		return 0, err
	}
	remaining := b.clockLeft(t)
	packs := b.packs[turn:]
	b.budgeted = 0

	// Time: a share for the opening plan, then a slice per turn.
	b.bud = b.cfg.turnBudgets(b.total, remaining, turn)
	perTurn, replan, opening := b.bud.perTurn, b.bud.replan, b.bud.opening
	ownDepth := b.cfg.OwnDepth
	// As the seed: 4 own plies only while at least 100 ms per remaining turn.
	if remaining < time.Duration(codevs.Turns-turn)*100*time.Millisecond {
		ownDepth = min(ownDepth, 3)
	}
	switch {
	case remaining < 8*time.Second:
		ownDepth, perTurn = min(ownDepth, 2), 5*time.Millisecond
	case remaining < 30*time.Second:
		ownDepth = min(ownDepth, 3)
	}
	enDepth := min(b.cfg.EnemyDepth, ownDepth)
	if b.cfg.SkillMode {
		b.updateSkillMode(ctx, t, me, en, remaining, perTurn)
	}

	// Both sides' exhaustive tables: own fires per ply and survival, the
	// opponent's best fire per ply (its worst case for us).
	my := b.exhaustIn(ctx, me, turn, ownDepth, b.cfg.Threads, &[MaxPly]int{})
	enT := b.exhaustIn(ctx, en, turn, enDepth, b.cfg.Threads, &[MaxPly]int{})
	now := my.Ply[0]
	enSoon := enT.BestUpTo(enDepth)
	var enCur, enPrev int
	if b.cfg.CounterMode {
		enCur, enPrev = b.noteEnemyFire(en, enT.Ply[0])
	}

	// Safety key: survival under the opponent's best fire (WorstCase: the
	// own search again with that fire arriving at its ply), then plain
	// survival.
	worst := &my
	if b.cfg.WorstCase {
		var in [MaxPly]int
		d := -1
		for p := 0; p < enDepth; p++ {
			if enT.Ply[p].Sent >= codevs.OjamaRow && (d < 0 || enT.Ply[p].Sent > enT.Ply[d].Sent) {
				d = p
			}
		}
		if d >= 0 {
			in[d] = enT.Ply[d].Sent
			w := b.exhaustIn(ctx, me, turn, ownDepth, b.cfg.Threads, &in)
			worst = &w
		}
	}
	key := func(m int) int { return worst.Survive[m]*(MaxPly+1) + my.Survive[m] }
	bestKey := 0
	for m := range numMoves {
		bestKey = max(bestKey, key(m))
	}
	safe := func(m int) bool { return m >= 0 && key(m) >= bestKey }

	// 1. Ojama about to fall: the plan is broken; fire now if it cancels
	// most of the stock or sends a lot, else plan the quickest counter.
	if me.stock >= codevs.OjamaRow && b.lateOn(turn) {
		if m, ok := b.lateCounter(ctx, turn, me, now, replan, safe); ok {
			return m, nil
		}
	}
	if me.stock >= codevs.OjamaRow {
		// The counter plan made under this stock holds while the field and
		// stock are as it expected (the opponent sent nothing more) and it
		// fires more than a fire now.
		if (b.cfg.FollowCounterPlan || b.cfg.CounterMode) && b.plan.valid(turn, &me) && b.plan.stocks != nil && b.plan.sent > now.Sent {
			if m := b.plan.moves[turn-b.plan.start]; safe(m) {
				if turn-b.plan.start == len(b.plan.moves)-1 {
					b.logf("turn %d: stock %d, counter plan fires %d chains", turn, me.stock, b.plan.chains)
				}
				return m, nil
			}
		}
		if b.cfg.CounterMode {
			if m, ok := b.counterHit(ctx, me, now, turn, remaining, replan, safe); ok {
				return m, nil
			}
		}
		if now.First >= 0 && safe(now.First) && (now.Sent >= me.stock*7/10 || now.Sent >= 30) {
			b.logf("turn %d: counter now %d chains %d sent vs stock %d", turn, now.Chains, now.Sent, me.stock)
			b.plan = nil
			return now.First, nil
		}
		target := chainsToCancel(me.stock, b.cfg.Target)
		// The second race: a counter plan is made once, with a replan's
		// budget (tanzaku: 10 plies, 15 s), and then followed.
		budget := replan
		if !b.cfg.FollowCounterPlan {
			budget = perTurn
		}
		res := b.beam(ctx, me, turn, min(b.cfg.BeamDepth, 12), target, budget, 0, 8)
		if res.Best.Chains > 0 && res.Best.Sent > now.Sent && safe(res.Best.Moves[0]) {
			if b.cfg.FollowCounterPlan {
				b.setPlanUnder(turn, res.Best, me)
			} else {
				b.setPlan(turn, res.Best)
			}
			b.logf("turn %d: stock %d, counter plan %d chains at ply %d", turn, me.stock, res.Best.Chains, res.Best.Ply)
			return res.Best.Moves[0], nil
		}
		if now.First >= 0 && safe(now.First) && now.Sent > 0 {
			return now.First, nil
		}
		return b.fallback(&my, key), nil
	}

	// 1b. Gauge denial: the opponent will reach the skill within two turns
	// and its explosion would send 20+: a chain of 3+ drains 12+2C. When the
	// plan fires this turn, its chain drains the gauge too: no denial move
	// in its place.
	if b.cfg.DenySkill && en.gauge >= 64 && en.gauge < codevs.SkillCost &&
		codevs.ExplosionScore(en.f.SkillBlocks())/2 >= 20 &&
		!(b.planFiresNow(turn, &me) && b.plan.chains >= codevs.DrainMinimum) {
		if m, ok := denyMove(&me, packs); ok && safe(m) {
			b.logf("turn %d: deny the skill (opponent gauge %d) with move %v", turn, en.gauge, toMove(m))
			b.plan = nil
			return m, nil
		}
	}

	// The late stance: no fire of our own before the opponent's (its rules
	// replace 2a, 2 and the pre-empt; the skill rule 3 still applies).
	late := b.lateOn(turn)

	// 1c. Counter mode: the opponent is ready to fire more than before;
	// plan to take it and answer 1.5× (tanzaku's do_counter).
	if b.cfg.CounterMode && !late {
		if b.cfg.CounterAgain && b.counterHeld(turn, &me) {
			b.logf("turn %d: counter mode: the opponent held its fire (stock %d, the plan expected %d)", turn, me.stock, b.plan.stocks[turn-b.plan.start])
			enPrev = 0 // plan the counter again while its fire is a threat
		}
		if m, ok := b.counterMode(ctx, me, enCur, enPrev, turn, remaining, replan, safe); ok {
			return m, nil
		}
	}

	// 2a. Early fire: a chain the opponent cannot answer goes now, before
	// its own chain grows into one that can.
	if !late && b.cfg.EarlyFire > 0 && now.First >= 0 && now.Chains >= b.cfg.EarlyFire && safe(now.First) && !b.planFiresNow(turn, &me) {
		depth := b.cfg.EarlyDepth
		if depth <= 0 {
			depth = counterDepth
		}
		a := b.answerIn(ctx, en, turn, depth, now.Sent, perTurn)
		if a < now.Sent {
			b.logf("turn %d: early fire %d chains %d sent (opponent's answer %d)", turn, now.Chains, now.Sent, a)
			b.plan = nil
			b.fired = true
			return now.First, nil
		}
		b.logf("turn %d: no early fire: %d chains %d sent, opponent's answer %d", turn, now.Chains, now.Sent, a)
	}

	// 2. Counter rule (the seed's c1..c4): with a big chain ready, fire when
	// the opponent would otherwise out-fire us soon but cannot answer ours.
	if !late && now.First >= 0 && now.Chains >= 8 && now.Sent > enT.Ply[0].Sent && safe(now.First) && !b.planFiresNow(turn, &me) {
		w := max(b.cfg.MaxWidth/50, 100)
		if b.cfg.FixedWidth > 0 {
			w = max(b.cfg.FixedWidth/4, 20)
		}
		c3 := b.enemyBest(ctx, en, turn, 5, w, perTurn/2)
		if now.Sent <= c3 {
			hit := en
			hit.stock += now.Sent
			c4 := b.enemyBest(ctx, hit, turn, 10, w, perTurn/2)
			if now.Sent > c4 && (!b.cfg.AntiCounter || b.antiPreempt(ctx, me, en, turn, now.Chains, now.Sent, remaining)) {
				b.logf("turn %d: counter rule fires %d (enemy c3 %d, c4 %d)", turn, now.Sent, c3, c4)
				b.plan = nil
				b.fired = true
				return now.First, nil
			}
		}
	}
	// The opponent is about to fire more than we can ever cancel in time:
	// fire first if ours is big.
	if !late && enSoon.Sent >= 40 && now.Sent >= enSoon.Sent && now.First >= 0 && safe(now.First) &&
		(!b.cfg.Counter || b.answerBelow(ctx, me, en, turn, now.Sent, now.Chains, perTurn)) &&
		(!b.cfg.AntiCounter || b.antiPreempt(ctx, me, en, turn, now.Chains, now.Sent, remaining)) {
		b.logf("turn %d: pre-empt enemy %d with %d", turn, enSoon.Sent, now.Sent)
		b.plan = nil
		b.fired = true
		return now.First, nil
	}

	// 3. Skill when it sends a lot and no big chain is imminent.
	// In skill mode no chain plan holds the skill back.
	if sk := my.ByFirst[moveSkill][0]; me.gauge >= codevs.SkillCost && sk.Sent >= 30 && safe(moveSkill) && (b.skill.on || !b.planFiresSoon(turn, &me, 3)) {
		b.logf("turn %d: skill sends %d", turn, sk.Sent)
		b.plan = nil
		return moveSkill, nil
	}

	// 3b. Skill mode: the skill beam's first move (no chain plan).
	if b.skill.on {
		ln := b.skillBeam(ctx, me, turn, perTurn)
		if len(ln.Moves) > 0 && safe(ln.Moves[0]) {
			b.plan = nil
			b.logf("turn %d: skill mode, beam to %d skill blocks at gauge %d in %d plies", turn, ln.SkillBlocks, ln.Gauge, len(ln.Moves))
			return ln.Moves[0], nil
		}
	}

	if late {
		if m, ok := b.lateBuild(ctx, turn, me, &my, now, remaining, safe); ok {
			return m, nil
		}
	}

	// 4. Follow the plan while the field is as expected and the move is safe.
	if b.plan.valid(turn, &me) {
		m := b.plan.moves[turn-b.plan.start]
		if safe(m) {
			if turn-b.plan.start == len(b.plan.moves)-1 {
				if b.cfg.AntiCounter {
					if b.antiCounter(ctx, me, en, turn, remaining, replan, safe) {
						return b.plan.moves[0], nil
					}
				} else if b.cfg.Counter {
					if b.counterWait(ctx, me, en, turn, perTurn, safe) {
						m = b.plan.moves[0] // the wait plan replaced the fire
						b.logf("turn %d: counter stance, wait: grow to %d chains at ply %d", turn, b.plan.chains, len(b.plan.moves))
						return m, nil
					}
				} else if b.holdFire(ctx, me, en, turn, perTurn, safe) {
					m = b.plan.moves[0] // holdFire replaced the plan with a bigger one
					b.logf("turn %d: hold fire, grow to %d chains at ply %d", turn, b.plan.chains, len(b.plan.moves))
					return m, nil
				}
			}
			if turn-b.plan.start == len(b.plan.moves)-1 {
				b.fired = true
				b.logf("turn %d: plan fires %d chains", turn, b.plan.chains)
			}
			return m, nil
		}
	}

	// 5. Plan again: the wide opening beam (columns 2..6 as the seed), or a
	// per-turn beam for the next chain.
	var res BeamResult
	if !b.fired && turn < 8 {
		res = b.beamBy(ctx, me, turn, b.cfg.BeamDepth, b.cfg.Target, 0, b.cfg.OpeningHorizon, opening, 2, 6)
	}
	if res.Best.Chains == 0 {
		// The race: the first ply at which the opponent's beam fires
		// raceThreat+ ojama is our deadline.
		deadline := 0
		var fires []int
		if !b.cfg.NoRace {
			w := max(b.cfg.MaxWidth/50, 100)
			if b.cfg.FixedWidth > 0 {
				w = max(b.cfg.FixedWidth/4, 20)
			}
			fires = b.enemyFires(ctx, en, turn, 14, w, replan/3)
			deadline = firstFire(fires, b.raceThreatAt(turn))
			replan -= replan / 3
		}
		// The race is decided by the deadline ply: the budget goes to the
		// plies up to it (about 1.6x the width of a 16-ply plan), but to
		// raceMinHorizon at least: a near deadline is lost anyway, and a
		// 2-ply plan ran its full width out of time at ply 5.
		horizon := 0
		if deadline > 0 && !b.cfg.NoRaceHorizon {
			horizon = max(deadline, raceMinHorizon) + 1
		}
		res = b.beamBy(ctx, me, turn, min(b.cfg.BeamDepth, 16), b.cfg.Target, deadline, horizon, replan, 0, 8)
		if deadline > 0 {
			b.logf("turn %d: opponent fires %d+ at ply %d", turn, b.raceThreatAt(turn), deadline)
			if b.cfg.RaceCounter {
				if m, ok := b.raceCounter(ctx, me, turn, fires, res.Best, replan, remaining.Milliseconds(), safe); ok {
					return m, nil
				}
			}
		}
	}
	b.logf("turn %d: plan %d chains at ply %d (%d nodes, width %d, %d ms left)", turn, res.Best.Chains, res.Best.Ply, res.Nodes, res.MaxWidth, remaining.Milliseconds())
	if b.cfg.SkillMode && b.decideAfterBeam(ctx, turn, me, en, &res, perTurn) {
		if ln := b.skillBeam(ctx, me, turn, perTurn); len(ln.Moves) > 0 && safe(ln.Moves[0]) {
			return ln.Moves[0], nil
		}
	}
	if res.Best.Chains > 0 && safe(res.Best.Moves[0]) {
		b.setPlan(turn, res.Best)
		if len(res.Best.Moves) == 1 {
			// A replan that fires this turn is the plan's fire too:
			// under ReplanAnti it asks the anti-counter first.
			if b.cfg.ReplanAnti && b.cfg.AntiCounter && b.antiCounter(ctx, me, en, turn, remaining, replan, safe) {
				return b.plan.moves[0], nil
			}
			b.fired = true
		}
		return res.Best.Moves[0], nil
	}
	b.plan = nil
	return b.fallback(&my, key), nil
}

// holdThreat is the opponent fire (ojama) that holdFire will not let land
// before a grown chain fires: two rows cover most triggers.
const holdThreat = 2 * codevs.OjamaRow

// raceThreat is the opponent fire (ojama) a replan races: ours should go
// off no later than it. raceMinChains is the smallest fire worth choosing
// for that (25 ojama: enough rows to bury the opponent's trigger).
const (
	raceThreat    = 40
	raceMinChains = 10
	// raceMinHorizon is the fewest plies a replan's budget is planned over
	// when a deadline is set (replans then fire at plies 8-12).
	raceMinHorizon = 9
)

// firstFire returns the first ply (1 = this turn) at which fires (ojama per
// ply, index 0 = this turn) reaches threat, 0 if none does.
func firstFire(fires []int, threat int) int {
	for p, s := range fires {
		if s >= threat {
			return p + 1
		}
	}
	return 0
}

// firesFirst reports whether the opponent, whose best fire at ply p+1 sends
// fires[p], can fire at least threat ojama at a ply before our fire at ply
// ours (1 = this turn): its rows would land before our chain goes off.
func firesFirst(fires []int, ours, threat int) bool {
	for p := 1; p < ours && p <= len(fires); p++ {
		if fires[p-1] >= threat {
			return true
		}
	}
	return false
}

// holdFire decides, at the plan's fire, whether to keep building instead:
// when the opponent's chain beam finds a fire within 5 turns at least as big
// as ours (it would answer ours with a bigger counter) and the field has
// room, it looks for a plan with at least one more chain that does not fire
// now; if one exists and the opponent cannot fire holdThreat+ ojama before
// it (unless HoldAlways), it becomes the plan and holdFire reports true.
func (b *Bot) holdFire(ctx context.Context, me, en side, turn int, budget time.Duration, safe func(int) bool) bool {
	if b.plan.chains < 8 || me.f.MaxHeight() > 12 || turn > 400 {
		return false
	}
	w := max(b.cfg.MaxWidth/50, 100)
	if b.cfg.FixedWidth > 0 {
		w = max(b.cfg.FixedWidth/4, 20)
	}
	fires := b.enemyFires(ctx, en, turn, 5, w, budget/2)
	c3 := 0
	for _, s := range fires {
		c3 = max(c3, s)
	}
	if b.plan.sent > c3 {
		return false
	}
	res := b.beam(ctx, me, turn, 10, b.plan.chains+1, budget, 0, 8)
	if res.Best.Chains <= b.plan.chains || len(res.Best.Moves) < 2 || !safe(res.Best.Moves[0]) {
		return false
	}
	// Growing is a race: an opponent fire of holdThreat+ ojama at a ply
	// before the bigger fire lands its rows first and buries our chain
	// (a fire at the same ply only offsets).
	if !b.cfg.HoldAlways && firesFirst(fires, len(res.Best.Moves), holdThreat) {
		return false
	}
	b.setPlan(turn, res.Best)
	return true
}

// denyMove returns the drop this turn that fires at least DrainMinimum
// chains and leaves the largest chain-now for the next pack (ties: the
// smaller fire); ok is false if no drop fires that many.
func denyMove(me *side, packs []sim.Pack) (int, bool) {
	rot := rotate(packs[0])
	var next *rotations
	if len(packs) > 1 {
		n := rotate(packs[1])
		next = &n
	}
	best, bestPot, bestChains := -1, -1, 0
	for m := 0; m < 36; m++ {
		if !rot.uniq[m&3] {
			continue
		}
		c := *me
		o := c.act(m, &rot)
		if o.dead || o.chains < codevs.DrainMinimum {
			continue
		}
		pot := 0
		if next != nil {
			pot, _ = chainNow(&c.f, next)
		}
		if pot > bestPot || (pot == bestPot && o.chains < bestChains) {
			best, bestPot, bestChains = m, pot, o.chains
		}
	}
	return best, best >= 0
}

// planFiresNow reports whether the plan's move this turn is its fire.
func (b *Bot) planFiresNow(turn int, me *side) bool {
	return b.plan.valid(turn, me) && turn-b.plan.start == len(b.plan.moves)-1
}

// planFiresSoon reports whether the plan fires within k turns.
func (b *Bot) planFiresSoon(turn int, me *side, k int) bool {
	return b.plan.valid(turn, me) && b.plan.start+len(b.plan.moves)-1-turn < k && b.plan.chains >= 8
}

// enemyBest is the largest ojama the opponent's chain beam finds within
// depth plies, within budget unless widths are fixed.
func (b *Bot) enemyBest(ctx context.Context, en side, turn, depth, width int, budget time.Duration) int {
	best := 0
	for _, s := range b.enemyFires(ctx, en, turn, depth, width, budget) {
		best = max(best, s)
	}
	return best
}

// enemyFires is the ojama of the opponent chain beam's best fire at each
// ply (index 0 = this turn).
func (b *Bot) enemyFires(ctx context.Context, en side, turn, depth, width int, budget time.Duration) []int {
	return b.enemyFiresHit(ctx, en, turn, depth, width, 0, budget)
}

// enemyFiresHit is enemyFires with incoming ojama joining the opponent's
// stock at the end of ply 1 (BeamConfig.Incoming: our fire this turn).
func (b *Bot) enemyFiresHit(ctx context.Context, en side, turn, depth, width, incoming int, budget time.Duration) []int {
	b.budgeted += budget
	if b.cfg.ChokEnemy {
		cfg := ChokudaiConfig{Depth: depth, Budget: budget, XMin: 0, XMax: 8, Incoming: incoming, Threads: b.cfg.Threads}
		if b.cfg.FixedWidth > 0 {
			cfg.Nodes, cfg.Budget = int64(width)*int64(depth), 0
		} else if b.cfg.NodeRate > 0 {
			cfg.Nodes, cfg.Budget = b.nodesFor(budget), 0
		}
		b.noteTimed(cfg.Budget)
		res := b.chok.search(ctx, en, b.packs[turn:], cfg)
		b.nodes += res.Nodes
		b.charge(res.Nodes)
		out := make([]int, len(res.PerPly))
		for i, f := range res.PerPly {
			out[i] = f.Sent
		}
		return out
	}
	cfg := BeamConfig{Depth: depth, Width: width, BucketWidth: max(width*3/10, 4), XMin: 0, XMax: 8, Threads: b.cfg.Threads, Potential: !b.cfg.NextPackKey, Incoming: incoming, Key: b.cfg.EnemyKey}
	switch {
	case b.cfg.NodeRate > 0 && b.cfg.FixedWidth == 0:
		cfg.Nodes = b.nodesFor(budget)
	case b.cfg.FixedWidth == 0:
		cfg.Budget = budget
		b.noteTimed(budget)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget*3/2)
		defer cancel()
	}
	res := runBeam(ctx, en, b.packs[turn:], cfg)
	b.nodes += res.Nodes
	b.charge(res.Nodes)
	out := make([]int, len(res.PerPly))
	for i, f := range res.PerPly {
		out[i] = f.Sent
	}
	return out
}

// fallback picks the safest move by key, preferring the biggest fire now.
func (b *Bot) fallback(my *Table, key func(int) int) int {
	best, bk, bsent := 0, -1, -1
	for m := range numMoves {
		k, sent := key(m), my.ByFirst[m][0].Sent
		if k > bk || (k == bk && sent > bsent) {
			best, bk, bsent = m, k, sent
		}
	}
	return best
}

// Run plays one game on the protocol: prints the name, reads the packs, then
// answers every turn block until EOF.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	cfg = cfg.withDefaults()
	w := bufio.NewWriter(out)
	say := func(s string) error {
		if _, err := w.WriteString(s + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := say(cfg.Name); err != nil {
		return err
	}
	rd := protocol.NewReader(in)
	pp, err := rd.ReadStart()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	bot := NewBot(codevs.SimPacks(pp), cfg)
	for {
		t, err := rd.ReadTurn()
		start := time.Now() // the referee's clock runs from its write
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		decide := func(ctx context.Context) (int, error) { return bot.decideGuarded(ctx, &t, start) }
		send := func(m int) error { return say(toMove(m).String()) }
		if err := bot.watch(ctx, &t, start, decide, send); err != nil {
			return err
		}
	}
}

// The counter stance (session codevs-counter): the side that fires first
// rebuilds from a nearly empty field while the other answers with the chain
// it kept, so a chain is fired first only when the opponent cannot answer
// it: its best chain within counterDepth plies, with our ojama in its stock
// (a row falling each turn), sends no more than ours. Otherwise the chain
// is kept and grown while it survives the first ojama row the opponent's
// fire would drop, and it answers that fire (rule 1 of decide).
const (
	counterDepth = 8 // plies of the opponent's answer read (tanzaku's counter search: 10)
	// counterKeep is how many chains the kept chain may lose to one ojama
	// row and still count as ready.
	counterKeep = 1
	// counterMaxHeight is the highest field that keeps its chain: our
	// chains stand 12-14 rows high when ready (holdFire stops at 12), and
	// a row and a pack still fit under the danger line (16).
	counterMaxHeight = 14
)

// answerBelow reports whether our fire of sent ojama (chains chains) this
// turn should go first: the opponent's best answer with that ojama falling
// on it sends at most sent, or our chain would not survive one ojama row.
func (b *Bot) answerBelow(ctx context.Context, me, en side, turn, sent, chains int, budget time.Duration) bool {
	a := b.answer(ctx, en, turn, sent, budget)
	if a <= sent {
		b.logf("turn %d: counter stance: opponent's answer %d <= our %d, fire", turn, a, sent)
		return true
	}
	if !b.keepsChain(ctx, me, turn, chains) {
		b.logf("turn %d: counter stance: answer %d > our %d but one ojama row breaks our %d chains, fire", turn, a, sent, chains)
		return true
	}
	b.logf("turn %d: counter stance: answer %d > our %d, keep the chain", turn, a, sent)
	return false
}

// answer is the ojama of the opponent's best fire within counterDepth plies
// when our fire of sent ojama goes off this turn: it moves freely this turn
// (its fire then offsets ours), and the rows start falling next turn.
func (b *Bot) answer(ctx context.Context, en side, turn, sent int, budget time.Duration) int {
	return b.answerIn(ctx, en, turn, counterDepth, sent, budget)
}

// answerIn is answer over depth plies.
func (b *Bot) answerIn(ctx context.Context, en side, turn, depth, sent int, budget time.Duration) int {
	w := max(b.cfg.MaxWidth/50, 100)
	if b.cfg.FixedWidth > 0 {
		w = max(b.cfg.FixedWidth/4, 20)
	}
	best := 0
	for _, s := range b.enemyFiresHit(ctx, en, turn, depth, w, sent, budget/2) {
		best = max(best, s)
	}
	return best
}

// keepsChain reports whether some move this turn that does not fire leaves
// a chain of at least chains-counterKeep that fires next turn after one
// ojama row has fallen (the opponent fired this turn).
func (b *Bot) keepsChain(ctx context.Context, me side, turn, chains int) bool {
	in := [MaxPly]int{codevs.OjamaRow}
	t := b.exhaustIn(ctx, me, turn, 2, b.cfg.Threads, &in)
	return t.Depth >= 2 && t.Ply[1].Chains >= chains-counterKeep
}

// counterWait decides, at the plan's fire, between firing and keeping the
// chain (the counter stance): it fires when the opponent cannot answer
// (answerBelow), when the field is high, or when no plan of one more chain
// that does not fire this turn keeps a chain ready against one ojama row
// next turn. Otherwise that plan replaces the fire and counterWait reports
// true.
func (b *Bot) counterWait(ctx context.Context, me, en side, turn int, budget time.Duration, safe func(int) bool) bool {
	if b.plan.chains < 8 || me.f.MaxHeight() > counterMaxHeight || turn > 400 {
		return false
	}
	if b.answerBelow(ctx, me, en, turn, b.plan.sent, b.plan.chains, budget) {
		return false
	}
	res := b.beam(ctx, me, turn, 10, b.plan.chains+1, budget, 0, 8)
	if res.Best.Chains <= b.plan.chains || len(res.Best.Moves) < 2 || !safe(res.Best.Moves[0]) {
		b.logf("turn %d: counter stance: no safe plan of %d+ chains after this turn (best %d at ply %d), fire", turn, b.plan.chains+1, res.Best.Chains, res.Best.Ply)
		return false
	}
	// The wait move itself must keep a chain ready for the opponent's fire.
	m := res.Best.Moves[0]
	in := [MaxPly]int{codevs.OjamaRow}
	t := b.exhaustIn(ctx, me, turn, 2, b.cfg.Threads, &in)
	if t.Depth < 2 || t.ByFirst[m][1].Chains < b.plan.chains-counterKeep {
		b.logf("turn %d: counter stance: the grow move %v breaks the chain under a row (%d), fire", turn, toMove(m), t.ByFirst[m][1].Chains)
		return false
	}
	b.setPlan(turn, res.Best)
	return true
}

// chainsToCancel is the fewest chains (below limit) whose ojama cancels
// stock, else limit.
func chainsToCancel(stock, limit int) int {
	for c := 1; c < limit; c++ {
		if ojamaOf(c) >= stock {
			return c
		}
	}
	return limit
}
