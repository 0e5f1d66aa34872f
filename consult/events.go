package consult

import (
	"bytes"
	"encoding/json"
)

// event is one line of `codex exec --json` output. Fields of event types
// elicit does not use are ignored, and so are unknown types.
type event struct {
	Type     string     `json:"type"`
	ThreadID string     `json:"thread_id"`
	Item     *eventItem `json:"item"`
	Usage    *Usage     `json:"usage"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

type eventItem struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Message string `json:"message"`
}

// stream accumulates what a codex event stream says.
type stream struct {
	threadID   string
	answer     string // last agent_message of the turn
	plan       string // last plan, the answer when there is no agent message
	hasAnswer  bool
	usage      Usage
	events     int // lines that were JSON objects with a type
	garbage    int // lines that were not
	completed  int // turn.completed events
	failed     string
	notices    []string // error items and top-level error events
	lastType   string
	turnActive bool
}

// maxNotices bounds the notices kept from one stream.
const maxNotices = 20

// feed reads one line of output. It never fails: a line that is not an
// event is counted as garbage.
func (s *stream) feed(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var e event
	if line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Type == "" {
		s.garbage++
		return
	}
	s.events++
	s.lastType = e.Type
	s.apply(&e)
}

func (s *stream) apply(e *event) {
	switch e.Type {
	case "thread.started":
		if e.ThreadID != "" {
			s.threadID = e.ThreadID
		}
	case "turn.started":
		s.turnActive = true
	case "turn.completed":
		s.completed++
		s.turnActive = false
		if e.Usage != nil {
			s.usage.add(*e.Usage)
		}
	case "turn.failed":
		s.turnActive = false
		s.failed = "turn failed"
		if e.Error != nil && e.Error.Message != "" {
			s.failed = e.Error.Message
		}
	case "error":
		s.notice(e.Message)
	case "item.completed":
		s.item(e.Item)
	}
}

func (s *stream) item(it *eventItem) {
	if it == nil {
		return
	}
	switch it.Type {
	case "agent_message":
		s.answer, s.hasAnswer = it.Text, true
	case "plan":
		s.plan = it.Text
	case "error":
		s.notice(it.Message)
	}
}

func (s *stream) notice(msg string) {
	if msg == "" || len(s.notices) >= maxNotices {
		return
	}
	s.notices = append(s.notices, msg)
}

// text is the answer: the last agent message, else the last plan.
func (s *stream) text() string {
	if s.hasAnswer {
		return s.answer
	}
	return s.plan
}
