// Where the bot thinks: "worker" (WebAssembly in a TBP Web Worker) in a
// static export; `yomi serve` answers this file with "server" instead.
window.TETRIS_BOT = "worker";
