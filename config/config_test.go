package config

import (
	"os"
	"path/filepath"
	"strings"
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
