// mempool.go keeps the memory of DAGs that are no longer used — replaced
// by Reset, left behind by rebuild (Play, AddPiece), or dropped with their
// Bot — for the next ones: node and child chunks whose pages are already
// mapped, and hash-table slot arrays. A fresh chunk costs the operating
// system a page fault for every 4 KiB page (tens of microseconds for a
// chunk); a recycled one costs nothing.

package bot

import (
	"math/bits"
	"runtime"
	"sync"
	"unsafe"
)

// poolMaxBytes bounds the memory the pool keeps; beyond it released
// memory is left to the garbage collector.
const poolMaxBytes = 1 << 30

var memPool struct {
	mu    sync.Mutex
	nodes []*[arenaChunk]node
	kids  []*[kidChunk]child
	slots [32][][]uint64 // by log2 of the length
	bytes int
	fresh int // chunks and slot arrays made because the pool had none (for tests)
	// workers of closed bots, with their move generators and buffers
	// (not counted in bytes: a bot's threads bound them)
	workers []*worker
}

// minSlotClass is log2 of the shortest slot array the pool keeps.
const minSlotClass = 6

// reserveSlotClass is log2 of the length of the slot arrays Reserve makes
// (512 KiB each); getSlots splits them for shorter requests.
const reserveSlotClass = 16

const (
	nodeChunkBytes = int(unsafe.Sizeof([arenaChunk]node{}))
	kidChunkBytes  = int(unsafe.Sizeof([kidChunk]child{}))
)

// getNodeChunk returns a node chunk: a recycled one (its nodes hold old
// data: callers overwrite every node they use) or a fresh zeroed one, and
// whether it is fresh.
func getNodeChunk() (*[arenaChunk]node, bool) { return getChunk(&memPool.nodes, nodeChunkBytes) }

// getKidChunk is getNodeChunk for the child store.
func getKidChunk() (*[kidChunk]child, bool) { return getChunk(&memPool.kids, kidChunkBytes) }

// getChunk pops a chunk of size bytes from the pool's list, or makes a
// fresh one (reported true).
func getChunk[T any](list *[]*T, size int) (*T, bool) {
	memPool.mu.Lock()
	if k := len(*list); k > 0 {
		c := (*list)[k-1]
		*list = (*list)[:k-1]
		memPool.bytes -= size
		memPool.mu.Unlock()
		return c, false
	}
	memPool.fresh++
	memPool.mu.Unlock()
	return new(T), true
}

// getSlots returns a zeroed slot array of length n (a power of two). A
// pooled array of length n is taken first, else a longer one split in
// halves (the spare halves stay in the pool): Reserve keeps its slot
// memory as arrays of the longest class, which thus serve any length.
func getSlots(n int) []uint64 {
	lg := bits.Len(uint(n)) - 1
	if lg >= minSlotClass {
		memPool.mu.Lock()
		for c := lg; c < len(memPool.slots); c++ {
			k := len(memPool.slots[c])
			if k == 0 {
				continue
			}
			s := memPool.slots[c][k-1]
			memPool.slots[c] = memPool.slots[c][:k-1]
			for ; c > lg; c-- {
				h := len(s) / 2
				memPool.slots[c-1] = append(memPool.slots[c-1], s[h:len(s):len(s)])
				s = s[:h:h]
			}
			memPool.bytes -= 8 * n
			memPool.mu.Unlock()
			clear(s)
			return s
		}
		memPool.fresh++
		memPool.mu.Unlock()
	}
	return make([]uint64, n)
}

// putSlots gives a slot array nobody uses any more to the pool.
func putSlots(s []uint64) {
	if len(s) < 1<<minSlotClass {
		return // small arrays: not worth keeping
	}
	lg := bits.Len(uint(len(s))) - 1
	memPool.mu.Lock()
	if memPool.bytes+8*len(s) <= poolMaxBytes {
		memPool.slots[lg] = append(memPool.slots[lg], s)
		memPool.bytes += 8 * len(s)
	}
	memPool.mu.Unlock()
}

// release gives the stores of a DAG nobody uses any more to the pool: its
// node chunks, child chunks and table slot arrays (tab may be nil).
func releaseStores(nodes *[maxArenaChunks]atomicNodeChunk, kids *[maxKidChunks]*[kidChunk]child, tab *table) {
	memPool.mu.Lock()
	defer memPool.mu.Unlock()
	if nodes != nil {
		for i := range nodes {
			c := nodes[i].Load()
			if c == nil {
				break
			}
			nodes[i].Store(nil)
			if memPool.bytes+nodeChunkBytes <= poolMaxBytes {
				memPool.nodes = append(memPool.nodes, c)
				memPool.bytes += nodeChunkBytes
			}
		}
	}
	if kids != nil {
		for i := range kids {
			c := kids[i]
			if c == nil {
				break
			}
			kids[i] = nil
			if memPool.bytes+kidChunkBytes <= poolMaxBytes {
				memPool.kids = append(memPool.kids, c)
				memPool.bytes += kidChunkBytes
			}
		}
	}
	if t := tab; t != nil {
		for i := range t.sh {
			sh := &t.sh[i]
			if s := sh.slots; len(s) >= 1<<minSlotClass && memPool.bytes+8*len(s) <= poolMaxBytes {
				lg := bits.Len(uint(len(s))) - 1
				memPool.slots[lg] = append(memPool.slots[lg], s)
				memPool.bytes += 8 * len(s)
			}
			sh.slots = nil
		}
	}
}

// putSpares gives a worker's spare chunks (nil: none) to the pool.
func putSpares(n *[arenaChunk]node, k *[kidChunk]child) {
	memPool.mu.Lock()
	defer memPool.mu.Unlock()
	if n != nil && memPool.bytes+nodeChunkBytes <= poolMaxBytes {
		memPool.nodes = append(memPool.nodes, n)
		memPool.bytes += nodeChunkBytes
	}
	if k != nil && memPool.bytes+kidChunkBytes <= poolMaxBytes {
		memPool.kids = append(memPool.kids, k)
		memPool.bytes += kidChunkBytes
	}
}

// release gives all of d's memory to the pool; d must not be used again.
func (d *dag) release() {
	releaseStores(d.nodes.dir, d.kidStore.dir, d.tab)
	d.nodes.dir, d.kidStore.dir, d.tab = nil, nil, nil
}

// Close gives the bot's search memory (its DAG's node and child chunks and
// hash tables, and its threads' spare chunks) to a pool that later
// searches of any bot reuse, sparing the operating system the page faults
// of fresh memory. Reset, Play and AddPiece give up old memory the same
// way, and a bot that is garbage collected too (later). The bot must be
// Reset before it searches again.
func (b *Bot) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.thinking > 0 {
		return // misuse; the memory is left to the collector
	}
	if b.d != nil {
		b.d.release()
		b.d = nil
	}
	if b.holder != nil {
		b.holder.d = nil
	}
	b.pc = nil
	b.stats = Stats{}
	for _, w := range b.wks {
		putSpares(w.spareNodes, w.spareKids)
		w.spareNodes, w.spareKids = nil, nil
		w.nodeCur = nodeCursor{}
		w.rng = nil
	}
	memPool.mu.Lock()
	if len(memPool.workers) < maxPooledWorkers {
		memPool.workers = append(memPool.workers, b.wks...)
	}
	memPool.mu.Unlock()
	b.wks = nil
}

// maxPooledWorkers bounds the workers the pool keeps (each holds a few
// MiB of buffers).
const maxPooledWorkers = 64

// getWorker returns a worker of a closed bot, or a new one.
func getWorker() *worker {
	memPool.mu.Lock()
	if k := len(memPool.workers); k > 0 {
		w := memPool.workers[k-1]
		memPool.workers = memPool.workers[:k-1]
		memPool.mu.Unlock()
		return w
	}
	memPool.mu.Unlock()
	return &worker{gen: NewGenerator()}
}

// dagHolder is the DAG a Bot searches, for the cleanup that releases it
// when the Bot is garbage collected (it must not point to the Bot).
type dagHolder struct{ d *dag }

// setDAG replaces the bot's DAG, releasing the old one's memory.
func (b *Bot) setDAG(d *dag) {
	if b.d != nil && b.thinking == 0 {
		// (a Reset during Think leaves the old DAG to the collector:
		// the search threads still hold it until they see the change)
		b.d.release()
	}
	b.d = d
	d.rankC = b.opt.RankSelect
	if c := b.eval.W.Death; c > 0 {
		d.death = c // else newDAG's CC1 constant
	}
	b.moved = false
	if b.holder == nil {
		b.holder = &dagHolder{}
		runtime.AddCleanup(b, func(h *dagHolder) {
			if h.d != nil {
				h.d.release()
			}
		}, b.holder)
	}
	b.holder.d = d
}

// DefaultReserve is the search memory New makes ready unless told
// otherwise (Options.Reserve): enough for a search of about 350 000 nodes
// (a 100k-node search uses about 18 MiB: 58 % nodes, 22 % child lists,
// 20 % table slots).
const DefaultReserve = 64 << 20

// Reserve makes the process-wide pool hold at least n bytes of search
// memory whose pages are already mapped: node chunks, child chunks and
// table slot arrays in the proportions a search uses. A chess engine
// allocates and clears its hash table before it says it is ready for the
// same reason: the first search would otherwise pay the operating
// system's page faults on fresh memory, which on this kind of machine
// cost about 0.4 ms per MiB, serialize across threads and made the first
// 100k-node search of a process twice as slow as later ones. It returns
// the bytes it added (0 when the pool already holds enough). Memory the
// pool holds counts against its bound (1 GiB); searches take from it and
// give back to it (Close, Reset, Play, AddPiece).
func Reserve(n int) int {
	n = min(n, poolMaxBytes)
	if n <= 0 {
		return 0
	}
	memPool.mu.Lock()
	haveNodes := len(memPool.nodes) * nodeChunkBytes
	haveKids := len(memPool.kids) * kidChunkBytes
	haveSlots := memPool.bytes - haveNodes - haveKids
	memPool.mu.Unlock()
	const slotArrayBytes = 8 << reserveSlotClass
	nodeChunks := ceilDiv(n*58/100-haveNodes, nodeChunkBytes)
	kidChunks := ceilDiv(n*22/100-haveKids, kidChunkBytes)
	slotArrays := ceilDiv(n*20/100-haveSlots, slotArrayBytes)
	// Allocate and touch outside the lock: other bots may be searching.
	nodes := freshChunks[[arenaChunk]node](nodeChunks)
	kids := freshChunks[[kidChunk]child](kidChunks)
	var slots [][]uint64
	for range slotArrays {
		s := make([]uint64, 1<<reserveSlotClass)
		touchPages(unsafe.Pointer(&s[0]), slotArrayBytes)
		slots = append(slots, s)
	}
	memPool.mu.Lock()
	defer memPool.mu.Unlock()
	return poolPut(&memPool.nodes, nodes, nodeChunkBytes) +
		poolPut(&memPool.kids, kids, kidChunkBytes) +
		poolPut(&memPool.slots[reserveSlotClass], slots, slotArrayBytes)
}

// freshChunks returns k new chunks with their pages mapped.
func freshChunks[T any](k int) []*T {
	out := make([]*T, k)
	for i := range out {
		out[i] = new(T)
		touchPages(unsafe.Pointer(out[i]), unsafe.Sizeof(*out[i]))
	}
	return out
}

// poolPut appends items, size bytes each, to one of the pool's lists
// while the pool stays within its bound, and returns the bytes added
// (memPool.mu held).
func poolPut[T any](list *[]T, items []T, size int) int {
	added := 0
	for _, it := range items {
		if memPool.bytes+size > poolMaxBytes {
			break
		}
		*list = append(*list, it)
		memPool.bytes += size
		added += size
	}
	return added
}

// ceilDiv returns ⌈a/b⌉ for b > 0, and 0 for a ≤ 0.
func ceilDiv(a, b int) int {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}
