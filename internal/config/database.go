package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// DatabaseURL is the key of the team store: "database_url":
// "postgres://host/db" puts the response log and the decision ledger in
// PostgreSQL instead of the embedded SQLite database.
const DatabaseURL = "database_url"

// DatabaseURLEnv sets the team store for a session, and wins over the
// settings file: ELICIT_DATABASE_URL=postgres://…
const DatabaseURLEnv = "ELICIT_DATABASE_URL"

// Database is the team store in effect: URL is "" for the embedded
// database.
type Database struct {
	URL string `json:"url"`
	// Source is DatabaseURLEnv, the settings file's path, or "default".
	Source   string   `json:"source"`
	Warnings []string `json:"warnings,omitempty"`
}

// DatabaseFor resolves the team store for a project directory: a
// non-empty ELICIT_DATABASE_URL wins, then the settings file's
// database_url. A URL that is not postgres:// or postgresql:// is an error
// naming where it came from; a password written in the settings file (a
// file meant to be committed) is a warning.
func DatabaseFor(dir string, getenv func(string) string) (Database, error) {
	d := Database{Source: "default"}
	if raw := strings.TrimSpace(getenv(DatabaseURLEnv)); raw != "" {
		if err := CheckDatabaseURL(raw); err != nil {
			return d, fmt.Errorf("%s: %w", DatabaseURLEnv, err)
		}
		d.URL, d.Source = raw, DatabaseURLEnv
		return d, nil
	}
	f, err := load(dir)
	if err != nil {
		return d, err
	}
	raw, at, ok := f.get(DatabaseURL)
	if !ok {
		return d, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return d, fmt.Errorf("%s %s must be a string such as \"postgres://host/elicit\" (got %s)", f.at(at), DatabaseURL, raw)
	}
	if s = strings.TrimSpace(s); s == "" {
		return d, nil
	}
	if err := CheckDatabaseURL(s); err != nil {
		return d, fmt.Errorf("%s %s: %w", f.at(at), DatabaseURL, err)
	}
	if u, _ := url.Parse(s); u != nil && u.User != nil {
		if _, has := u.User.Password(); has {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s %s holds a password: keep it in PGPASSWORD or ~/.pgpass instead, this file is meant to be shared", f.at(at), DatabaseURL))
		}
	}
	d.URL, d.Source = s, Path(dir)
	return d, nil
}

// CheckDatabaseURL says what is wrong with a team store's address.
func CheckDatabaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL (%v): give postgres://[user@]host[:port]/database", Redact(raw), err)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return fmt.Errorf("%q is not a PostgreSQL URL: give postgres://[user@]host[:port]/database (the embedded SQLite database needs no setting)", Redact(raw))
	}
	return nil
}

// Redact is a database URL with its password replaced by xxxxx, for
// messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.LastIndex(raw, "@"); i >= 0 {
			return "…" + raw[i:]
		}
		return raw
	}
	return u.Redacted()
}

// SetDatabaseURL persists the team store's address in the project's
// settings file, keeping every other key; "" removes it (the embedded
// database).
func SetDatabaseURL(dir, raw string) error {
	if raw = strings.TrimSpace(raw); raw != "" {
		if err := CheckDatabaseURL(raw); err != nil {
			return err
		}
	}
	return set(dir, DatabaseURL, raw)
}
