// Tests of pack files and of the generator's statistics against those of
// real pack sets.
package codevs

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs/sim"
)

func TestPackFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/packs/*.pack")
	if len(files) != 3 {
		t.Fatalf("%d pack files", len(files))
	}
	for _, f := range files {
		packs, err := ReadPackFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(f)
		if !bytes.Equal(FormatPacks(packs), data) {
			t.Errorf("%s: FormatPacks does not reproduce the file", f)
		}
		// Real client sets: the client profile's exact counts.
		s := Stats(packs)
		if s.Threes != 407 || s.Fours != 93 || s.Empty[1] != 0 {
			t.Errorf("%s: %+v", f, s)
		}
		for d := 1; d <= 9; d++ {
			if s.Digits[d] != 177 {
				t.Errorf("%s: %d × %d", f, s.Digits[d], d)
			}
		}
	}
	// The transcript's start block is a client set too.
	packs, err := ReadPackFile("testdata/client_transcript.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s := Stats(packs); s.Threes != 407 || s.Empty[1] != 0 {
		t.Errorf("transcript packs: %+v", s)
	}
}

func TestReadPacksErrors(t *testing.T) {
	good := string(FormatPacks(mustPacks(t, 1, ProfileClient)))
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "empty pack file"},
		{"short", good[:600], "unexpected end"},
		{"letter", "1 x\n" + good[4:], "line 1"},
		{"ten", "1 10\n" + good[4:], "out of range"},
		{"no END", strings.Replace(good, "END", "EDN", 1), "want END"},
	} {
		_, err := ReadPacks(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want ~%q", c.name, err, c.want)
		}
	}
	// Whitespace tolerance: CRLF, tabs, extra blank lines.
	messy := strings.ReplaceAll(strings.ReplaceAll(good, "\n", "\r\n\n"), " ", "\t ")
	packs, err := ReadPacks(strings.NewReader(messy))
	if err != nil || !bytes.Equal(FormatPacks(packs), []byte(good)) {
		t.Errorf("messy whitespace: %v", err)
	}
}

func mustPacks(t *testing.T, seed uint64, p Profile) []sim.Pack {
	t.Helper()
	packs, err := PacksForSeed(seed, p)
	if err != nil {
		t.Fatal(err)
	}
	return packs
}

func TestGeneratorExactCounts(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		// client: exactly 407/93, 177 of each digit, never top-right.
		s := Stats(mustPacks(t, seed, ProfileClient))
		if s.Threes != 407 || s.Fours != 93 || s.Other != 0 || s.Empty[1] != 0 {
			t.Fatalf("client seed %d: %+v", seed, s)
		}
		for d := 1; d <= 9; d++ {
			if s.Digits[d] != 177 {
				t.Fatalf("client seed %d: digit %d × %d", seed, d, s.Digits[d])
			}
		}
		// tanzaku: 401/99 or 402/98, digits 175..178 summing to the blocks,
		// never bottom-right.
		s = Stats(mustPacks(t, seed, ProfileTanzaku))
		if !(s.Threes == 401 && s.Fours == 99 || s.Threes == 402 && s.Fours == 98) || s.Other != 0 || s.Empty[3] != 0 {
			t.Fatalf("tanzaku seed %d: %+v", seed, s)
		}
		sum := 0
		for d := 1; d <= 9; d++ {
			if s.Digits[d] < 174 || s.Digits[d] > 178 {
				t.Fatalf("tanzaku seed %d: digit %d × %d", seed, d, s.Digits[d])
			}
			sum += s.Digits[d]
		}
		if sum != 3*s.Threes+4*s.Fours {
			t.Fatalf("tanzaku seed %d: %d digits", seed, sum)
		}
		// pdf: 380/120, 180 each.
		s = Stats(mustPacks(t, seed, ProfilePDF))
		if s.Threes != 380 || s.Fours != 120 || s.Digits[5] != 180 || s.Digits[9] != 180 {
			t.Fatalf("pdf seed %d: %+v", seed, s)
		}
	}
}

// TestGeneratorDistribution checks the random parts against what real sets
// show: empty-cell places equally likely, four-block packs and each digit
// spread evenly over the game (hypergeometric counts in the first 100 packs),
// no extra structure inside packs (share of packs holding a pair summing to
// 10: 0.336 in the 521 client sets, the same as a shuffle), the tanzaku
// profile's 401/402 split near 84 %.
func TestGeneratorDistribution(t *testing.T) {
	const sets = 200
	var empty [4]int
	var fours100, fives100, pairPacks, packs, t401 float64
	for seed := uint64(0); seed < sets; seed++ {
		ps := mustPacks(t, 1000+seed, ProfileClient)
		s := Stats(ps)
		for i := range empty {
			empty[i] += s.Empty[i]
		}
		for i, p := range ps {
			cells := []int8{p.Top[0], p.Top[1], p.Bottom[0], p.Bottom[1]}
			if i < 100 {
				if cells[0] != 0 && cells[1] != 0 && cells[2] != 0 && cells[3] != 0 {
					fours100++
				}
				for _, v := range cells {
					if v == 5 {
						fives100++
					}
				}
			}
			has := false
			for a := range cells {
				for b := a + 1; b < 4; b++ {
					if cells[a] != 0 && cells[b] != 0 && cells[a]+cells[b] == 10 {
						has = true
					}
				}
			}
			if has {
				pairPacks++
			}
			packs++
		}
		if Stats(mustPacks(t, 1000+seed, ProfileTanzaku)).Threes == 401 {
			t401++
		}
	}
	// Empty cells: 407·sets spread over TL, BL, BR; each within 4 sigma.
	n := float64(407 * sets)
	for _, i := range []int{0, 2, 3} {
		if d := math.Abs(float64(empty[i]) - n/3); d > 4*math.Sqrt(n*(1./3)*(2./3)) {
			t.Errorf("empty cell %d: %d of %.0f", i, empty[i], n)
		}
	}
	check := func(name string, got, want, sd float64) {
		if math.Abs(got-want) > 4*sd {
			t.Errorf("%s: %.3f, want %.3f ± %.3f", name, got, want, 4*sd)
		}
	}
	// Four-block packs in the first 100: hypergeometric mean 18.6, sd 3.49.
	check("four-block packs in the first 100", fours100/sets, 100*93./500, 3.49/math.Sqrt(sets))
	// Fives in the first 100 packs: 318.6 cells × 177/1593, sd ≈ 5.0.
	check("fives in the first 100 packs", fives100/sets, 318.6*177/1593, 5.0/math.Sqrt(sets))
	check("packs with a pair summing to 10", pairPacks/packs, 0.3356, math.Sqrt(0.3356*0.6644/packs)*3)
	check("tanzaku 401/99 share", t401/sets, 0.84, math.Sqrt(0.84*0.16/sets))
}

func TestGeneratorSeeds(t *testing.T) {
	a, b := mustPacks(t, 42, ProfileClient), mustPacks(t, 42, ProfileClient)
	c := mustPacks(t, 43, ProfileClient)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different packs")
	}
	if slices.Equal(a, c) {
		t.Fatal("different seeds, same packs")
	}
	if _, err := ParseProfile("nope"); err == nil {
		t.Fatal("bad profile accepted")
	}
	if _, err := PacksForSeed(1, "nope"); err == nil {
		t.Fatal("bad profile generated")
	}
}
