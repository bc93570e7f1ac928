// This file holds the Search phase's sample log: the wells sampled at each
// depth, appended as the search goes, so that a Search resumed from its
// checkpoint (RUN/gen-N/search.ckpt) still has the samples of the depths
// it does not play again.
package train

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/yomi-ai/yomi/hatetris"
)

// Files of an unfinished Search, removed when the phase ends.
const (
	searchCheckpoint = "search.ckpt"
	samplesLogFile   = "search-samples.log"
)

// errLogBehind says the sample log lacks depths its checkpoint has: the two
// files do not belong together (one was deleted or copied alone).
var errLogBehind = errors.New("the sample log lacks depths of the search checkpoint")

// sampleLog appends one record per depth: uint32 depth, uint32 count, the
// wells, and a CRC-32C of the three. A record cut by a kill is dropped on
// open; the search checkpoint is saved after the record, so every depth it
// holds has a whole record.
type sampleLog struct {
	f     *os.File
	depth int // last depth written
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// openSampleLog opens (or creates) the log at path, keeps the records of
// depths 1..upto (the search checkpoint's depth; 0 when the search starts
// afresh) and drops the rest, and returns their wells in order.
func openSampleLog(path string, upto int) (*sampleLog, []hatetris.Well, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	var wells []hatetris.Well
	off, depth := 0, 0
	for depth < upto {
		d, n, ok := logRecord(b[off:])
		if !ok || d != depth+1 {
			break
		}
		body := b[off+8 : off+8+n*wellBytes]
		for i := 0; i < n; i++ {
			wells = append(wells, getWell(body[i*wellBytes:]))
		}
		off += 8 + n*wellBytes + 4
		depth = d
	}
	if depth < upto {
		f.Close()
		return nil, nil, fmt.Errorf("%s: depth %d of %d: %w", path, depth, upto, errLogBehind)
	}
	if err := f.Truncate(int64(off)); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(int64(off), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &sampleLog{f: f, depth: depth}, wells, nil
}

// logRecord decodes the record at the start of b: its depth and well count,
// or !ok when b holds no whole record with a good checksum.
func logRecord(b []byte) (depth, n int, ok bool) {
	if len(b) < 12 {
		return 0, 0, false
	}
	depth = int(binary.LittleEndian.Uint32(b))
	n = int(binary.LittleEndian.Uint32(b[4:]))
	size := 8 + n*wellBytes
	if n < 0 || n > len(b)/wellBytes || len(b) < size+4 {
		return 0, 0, false
	}
	if crc32.Checksum(b[:size], castagnoli) != binary.LittleEndian.Uint32(b[size:]) {
		return 0, 0, false
	}
	return depth, n, true
}

// add appends depth's samples and syncs them to disk before the search
// saves the checkpoint of that depth.
func (l *sampleLog) add(depth int, ws []hatetris.Well) error {
	if depth != l.depth+1 {
		return fmt.Errorf("sample log: depth %d after %d", depth, l.depth)
	}
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(depth))
	binary.Write(&b, binary.LittleEndian, uint32(len(ws)))
	for i := range ws {
		putWell(&b, &ws[i])
	}
	binary.Write(&b, binary.LittleEndian, crc32.Checksum(b.Bytes(), castagnoli))
	if _, err := l.f.Write(b.Bytes()); err != nil {
		return err
	}
	if err := l.f.Sync(); err != nil {
		return err
	}
	l.depth = depth
	return nil
}

func (l *sampleLog) close() error { return l.f.Close() }
