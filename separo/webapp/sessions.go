// This file holds the server's small cache of AI sessions: a page may name
// its game so that the server's AIs keep their search trees between moves.
// Moves are still replayed and checked from the request alone; a session
// only holds the AI players, which start a fresh tree whenever the position
// is not in theirs.

package webapp

import (
	"sync"
	"time"

	"github.com/yomi-ai/yomi/separo/webapp/api"
)

// sessionCache maps game ids to sessions, keeping at most max of them and
// dropping the least recently used.
type sessionCache struct {
	mu   sync.Mutex
	max  int
	byID map[string]*session
}

// session is one game's AI players; mu serialises that game's searches.
type session struct {
	mu   sync.Mutex
	s    *api.Session
	used time.Time
}

func newSessionCache(max int) *sessionCache {
	return &sessionCache{max: max, byID: map[string]*session{}}
}

// get returns the session of id, creating it (and evicting the least
// recently used one when full).
func (c *sessionCache) get(id string, now time.Time) *session {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.byID[id]; ok {
		s.used = now
		return s
	}
	if len(c.byID) >= c.max {
		var oldID string
		var old *session
		for k, s := range c.byID {
			if old == nil || s.used.Before(old.used) {
				oldID, old = k, s
			}
		}
		delete(c.byID, oldID)
	}
	s := &session{s: api.NewSession(), used: now}
	c.byID[id] = s
	return s
}

func (c *sessionCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byID)
}
