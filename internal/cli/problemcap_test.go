package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit/elicit/method"
	"github.com/elicit/elicit/problem"
)

// TestOutputsCapTheirProblems: a megabyte of input with a problem every few
// bytes gives problem.Max problems and a last line saying how many more, in
// JSON and in text, for answers and for a registry's warnings.
func TestOutputsCapTheirProblems(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ELICIT_HOME", dir)
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	formFile := write("form.json", `{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "text_input"},
		{"id": "b", "text": "B?", "type": "single_select", "options": ["x", "y"]}]}`)
	var reply strings.Builder
	for i := 0; reply.Len() < 1000_000; i++ {
		fmt.Fprintf(&reply, "b: nope%d\n", i)
	}
	replyFile := write("reply.md", reply.String())
	var reg strings.Builder
	reg.WriteString(method.Header + "\n")
	for i := range 200_001 {
		fmt.Fprintf(&reg, `%d,risk,Same Name,A description,a->b,1,"plan:0","","alpha",true,`+"\n", i+1)
	}
	regFile := write("registry.csv", reg.String())

	moreProblems := regexp.MustCompile(`^… and (\d+) more problems \(fix the ones above and check again\)$`)
	moreWarnings := regexp.MustCompile(`^… and (\d+) more warnings \(fix the rows above and check again\)$`)
	tests := []struct {
		name  string
		args  []string
		lines func(out []byte) []string
		more  *regexp.Regexp
		total int // 0: any
	}{
		{name: "form collect", args: []string{"form", "collect", formFile, replyFile}, more: moreProblems,
			lines: func(out []byte) []string {
				var r struct{ Problems []string }
				json.Unmarshal(out, &r)
				return r.Problems
			}},
		{name: "methods validate --json", args: []string{"methods", "validate", "--json", regFile}, more: moreWarnings, total: 200_000,
			lines: func(out []byte) []string {
				var r struct{ Warnings []string }
				json.Unmarshal(out, &r)
				return r.Warnings
			}},
		{name: "methods validate", args: []string{"methods", "validate", regFile}, more: moreWarnings, total: 200_000,
			lines: func(out []byte) []string { return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := Run(tt.args, strings.NewReader(""), &out, &errOut); code != exitInvalid {
				t.Fatalf("exit %d: %.300s", code, errOut.String())
			}
			lines := tt.lines(out.Bytes())
			if len(lines) != problem.Max+1 {
				t.Fatalf("%d problems in %d bytes, want %d", len(lines), out.Len(), problem.Max+1)
			}
			m := tt.more.FindStringSubmatch(lines[problem.Max])
			if m == nil {
				t.Fatalf("last line %q", lines[problem.Max])
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || tt.total > 0 && n+problem.Max != tt.total {
				t.Errorf("%d more, want %d", n, tt.total-problem.Max)
			}
			if out.Len() > 512<<10 {
				t.Errorf("%d bytes of output", out.Len())
			}
		})
	}
}
