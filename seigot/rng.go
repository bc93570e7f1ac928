// Package seigot reproduces the seigot/tetris contest game ("テトリスでPythonを学ぼう").
// Start with RandomState: numpy's legacy MT19937 global generator and randint, bit for bit,
// which drives the piece sequence and garbage of the original game.
package seigot

// RandomState is numpy's legacy MT19937 RandomState seeded with an integer (init_genrand).
type RandomState struct {
	mt  [624]uint32
	idx int
}

// NewRandomState seeds like numpy.random.seed(seed32).
func NewRandomState(seed32 uint32) RandomState {
	var r RandomState
	r.mt[0] = seed32
	for i := 1; i < 624; i++ {
		p := r.mt[i-1]
		r.mt[i] = 1812433253*(p^(p>>30)) + uint32(i)
	}
	r.idx = 624
	return r
}

// Uint32 returns the next tempered 32-bit output word.
func (r *RandomState) Uint32() uint32 {
	if r.idx >= 624 {
		r.twist()
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9D2C5680
	y ^= (y << 15) & 0xEFC60000
	y ^= y >> 18
	return y
}

func (r *RandomState) twist() {
	for i := 0; i < 624; i++ {
		y := (r.mt[i] & 0x80000000) | (r.mt[(i+1)%624] & 0x7fffffff)
		v := r.mt[(i+397)%624] ^ (y >> 1)
		if y&1 != 0 {
			v ^= 0x9908B0DF
		}
		r.mt[i] = v
	}
	r.idx = 0
}

// Randint is numpy's legacy randint(low, high) with high exclusive (masked rejection sampling,
// one 32-bit word per attempt). It requires low < high.
func (r *RandomState) Randint(low, high int) int {
	rng := uint32(high - low - 1)
	if rng == 0 {
		return low
	}
	mask := rng
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		v := r.Uint32() & mask
		if v <= rng {
			return low + int(v)
		}
	}
}

// Seed32 maps the game's -r value to numpy's seed: num % (2^32 - 1).
func Seed32(num uint64) uint32 { return uint32(num % (1<<32 - 1)) }
