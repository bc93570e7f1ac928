// ctxreader.go holds ContextReader: stdin that gives up when the command's
// context ends, so that a verb blocked reading an idle pipe still stops on
// Ctrl-C or SIGTERM.

package cli

import (
	"context"
	"io"
)

// ContextReader returns a reader whose Read returns ctx.Err() as soon as
// ctx ends, even while the underlying Read blocks (that Read is left to
// finish in the background; its data is dropped). Use it for one reader
// at a time, as any io.Reader.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	// The background Read fills our own buffer, never p: after a cancel
	// it may still write, and p is the caller's again by then.
	if cap(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	ch := make(chan readResult, 1)
	go func() {
		n, err := c.r.Read(buf)
		ch <- readResult{n, err}
	}()
	select {
	case res := <-ch:
		return copy(p, buf[:res.n]), res.err
	case <-c.ctx.Done():
		c.buf = nil // the abandoned Read may still write into it
		return 0, c.ctx.Err()
	}
}
