package config

import "fmt"

// Log is the key of the response log switch (on by default).
const Log = "log"

// LogEnv turns the response log off (or on) for a session: ELICIT_LOG=off.
const LogEnv = "ELICIT_LOG"

// LogFor resolves whether the response log is on for a project directory:
// a valid ELICIT_LOG wins, then the settings file's "log", then on. An
// invalid environment value is skipped with a warning; a broken settings
// file is an error.
func LogFor(dir string, getenv func(string) string) (Setting, error) {
	s := Setting{Key: Log, Value: true, Source: "default"}
	if raw := getenv(LogEnv); raw != "" {
		v, err := ParseBool(raw)
		if err == nil {
			s.Value, s.Source = v, LogEnv
			return s, nil
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("ignoring %s: %v", LogEnv, err))
	}
	_, err := fromFile(dir, &s)
	return s, err
}

// SetLog persists the response log switch in the project's settings file,
// keeping every other key.
func SetLog(dir string, on bool) error { return set(dir, Log, on) }
