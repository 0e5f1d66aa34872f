package deliberation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

// current reads the state of id and brings it up to date with its
// transcript, which is written first: records past the state's
// transcript_offset (a crash came between them and the state) are applied,
// and a state file a crash never wrote is rebuilt from the transcript.
// With lock (the transcript, open and locked) a last line a crash cut off
// is cut away, so the next record starts a line of its own. dirty reports
// that the state changed and should be saved.
func (st *Store) current(id string, lock *os.File) (s *State, dirty bool, err error) {
	path := st.StatePath(id)
	data, err := infile.ReadFile(path, stateInput)
	missing := errors.Is(err, fs.ErrNotExist)
	if errors.Is(err, infile.ErrTooLarge) {
		err = &RestoreError{ID: id, Err: err}
	}
	if err != nil && !missing {
		return nil, false, fmt.Errorf("deliberation store: %w", err)
	}
	size, err := st.transcriptSize(id, lock)
	if err != nil {
		return nil, false, err
	}
	if size > MaxTranscript {
		return nil, false, fmt.Errorf("deliberation store: %w", &infile.TooLargeError{Name: st.TranscriptPath(id), Limit: transcriptInput})
	}
	if missing {
		if size == 0 {
			return nil, false, problem.List{{Path: "id", Message: fmt.Sprintf("no deliberation %s in %s", id, st.dir)}}
		}
		s, err := st.applyTail(id, nil, 0, size, lock)
		if err == nil && s == nil {
			err = problem.List{{Path: st.TranscriptPath(id), Message: "has no start record and there is no state file: nothing to rebuild (prune removes it)"}}
		}
		if err != nil {
			return nil, false, err
		}
		s.Transcript = filepath.Base(st.TranscriptPath(id))
		s.normalize()
		return s, true, nil
	}
	s, err = decodeState(data)
	if err != nil {
		var probs problem.List
		if errors.As(err, &probs) {
			return nil, false, unreadableState(path, id, probs)
		}
		return nil, false, err
	}
	off := s.TranscriptOffset
	switch {
	case off == 0: // written before transcript_offset, or by the original skill
		s.TranscriptOffset = size
		return s, false, nil
	case size < off:
		return nil, false, problem.List{restorable(id, problem.Problem{Path: st.TranscriptPath(id),
			Message: fmt.Sprintf("has %d bytes, fewer than the %d its state includes: records are missing; rebuild the state from what the transcript has", size, off)})}
	case size == off:
		return s, false, nil
	}
	s, err = st.applyTail(id, s, off, size, lock)
	if err != nil {
		return nil, false, err
	}
	return s, s.TranscriptOffset != off, nil
}

// transcriptSize is the size of id's transcript (0 when there is none).
func (st *Store) transcriptSize(id string, lock *os.File) (int64, error) {
	var info fs.FileInfo
	var err error
	if lock != nil {
		info, err = lock.Stat()
	} else {
		info, err = os.Stat(st.TranscriptPath(id))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("deliberation transcript: %w", err)
	}
	if !info.Mode().IsRegular() {
		return 0, fmt.Errorf("deliberation store: %w", &infile.NotRegularError{Name: st.TranscriptPath(id), Mode: info.Mode()})
	}
	return info.Size(), nil
}

// applyTail applies the transcript's records from byte from to byte to
// onto s and sets its transcript_offset; with lock, a cut-off last line is
// cut away.
func (st *Store) applyTail(id string, s *State, from, to int64, lock *os.File) (*State, error) {
	f, err := infile.Open(st.TranscriptPath(id), transcriptInput)
	if err != nil {
		return nil, fmt.Errorf("deliberation transcript: %w", err)
	}
	defer f.Close()
	data := make([]byte, to-from)
	if _, err := io.CopyN(io.Discard, f, from); err != nil {
		return nil, fmt.Errorf("deliberation transcript: %w", err)
	}
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("deliberation transcript: %w", err)
	}
	s, end, err := applyLines(s, data, from, from == 0)
	if err != nil {
		return nil, problem.List{restorable(id, problem.Problem{Path: st.TranscriptPath(id),
			Message: fmt.Sprintf("%v; the state cannot be brought up to date: rebuild it from the transcript's readable records", err)})}
	}
	if lock != nil && end < to {
		if err := lock.Truncate(end); err != nil {
			return nil, fmt.Errorf("deliberation transcript: cut off a torn last line: %w", err)
		}
	}
	if s != nil {
		s.TranscriptOffset = end
	}
	return s, nil
}
