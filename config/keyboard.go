package config

import (
	"encoding/json"
	"fmt"
)

// KeyboardEnv are the environment variables that override keyboard mode
// for a session, in precedence order (the second is the seed's name).
var KeyboardEnv = []string{"ELICIT_KEYBOARD_MODE", "ATTUNE_KEYBOARD_MODE"}

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
// environment override wins, then the settings file, then off. An invalid
// environment value is skipped with a warning; a broken settings file is an
// error.
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
	f, err := load(dir)
	if err != nil {
		return s, err
	}
	raw, at, ok := f.get(KeyboardMode)
	if !ok {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s.Value); err != nil {
		return s, fmt.Errorf("%s %s must be true or false (got %s)", f.at(at), KeyboardMode, raw)
	}
	s.Source = Path(dir)
	return s, nil
}

// SetKeyboardMode persists keyboard mode in the project's settings file,
// keeping every other key.
func SetKeyboardMode(dir string, on bool) error {
	return set(dir, KeyboardMode, on)
}
