// Whether a Yomi server is behind the page: not in a static export, where
// searches and server checks are off; `yomi serve` answers this file with
// true instead.
window.HATETRIS_SERVER = false;
