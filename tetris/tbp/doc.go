// doc.go holds the package documentation.

// Package tbp speaks the Tetris Bot Protocol (spec §22; tbp-spec's MVP,
// randomizer and move_info RFCs, and PR #2's garbage message as an
// extension). Start with Serve (the bot side: Yomi's bot on a line stream)
// or Client (the frontend side: any TBP bot process with time limits);
// messages.go has the message types and the codec, convert.go the
// conversions to the engine's types.
package tbp
