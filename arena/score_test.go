package arena

import (
	"math"
	"testing"
)

func TestTQuantile(t *testing.T) {
	// Standard table values.
	for df, want := range map[int]float64{1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 19: 2.093, 30: 2.042, 99: 1.984, 100: 1.96} {
		if got := TQuantile975(df); math.Abs(got-want) > 0.002 {
			t.Errorf("t(%d) = %.4f, want %.3f", df, got, want)
		}
	}
}

func TestSignTest(t *testing.T) {
	cases := []struct {
		w, l int
		want float64
	}{{0, 0, 1}, {5, 5, 1}, {10, 0, 0.001953125}, {8, 2, 0.109375}, {2, 8, 0.109375}}
	for _, c := range cases {
		if got := SignTest(c.w, c.l); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("SignTest(%d,%d) = %g, want %g", c.w, c.l, got, c.want)
		}
	}
}

func TestComparePaired(t *testing.T) {
	a := []float64{10, 12, 9, 15, 11}
	b := []float64{8, 12, 7, 14, 12}
	p, err := ComparePaired(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if p.Diff.Mean != 0.8 || p.Duels != (WDL{W: 3, L: 1, D: 1}) || p.A.Median != 11 || p.B.Min != 7 {
		t.Fatalf("%+v", p)
	}
	// d = 2,0,2,1,-1: sd = sqrt(1.7), CI = t4 * sd / sqrt 5.
	wantCI := 2.776 * math.Sqrt(1.7) / math.Sqrt(5)
	if math.Abs(p.Diff.CI-wantCI) > 0.01 {
		t.Fatalf("CI %v want %v", p.Diff.CI, wantCI)
	}
	if !(p.Bootstrap95[0] <= p.Diff.Mean && p.Diff.Mean <= p.Bootstrap95[1]) {
		t.Fatalf("bootstrap %v", p.Bootstrap95)
	}
	if _, err := ComparePaired(a, b[:2]); err == nil {
		t.Fatal("length mismatch accepted")
	}
}
