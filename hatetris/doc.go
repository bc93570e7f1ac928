// Package hatetris is an exact emulator of qntm's HATETRIS: the 20×10 well
// with the bar at row 4 (Well, well.go), the seven pieces in the game's own
// rotation system (Piece, piece.go), the moves L R D U with locking only on a
// blocked D and clears below the bar (Game, game.go), every lock reachable
// from a spawn (Futures, futures.go: a bit-parallel flood over rows), and the
// enemy that picks the worst piece for the player, with the well-count loop
// rule ("hatetris") or without it ("mild") (Enemy and Expander, ai.go).
//
// Start with Game to replay a move list, or with Expander, which the beam
// search in hatetris/player uses to get the enemy's piece and its futures for
// a well without allocating. Replay encodings live in hatetris/replay.
package hatetris
