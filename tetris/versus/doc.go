// doc.go holds the package documentation.

// Package versus plays guideline Tetris between bots: PlayVersus (two
// sides with garbage, CC1's battle rules and timing model or another
// tetris.NamedRules set, every placement checked against tetris/movegen)
// and PlaySolo (one side, no garbage); Match and Solo run them over seed
// sets through the arena runner. Players are the built-in bot (Builtin) or
// any Tetris Bot Protocol process (TBP), named by a Spec. Each side's work
// between its moves counts on its own clock (see turn) and both sides are
// told the same things.
package versus
