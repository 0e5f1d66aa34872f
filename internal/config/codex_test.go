package config

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCodex(t *testing.T) {
	def := DefaultCodex()
	tests := []struct {
		name     string
		raw      string
		want     func(c *Codex)
		warnings []string
	}{
		{name: "absent", raw: ``},
		{name: "valid", raw: `{"model":"gpt-5.2-codex-spark","reasoning":"high","disabled":true,"elicitation":{"enabled":false,"methods":["Pre-mortem Analysis"],"timeout":450.5}}`,
			want: func(c *Codex) {
				c.Model, c.Reasoning, c.Disabled = "gpt-5.2-codex-spark", "high", true
				c.Elicitation = CodexElicitation{Enabled: false, Methods: []string{"Pre-mortem Analysis"}, Timeout: 450.5}
			}},
		{name: "model outside the allowlist (case-sensitive)", raw: `{"model":"GPT-5-codex"}`,
			warnings: []string{`codex.model "GPT-5-codex" does not match ^gpt-5(\.\d+)?-codex(-spark)?$; using gpt-5.3-codex`}},
		{name: "every wrong value is named", raw: `{"model":5,"reasoning":"max","disabled":"yes","extra":1,"elicitation":{"enabled":"no","methods":"all","timeout":"soon","x":true}}`,
			warnings: []string{ // in the order of the text
				`codex.model must be a string (got 5); using gpt-5.3-codex`,
				`codex.reasoning "max" is not one of xhigh, high, medium, low; using xhigh`,
				`codex.disabled must be true or false (got "yes"); using false`,
				`codex.extra: unknown setting, ignored (settings: model, reasoning, disabled, elicitation)`,
				`codex.elicitation.enabled must be true or false (got "no"); using true`,
				`codex.elicitation.methods must be a list of method names (got "all"); using [] (every method with a codex_role)`,
				`codex.elicitation.timeout must be a number of seconds (got "soon"); using 300`,
				`codex.elicitation.x: unknown setting, ignored (settings: enabled, methods, timeout)`,
			}},
		{name: "timeout clamped up", raw: `{"elicitation":{"timeout":30}}`, want: func(c *Codex) { c.Elicitation.Timeout = 300 },
			warnings: []string{"codex.elicitation.timeout 30 is outside 300..900 seconds; using 300"}},
		{name: "timeout clamped down, numerically", raw: `{"elicitation":{"timeout":4505}}`, want: func(c *Codex) { c.Elicitation.Timeout = 900 },
			warnings: []string{"codex.elicitation.timeout 4505 is outside 300..900 seconds; using 900"}},
		{name: "section not an object", raw: `[1]`, warnings: []string{"codex must be an object (got [1]); using the defaults"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := CodexSettings{Codex: def, Warnings: tt.warnings}
			want.Elicitation.Methods = []string{}
			if tt.want != nil {
				tt.want(&want.Codex)
			}
			got := ParseCodex([]byte(tt.raw))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestCodexFor(t *testing.T) {
	dir := t.TempDir()
	if s, err := CodexFor(dir); err != nil || s.Model != DefaultCodexModel || !s.Elicitation.Enabled {
		t.Errorf("no file: %+v, %v", s, err)
	}
	os.WriteFile(Path(dir), []byte(`{"keyboard_mode":true,"codex":{"reasoning":"low"}}`), 0o644)
	if s, err := CodexFor(dir); err != nil || s.Reasoning != "low" {
		t.Errorf("from file: %+v, %v", s, err)
	}
	os.WriteFile(Path(dir), []byte(`{"codex":`), 0o644)
	if _, err := CodexFor(dir); err == nil {
		t.Error("a broken file must be an error")
	}
}

// TestUnknownSettings: a top-level key elicit does not read is a warning
// with its line and column and the setting it most likely meant; every
// warning of the file comes in the file's order (they came sorted by key,
// 1:84 before 1:72 before 1:19).
func TestUnknownSettings(t *testing.T) {
	getenv := func(string) string { return "" }
	tests := []struct {
		name, file string
		want       []string // KeyboardModeFor's and LogFor's warnings
		codex      []string // CodexFor's
	}{
		{"known keys", `{"keyboard_mode": true, "log": false, "codex": {}}`, nil, nil},
		{"misspelt keys", `{"keyboardMode":true,"Log":false,"zzz":1}`, []string{
			`PATH:1:17: unknown setting "keyboardMode", ignored (did you mean "keyboard_mode"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
			`PATH:1:28: unknown setting "Log", ignored (did you mean "log"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
			`PATH:1:40: unknown setting "zzz", ignored (settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
		}, nil},
		{"codex warnings in their place", `{"Codex": 1, "codex": {"reasoning": "y", "model": "x", "elicitation": {"timeout": 5}}, "logs": true}`, []string{
			`PATH:1:11: unknown setting "Codex", ignored (did you mean "codex"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
			`PATH:1:96: unknown setting "logs", ignored (did you mean "log"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
		}, []string{
			`PATH:1:11: unknown setting "Codex", ignored (did you mean "codex"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
			`PATH:1:37: codex.reasoning "y" is not one of xhigh, high, medium, low; using xhigh`,
			`PATH:1:51: codex.model "x" does not match ^gpt-5(\.\d+)?-codex(-spark)?$; using gpt-5.3-codex`,
			`PATH:1:83: codex.elicitation.timeout 5 is outside 300..900 seconds; using 300`,
			`PATH:1:96: unknown setting "logs", ignored (did you mean "log"? settings: keyboard_mode, log, log_retention_days, recall, database_url, codex)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(Path(dir), []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			fix := func(ws []string) []string {
				var out []string
				for _, w := range ws {
					out = append(out, strings.ReplaceAll(w, "PATH", Path(dir)))
				}
				return out
			}
			kb, err := KeyboardModeFor(dir, getenv)
			if err != nil {
				t.Fatal(err)
			}
			lg, _ := LogFor(dir, getenv)
			cx, _ := CodexFor(dir)
			for name, got := range map[string][]string{"KeyboardModeFor": kb.Warnings, "LogFor": lg.Warnings} {
				if d := cmp.Diff(fix(tt.want), got); d != "" {
					t.Errorf("%s warnings (-want +got):\n%s", name, d)
				}
			}
			want := tt.codex
			if want == nil {
				want = tt.want
			}
			if d := cmp.Diff(fix(want), cx.Warnings); d != "" {
				t.Errorf("CodexFor warnings (-want +got):\n%s", d)
			}
		})
	}
}
