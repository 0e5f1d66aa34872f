package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/spf13/cobra"
)

func (a *app) templatesSave() *cobra.Command {
	var shape string
	var force bool
	cmd := &cobra.Command{
		Use:   "save NAME [FILE|-] [--shape SHAPE] [--force]",
		Short: "Save a form as template NAME: a form file, or a recurring hand-built form from the response log",
		Long: `Saves into the template folder: --templates DIR, else ELICIT_TEMPLATES, else $ELICIT_HOME/templates
(which elicit reads when no other folder is given). 'elicit stats' suggests the command for each
hand-built form whose shape recurred 3 times, with its --shape.`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0 || len(args) > 2:
				return usagef("%s needs NAME and FILE, or NAME and --shape SHAPE (got %d argument(s))", cmd.CommandPath(), len(args))
			case (len(args) == 2) == (shape != ""):
				return usagef("give the form as FILE or as --shape SHAPE, not both or neither")
			}
			return checkTemplateName("template name", args[0])
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			dir, err := a.saveDir()
			if err != nil {
				return err
			}
			var def []byte
			if shape != "" {
				if def, shape, err = a.loggedForm(shape); err != nil {
					return err
				}
			} else if def, err = a.readInput(args[1], formInput); err != nil {
				return err
			}
			f, err := form.Parse(def)
			if err != nil {
				return err
			}
			path, err := saveTemplate(dir, name, f, force)
			if err != nil {
				return err
			}
			a.markPromoted(responselog.Shape(f), name)
			fmt.Fprintf(a.stdout, "saved template %s to %s: use it with --template %s\n", name, path, name)
			return nil
		},
	}
	cmd.Flags().StringVar(&shape, "shape", "", "save the latest hand-built form of `SHAPE` from the response log (see elicit stats)")
	cmd.Flags().BoolVar(&force, "force", false, "replace a template of the same name in the folder")
	return cmd
}

// checkTemplateName is a usage error unless name (given as what) is a
// template name.
func checkTemplateName(what, name string) error {
	if !form.ValidTemplateName(name) {
		return usagef("%s %q must be lower-case letters, digits and dashes, starting with a letter or digit", what, name)
	}
	return nil
}

// saveDir is the folder templates save writes to, created when missing.
func (a *app) saveDir() (string, error) {
	dir := a.templatesDir
	if dir == "" {
		dir = a.getenv("ELICIT_TEMPLATES")
	}
	if dir == "" {
		if dir = a.homeTemplates(); dir == "" {
			return "", errors.New("no template folder: give --templates DIR, or set ELICIT_TEMPLATES, ELICIT_HOME or HOME")
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// homeTemplates is $ELICIT_HOME/templates (or ~/.elicit/templates), or "".
func (a *app) homeTemplates() string {
	if h := a.getenv("ELICIT_HOME"); h != "" {
		return filepath.Join(h, "templates")
	}
	if h := a.getenv("HOME"); h != "" {
		return filepath.Join(h, ".elicit", "templates")
	}
	return ""
}

// loggedForm is the latest definition of the hand-built form of shape (or
// a unique prefix of it) in the response log, and its full shape.
func (a *app) loggedForm(shape string) ([]byte, string, error) {
	s, err := a.openLog()
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	def, full, _, err := s.Form(shape)
	return def, full, err
}

// saveTemplate writes f as template name into dir, its literal braces
// doubled so that nothing in it reads as a slot, and checks that it casts.
func saveTemplate(dir, name string, f *form.Form, force bool) (string, error) {
	path := filepath.Join(dir, name+".json")
	if _, err := os.Stat(path); err == nil && !force {
		return "", fmt.Errorf("%s already exists: pass --force to replace it, or choose another name", path)
	} else if err != nil && !force && form.Embedded(name) {
		return "", fmt.Errorf("%s is a built-in template: saving %s would hide it; pass --force to override it with yours, or choose another name", name, path)
	}
	var v any
	canonical, err := json.Marshal(f)
	if err == nil {
		err = json.Unmarshal(canonical, &v)
	}
	if err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(escapeBraces(v), "", "  ")
	if err != nil {
		return "", err
	}
	data = append(data, '\n')
	check := &form.Templates{Folder: fstest.MapFS{name + ".json": {Data: data}}}
	if _, err := check.Cast(name, nil); err != nil {
		return "", fmt.Errorf("the form does not cast as a template: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// escapeBraces doubles "{" in every string value (a template's literal
// brace), leaving object keys alone (placeholders are never read there).
func escapeBraces(v any) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "{", "{{")
	case []any:
		for i := range x {
			x[i] = escapeBraces(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = escapeBraces(x[k])
		}
	}
	return v
}

// markPromoted tells the response log the shape is a template now, so
// stats stops suggesting it; a log that cannot be read only warns.
func (a *app) markPromoted(shape, name string) {
	l := a.responseLog()
	if l == nil {
		return
	}
	s, err := l.Read()
	if err != nil {
		a.logWarn(fmt.Sprintf("response log: %v", err))
		return
	}
	defer s.Close()
	if err := s.MarkPromoted(shape, name, time.Now()); err != nil {
		a.logWarn(fmt.Sprintf("response log: %v", err))
	}
}
