// This file holds the testing.B benchmarks of a decision.
package ai

import (
	"context"
	"fmt"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
)

func BenchmarkDecide(b *testing.B) {
	for _, level := range []int{1, 2, 3} {
		for _, fast := range []bool{false, true} {
			b.Run(fmt.Sprintf("L%d/fast=%v", level, fast), func(b *testing.B) {
				cfg, _ := seigot.LevelConfig(level, 3, false)
				g := seigot.NewGame(cfg)
				g.BeginTick()
				pos := g.Position()
				c := LevelConfig(level)
				if fast {
					c = FastConfig(level)
				}
				pl := New(c)
				for b.Loop() {
					pl.Decide(context.Background(), &pos)
				}
			})
		}
	}
}
