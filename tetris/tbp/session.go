// session.go holds the bot side of TBP: Serve runs Yomi's bot
// (tetris/bot) on a line stream, thinking in the background between
// messages as the protocol intends and answering suggest at once with the
// current best moves and a move_info report.

package tbp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
)

// FeatureGarbage is the info feature Serve announces: it takes tbp-spec
// PR #2's garbage message (TBP names no features yet; the extension's
// message name is the natural one).
const FeatureGarbage = "garbage"

// MaxLine is the longest input line Serve accepts; longer lines are
// skipped with a diagnostic.
const MaxLine = 1 << 20

// Config configures Serve.
type Config struct {
	Name, Version, Author string      // the info message ("" = Yomi's)
	Bot                   bot.Options // search options (threads, seed, weights, …)
	// MaxThink caps the background thinking for one move (0 = think until
	// suggest); MaxNodes caps its nodes (0 = none).
	MaxThink time.Duration
	MaxNodes int64
	// Log receives one line per ignored or malformed message (nil = none).
	Log io.Writer
}

// Serve speaks TBP on r and w until quit, the end of r, or ctx's end:
// info at once, ready to any rules, a (re)start at every start (also in
// mid-game), background thinking after start, play and new_piece,
// a suggestion at every suggest. Unknown message types are ignored; lines
// that are not valid JSON or carry invalid attributes are reported to
// cfg.Log and ignored, never fatal (TBP defines no error reply for them).
// It returns nil on quit or end of input.
func Serve(ctx context.Context, r io.Reader, w io.Writer, cfg Config) error {
	s := &session{cfg: cfg, w: w, rules: tetris.DefaultRules()}
	if s.cfg.Name == "" {
		s.cfg.Name, s.cfg.Version, s.cfg.Author = "Yomi", "0.1", "yomi"
	}
	defer s.stopThinking()
	if err := s.send(Info{Name: s.cfg.Name, Version: s.cfg.Version, Author: s.cfg.Author, Features: []string{FeatureGarbage}}); err != nil {
		return err
	}
	batches := make(chan [][]byte)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(r, batches, s.logf) }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			return err
		case batch := <-batches:
			for _, line := range batch {
				if quit, err := s.handle(ctx, line); err != nil || quit {
					return err
				}
			}
			// Think once the lines that came together are handled: a
			// frontend sends play and new_piece (and garbage) together, and
			// a search started between them would be cut off at once, its
			// speculation on the new piece mostly thrown away.
			if s.wantThink {
				s.wantThink = false
				s.think(ctx)
			}
		}
	}
}

// readLines sends the lines of r (without their newlines) to out, in
// batches of the complete lines already read together, skipping lines
// longer than MaxLine. It returns nil at the end of r.
func readLines(r io.Reader, out chan<- [][]byte, logf func(string, ...any)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	var batch [][]byte
	flush := func() {
		if len(batch) > 0 {
			out <- batch
			batch = nil
		}
	}
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !skipping {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			flush() // do not hold complete lines behind a long one
			if len(buf) > MaxLine {
				if !skipping {
					logf("line longer than %d bytes skipped", MaxLine)
				}
				skipping, buf = true, buf[:0]
			}
			continue
		}
		if !skipping && len(buf) > MaxLine {
			logf("line longer than %d bytes skipped", MaxLine)
		} else if !skipping {
			line := bytes.TrimSpace(buf)
			if len(line) > 0 {
				batch = append(batch, append([]byte(nil), line...))
			}
		}
		skipping, buf = false, buf[:0]
		if err != nil {
			flush()
			if err == io.EOF {
				return nil
			}
			return err
		}
		if rest, _ := br.Peek(br.Buffered()); bytes.IndexByte(rest, '\n') < 0 {
			flush() // no further complete line read yet
		}
	}
}

type session struct {
	cfg   Config
	w     io.Writer
	rules tetris.Rules
	b     *bot.Bot
	// background thinking
	wantThink bool // a message asked for thinking; Serve starts it after the message's batch
	cancel    context.CancelFunc
	done      chan struct{}
}

func (s *session) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "tbp: "+format+"\n", args...)
	}
}

func (s *session) send(m Message) error {
	b, err := Encode(m)
	if err != nil {
		return err
	}
	_, err = s.w.Write(append(b, '\n'))
	return err
}

// handle processes one line; it reports quit.
func (s *session) handle(ctx context.Context, line []byte) (bool, error) {
	m, err := DecodeFrontend(line)
	if err != nil {
		s.logf("ignored: %v", err)
		return false, nil
	}
	switch m := m.(type) {
	case Rules:
		// Map the search memory now, before ready, as a chess engine
		// clears its hash table: the first move's search would otherwise
		// pay the page faults.
		bot.Reserve(s.cfg.Bot.ReserveBytes())
		return false, s.send(Ready{})
	case Start:
		s.stopThinking()
		if err := s.start(m); err != nil {
			s.logf("start ignored: %v", err)
			s.closeBot()
			return false, nil
		}
		s.wantThink = true
	case Suggest:
		if s.b == nil {
			s.logf("suggest ignored: no game started")
			return false, nil
		}
		s.stopThinking()
		s.wantThink = false // as before: no thinking after a suggestion until the next play
		return false, s.send(s.suggest(ctx))
	case Play:
		if s.b == nil {
			return false, nil
		}
		s.stopThinking()
		if err := s.play(m.Move); err != nil {
			s.logf("play: %v", err)
		}
		s.wantThink = true
	case NewPiece:
		if s.b == nil {
			return false, nil
		}
		p, err := ParsePiece(m.Piece)
		if err != nil {
			s.logf("new_piece ignored: %v", err)
			return false, nil
		}
		s.stopThinking()
		if err := s.b.AddPiece(p); err != nil {
			s.logf("new_piece: %v", err)
		}
		s.wantThink = true
	case Garbage:
		if s.b == nil {
			return false, nil
		}
		s.stopThinking()
		if err := s.garbage(m); err != nil {
			s.logf("garbage: %v", err)
		}
		s.wantThink = true
	case Stop:
		s.stopThinking()
		s.wantThink = false
		s.closeBot()
	case Quit:
		return true, nil
	case Unknown:
		s.logf("unknown message type %q ignored", m.Name)
	}
	return false, nil
}

// start resets the search to a Start's position.
func (s *session) start(m Start) error {
	board, err := m.Board.Engine()
	if err != nil {
		return err
	}
	queue, err := ParsePieces(m.Queue)
	if err != nil {
		return err
	}
	if len(queue) == 0 {
		return errors.New("empty queue")
	}
	hold := tetris.NoPiece
	if m.Hold != nil {
		if hold, err = ParsePiece(*m.Hold); err != nil {
			return err
		}
	}
	bag, err := m.Randomizer.BagSet()
	if err != nil {
		return err
	}
	if m.Combo < 0 {
		return fmt.Errorf("negative combo %d", m.Combo)
	}
	if s.b == nil {
		s.b = bot.New(s.cfg.Bot)
	}
	st := bot.Board{Board: board, Combo: uint32(m.Combo), B2B: m.BackToBack}
	return s.b.Reset(st, queue, hold, uint8(bag))
}

// thinkHook, if set (by tests), is called whenever a background search starts.
var thinkHook func()

// think starts background thinking (within MaxThink/MaxNodes).
func (s *session) think(ctx context.Context) {
	if s.b == nil || s.cancel != nil {
		return
	}
	tctx, cancel := context.WithCancel(ctx)
	s.cancel, s.done = cancel, make(chan struct{})
	if thinkHook != nil {
		thinkHook()
	}
	b, done := s.b, s.done
	budget := bot.Budget{Duration: s.cfg.MaxThink, Nodes: s.cfg.MaxNodes}
	go func() {
		defer close(done)
		b.Think(tctx, budget)
	}()
}

// closeBot drops the bot, its search memory going back to the pool for
// the next game's.
func (s *session) closeBot() {
	if s.b != nil {
		s.b.Close()
		s.b = nil
	}
}

func (s *session) stopThinking() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
	s.cancel, s.done = nil, nil
}

// suggest answers with the bot's moves, best first.
func (s *session) suggest(ctx context.Context) Suggestion {
	if len(s.b.Candidates()) == 0 {
		// asked before any thinking: expand the root at least
		s.b.Think(ctx, bot.Budget{Nodes: 1})
	}
	moves := s.b.Suggest(0)
	out := Suggestion{Moves: make([]Move, 0, len(moves))}
	for _, mv := range moves {
		out.Moves = append(out.Moves, MoveFrom(mv.Placement()))
	}
	st := s.b.Stats()
	out.MoveInfo = &MoveInfo{Nodes: st.Nodes, NPS: st.NodesPerSecond(), Depth: st.Depth}
	return out
}

// play advances the bot by the played move, keeping the search when the
// move (compared by cells and spin) is a root child, else rebuilding it.
func (s *session) play(m Move) error {
	pl, err := m.Placement()
	if err != nil {
		return err
	}
	st := s.b.State()
	queue := append([]tetris.Piece(nil), st.Queue[:st.QLen]...)
	if len(queue) == 0 {
		return errors.New("no piece to play")
	}
	hold := pl.Piece != queue[0]
	canon := pl.Canonical()
	for _, c := range s.b.Candidates() {
		if c.Move.Hold == hold && c.Move.Placement().Canonical() == canon {
			if err := s.b.Play(c.Move); err == nil {
				return nil
			}
			break
		}
	}
	// not a root child: apply it to the position and search afresh
	h := st.Hold
	switch {
	case !hold:
		queue = queue[1:]
	case h == tetris.NoPiece:
		if len(queue) < 2 || queue[1] != pl.Piece {
			return fmt.Errorf("played %v but the queue is %v", pl.Piece, PieceNames(queue))
		}
		h, queue = queue[0], queue[2:]
	default:
		if h != pl.Piece {
			return fmt.Errorf("played %v but current is %v and hold %v", pl.Piece, queue[0], h)
		}
		h, queue = queue[0], queue[1:]
	}
	board := st.Board
	if !board.FitsPlacement(pl) {
		return fmt.Errorf("played %v does not fit the board", pl)
	}
	board.Lock(pl, &s.rules.Attack)
	return s.b.Reset(board, queue, h, st.Bag)
}

// garbage inserts rows at the bottom (the PR #2 extension) and rebuilds
// the search.
func (s *session) garbage(m Garbage) error {
	st := s.b.State()
	board := st.Board
	n := len(m.Rows)
	if n > tetris.Height {
		return fmt.Errorf("%d garbage rows", n)
	}
	for y := tetris.Height - 1; y >= 0; y-- {
		if y >= n {
			board.Rows[y] = board.Rows[y-n]
		} else {
			board.Rows[y] = 0
		}
	}
	for i, row := range m.Rows {
		y := n - 1 - i // the last row is the new bottom
		for x, c := range row {
			if c != 0 {
				board.Set(x, y)
			}
		}
	}
	return s.b.Reset(board, st.Queue[:st.QLen], st.Hold, st.Bag)
}
