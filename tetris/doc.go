// Package tetris is Yomi's reference engine for modern guideline Tetris
// (spec ../shared/specs/tetris.md, following Cold Clear 1's rules).
//
// Where to start:
//
//   - Piece, Rot, Spin, Cell and Placement (piece.go): pieces in Cold
//     Clear's order I O T L J S Z, orientations clockwise from North, and a
//     placement's origin in TBP's "center" convention (no conversion is
//     needed at the protocol). Placement.Cells, Placement.Canonical and
//     Placement.CellMask compare placements by the cells they cover.
//
//   - Board (board.go): 10×40 row bitboards, y up, a value type (copy it to
//     branch). Fits, Spawn, Rotate (SRS kicks, Kicks; 180° via the jstris
//     table when Rules.Allow180), TSpin (corner rule with the 5th-kick
//     upgrade, SpinRule), Place (write + clear lines), AddGarbage,
//     ParseField (rows top to bottom, X/_ , '/' or newline separated).
//
//   - Rules and State (rules.go): DefaultRules is CC1's battle config;
//     State.Lock scores a placement (Kind, attack table, combo,
//     back-to-back, perfect clear) and returns a LockResult.
//
//   - Bag (bag.go): the 7-bag on a PCG seed; Bag.Left is TBP's bag_state.
//
//   - Player (game.go): one side of a versus or solo game, driven by
//     placements. Play checks that a placement fits and rests on the
//     stack; checking that it is reachable with its spin is the caller's
//     job: tetris/movegen lists every reachable placement, and
//     movegen.Generator.Find checks one (use Options.StepDrop when checking
//     another bot's moves: it also allows stopping a soft drop mid-fall).
//
// A versus loop:
//
//	p := tetris.NewPlayer(tetris.DefaultRules(), pieceSeed, garbageSeed)
//	turn, err := p.Play(pl) // pl.Piece = p.Current, or the hold (or next) piece to use hold
//	opp.ReceiveGarbage(turn.Sent)
//	if p.Death != tetris.Alive { … }
//
// TBP's start message maps to Player.Board (board[0] = Rows[0]),
// Player.Pieces (queue), Player.Hold, Player.Combo, Player.B2B and
// Player.Bag.Left (bag_state).
package tetris
