package deliberation

import (
	"os"
	"testing"
)

// TestStartRejectsInvalidUTF8: text that is not UTF-8 is refused, each
// input named, instead of being stored with its bytes replaced.
func TestStartRejectsInvalidUTF8(t *testing.T) {
	tests := []struct {
		name     string
		question string
		opts     *StartOptions
		want     []string
	}{
		{"question", "\xff\xfe", nil, []string{
			"question: is not valid UTF-8 (first bad byte at offset 0); want UTF-8 text"}},
		{"every input", "ok?\xc3", &StartOptions{
			Facts:           []string{"fine", "bad \xff"},
			SSM:             SSM{Shape: "\xfe", Tangents: "t", DriftSignals: "d\x80"},
			Interpretations: []string{"a", "b\xff"},
			Paths:           []string{"/tmp/\xff"},
		}, []string{
			"question: is not valid UTF-8 (first bad byte at offset 3); want UTF-8 text",
			"facts[1]: is not valid UTF-8 (first bad byte at offset 4); want UTF-8 text",
			"ssm.shape: is not valid UTF-8 (first bad byte at offset 0); want UTF-8 text",
			"ssm.drift_signals: is not valid UTF-8 (first bad byte at offset 1); want UTF-8 text",
			"interpretations[1]: is not valid UTF-8 (first bad byte at offset 1); want UTF-8 text",
			"paths[0]: is not valid UTF-8 (first bad byte at offset 5); want UTF-8 text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := newTestStore(t)
			id, _, err := st.Start(tt.question, tt.opts)
			if err == nil {
				t.Fatalf("started %s", id)
			}
			assertProblems(t, err, tt.want)
			if entries, _ := os.ReadDir(st.Dir()); len(entries) != 0 {
				t.Errorf("files written for a refused start: %v", entries)
			}
		})
	}
}

// TestRespondRejectsInvalidUTF8: a response that is not UTF-8 is refused
// and the state is unchanged (still awaiting the response).
func TestRespondRejectsInvalidUTF8(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"random bytes", "\x9c\x01\xff\xd8", []string{"response: is not valid UTF-8 (first bad byte at offset 0); want UTF-8 text"}},
		{"truncated rune", "1. Retry on 429 \xe2\x80", []string{"response: is not valid UTF-8 (first bad byte at offset 16); want UTF-8 text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := newTestStore(t)
			id, _, err := st.Start("q?", nil)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(st.StatePath(id))
			_, err = st.Respond(id, tt.text)
			assertProblems(t, err, tt.want)
			after, _ := os.ReadFile(st.StatePath(id))
			if string(after) != string(before) {
				t.Error("the state changed")
			}
		})
	}
}
