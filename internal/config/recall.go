package config

import "fmt"

// Recall is the key of the recall switch (on by default): whether a
// field that asks for it ("recall": "last") is offered its last answer.
const Recall = "recall"

// RecallEnv turns recall off (or on) for a session: ELICIT_RECALL=off.
const RecallEnv = "ELICIT_RECALL"

// RecallFor resolves whether recall is on for a project directory, as
// LogFor does: a valid ELICIT_RECALL wins, then the settings file's
// "recall", then on.
func RecallFor(dir string, getenv func(string) string) (Setting, error) {
	s := Setting{Key: Recall, Value: true, Source: "default"}
	if raw := getenv(RecallEnv); raw != "" {
		v, err := ParseBool(raw)
		if err == nil {
			s.Value, s.Source = v, RecallEnv
			return s, nil
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("ignoring %s: %v", RecallEnv, err))
	}
	_, err := fromFile(dir, &s)
	return s, err
}

// SetRecall persists the recall switch in the project's settings file,
// keeping every other key.
func SetRecall(dir string, on bool) error { return set(dir, Recall, on) }
