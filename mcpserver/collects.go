package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/elicit/elicit/internal/formrun"
)

// collected is what a failed collect kept: its form and the answers that
// hold, for the call that continues it.
type collected struct {
	form formrun.Form
	kept map[string]any
}

// maxCollects bounds the failed collects a server remembers; the oldest
// goes first.
const maxCollects = 256

// collectStore remembers failed collects by collect_id, in memory: a
// continue names one; the result itself (continue: the whole failed
// result) needs no memory, so a restarted server loses nothing the agent
// still holds.
type collectStore struct {
	mu    sync.Mutex
	byID  map[string]collected
	order []string
}

// put stores c under id (a new id when id is ""), and returns the id.
func (s *collectStore) put(id string, c collected) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil {
		s.byID = map[string]collected{}
	}
	if id == "" {
		// The same form and answers kept are the same collect: the id is
		// their hash, so a call repeated gets the same one.
		key, _ := json.Marshal(struct {
			Template, Form string
			Kept           map[string]any
		}{c.form.Template, string(c.form.Definition), c.kept})
		if c.form.Definition == nil {
			f, _ := json.Marshal(c.form.Form)
			key = append(key, f...)
		}
		sum := sha256.Sum256(key)
		id = "c" + hex.EncodeToString(sum[:6])
		if _, seen := s.byID[id]; !seen {
			s.order = append(s.order, id)
		}
	}
	s.byID[id] = c
	for len(s.order) > maxCollects {
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	return id
}

func (s *collectStore) get(id string) (collected, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.byID[id]
	return c, ok
}

// drop forgets a collect that has been answered.
func (s *collectStore) drop(id string) {
	if id == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byID, id)
}
