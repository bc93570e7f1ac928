// keysort.go sorts presortBlocks' packed keys without data-dependent
// branches: at ~50 % of its comparisons going either way a comparison sort
// mispredicts about every other branch on these keys.

package bot

import (
	"math/bits"
	"unsafe"
)

// keyLo and keyHi are the sentinels around a sorted run of presort keys:
// presortKey's spike field is never all zeros or all ones, so every key
// lies strictly between them even compared on its top 48 bits.
const (
	keyLo uint64 = 0
	keyHi uint64 = ^uint64(0)
)

// sortKeys sorts the n distinct presort keys at ks[0:n] ascending; ks must
// hold 7 more elements after them (overwritten). It returns the sorted
// keys with keyLo before and keyHi after them (n+2 long) in a's storage;
// a and b must hold sortKeysLen(n) elements, b is scratch. It sorts runs
// of eight with a sorting network, then merges runs pairwise from both
// ends at once (each run between sentinels, so no bounds tests), choosing
// with conditional moves.
func sortKeys(ks, a, b []uint64) []uint64 {
	n := len(ks) - 7
	levels := 0
	for w := 8; w < n; w <<= 1 {
		levels++
	}
	src, dst := a, b
	if levels&1 == 1 {
		src, dst = b, a
	}
	// Runs of eight: pad with keyHi, sort by a network, write each run
	// between sentinels at a stride of ten.
	*(*[7]uint64)(ks[n:]) = [7]uint64{keyHi, keyHi, keyHi, keyHi, keyHi, keyHi, keyHi}
	runs := (n + 7) / 8
	src = src[:max(10*runs, 2)]
	for r := range runs {
		q := (*[8]uint64)(ks[8*r:])
		x0, x1, x2, x3, x4, x5, x6, x7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
		x0, x2 = min(x0, x2), max(x0, x2)
		x1, x3 = min(x1, x3), max(x1, x3)
		x4, x6 = min(x4, x6), max(x4, x6)
		x5, x7 = min(x5, x7), max(x5, x7)
		x0, x4 = min(x0, x4), max(x0, x4)
		x1, x5 = min(x1, x5), max(x1, x5)
		x2, x6 = min(x2, x6), max(x2, x6)
		x3, x7 = min(x3, x7), max(x3, x7)
		x0, x1 = min(x0, x1), max(x0, x1)
		x2, x3 = min(x2, x3), max(x2, x3)
		x4, x5 = min(x4, x5), max(x4, x5)
		x6, x7 = min(x6, x7), max(x6, x7)
		x2, x4 = min(x2, x4), max(x2, x4)
		x3, x5 = min(x3, x5), max(x3, x5)
		x1, x4 = min(x1, x4), max(x1, x4)
		x3, x6 = min(x3, x6), max(x3, x6)
		x1, x2 = min(x1, x2), max(x1, x2)
		x3, x4 = min(x3, x4), max(x3, x4)
		x5, x6 = min(x5, x6), max(x5, x6)
		o := (*[10]uint64)(src[10*r:])
		o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9] = keyLo, x0, x1, x2, x3, x4, x5, x6, x7, keyHi
	}
	// The last run's padding: its sentinel right after its keys.
	if n == 0 {
		src = src[:2]
		src[0], src[1] = keyLo, keyHi
		return src
	}
	src[10*(runs-1)+1+n-8*(runs-1)] = keyHi
	for w := 8; w < n; w <<= 1 {
		s := w + 2
		ra, out := 0, 0
		for rest := n; rest > 0; rest -= 2 * w {
			if rest <= w {
				copy(dst[out:out+rest+2], src[ra:ra+rest+2])
				break
			}
			lb := min(w, rest-w)
			mergeRuns(dst[out:out+w+lb+2], src[ra:ra+w+2], src[ra+s:ra+s+lb+2])
			ra += 2 * s
			out += 2*w + 2
		}
		src, dst = dst, src
	}
	return src[:n+2]
}

// sortKeysLen is the scratch length sortKeys needs for n keys.
func sortKeysLen(n int) int { return max(10*((n+7)/8), 2) }

// mergeRuns merges the sorted runs a and b (distinct keys, each with keyLo
// before and keyHi after its keys) into out (the merged keys between the
// sentinels, len(a)+len(b)−2 long): the front half from the front, the
// back half from the back, both in one loop without branches on the keys.
func mergeRuns(out, a, b []uint64) {
	n := len(out) - 2
	out[0], out[n+1] = keyLo, keyHi
	pa, pb := unsafe.Pointer(&a[1]), unsafe.Pointer(&b[1])
	qa, qb := unsafe.Pointer(&a[len(a)-2]), unsafe.Pointer(&b[len(b)-2])
	po, qo := unsafe.Pointer(&out[1]), unsafe.Pointer(&out[n])
	for uintptr(po) < uintptr(qo) {
		x, y := *(*uint64)(pa), *(*uint64)(pb)
		lo := y
		if x < y {
			lo = x
		}
		_, c := bits.Sub64(x, y, 0) // 1: x < y
		da := uintptr(c << 3)
		*(*uint64)(po) = lo
		pa, pb = unsafe.Add(pa, da), unsafe.Add(pb, 8-da)
		po = unsafe.Add(po, 8)
		u, v := *(*uint64)(qa), *(*uint64)(qb)
		hi := v
		if u > v {
			hi = u
		}
		_, d := bits.Sub64(v, u, 0) // 1: u > v
		db := uintptr(d << 3)
		*(*uint64)(qo) = hi
		qa, qb = unsafe.Add(qa, -int(db)), unsafe.Add(qb, int(db)-8)
		qo = unsafe.Add(qo, -8)
	}
	if po == qo {
		*(*uint64)(po) = min(*(*uint64)(pa), *(*uint64)(pb))
	}
}
