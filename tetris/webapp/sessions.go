// This file holds the server's bot sessions: one bot (and its search
// tree) per game side a page plays against, dropped after a while unused.

package webapp

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
)

// sessions maps ids to bot sessions, at most max of them, each dropped
// after ttl without a request.
type sessions struct {
	mu     sync.Mutex
	max    int
	maxExt int // sessions with a bot process
	ttl    time.Duration
	opt    bot.Options
	byID   map[string]*session
}

// session is one bot, Yomi's (s) or the server's TBP bot process (ext);
// mu serialises its requests.
type session struct {
	mu   sync.Mutex
	s    *api.BotSession
	ext  *external
	used time.Time
	gone bool // expired or evicted: requests naming it get "unknown session"
}

func newSessions(max int, ttl time.Duration, opt bot.Options) *sessions {
	return &sessions{max: max, maxExt: 4, ttl: ttl, opt: opt, byID: map[string]*session{}}
}

// sweep drops the sessions unused for ttl (their bots are closed once no
// request holds them). The caller holds c.mu.
func (c *sessions) sweep(now time.Time) {
	for id, s := range c.byID {
		if now.Sub(s.used) > c.ttl {
			delete(c.byID, id)
			go s.close()
		}
	}
}

func (s *session) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gone = true
	if s.ext != nil {
		s.ext.close()
	} else {
		s.s.Close()
	}
}

// get returns the session id, or nil if it is unknown or expired.
func (c *sessions) get(id string, now time.Time) *session {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep(now)
	s := c.byID[id]
	if s != nil {
		s.used = now
	}
	return s
}

// create starts a session of Yomi's bot, or of ext (a started process)
// if not nil, dropping the least recently used one when there are max
// already (maxExt for processes).
func (c *sessions) create(now time.Time, ext *external) (string, *session) {
	var b [12]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep(now)
	c.evict(func(*session) bool { return true }, c.max)
	if ext != nil {
		c.evict(func(s *session) bool { return s.ext != nil }, c.maxExt)
	}
	s := &session{s: api.NewBotSession(c.opt), ext: ext, used: now}
	c.byID[id] = s
	return id, s
}

// evict drops the least recently used sessions matching kind until fewer
// than max of them are left. The caller holds c.mu.
func (c *sessions) evict(kind func(*session) bool, max int) {
	for {
		n := 0
		var oldID string
		var old *session
		for k, s := range c.byID {
			if !kind(s) {
				continue
			}
			n++
			if old == nil || s.used.Before(old.used) {
				oldID, old = k, s
			}
		}
		if n < max || old == nil {
			return
		}
		delete(c.byID, oldID)
		go old.close()
	}
}

func (c *sessions) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byID)
}
