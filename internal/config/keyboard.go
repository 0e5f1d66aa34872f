package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// KeyboardEnv are the environment variables that override keyboard mode
// for a session, in precedence order: ours, then attune-forms' own and its
// legacy name (the seed's).
var KeyboardEnv = []string{"ELICIT_KEYBOARD_MODE", "ATTUNE_FORMS_KEYBOARD_MODE", "ATTUNE_KEYBOARD_MODE"}

// AttuneFiles are attune-forms' settings files in a project directory, in
// the order attune reads them; their keyboard_mode counts when
// elicit.config.json has none.
var AttuneFiles = []string{"attune-forms.config.json", "attune.config.json"}

// Setting is a resolved setting and where its value came from.
type Setting struct {
	Key   string `json:"key"`
	Value bool   `json:"value"`
	// Source is an environment variable's name, the settings file's path,
	// or "default".
	Source string `json:"source"`
	// Warnings are ignored environment values.
	Warnings []string `json:"warnings,omitempty"`
}

// KeyboardModeFor resolves keyboard mode for a project directory: a valid
// environment override wins (ELICIT_KEYBOARD_MODE, then attune-forms'
// ATTUNE_FORMS_KEYBOARD_MODE and ATTUNE_KEYBOARD_MODE), then elicit.config.json,
// then attune-forms' attune-forms.config.json and attune.config.json, then
// off: attune's settings are honoured like ours, and ours win when both are
// set. An invalid environment value, or an unreadable attune file, is
// skipped with a warning; a broken elicit.config.json is an error.
func KeyboardModeFor(dir string, getenv func(string) string) (Setting, error) {
	s := Setting{Key: KeyboardMode, Source: "default"}
	for _, name := range KeyboardEnv {
		raw := getenv(name)
		if raw == "" {
			continue
		}
		v, err := ParseBool(raw)
		if err != nil {
			s.Warnings = append(s.Warnings, fmt.Sprintf("ignoring %s: %v", name, err))
			continue
		}
		s.Value, s.Source = v, name
		return s, nil
	}
	found, err := fromFile(dir, &s)
	if err == nil && !found {
		attuneFile(dir, &s)
	}
	return s, err
}

// fromFile sets s from the settings file's value of s.Key, when it has
// one (found).
func fromFile(dir string, s *Setting) (found bool, err error) {
	f, err := load(dir)
	if err != nil {
		return false, err
	}
	s.Warnings = f.warnings(s.Warnings)
	raw, at, ok := f.get(s.Key)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, &s.Value); err != nil {
		return true, fmt.Errorf("%s %s must be true or false (got %s)", f.at(at), s.Key, raw)
	}
	s.Source = Path(dir)
	return true, nil
}

// attuneFile reads keyboard_mode from attune-forms' settings files. They
// are not ours: a file that cannot be read, or a value that is not a
// boolean, is skipped with a warning rather than failing.
func attuneFile(dir string, s *Setting) {
	for _, name := range AttuneFiles {
		f, err := loadPath(filepath.Join(dir, name))
		if err != nil {
			s.Warnings = append(s.Warnings, "ignoring "+err.Error())
			continue
		}
		raw, at, ok := f.get(KeyboardMode)
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, &s.Value); err != nil {
			s.Warnings = append(s.Warnings, fmt.Sprintf("ignoring %s %s must be true or false (got %s)", f.at(at), KeyboardMode, raw))
			continue
		}
		s.Source = f.path
		return
	}
}

// SetKeyboardMode persists keyboard mode in the project's settings file,
// keeping every other key.
func SetKeyboardMode(dir string, on bool) error {
	return set(dir, KeyboardMode, on)
}
