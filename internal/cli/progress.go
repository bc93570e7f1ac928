// This file holds the progress bars long commands draw on stderr (throttled
// when stderr is not a terminal, silent when quiet).

package cli

import (
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress returns a progress bar on w with max steps (-1 for unknown) and a
// description. When w is not a terminal the bar still renders, but throttled,
// so logs stay short. Set quiet to get a bar that prints nothing.
func Progress(w io.Writer, max int64, desc string, quiet bool) *progressbar.ProgressBar {
	if quiet {
		w = io.Discard
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
		progressbar.OptionThrottle(100_000_000), // 100 ms
	}
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		opts = append(opts, progressbar.OptionThrottle(2_000_000_000))
	}
	return progressbar.NewOptions64(max, opts...)
}
