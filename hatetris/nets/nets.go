// Package nets embeds the HATETRIS net that played Yomi's best game (107
// lines at beam width 10 000 with quiescence), so a server can offer net
// searches without files beside it. The other nets in this directory are
// read from disk by `yomi hatetris search --eval nn:FILE`.
package nets

import (
	"bytes"
	_ "embed"

	"github.com/yomi-ai/yomi/nn"
)

//go:embed h24-run4-gen19.yomi
var best []byte

// BestName is the file name of the embedded net.
const BestName = "h24-run4-gen19.yomi"

// Best returns a fresh copy of the embedded net.
func Best() (*nn.Net, error) { return nn.Load(bytes.NewReader(best)) }
