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

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

// startData is the start record's data: enough to start the deliberation
// again.
type startData struct {
	Question string       `json:"question"`
	Options  StartOptions `json:"options"`
}

// replay rebuilds a deliberation from its transcript by running every
// recorded operation through the engine again: the fallback when the
// state file is missing or corrupted. A last line cut off by a crash is
// ignored; any other unreadable line is an error.
func replay(transcript []byte) (*State, error) {
	s, end, err := applyLines(nil, transcript, 0, true)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("transcript has no start record")
	}
	s.TranscriptOffset = end
	return s, nil
}

// applyLines applies the complete lines of data, which starts at byte
// base of the transcript, to s (nil: data starts with the start record),
// and returns the state and the offset after the last complete line. A
// last line without its newline (a write a crash cut off) is left out.
// whole says data is the whole transcript, so lines can be numbered.
func applyLines(s *State, data []byte, base int64, whole bool) (*State, int64, error) {
	end := base
	for n := 1; ; n++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return s, end, nil
		}
		line, at := data[:i], end
		data, end = data[i+1:], end+int64(i+1)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		where := fmt.Sprintf("transcript at byte %d", at)
		if whole {
			where = fmt.Sprintf("transcript line %d", n)
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, 0, fmt.Errorf("%s: %s", where, jsonError(err))
		}
		var err error
		if s, err = replayRecord(s, rec); err != nil {
			return nil, 0, fmt.Errorf("%s (%s): %w", where, rec.Kind, err)
		}
	}
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
			return s, s.recordAnswer(rec.Text, info, now)
		}
		return s, s.Respond(rec.Text, now)
	case recordConsultBegin:
		var c Consultation
		if err := json.Unmarshal(rec.Data, &c); err != nil {
			return nil, fmt.Errorf("consult_begin record: %s", jsonError(err))
		}
		return s, s.beginConsultation(c, now)
	case recordConsultEnd:
		var e consultEnd
		if err := json.Unmarshal(rec.Data, &e); err != nil {
			return nil, fmt.Errorf("consult_end record: %s", jsonError(err))
		}
		s.endConsultation(now, e.Fresh)
		return s, nil
	case "evaluation":
		ev, err := decodeRecorded(s, rec.Data)
		if err != nil {
			return nil, err
		}
		_, err = s.Evaluate(ev, now)
		return s, err
	case "abandon":
		return s, s.abandon(now)
	case "recovery":
		_, err := s.Recover()
		return s, err
	case recordPeerChallenge:
		var d peerChallengeData
		if err := json.Unmarshal(rec.Data, &d); err != nil {
			return nil, fmt.Errorf("peer_challenge record: %s", jsonError(err))
		}
		_, err := s.peerChallenge(d.Point, d.Objection)
		return s, err
	}
	return s, nil // prompt, exit: outputs, not operations
}

// ReadTranscript reads the transcript of id (within MaxTranscript, a
// regular file only); a deliberation without one has an empty transcript.
func (st *Store) ReadTranscript(id string) ([]byte, error) {
	if st.sh != nil {
		return sharedRead(st, id, func(v *Store) ([]byte, error) { return v.ReadTranscript(id) })
	}
	data, err := infile.ReadFile(st.TranscriptPath(id), transcriptInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	return data, nil
}

// Rebuild replays the transcript of id without touching any file.
func (st *Store) Rebuild(id string) (*State, error) {
	if st.sh != nil {
		return sharedRead(st, id, func(v *Store) (*State, error) { return v.Rebuild(id) })
	}
	data, err := infile.ReadFile(st.TranscriptPath(id), transcriptInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("no transcript for %s in %s", id, st.dir)}}
	}
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	s, err := replay(data)
	if err != nil {
		return nil, problem.List{{Path: st.TranscriptPath(id), Message: err.Error()}}
	}
	s.Transcript = filepath.Base(st.TranscriptPath(id))
	s.normalize()
	return s, nil
}

// Restore rebuilds the state of id from its transcript and writes it. A
// state file that is unreadable, or that differs from the rebuilt state,
// is kept beside it as ….json.unreadable-TIME or ….json.replaced-TIME; a
// state that already matches its transcript is left alone. Leftovers of
// id a crash left behind (temporary files, a torn last transcript line)
// are removed. It returns the state, the kept file's path ("" when none
// was kept) and whether the state file was written.
func (st *Store) Restore(id string) (s *State, kept string, written bool, err error) {
	if st.sh != nil {
		type restored struct {
			s       *State
			kept    string
			written bool
		}
		out, err := sharedWrite(st, id, func(v *Store) (restored, error) {
			s, kept, written, err := v.Restore(id)
			if kept != "" {
				kept = filepath.Join(st.dir, filepath.Base(kept))
			}
			return restored{s, kept, written}, err
		})
		return out.s, out.kept, out.written, err
	}
	lock, err := st.lockTranscript(id)
	if err != nil {
		return nil, "", false, err
	}
	defer lock.Close()
	if s, err = st.Rebuild(id); err != nil {
		return nil, "", false, err
	}
	st.removeTemps(id)
	if info, err := lock.Stat(); err == nil && info.Size() > s.TranscriptOffset {
		if err := lock.Truncate(s.TranscriptOffset); err != nil {
			return nil, "", false, fmt.Errorf("deliberation transcript: cut off a torn last line: %w", err)
		}
	}
	old, readErr := infile.ReadFile(st.StatePath(id), stateInput)
	if errors.Is(readErr, fs.ErrNotExist) {
		return s, "", true, st.save(id, s)
	}
	suffix := ".unreadable-"
	if cur, err := decodeState(old); err == nil {
		if mustJSONString(cur) == mustJSONString(s) {
			return s, "", false, nil
		}
		suffix = ".replaced-"
	}
	kept = st.StatePath(id) + suffix + st.clock.Now().UTC().Format(idLayout)
	if err := os.Rename(st.StatePath(id), kept); err != nil {
		return nil, "", false, fmt.Errorf("deliberation store: %w", err)
	}
	return s, kept, true, st.save(id, s)
}

// removeTemps removes the temporary state files of id a crash left (the
// caller holds id's lock, so none is being written).
func (st *Store) removeTemps(id string) []string {
	names, _ := filepath.Glob(filepath.Join(st.dir, "."+statePrefix+id+".json.tmp-*"))
	var removed []string
	for _, n := range names {
		if os.Remove(n) == nil {
			removed = append(removed, n)
		}
	}
	return removed
}

func mustJSONString(s *State) string {
	s.normalize()
	data, err := json.Marshal(s)
	if err != nil {
		panic("deliberation: " + err.Error())
	}
	return string(data)
}
