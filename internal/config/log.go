package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

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

// LogRetention is the key of how many days the response log keeps its
// records: "log_retention_days": 365. 0 keeps every record.
const LogRetention = "log_retention_days"

// LogRetentionEnv sets the retention for a session:
// ELICIT_LOG_RETENTION_DAYS=30.
const LogRetentionEnv = "ELICIT_LOG_RETENTION_DAYS"

// DefaultLogRetentionDays is how long records are kept when nothing says
// otherwise: a year.
const DefaultLogRetentionDays = 365

// maxRetentionDays is the longest retention a setting may give (about
// 1,000 years): longer is 0, keep everything.
const maxRetentionDays = 365000

// Retention is the response log's retention in effect and where it came
// from.
type Retention struct {
	Days int `json:"days"`
	// Source is LogRetentionEnv, the settings file's path, or "default".
	Source string `json:"source"`
	// Warnings are ignored values.
	Warnings []string `json:"warnings,omitempty"`
}

// LogRetentionFor resolves the response log's retention for a project
// directory: a valid ELICIT_LOG_RETENTION_DAYS wins, then the settings
// file's log_retention_days, then DefaultLogRetentionDays. An invalid
// value is skipped with a warning; a broken settings file is an error.
func LogRetentionFor(dir string, getenv func(string) string) (Retention, error) {
	r := Retention{Days: DefaultLogRetentionDays, Source: "default"}
	if raw := strings.TrimSpace(getenv(LogRetentionEnv)); raw != "" {
		n, err := strconv.Atoi(raw)
		if err == nil && n >= 0 && n <= maxRetentionDays {
			r.Days, r.Source = n, LogRetentionEnv
			return r, nil
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf("ignoring %s=%q: it must be a whole number of days from 0 (keep every record) to %d", LogRetentionEnv, raw, maxRetentionDays))
	}
	f, err := load(dir)
	if err != nil {
		return r, err
	}
	r.Warnings = f.warnings(r.Warnings)
	raw, at, ok := f.get(LogRetention)
	if !ok {
		return r, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 || n > maxRetentionDays {
		return r, fmt.Errorf("%s %s must be a whole number of days from 0 (keep every record) to %d (got %s)", f.at(at), LogRetention, maxRetentionDays, raw)
	}
	r.Days, r.Source = n, Path(dir)
	return r, nil
}
