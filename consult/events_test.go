package consult

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzStream feeds arbitrary output to the event parser: it must never
// panic, count every non-empty line once, and keep usage non-negative when
// the input's numbers are.
func FuzzStream(f *testing.F) {
	files, _ := filepath.Glob("testdata/streams/*.jsonl")
	for _, name := range files {
		data, _ := os.ReadFile(name)
		f.Add(data)
	}
	f.Add([]byte(`{"type":"item.completed","item":null}` + "\n" + `{"type":"turn.completed","usage":null}`))
	f.Add([]byte(`{"type":"turn.failed","error":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s stream
		lines := 0
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, len(data)+1)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				lines++
			}
			s.feed(sc.Bytes())
		}
		if s.events+s.garbage != lines {
			t.Errorf("%d events + %d garbage != %d lines", s.events, s.garbage, lines)
		}
		if s.completed > s.events || len(s.notices) > maxNotices {
			t.Errorf("completed %d of %d events, %d notices", s.completed, s.events, len(s.notices))
		}
		if s.hasAnswer && !strings.Contains(string(data), "agent_message") {
			t.Errorf("an answer without an agent_message in the input")
		}
	})
}

func TestClassify(t *testing.T) {
	tests := []struct {
		text string
		want Kind
	}{
		{"Error: thread/resume: thread/resume failed: no rollout found for thread id x", KindThreadNotFound},
		{"Thread not found", KindThreadNotFound},
		{"Codex ran out of room in the model's context window.", KindContextLength},
		{"unexpected status 401 Unauthorized", KindAuth},
		{"Not logged in. Run codex login", KindAuth},
		{"exceeded retry limit, last status: 429 Too Many Requests", KindRateLimit},
		{"You've hit your usage limit", KindRateLimit},
		{"The model `gpt-9` does not exist", KindModel},
		{"stream disconnected before completion", KindNetwork},
		{"error sending request for url", KindNetwork},
		{"something else entirely", KindExit},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := classify(tt.text); got != tt.want {
				t.Errorf("classify = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestStderrTail(t *testing.T) {
	long := strings.Repeat("é", 3000) + "\nthe end"
	got := stderrTail([]byte(long), nil)
	if !utf8.ValidString(got) || !strings.HasPrefix(got, "...") || !strings.HasSuffix(got, "the end") || len(got) > maxTail+3 {
		t.Errorf("tail of %d bytes: valid %v, %q...", len(got), utf8.ValidString(got), got[:10])
	}
	got = stderrTail([]byte("Error: boom\n\nStack backtrace:\n 0: x\n"), nil)
	if got != "Error: boom" {
		t.Errorf("backtrace not cut: %q", got)
	}
}

func TestSecretValues(t *testing.T) {
	env := []string{"OPENAI_API_KEY=sk-abcdefgh", "CODEX_HOME=/home/u/.codex", "GH_TOKEN=short", "MY_SECRET=0123456789", "PATH=/bin"}
	got := secretValues(env)
	want := []string{"sk-abcdefgh", "0123456789"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("secretValues = %q, want %q", got, want)
	}
}
