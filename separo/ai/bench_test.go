// This file benchmarks search iterations of the original UCT and of yomi
// from the 9×9 start position.

package ai

import (
	"context"
	"testing"

	"github.com/yomi-ai/yomi/separo"
)

func benchSearch(b *testing.B, name string) {
	const n = 5000
	for b.Loop() {
		p, _ := New(name, Options{Seed: 1})
		p.Move(context.Background(), separo.MustNew(9), separo.Red, Budget{Iterations: n})
	}
	b.ReportMetric(n, "iterations/op")
}

func BenchmarkUCT5000(b *testing.B)  { benchSearch(b, "uct") }
func BenchmarkYomi5000(b *testing.B) { benchSearch(b, "yomi") }
