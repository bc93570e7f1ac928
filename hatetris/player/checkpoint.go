// This file holds the search's checkpoint: the kept layers (the beam and
// its ancestors) written after a depth, so that a killed search resumes
// where it was and plays the game an uninterrupted one plays.
//
// Format (little-endian; uvarint = encoding/binary's):
//
//	magic "yomiHTB1"
//	settings: uvarint width, byte quiescence, byte AI, uvarint len + EvalID,
//	          16 × uint16 the start well's rows below the bar
//	state:    uvarint depth D, uvarint wells expanded, uint64 the bits of
//	          the best value, uvarint elapsed ns, uvarint best depth,
//	          uvarint best index
//	layers 1..D: uvarint n, then n entries: uvarint parent index, uint16
//	          piece<<11 | orientation<<9 | (x+4)<<5 | (y+4)
//	uint32 CRC-32C of everything before it
//
// A well is not stored: it is its parent's well with the piece locked at
// the stored place (hatetris.Well.Lock, which also checks the place), and
// its score is the parent's plus the lines cleared, so an entry takes 3–5
// bytes. Layer 0 is the start well.

package player

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
)

const checkpointMagic = "yomiHTB1"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checkpointSettings is what a resume must match.
type checkpointSettings struct {
	width int
	quiet bool
	ai    hatetris.AIKind
	eval  string
	start [hatetris.Height - hatetris.Bar]uint16
}

func (s *search) settings() checkpointSettings {
	return checkpointSettings{width: s.opt.Width, quiet: s.opt.Quiescence, ai: s.opt.AI, eval: s.opt.EvalID,
		start: [hatetris.Height - hatetris.Bar]uint16(s.opt.Start[hatetris.Bar:])}
}

// encode appends the checkpoint of the search to b.
func (s *search) encode(b []byte) []byte {
	set := s.settings()
	b = append(b, checkpointMagic...)
	b = binary.AppendUvarint(b, uint64(set.width))
	b = append(b, boolByte(set.quiet), byte(set.ai))
	b = binary.AppendUvarint(b, uint64(len(set.eval)))
	b = append(b, set.eval...)
	for _, r := range set.start {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	b = binary.AppendUvarint(b, uint64(len(s.layers)-1))
	b = binary.AppendUvarint(b, uint64(s.wells))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.bestValue))
	b = binary.AppendUvarint(b, uint64(s.elapsed()))
	b = binary.AppendUvarint(b, uint64(s.bestD))
	b = binary.AppendUvarint(b, uint64(s.bestI))
	for _, l := range s.layers[1:] {
		b = binary.AppendUvarint(b, uint64(len(l)))
		for i := range l {
			e := &l[i]
			b = binary.AppendUvarint(b, uint64(e.parent))
			b = binary.LittleEndian.AppendUint16(b, uint16(e.piece)<<11|uint16(e.o)<<9|uint16(e.x+4)<<5|uint16(e.y+4))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// save writes the checkpoint atomically: a temporary file next to it,
// synced, then renamed over it (and the directory synced), so that a kill
// at any moment leaves either the previous checkpoint or this one.
func (s *search) save(path string) error {
	s.buf = s.encode(s.buf[:0])
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("player: writing the checkpoint: %w", err)
	}
	_, err = f.Write(s.buf)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("player: writing the checkpoint: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // the rename's durability; not every system can sync a directory
		d.Close()
	}
	s.saved = len(s.layers) - 1
	return nil
}

// Errors a resume can wrap: a checkpoint whose bytes are damaged, and one
// written by a search with other settings (or past MaxDepth).
var (
	ErrCheckpointCorrupt  = errors.New("corrupt or truncated")
	ErrCheckpointSettings = errors.New("written by a search with other settings")
)

// load restores the search from the checkpoint at path; it reports false
// when there is no such file.
func (s *search) load(path string) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("player: reading the checkpoint: %w", err)
	}
	if err := s.decode(b); err != nil {
		return false, fmt.Errorf("player: checkpoint %s: %w", path, err)
	}
	return true, nil
}

// decode restores the search from a checkpoint's bytes, checking every
// field: a damaged file gives an error, never a panic or a different game.
func (s *search) decode(b []byte) error {
	n := len(checkpointMagic)
	if len(b) >= n && string(b[:n-1]) == checkpointMagic[:n-1] && b[n-1] != checkpointMagic[n-1] {
		return fmt.Errorf("%w: written in another format version (%q; this build reads %q)", ErrCheckpointSettings, b[:n], checkpointMagic)
	}
	if len(b) < n+4 || string(b[:n]) != checkpointMagic {
		return fmt.Errorf("%w: not a search checkpoint (no %q header)", ErrCheckpointCorrupt, checkpointMagic)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return fmt.Errorf("%w: checksum mismatch (%d bytes)", ErrCheckpointCorrupt, len(b))
	}
	r := reader{b: body[len(checkpointMagic):]}
	var got checkpointSettings
	got.width = int(r.uvarint(math.MaxInt32))
	got.quiet = r.byte() != 0
	got.ai = hatetris.AIKind(r.byte())
	got.eval = string(r.bytes(int(r.uvarint(1 << 16))))
	for i := range got.start {
		got.start[i] = r.uint16()
	}
	if r.err != nil {
		return r.err
	}
	if err := s.settings().match(got); err != nil {
		return err
	}
	depth := int(r.uvarint(1 << 24))
	wells := r.uvarint(math.MaxInt64)
	bestValue := math.Float64frombits(r.uint64())
	before := time.Duration(r.uvarint(math.MaxInt64))
	bestD := int(r.uvarint(uint64(depth)))
	bestI := r.uvarint(math.MaxInt32)
	layers := make([][]entry, 1, depth+1)
	layers[0] = s.layers[0]
	for d := 1; d <= depth && r.err == nil; d++ {
		prev := layers[d-1]
		n := int(r.uvarint(uint64(max(s.opt.Width, 1))))
		if n == 0 && r.err == nil {
			r.fail("layer %d is empty", d)
		}
		l := make([]entry, 0, n)
		for range n {
			parent := r.uvarint(uint64(len(prev) - 1))
			code := r.uint16()
			if r.err != nil {
				break
			}
			p := &prev[parent]
			e := entry{parent: int32(parent), piece: hatetris.Piece(code >> 11), o: int8(code >> 9 & 3), x: int8(code>>5&15) - 4, y: int8(code&31) - 4}
			w := p.well()
			lines, ok := w.Lock(e.piece, int(e.o), int(e.x), int(e.y))
			if !ok || w.Over() || w[0]|w[1]|w[2]|w[3] != 0 {
				r.fail("layer %d: entry %d is not a valid lock of its parent", d, len(l))
				break
			}
			e.rows = [hatetris.Height - hatetris.Bar]uint16(w[hatetris.Bar:])
			e.score = p.score + int32(lines)
			l = append(l, e)
		}
		layers = append(layers, l)
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d bytes after the last layer", len(r.b))
	}
	if r.err == nil && bestI >= uint64(len(layers[bestD])) {
		r.fail("best well %d is past its layer's %d", bestI, len(layers[bestD]))
	}
	if r.err != nil {
		return r.err
	}
	s.layers = layers
	s.wells = int64(wells)
	s.bestValue = bestValue
	s.before = before
	s.bestD, s.bestI = bestD, int32(bestI)
	s.rebuildBloom()
	return nil
}

// match reports how a checkpoint's settings differ from the search's.
func (want checkpointSettings) match(got checkpointSettings) error {
	var diff []string
	if got.width != want.width {
		diff = append(diff, fmt.Sprintf("beam width %d (this search: %d)", got.width, want.width))
	}
	if got.quiet != want.quiet {
		diff = append(diff, fmt.Sprintf("quiescence %v (this search: %v)", got.quiet, want.quiet))
	}
	if got.ai != want.ai {
		diff = append(diff, fmt.Sprintf("AI %v (this search: %v)", got.ai, want.ai))
	}
	if got.eval != want.eval {
		diff = append(diff, fmt.Sprintf("evaluator %q (this search: %q)", got.eval, want.eval))
	}
	if got.start != want.start {
		diff = append(diff, "another start well")
	}
	if diff == nil {
		return nil
	}
	msg := ""
	for _, d := range diff {
		msg += " " + d + ";"
	}
	return fmt.Errorf("%w:%s use the same settings or another checkpoint file", ErrCheckpointSettings, msg)
}

// reader decodes a checkpoint, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrCheckpointCorrupt}, args...)...)
	}
}

func (r *reader) uvarint(limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad number")
		return 0
	}
	if v > limit {
		r.fail("number %d out of range (at most %d)", v, limit)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.fail("ends early")
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if v := r.bytes(1); v != nil {
		return v[0]
	}
	return 0
}

func (r *reader) uint16() uint16 {
	if v := r.bytes(2); v != nil {
		return binary.LittleEndian.Uint16(v)
	}
	return 0
}

func (r *reader) uint64() uint64 {
	if v := r.bytes(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}
