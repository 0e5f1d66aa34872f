package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
)

// FileName is the settings file in a project directory.
const FileName = "elicit.config.json"

// KeyboardMode is the key of the keyboard-mode opt-out.
const KeyboardMode = "keyboard_mode"

// Keys lists the settings `elicit config` can get and set.
var Keys = []string{KeyboardMode, Log, Recall, DatabaseURL}

// Path returns the settings file of a project directory.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// MaxFile is the cap on the settings file in bytes: it is a small object
// of settings, and a file over the cap (or a link to /dev/zero) is
// refused, not read.
const MaxFile = 1 << 20

var input = infile.Limit{Max: MaxFile, What: "a settings file", Fix: "it holds a few settings; fix or remove it"}

// file is the settings file as read: its members, with where each value
// starts, for errors that give a line and a column.
type file struct {
	path string
	data []byte
	root jsonnode.Node // an object; no members when the file is missing
}

// load reads the settings file; a missing file is an empty object. Only a
// regular file within MaxFile is read, and a file that is not a JSON
// object is an error naming the line and column of the first problem.
func load(dir string) (*file, error) {
	return loadPath(Path(dir))
}

// loadPath reads a settings file at path, as load does.
func loadPath(path string) (*file, error) {
	f := &file{path: path, root: jsonnode.Node{Kind: jsonnode.Object}}
	data, err := infile.ReadFile(f.path, input)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case errors.Is(err, infile.ErrTooLarge), errors.Is(err, infile.ErrNotRegular):
		return nil, fmt.Errorf("read settings: %w", err) // it names the file
	case err != nil:
		return nil, fmt.Errorf("read settings: %w", err)
	}
	f.data = data
	doc, fault := strictjson.Read(data, strictjson.Options{})
	switch {
	case fault == nil:
	case fault.Kind == strictjson.NotUTF8:
		return nil, f.broken(fault.Offset, "is not valid UTF-8")
	case fault.Kind == strictjson.NotObject:
		return nil, f.broken(fault.Offset, "is not a JSON object (got "+fault.Top.String()+")")
	default:
		return nil, f.broken(fault.Offset, "is not a JSON object: invalid JSON: "+fault.Syntax.Msg)
	}
	if err := f.duplicates(&doc.Root, ""); err != nil {
		return nil, err
	}
	f.root = doc.Root
	return f, nil
}

// duplicates reports the first key given twice in an object of n (path is
// n's dotted path): which value wins would be a guess, so the file is not
// used until one is removed.
func (f *file) duplicates(n *jsonnode.Node, path string) error {
	switch n.Kind {
	case jsonnode.Array:
		for i := range n.Items {
			if err := f.duplicates(&n.Items[i], path); err != nil {
				return err
			}
		}
	case jsonnode.Object:
		for i, first := range strictjson.Keys(n) {
			m := &n.Members[i]
			key := strictjson.Key(path, m.Key)
			if first >= 0 {
				line, col := jsonnode.Position(f.data, int(n.Members[first].Value.Offset))
				return f.broken(int(m.Value.Offset), fmt.Sprintf("%q is given twice (also at line %d, column %d): keep one", key, line, col))
			}
			if err := f.duplicates(&m.Value, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// broken is the error for a settings file elicit cannot use.
func (f *file) broken(offset int, what string) error {
	return fmt.Errorf("%s %s; fix or remove it (elicit will not overwrite it)", f.at(offset), what)
}

// at names a place in the file: PATH:LINE:COLUMN.
func (f *file) at(offset int) string {
	line, col := jsonnode.Position(f.data, offset)
	return fmt.Sprintf("%s:%d:%d:", f.path, line, col)
}

// Settings are the top-level keys of elicit.config.json that elicit reads.
var Settings = []string{KeyboardMode, Log, LogRetention, Recall, DatabaseURL, CodexKey}

// warnings returns before with a warning for each top-level key elicit
// does not read (it is otherwise ignored: a misspelt "keyboardMode" would
// silently leave keyboard mode off), in file order; codex holds the codex
// section's warnings, which go where the section is.
func (f *file) warnings(before []string, codex ...string) []string {
	out := before
	for _, m := range f.root.Members {
		switch {
		case m.Key == CodexKey:
			out, codex = append(out, codex...), nil
		case !slices.Contains(Settings, m.Key):
			hint := ""
			if guess := strictjson.Suggest(m.Key, Settings); guess != "" {
				hint = fmt.Sprintf("did you mean %q? ", guess)
			}
			out = append(out, fmt.Sprintf("%s unknown setting %q, ignored (%ssettings: %s)",
				f.at(int(m.Value.Offset)), m.Key, hint, strings.Join(Settings, ", ")))
		}
	}
	return append(out, codex...)
}

// get returns the value of a top-level key and where it starts (load
// refuses a file with a key given twice).
func (f *file) get(key string) (json.RawMessage, int, bool) {
	for i := len(f.root.Members) - 1; i >= 0; i-- {
		if m := &f.root.Members[i]; m.Key == key {
			return json.RawMessage(f.data[m.Value.Offset:m.Value.End]), int(m.Value.Offset), true
		}
	}
	return nil, 0, false
}

// locate returns where the value at a dotted path (codex.model) starts,
// as PATH:LINE:COLUMN, or the file's path when there is no such value.
func (f *file) locate(path string) string {
	n := &f.root
	for _, key := range strings.Split(path, ".") {
		var next *jsonnode.Node
		for i := len(n.Members) - 1; i >= 0 && next == nil; i-- {
			if n.Members[i].Key == key {
				next = &n.Members[i].Value
			}
		}
		if next == nil {
			return f.path + ":"
		}
		n = next
	}
	return f.at(int(n.Offset))
}

// members returns the file's settings as raw values.
func (f *file) members() map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(f.root.Members))
	for _, mem := range f.root.Members {
		m[mem.Key] = json.RawMessage(f.data[mem.Value.Offset:mem.Value.End])
	}
	return m
}

// CheckProject reports a project folder that does not exist or is not a
// folder: its settings would silently be the defaults.
func CheckProject(dir string) error {
	switch fi, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the project folder %s does not exist (create it, or give --project an existing folder)", dir)
	case err == nil && !fi.IsDir():
		return fmt.Errorf("the project folder %s is not a folder (give --project a folder)", dir)
	}
	return nil
}

// set writes one key, keeping the others, atomically, and keeping the
// file's mode (and a symbolic link to it: the link's target is written).
func set(dir, key string, value any) error {
	if err := CheckProject(dir); err != nil {
		return err
	}
	f, err := load(dir)
	if err != nil {
		return err
	}
	m := f.members()
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
	return writeAtomic(f.path, buf.Bytes())
}

// newFileMode is the mode of a settings file elicit creates: readable by
// all, as an editor would leave it (it holds no secrets).
const newFileMode = 0o644

func writeAtomic(path string, data []byte) error {
	mode := fs.FileMode(newFileMode)
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+FileName+".*")
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write settings: %w", err)
	}
	if err := tmp.Chmod(mode); err != nil {
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
