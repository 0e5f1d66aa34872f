package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the settings file in a project directory.
const FileName = "elicit.config.json"

// KeyboardMode is the key of the keyboard-mode opt-out.
const KeyboardMode = "keyboard_mode"

// Keys lists the settings `elicit config` can get and set.
var Keys = []string{KeyboardMode}

// Path returns the settings file of a project directory.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// load reads the settings file; a missing file is an empty object.
func load(dir string) (map[string]json.RawMessage, error) {
	data, err := os.ReadFile(Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, fmt.Errorf("%s is not a JSON object; fix or remove it (elicit will not overwrite it)", Path(dir))
	}
	return m, nil
}

// set writes one key, keeping the others, atomically.
func set(dir, key string, value any) error {
	m, err := load(dir)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	m[key] = raw
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return writeAtomic(Path(dir), buf.Bytes())
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+FileName+".*")
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	return nil
}

// ParseBool reads the on/off words users type: 1/true/yes/on and
// 0/false/no/off, in any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not an on/off value (use true or false; 1/yes/on and 0/no/off work too)", s)
}
