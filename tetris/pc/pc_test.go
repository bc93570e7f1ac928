// This file holds the spec's sfinder percent vectors and parser tests.

package pc

import (
	"context"
	"testing"
)

func TestPercentVectors(t *testing.T) {
	cases := []struct {
		field, pattern string
		want           int
		total          int
	}{
		{"_______XXX ________XX XX____XXXX XX_____XXX", "*p7", 4374, 5040},
		{"X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", 742, 840},
		{"XXXX_____X XX______XX XXX____XXX XXX_____XX", "[OSZTLJ]p6", 702, 720},
	}
	for _, c := range cases {
		f, h, err := ParseField(c.field)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParsePattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		s, n, err := Percent(context.Background(), f, p, Options{Height: h, Hold: true})
		if err != nil {
			t.Fatal(err)
		}
		if s != c.want || n != c.total {
			t.Errorf("%s %s: %d/%d, want %d/%d", c.field, c.pattern, s, n, c.want, c.total)
		}
	}
}

func TestPathVector(t *testing.T) {
	f, h, _ := ParseField("XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____")
	p, _ := ParsePattern("*p7")
	sols, total, err := Paths(context.Background(), f, p, Options{Height: h, Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	m := Minimal(sols)
	t.Logf("unique %d minimal %d total %d", len(sols), len(m), total)
	if len(sols) != 135 {
		t.Errorf("unique %d, want 135", len(sols))
	}
	if len(m) != 69 {
		t.Errorf("minimal %d, want 69", len(m))
	}
}
