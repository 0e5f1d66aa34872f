package deliberation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit/elicit/problem"
)

// startData is the start record's data: enough to start the deliberation
// again.
type startData struct {
	Question string       `json:"question"`
	Options  StartOptions `json:"options"`
}

// Replay rebuilds a deliberation from its transcript by running every
// recorded operation through the engine again: the fallback when the
// state file is missing or corrupted. A last line cut off by a crash is
// ignored; any other unreadable line is an error.
func Replay(transcript []byte) (*State, error) {
	lines := bytes.Split(transcript, []byte("\n"))
	var s *State
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			if i == len(lines)-1 {
				break // the write a crash interrupted
			}
			return nil, fmt.Errorf("transcript line %d: %s", i+1, jsonError(err))
		}
		var err error
		if s, err = replayRecord(s, rec); err != nil {
			return nil, fmt.Errorf("transcript line %d (%s): %w", i+1, rec.Kind, err)
		}
	}
	if s == nil {
		return nil, errors.New("transcript has no start record")
	}
	return s, nil
}

func replayRecord(s *State, rec Record) (*State, error) {
	now, _ := time.Parse(time.RFC3339, rec.Time)
	if rec.Kind == "start" {
		var d startData
		if err := json.Unmarshal(rec.Data, &d); err != nil {
			return nil, fmt.Errorf("start record without its question and options: %s", jsonError(err))
		}
		return New(d.Question, &d.Options, now)
	}
	if s == nil {
		return nil, errors.New("no start record before it")
	}
	switch rec.Kind {
	case "response":
		if len(rec.Data) > 0 {
			var info AnswerInfo
			if err := json.Unmarshal(rec.Data, &info); err != nil {
				return nil, fmt.Errorf("response record: %s", jsonError(err))
			}
			return s, s.RecordAnswer(rec.Text, info, now)
		}
		return s, s.Respond(rec.Text, now)
	case recordConsultBegin:
		var c Consultation
		if err := json.Unmarshal(rec.Data, &c); err != nil {
			return nil, fmt.Errorf("consult_begin record: %s", jsonError(err))
		}
		return s, s.BeginConsultation(c, now)
	case recordConsultEnd:
		s.EndConsultation(now)
		return s, nil
	case "evaluation":
		ev, err := DecodeEvaluation(rec.Data)
		if err != nil {
			return nil, err
		}
		_, err = s.Evaluate(ev, now)
		return s, err
	case "abandon":
		return s, s.Abandon(now)
	case "recovery":
		_, err := s.Recover()
		return s, err
	}
	return s, nil // prompt, exit: outputs, not operations
}

// Rebuild replays the transcript of id without touching any file.
func (st *Store) Rebuild(id string) (*State, error) {
	data, err := os.ReadFile(st.TranscriptPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("no transcript for %s in %s", id, st.dir)}}
	}
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	s, err := Replay(data)
	if err != nil {
		return nil, problem.List{{Path: st.TranscriptPath(id), Message: err.Error()}}
	}
	s.Transcript = filepath.Base(st.TranscriptPath(id))
	s.normalize()
	return s, nil
}

// Restore rebuilds the state of id from its transcript and writes it,
// keeping an unreadable state file beside it as ….json.unreadable-TIME.
// It returns the state and the kept file's path ("" when there was none).
func (st *Store) Restore(id string) (*State, string, error) {
	lock, err := st.lockTranscript(id)
	if err != nil {
		return nil, "", err
	}
	defer lock.Close()
	if _, err := st.Load(id); err == nil {
		return nil, "", problem.List{{Path: "id", Message: fmt.Sprintf("the state file of %s is readable; nothing to restore", id)}}
	}
	s, err := st.Rebuild(id)
	if err != nil {
		return nil, "", err
	}
	kept := ""
	if _, err := os.Stat(st.StatePath(id)); err == nil {
		kept = st.StatePath(id) + ".unreadable-" + st.clock.Now().UTC().Format(idLayout)
		if err := os.Rename(st.StatePath(id), kept); err != nil {
			return nil, "", fmt.Errorf("deliberation store: %w", err)
		}
	}
	return s, kept, st.save(id, s)
}
