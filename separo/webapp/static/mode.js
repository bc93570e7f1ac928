// Where the SEPARO AI runs: "worker" (WebAssembly in the browser) in a static
// export; `yomi serve` answers this file with "server" instead.
window.SEPARO_ENGINE = "worker";
