// This file holds the run directory's files: JSON written atomically, and
// small checksummed binary files of wells, refine chunks and targets.
package train

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yomi-ai/yomi/internal/atomicfile"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/yomi-ai/yomi/hatetris"
)

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'))
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Binary files: a 4-byte kind tag, a uint32 record count, the records
// (little-endian) and a CRC-32 of everything before it; a path ending in
// ".gz" holds the same bytes gzipped (the committed files of a campaign).
func writeBin(path, kind string, n int, body func(*bytes.Buffer)) error {
	var b bytes.Buffer
	b.WriteString(kind)
	binary.Write(&b, binary.LittleEndian, uint32(n))
	body(&b)
	binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(b.Bytes()))
	if strings.HasSuffix(path, ".gz") {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b.Bytes())
		if err := zw.Close(); err != nil {
			return err
		}
		return atomicfile.Write(path, z.Bytes())
	}
	return atomicfile.Write(path, b.Bytes())
}

// readBin checks the tag, the size (recSize bytes per record plus extra) and
// the checksum and returns the record count and the body.
func readBin(path, kind string, recSize, extra int) (int, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return 0, nil, fmt.Errorf("%s: %w", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			return 0, nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if len(b) < 12 || string(b[:4]) != kind {
		return 0, nil, fmt.Errorf("%s: not a %q file", path, kind)
	}
	n := int(binary.LittleEndian.Uint32(b[4:]))
	if len(b) != 8+n*recSize+extra+4 {
		return 0, nil, fmt.Errorf("%s: %d bytes, %d records need %d", path, len(b), n, 8+n*recSize+extra+4)
	}
	if crc32.ChecksumIEEE(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return 0, nil, fmt.Errorf("%s: checksum mismatch", path)
	}
	return n, b[8 : len(b)-4], nil
}

const wellBytes = 2 * Rows

func putWell(b *bytes.Buffer, w *hatetris.Well) {
	for y := hatetris.Bar; y < hatetris.Height; y++ {
		binary.Write(b, binary.LittleEndian, w[y])
	}
}

func getWell(b []byte) (w hatetris.Well) {
	for y := 0; y < Rows; y++ {
		w[hatetris.Bar+y] = binary.LittleEndian.Uint16(b[2*y:])
	}
	return w
}

func writeWells(path string, ws []hatetris.Well) error {
	return writeBin(path, "YWEL", len(ws), func(b *bytes.Buffer) {
		for i := range ws {
			putWell(b, &ws[i])
		}
	})
}

func readWells(path string) ([]hatetris.Well, error) {
	n, body, err := readBin(path, "YWEL", wellBytes, 0)
	if err != nil {
		return nil, err
	}
	ws := make([]hatetris.Well, n)
	for i := range ws {
		ws[i] = getWell(body[i*wellBytes:])
	}
	return ws, nil
}

type chunk struct {
	X, Y    []float32
	Seconds float64
}

func putF32(b *bytes.Buffer, v float32) { binary.Write(b, binary.LittleEndian, math.Float32bits(v)) }
func getF32(b []byte) float32           { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }

func writeChunk(path string, c chunk) error {
	return writeBin(path, "YRFC", len(c.X), func(b *bytes.Buffer) {
		for i := range c.X {
			putF32(b, c.X[i])
			putF32(b, c.Y[i])
		}
		binary.Write(b, binary.LittleEndian, math.Float64bits(c.Seconds))
	})
}

func readChunk(path string) (chunk, error) {
	n, body, err := readBin(path, "YRFC", 8, 8)
	if err != nil {
		return chunk{}, err
	}
	c := chunk{X: make([]float32, n), Y: make([]float32, n)}
	for i := 0; i < n; i++ {
		c.X[i], c.Y[i] = getF32(body[8*i:]), getF32(body[8*i+4:])
	}
	c.Seconds = math.Float64frombits(binary.LittleEndian.Uint64(body[8*n:]))
	return c, nil
}

// targets are one generation's refined samples.
type targets struct {
	Wells   []hatetris.Well
	T       []float32 // normalised targets in [-1, 1]
	Died    int       // refine beams that died
	Seconds float64   // refine time
}

func writeTargets(path string, t *targets) error {
	return writeBin(path, "YTGT", len(t.Wells), func(b *bytes.Buffer) {
		for i := range t.Wells {
			putWell(b, &t.Wells[i])
			putF32(b, t.T[i])
		}
		binary.Write(b, binary.LittleEndian, uint32(t.Died))
		binary.Write(b, binary.LittleEndian, math.Float64bits(t.Seconds))
	})
}

func readTargets(path string) (*targets, error) {
	n, body, err := readBin(path, "YTGT", wellBytes+4, 12)
	if err != nil {
		return nil, err
	}
	t := &targets{Wells: make([]hatetris.Well, n), T: make([]float32, n)}
	for i := 0; i < n; i++ {
		rec := body[i*(wellBytes+4):]
		t.Wells[i] = getWell(rec)
		t.T[i] = getF32(rec[wellBytes:])
		if err := check(&t.Wells[i]); err != nil || !(t.T[i] >= -1 && t.T[i] <= 1) {
			return nil, errors.Join(fmt.Errorf("%s: bad sample %d", path, i), err)
		}
	}
	t.Died = int(binary.LittleEndian.Uint32(body[n*(wellBytes+4):]))
	t.Seconds = math.Float64frombits(binary.LittleEndian.Uint64(body[n*(wellBytes+4)+4:]))
	return t, nil
}

// Table formats the per-generation summary as aligned text.
func Table(table []GenSummary) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%4s %6s %6s %9s %8s %7s %5s %8s %8s %9s %9s %6s %8s\n",
		"gen", "lines", "pieces", "search_s", "wells/s", "samples", "died", "refine_s", "trainset", "trainloss", "val_loss", "epochs", "learn_s")
	for _, g := range table {
		fmt.Fprintf(&s, "%4d %6d %6d %9.1f %8.0f %7d %5d %8.1f %8d %9.4f %9.4f %6d %8.1f\n",
			g.Gen, g.Score, g.Pieces, g.SearchSecs, g.WellsPerSec, g.Samples, g.Died, g.RefineSecs, g.TrainSet, g.TrainLoss, g.ValLoss, g.Epochs, g.LearnSecs)
	}
	return s.String()
}

// CSV formats the per-generation summary as CSV (one row per generation).
func CSV(table []GenSummary) string {
	var s strings.Builder
	s.WriteString("gen,lines,pieces,search_s,wells_per_s,samples,died,refine_s,trainset,trainloss,val_loss,epochs,learn_s\n")
	for _, g := range table {
		fmt.Fprintf(&s, "%d,%d,%d,%.1f,%.0f,%d,%d,%.1f,%d,%.5f,%.5f,%d,%.1f\n",
			g.Gen, g.Score, g.Pieces, g.SearchSecs, g.WellsPerSec, g.Samples, g.Died, g.RefineSecs, g.TrainSet, g.TrainLoss, g.ValLoss, g.Epochs, g.LearnSecs)
	}
	return s.String()
}

// writeTable writes RUN/summary.txt, RUN/summary.csv, RUN/summary.json and
// RUN/progress.png.
func writeTable(dir string, table []GenSummary) error {
	if err := atomicfile.Write(filepath.Join(dir, "summary.txt"), []byte(Table(table))); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "summary.csv"), []byte(CSV(table))); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, "summary.json"), table); err != nil {
		return err
	}
	return Plot(filepath.Join(dir, "progress.png"), table)
}
