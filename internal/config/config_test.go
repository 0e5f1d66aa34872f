package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestKeyboardModeResolution(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	s, err := KeyboardModeFor(dir, getenv)
	if err != nil || s.Value || s.Source != "default" {
		t.Fatalf("no file, no env: %+v, %v", s, err)
	}
	if err := os.WriteFile(Path(dir), []byte(`{"theme": "dark", "codex": {"model": "m"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SetKeyboardMode(dir, true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(Path(dir))
	for _, want := range []string{`"theme": "dark"`, `"model": "m"`, `"keyboard_mode": true`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lost %s:\n%s", want, data)
		}
	}
	if s, _ := KeyboardModeFor(dir, getenv); !s.Value || s.Source != Path(dir) {
		t.Errorf("from file: %+v", s)
	}
	env["ATTUNE_KEYBOARD_MODE"] = "off"
	if s, _ := KeyboardModeFor(dir, getenv); s.Value || s.Source != "ATTUNE_KEYBOARD_MODE" {
		t.Errorf("alias override: %+v", s)
	}
	env["ELICIT_KEYBOARD_MODE"] = "maybe"
	s, _ = KeyboardModeFor(dir, getenv)
	if s.Value || s.Source != "ATTUNE_KEYBOARD_MODE" || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `ignoring ELICIT_KEYBOARD_MODE: "maybe" is not an on/off value`) {
		t.Errorf("bad env value must warn and fall through: %+v", s)
	}
	env["ELICIT_KEYBOARD_MODE"] = "YES"
	if s, _ := KeyboardModeFor(dir, getenv); !s.Value || s.Source != "ELICIT_KEYBOARD_MODE" {
		t.Errorf("primary override: %+v", s)
	}
}

func TestBrokenFileIsNeverOverwritten(t *testing.T) {
	for name, content := range map[string]string{"array": `[1, 2]`, "garbage": `{"keyboard_mode": tru`, "null": `null`} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(Path(dir), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			err := SetKeyboardMode(dir, true)
			if err == nil || !strings.Contains(err.Error(), "is not a JSON object") {
				t.Errorf("err = %v", err)
			}
			if data, _ := os.ReadFile(Path(dir)); string(data) != content {
				t.Errorf("file changed to %s", data)
			}
			if _, err := KeyboardModeFor(dir, func(string) string { return "" }); err == nil {
				t.Error("reading a broken file must fail")
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, ".*")); len(matches) > 0 {
				t.Errorf("temp files left: %v", matches)
			}
		})
	}
}

func TestWrongValueTypeInFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(Path(dir), []byte(`{"keyboard_mode": "true"}`), 0o644)
	_, err := KeyboardModeFor(dir, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), `keyboard_mode must be true or false (got "true")`) {
		t.Errorf("err = %v", err)
	}
}

func TestParseBool(t *testing.T) {
	for _, s := range []string{"1", "true", "Yes", " on "} {
		if v, err := ParseBool(s); !v || err != nil {
			t.Errorf("ParseBool(%q) = %v, %v", s, v, err)
		}
	}
	for _, s := range []string{"0", "FALSE", "no", "off"} {
		if v, err := ParseBool(s); v || err != nil {
			t.Errorf("ParseBool(%q) = %v, %v", s, v, err)
		}
	}
	if _, err := ParseBool("2"); err == nil {
		t.Error("ParseBool(2) must fail")
	}
}

// TestErrorsHaveLineAndColumn: what is wrong with the settings file is
// placed at its line and column.
func TestErrorsHaveLineAndColumn(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"syntax", "{\n  \"keyboard_mode\": tru\n}", ":2:20: is not a JSON object: invalid JSON: unexpected word \"tru\" (expected a value: an object, a list, a string, a number, true, false or null)"},
		{"not an object", "\n\n  [1]", ":3:3: is not a JSON object (got array)"},
		{"wrong type", "{\"theme\": 1,\n \"keyboard_mode\": 1}", ":2:19: keyboard_mode must be true or false (got 1)"},
		{"not UTF-8", "{\"a\": \"\xff\"}", ":1:8: is not valid UTF-8"},
		{"duplicate key", "{\"log\": true,\n \"log\": false}", `:2:9: "log" is given twice (also at line 1, column 9): keep one; fix or remove it`},
		{"duplicate nested key", "{\"codex\": {\"model\": \"a\",\n  \"elicitation\": {\"timeout\": 1, \"timeout\": 2}}}",
			`:2:44: "codex.elicitation.timeout" is given twice (also at line 2, column 30): keep one`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(Path(dir), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := KeyboardModeFor(dir, func(string) string { return "" })
			if err == nil || !strings.HasPrefix(err.Error(), Path(dir)+tt.want) {
				t.Errorf("err = %v, want %s%s", err, Path(dir), tt.want)
			}
		})
	}
	dir := t.TempDir()
	os.WriteFile(Path(dir), []byte("{\"codex\": {\n  \"model\": 5}}"), 0o644)
	s, err := CodexFor(dir)
	if err != nil || len(s.Warnings) != 1 || s.Warnings[0] != Path(dir)+":2:12: codex.model must be a string (got 5); using gpt-5.3-codex" {
		t.Errorf("codex warnings = %q, %v", s.Warnings, err)
	}
}

// TestSetNeedsTheFolder: config set in a folder that does not exist says
// so (it leaked the name of the temporary file it could not create).
func TestSetNeedsTheFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	err := SetLog(missing, false)
	if err == nil || err.Error() != "the project folder "+missing+" does not exist (create it, or give --project an existing folder)" {
		t.Errorf("err = %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if err := SetLog(file, false); err == nil || err.Error() != "the project folder "+file+" is not a folder (give --project a folder)" {
		t.Errorf("a file as the folder: err = %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("set created the folder")
	}
}

// TestSetKeepsMode: config set rewrites the file with the mode it had (it
// used to leave every file 0600), and a new file is 0644.
func TestSetKeepsMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o600, 0o664} {
		dir := t.TempDir()
		if err := os.WriteFile(Path(dir), []byte(`{}`), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(Path(dir), mode); err != nil {
			t.Fatal(err)
		}
		if err := SetKeyboardMode(dir, true); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(Path(dir)); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("mode %v became %v (%v)", mode, fi.Mode().Perm(), err)
		}
	}
	dir := t.TempDir()
	if err := SetKeyboardMode(dir, true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(Path(dir)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file is %v, want 0644 (%v)", fi.Mode().Perm(), err)
	}
}

// TestUnreadableFilesRefused: a link to /dev/zero, a FIFO and a file over
// the cap are errors naming the file, returned at once.
func TestUnreadableFilesRefused(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"device", func(p string) error { return os.Symlink("/dev/zero", p) }, "a character device, not a regular file"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "a named pipe (FIFO), not a regular file"},
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }, "a directory, not a regular file"},
		{"over the cap", func(p string) error { return os.WriteFile(p, make([]byte, MaxFile+1), 0o644) }, "more than 1 MiB, the cap for a settings file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.make(Path(dir)); err != nil {
				t.Fatal(err)
			}
			_, err := KeyboardModeFor(dir, func(string) string { return "" })
			if want := "read settings: " + Path(dir) + ": " + tt.want; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("err = %v, want %s", err, want)
			}
			if err := SetKeyboardMode(dir, true); err == nil {
				t.Error("set over an unreadable file must fail")
			}
		})
	}
}

// FuzzSettings reads any settings file without panicking: an error or a
// value, and the file is never changed by reading it.
func FuzzSettings(f *testing.F) {
	for _, s := range []string{`{}`, `{"keyboard_mode": true}`, `{"codex": {"model": "gpt-5-codex", "elicitation": {"timeout": 30}}}`, `[`, "{\"a\":\"\xff\"}", `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(Path(dir), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := KeyboardModeFor(dir, func(string) string { return "" }); err != nil && !strings.Contains(err.Error(), Path(dir)) {
			t.Fatalf("error %q does not name the file", err)
		}
		if _, err := CodexFor(dir); err != nil && !strings.Contains(err.Error(), Path(dir)) {
			t.Fatalf("error %q does not name the file", err)
		}
		if got, _ := os.ReadFile(Path(dir)); string(got) != string(data) {
			t.Fatal("reading changed the file")
		}
	})
}

// TestAttuneSettings: attune-forms' keyboard_mode settings count like
// ours, and ours win when both are set.
func TestAttuneSettings(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("attune.config.json", `{"keyboard_mode": true, "other": 1}`)
	if s, err := KeyboardModeFor(dir, getenv); err != nil || !s.Value || s.Source != filepath.Join(dir, "attune.config.json") {
		t.Errorf("attune.config.json: %+v, %v", s, err)
	}
	write("attune-forms.config.json", `{"keyboard_mode": false}`)
	if s, _ := KeyboardModeFor(dir, getenv); s.Value || s.Source != filepath.Join(dir, "attune-forms.config.json") {
		t.Errorf("attune-forms.config.json first: %+v", s)
	}
	write(FileName, `{"keyboard_mode": true}`)
	if s, _ := KeyboardModeFor(dir, getenv); !s.Value || s.Source != Path(dir) {
		t.Errorf("ours win over attune's files: %+v", s)
	}
	env["ATTUNE_FORMS_KEYBOARD_MODE"] = "0"
	if s, _ := KeyboardModeFor(dir, getenv); s.Value || s.Source != "ATTUNE_FORMS_KEYBOARD_MODE" {
		t.Errorf("attune's environment variable: %+v", s)
	}
	env["ATTUNE_KEYBOARD_MODE"] = "1"
	if s, _ := KeyboardModeFor(dir, getenv); s.Value || s.Source != "ATTUNE_FORMS_KEYBOARD_MODE" {
		t.Errorf("ATTUNE_FORMS_ before the legacy name: %+v", s)
	}
	env["ELICIT_KEYBOARD_MODE"] = "on"
	if s, _ := KeyboardModeFor(dir, getenv); !s.Value || s.Source != "ELICIT_KEYBOARD_MODE" {
		t.Errorf("ours win over attune's variables: %+v", s)
	}
}

func TestBrokenAttuneFileIsAWarning(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "attune-forms.config.json"), []byte(`[1]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "attune.config.json"), []byte(`{"keyboard_mode": "yes"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := KeyboardModeFor(dir, func(string) string { return "" })
	if err != nil || s.Value || s.Source != "default" || len(s.Warnings) != 2 {
		t.Fatalf("got %+v, %v", s, err)
	}
	if !strings.Contains(s.Warnings[0], "attune-forms.config.json:1:1: is not a JSON object") || !strings.Contains(s.Warnings[1], `keyboard_mode must be true or false (got "yes")`) {
		t.Errorf("warnings %q", s.Warnings)
	}
}

func TestLogFor(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if s, err := LogFor(dir, getenv); err != nil || !s.Value || s.Source != "default" {
		t.Errorf("default: %+v, %v", s, err)
	}
	if err := SetLog(dir, false); err != nil {
		t.Fatal(err)
	}
	if s, err := LogFor(dir, getenv); err != nil || s.Value || s.Source != Path(dir) {
		t.Errorf("from the file: %+v, %v", s, err)
	}
	env[LogEnv] = "on"
	if s, _ := LogFor(dir, getenv); !s.Value || s.Source != LogEnv {
		t.Errorf("ELICIT_LOG=on: %+v", s)
	}
	env[LogEnv] = "maybe"
	if s, _ := LogFor(dir, getenv); s.Value || len(s.Warnings) != 1 {
		t.Errorf("ELICIT_LOG=maybe: %+v", s)
	}
}
