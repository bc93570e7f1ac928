// Pack sequences: the generator with the statistics of real pack sets, and
// reading/writing pack files (the game-start block of the protocol).

package codevs

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// Profile names a pack-generator profile. Real pack sets show at least two
// generator versions, and the rule PDF states a third set of numbers.
type Profile string

// The generator profiles.
const (
	// ProfileClient matches the 521 sets cut from official-client logs
	// (togatoga's pack.tar.gz) and the client transcript in testdata:
	// exactly 407 three-block and 93 four-block packs, exactly 177 of each
	// digit, the empty cell top-left, bottom-left or bottom-right with equal
	// chance and never top-right, everything else in random order.
	ProfileClient Profile = "client"
	// ProfileTanzaku matches tanzaku's 200 first-turn inputs: 401/99
	// three/four-block packs (84 %) or 402/98 (16 %), digit counts 175–178
	// (178 of each, minus the surplus removed at random), the empty cell
	// top-left, top-right or bottom-left, never bottom-right.
	ProfileTanzaku Profile = "tanzaku"
	// ProfilePDF follows the rule PDF: 380 three-block and 120 four-block
	// packs, 180 of each digit; the PDF does not say where the empty cell
	// goes, so all four places are equally likely.
	ProfilePDF Profile = "pdf"
)

// Profiles lists the generator profiles, the default first.
var Profiles = []Profile{ProfileClient, ProfileTanzaku, ProfilePDF}

// ParseProfile checks a profile name.
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown pack profile %q (want client, tanzaku or pdf)", s)
}

// profileShape is what a profile fixes: how many three-block packs, how
// many of each digit and where the empty cell may be (cells TL, TR, BL, BR).
type profileShape struct {
	threes int
	digits [10]int // digits[1..9]
	empty  []int
}

func (p Profile) shape(rng *rand.Rand) (profileShape, error) {
	var s profileShape
	switch p {
	case ProfileClient:
		s.threes = 407
		for d := 1; d <= 9; d++ {
			s.digits[d] = 177
		}
		s.empty = []int{0, 2, 3}
	case ProfileTanzaku:
		s.threes = 401
		if rng.IntN(200) < 32 {
			s.threes = 402
		}
		for d := 1; d <= 9; d++ {
			s.digits[d] = 178
		}
		blocks := 3*s.threes + 4*(Turns-s.threes)
		for surplus := 9*178 - blocks; surplus > 0; surplus-- {
			// Remove one block chosen uniformly among those left.
			k := rng.IntN(s.total())
			for d := 1; d <= 9; d++ {
				if k < s.digits[d] {
					s.digits[d]--
					break
				}
				k -= s.digits[d]
			}
		}
		s.empty = []int{0, 1, 2}
	case ProfilePDF:
		s.threes = 380
		for d := 1; d <= 9; d++ {
			s.digits[d] = 180
		}
		s.empty = []int{0, 1, 2, 3}
	default:
		return s, fmt.Errorf("unknown pack profile %q", string(p))
	}
	return s, nil
}

func (s *profileShape) total() int {
	n := 0
	for _, c := range s.digits {
		n += c
	}
	return n
}

// GeneratePacks returns Turns packs drawn with profile p from rng: which
// packs have three blocks is a uniform random subset, the digit multiset is
// shuffled uniformly over the non-empty cells, and each three-block pack's
// empty cell is uniform over the profile's allowed places.
func GeneratePacks(rng *rand.Rand, p Profile) ([]sim.Pack, error) {
	s, err := p.shape(rng)
	if err != nil {
		return nil, err
	}
	three := make([]bool, Turns)
	for i := range s.threes {
		three[i] = true
	}
	rng.Shuffle(len(three), func(i, j int) { three[i], three[j] = three[j], three[i] })
	digits := make([]int8, 0, s.total())
	for d := 1; d <= 9; d++ {
		for range s.digits[d] {
			digits = append(digits, int8(d))
		}
	}
	if need := 3*s.threes + 4*(Turns-s.threes); need != len(digits) {
		return nil, fmt.Errorf("profile %s: %d digits for %d cells", p, len(digits), need)
	}
	rng.Shuffle(len(digits), func(i, j int) { digits[i], digits[j] = digits[j], digits[i] })
	packs := make([]sim.Pack, Turns)
	k := 0
	for i := range packs {
		var cells [4]int8
		empty := -1
		if three[i] {
			empty = s.empty[rng.IntN(len(s.empty))]
		}
		for c := range cells {
			if c != empty {
				cells[c] = digits[k]
				k++
			}
		}
		packs[i] = sim.Pack{Top: [2]int8{cells[0], cells[1]}, Bottom: [2]int8{cells[2], cells[3]}}
	}
	return packs, nil
}

// PackRNG returns the generator's random source for a seed: PCG seeded
// from (seed, a fixed stream constant), so a seed names one pack set.
func PackRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x636f64657673)) // "codevs"
}

// PacksForSeed is GeneratePacks(PackRNG(seed), p).
func PacksForSeed(seed uint64, p Profile) ([]sim.Pack, error) {
	return GeneratePacks(PackRNG(seed), p)
}

// ReadPacks reads a pack file: the protocol's game-start block (Turns packs
// of "a b", "c d", "END"), whitespace-tolerant. Anything after the block is
// ignored, so a whole *_stdin.txt log also works.
func ReadPacks(r io.Reader) ([]sim.Pack, error) {
	pp, err := protocol.NewReader(r).ReadStart()
	if err == io.EOF {
		return nil, fmt.Errorf("empty pack file")
	}
	if err != nil {
		return nil, err
	}
	return SimPacks(pp), nil
}

// ReadPackFile reads a pack file from disk; errors name the file.
func ReadPackFile(path string) ([]sim.Pack, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	packs, err := ReadPacks(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return packs, nil
}

// FormatPacks returns packs as a pack file (the game-start block).
func FormatPacks(packs []sim.Pack) []byte {
	return protocol.AppendStart(nil, ProtocolPacks(packs))
}

// PackStats is what the generator profiles fix about a pack set.
type PackStats struct {
	Threes, Fours, Other int     // packs with 3, 4 and any other number of blocks
	Digits               [10]int // blocks of each digit (index 1..9)
	Empty                [4]int  // empty cells by place: TL, TR, BL, BR
}

// Stats counts a pack set's PackStats.
func Stats(packs []sim.Pack) PackStats {
	var s PackStats
	for _, p := range packs {
		cells := [4]int8{p.Top[0], p.Top[1], p.Bottom[0], p.Bottom[1]}
		n := 0
		for i, v := range cells {
			if v != 0 {
				n++
				if v > 0 && v < 10 {
					s.Digits[v]++
				}
			} else {
				s.Empty[i]++
			}
		}
		switch n {
		case 3:
			s.Threes++
		case 4:
			s.Fours++
		default:
			s.Other++
		}
	}
	return s
}
