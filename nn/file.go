// This file holds the versioned binary file format: magic "YOMINN", version,
// shape, (version 2) the feature-set name, little-endian float32 weights and
// a CRC-32 checksum of everything before it.
package nn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/yomi-ai/yomi/internal/atomicfile"
	"hash/crc32"
	"io"
	"math"
	"os"
)

const magic = "YOMINN"

// Version is the newest file format version: Save writes version 2 (the
// shape followed by a length byte and the Features name) for a net whose
// Features is set, and version 1 (no name) otherwise, so that nets of the
// default encoding keep their bytes.
const Version = 2

// MarshalBinary encodes the net.
func (n *Net) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if len(n.Features) > 255 {
		return nil, fmt.Errorf("nn: feature-set name of %d bytes, at most 255", len(n.Features))
	}
	b.WriteString(magic)
	v := uint16(1)
	if n.Features != "" {
		v = 2
	}
	binary.Write(&b, binary.LittleEndian, v)
	binary.Write(&b, binary.LittleEndian, uint32(n.Inputs))
	binary.Write(&b, binary.LittleEndian, uint32(n.Hidden))
	if v == 2 {
		b.WriteByte(byte(len(n.Features)))
		b.WriteString(n.Features)
	}
	for _, s := range [][]float32{n.W1, n.B1, n.W2, {n.B2}} {
		for _, v := range s {
			binary.Write(&b, binary.LittleEndian, math.Float32bits(v))
		}
	}
	binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes(), nil
}

// Save writes the net to w.
func (n *Net) Save(w io.Writer) error {
	b, err := n.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Unmarshal decodes a net, with a clear error for bad, truncated or corrupt data.
func Unmarshal(b []byte) (*Net, error) {
	hdr := len(magic) + 2 + 8
	if len(b) < hdr+4 {
		return nil, fmt.Errorf("nn: file truncated: %d bytes, header needs %d", len(b), hdr+4)
	}
	if string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("nn: bad magic at offset 0: not a yomi net file")
	}
	v := binary.LittleEndian.Uint16(b[6:])
	if v != 1 && v != 2 {
		return nil, fmt.Errorf("nn: unsupported version %d at offset 6 (want 1 or %d)", v, Version)
	}
	in := uint64(binary.LittleEndian.Uint32(b[8:]))
	hid := uint64(binary.LittleEndian.Uint32(b[12:]))
	if in == 0 || hid == 0 || in > 1<<24 || hid > 1<<16 {
		return nil, fmt.Errorf("nn: bad shape inputs=%d hidden=%d at offset 8", in, hid)
	}
	features := ""
	if v == 2 {
		k := int(b[hdr])
		if k == 0 || len(b) < hdr+1+k+4 {
			return nil, fmt.Errorf("nn: bad or truncated feature-set name of %d bytes at offset %d", k, hdr)
		}
		features = string(b[hdr+1 : hdr+1+k])
		hdr += 1 + k
	}
	nw := in*hid + 2*hid + 1
	want := uint64(hdr) + 4*nw + 4
	if uint64(len(b)) != want {
		return nil, fmt.Errorf("nn: file is %d bytes, shape %dx%d needs %d (truncated or trailing data)", len(b), in, hid, want)
	}
	if got, sum := crc32.ChecksumIEEE(b[:len(b)-4]), binary.LittleEndian.Uint32(b[len(b)-4:]); got != sum {
		return nil, fmt.Errorf("nn: checksum mismatch (file %08x, computed %08x): corrupt file", sum, got)
	}
	n := &Net{Inputs: int(in), Hidden: int(hid), Features: features, W1: make([]float32, in*hid), B1: make([]float32, hid), W2: make([]float32, hid)}
	p := hdr
	rd := func(s []float32) {
		for i := range s {
			s[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[p:]))
			p += 4
		}
	}
	rd(n.W1)
	rd(n.B1)
	rd(n.W2)
	var b2 [1]float32
	rd(b2[:])
	n.B2 = b2[0]
	return n, nil
}

// Load reads a net from r.
func Load(r io.Reader) (*Net, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return Unmarshal(b)
}

// SaveFile writes the net to path atomically (temporary file, sync, rename),
// so a killed process never leaves a half-written net.
func (n *Net) SaveFile(path string) error {
	b, err := n.MarshalBinary()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}

// LoadFile reads a net from path; errors name the file.
func LoadFile(path string) (*Net, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
