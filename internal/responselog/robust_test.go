package responselog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// bigForm is the review's reproduction: three textareas, each answered
// with text under 1 MiB that escapes to about 6 MB of JSON.
const bigForm = `{"title": "big", "fields": [{"id": "a", "text": "A", "type": "textarea"},
	{"id": "b", "text": "B", "type": "textarea"}, {"id": "c", "text": "C", "type": "textarea"}]}`

func bigAnswer(k string) string { return k + ":" + strings.Repeat("<\x01", 500000) }

func responseRecord(t *testing.T, f *form.Form, id string, answers map[string]any) Record {
	t.Helper()
	return New(f, Event{Kind: KindResponse, Response: &form.Response{ResponseID: id, Responses: answers}}, Who{Host: "cli", Via: "cli"})
}

func readIDs(t *testing.T, l *Log) (*Store, []string) {
	t.Helper()
	s := mustRead(t, l)
	list, err := s.Responses(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range list {
		ids = append(ids, e.ResponseID)
	}
	return s, sorted(ids)
}

func journalLines(t *testing.T, l *Log) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(l.Dir(), journalName))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

// recordLine is r's journal line, without its newline.
func recordLine(t *testing.T, r Record) string {
	t.Helper()
	b, err := encodeJSON(&r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func appendRaw(t *testing.T, l *Log, s string) {
	t.Helper()
	j, err := os.OpenFile(filepath.Join(l.Dir(), journalName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// TestOversizedResponseIsCut checks that a response too large for one
// record is written with its long answers cut (and a warning), that no
// line of the journal is longer than a reader takes, and that the records
// around it stay readable.
func TestOversizedResponseIsCut(t *testing.T) {
	l, warnings := testLog(t)
	f := mustForm(t, bigForm)
	l.Append(responseRecord(t, f, "before", map[string]any{"a": "short"}))
	l.Append(responseRecord(t, f, "big", map[string]any{"a": bigAnswer("a"), "b": bigAnswer("b"), "c": bigAnswer("c")}))
	l.Append(responseRecord(t, f, "after", map[string]any{"a": "short"}))
	for i, line := range journalLines(t, l) {
		if len(line) > maxRecord {
			t.Errorf("journal line %d is %d bytes, over the %d a record may take", i+1, len(line), maxRecord)
		}
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "cut") || !strings.Contains((*warnings)[0], "big") {
		t.Errorf("writing warned %q, want one warning about the cut", *warnings)
	}
	s, ids := readIDs(t, l)
	if s.Partial || strings.Join(ids, " ") != "after before big" {
		t.Fatalf("partial %v, responses %q, warnings %q", s.Partial, ids, *warnings)
	}
	e, err := s.Response("big")
	if err != nil {
		t.Fatal(err)
	}
	var answers map[string]string
	if err := json.Unmarshal(e.Responses, &answers); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		got := answers[k]
		if !strings.HasPrefix(got, k+":<\x01<\x01") || !strings.HasSuffix(got, "[cut by the response log: 1000002 bytes in all]") {
			t.Errorf("answer %s: %d bytes, %q…%q", k, len(got), got[:min(len(got), 20)], got[max(0, len(got)-60):])
		}
	}
}

// TestResponseThatCannotBeCutIsRefused checks the last resort: a record
// whose answers cannot be cut to fit (a million short ones) is not written,
// with a warning, and the next record is.
func TestResponseThatCannotBeCutIsRefused(t *testing.T) {
	l, warnings := testLog(t)
	f := mustForm(t, bigForm)
	many := make([]any, 1<<20)
	for i := range many {
		many[i] = 1234567
	}
	l.Append(responseRecord(t, f, "huge", map[string]any{"a": many}))
	l.Append(responseRecord(t, f, "next", map[string]any{"a": "short"}))
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "not logged") {
		t.Errorf("warnings %q, want one saying the record is not logged", *warnings)
	}
	if _, ids := readIDs(t, l); strings.Join(ids, " ") != "next" {
		t.Errorf("responses %q, want next only", ids)
	}
}

// TestUnreadableLinesAreSkipped writes a journal as an older elicit could:
// a line longer than any reader takes and garbage between good records.
// Reading skips those lines with a warning and keeps the rest; nothing is
// left waiting.
func TestUnreadableLinesAreSkipped(t *testing.T) {
	l, warnings := testLog(t)
	f := mustForm(t, bigForm)
	l.Append(responseRecord(t, f, "first", map[string]any{"a": "x"}))
	huge := responseRecord(t, f, "huge", map[string]any{"a": strings.Repeat("y", maxLine)})
	huge.ID = "h1"
	appendRaw(t, l, recordLine(t, huge)+"\nnot json at all\n")
	l.Append(responseRecord(t, f, "last", map[string]any{"a": "z"}))
	s, ids := readIDs(t, l)
	if s.Partial || strings.Join(ids, " ") != "first last" {
		t.Errorf("partial %v, responses %q", s.Partial, ids)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "skipped 2 line(s)") {
		t.Errorf("warnings %q", *warnings)
	}
	if left, _ := l.pending(); len(left) > 0 {
		t.Errorf("files left to ingest: %q", left)
	}
}

// TestTornLineKeepsTheNextRecord checks that a record appended after a
// torn line (a writer killed mid-write) starts a line of its own, and that
// a record an older elicit glued onto a torn line is still found.
func TestTornLineKeepsTheNextRecord(t *testing.T) {
	l, warnings := testLog(t)
	f := mustForm(t, bigForm)
	l.Append(responseRecord(t, f, "first", map[string]any{"a": "x"}))
	appendRaw(t, l, `{"id":"trunc`)
	l.Append(responseRecord(t, f, "second", map[string]any{"a": "y"}))
	lines := journalLines(t, l)
	if len(lines) != 3 || string(lines[1]) != "{\"id\":\"trunc\n" {
		t.Errorf("journal lines %q", lines)
	}
	glued := responseRecord(t, f, "glued", map[string]any{"a": "z"})
	glued.ID = "g1"
	appendRaw(t, l, `{"id":"torn","kind":"resp`+recordLine(t, glued)+"\n")
	s, ids := readIDs(t, l)
	if s.Partial || strings.Join(ids, " ") != "first glued second" {
		t.Errorf("partial %v, responses %q", s.Partial, ids)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "skipped 2 line(s)") {
		t.Errorf("warnings %q", *warnings)
	}
}

// eachLineOracle is eachLine by bytes.Split: every line, its newline left
// out, nil for one longer than max; no line after a final newline.
func eachLineOracle(data []byte, max int) [][]byte {
	if len(data) == 0 {
		return nil
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		if len(l) > max {
			lines[i] = nil
		}
	}
	return lines
}

func eachLineAll(t *testing.T, data []byte, max int) [][]byte {
	var got [][]byte
	err := eachLine(bytes.NewReader(data), max, func(line []byte) error {
		if line != nil {
			line = bytes.Clone(line)
		}
		got = append(got, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestEachLine(t *testing.T) {
	long := strings.Repeat("x", 70<<10) // past the reader's buffer
	for _, tc := range []struct {
		name string
		data string
		max  int
	}{
		{"empty", "", 4},
		{"one line", "abc\n", 4},
		{"no final newline", "abc\nde", 4},
		{"exactly max", "abcd\nabcde\nab", 4},
		{"blank lines", "\n\nab\n\n", 4},
		{"long lines past the buffer", long + "\nok\n" + long + "y\n" + long, len(long)},
	} {
		got := eachLineAll(t, []byte(tc.data), tc.max)
		want := eachLineOracle([]byte(tc.data), tc.max)
		if len(got) != len(want) {
			t.Errorf("%s: %d lines, want %d", tc.name, len(got), len(want))
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Errorf("%s: line %d = %.20q, want %.20q", tc.name, i, got[i], want[i])
			}
		}
	}
}

func FuzzEachLine(f *testing.F) {
	for _, s := range []string{"", "\n", "a\nbb\nccc", "abcdefgh\n\n\nx"} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max < 0 || max > 1<<20 {
			return
		}
		got := eachLineAll(t, data, max)
		want := eachLineOracle(data, max)
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Fatalf("line %d = %q, want %q", i, got[i], want[i])
			}
		}
	})
}

// TestCutAnswers checks cutting on nested answers and on text json
// escapes to more bytes than it takes (U+2028): the result is JSON within
// the budget, short answers whole, long ones cut with the marker.
func TestCutAnswers(t *testing.T) {
	long := strings.Repeat("\u2028é\"", 20000)
	raw, _ := json.Marshal(map[string]any{"short": "keep me", "n": 12.5, "list": []any{long, "x", map[string]any{"deep": long}}, "t": long})
	for _, budget := range []int{len(raw) / 2, 4000, 600} {
		cut, n := cutAnswers(raw, budget)
		if cut == nil || len(cut) > budget || !json.Valid(cut) || n != 3 {
			t.Fatalf("budget %d: %d bytes, %d cut, valid %v", budget, len(cut), n, json.Valid(cut))
		}
		var got map[string]any
		json.Unmarshal(cut, &got)
		if got["short"] != "keep me" || got["n"] != 12.5 {
			t.Errorf("budget %d: short answers changed: %v %v", budget, got["short"], got["n"])
		}
		if s, _ := got["t"].(string); !strings.HasSuffix(s, "[cut by the response log: 120000 bytes in all]") {
			t.Errorf("budget %d: long answer ends %q", budget, s[max(0, len(s)-50):])
		}
	}
	if cut, _ := cutAnswers(raw, 100); cut != nil {
		t.Errorf("a budget below the markers gave %s", cut)
	}
}

// FuzzEscapedLen checks the count of escaped bytes cutting relies on
// against encoding/json's own output.
func FuzzEscapedLen(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"\\\b\f\n\r\t", "\x00\x1f\x7f", "é😀", "\xff\xfe", "\u2028\u2029", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, err := encodeJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := escapedLen(s), len(enc)-2; got != want {
			t.Errorf("escapedLen(%q) = %d, encoding/json writes %d: %s", s, got, want, enc)
		}
		for n := range len(s) + 1 {
			if p := prefixWithin(s, n); escapedLen(p) > n || !strings.HasPrefix(s, p) {
				t.Fatalf("prefixWithin(%q, %d) = %q", s, n, p)
			}
		}
	})
}
