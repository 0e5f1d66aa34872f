package form

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestCastSessionContract(t *testing.T) {
	ts := &Templates{}
	f, err := ts.Cast("session-contract", map[string]string{"project": "elicit"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Title != "Session contract: elicit" || f.Fields[0].Text != "What kind of session is this for elicit?" {
		t.Errorf("slots not filled: %q / %q", f.Title, f.Fields[0].Text)
	}
	var ids []string
	for _, fl := range f.Fields {
		ids = append(ids, fl.ID+":"+string(fl.Type))
	}
	want := []string{"mode:single_select", "outcome:text_input", "done_when:textarea", "effort_cap:text_input"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if f.Fields[3].Required || f.Fields[2].MaxLength != 500 {
		t.Errorf("effort_cap must be optional and done_when capped at 500")
	}
}

func TestCastProblemsTogether(t *testing.T) {
	folder := fstest.MapFS{
		"broken.json": {Data: []byte(`{"title": "For {project} and {who}", "slots": ["project", "unused", "Bad"],
			"fields": [{"id": "a", "text": "Literal {{x} stays", "type": "boolean", "maximun": 1}]}`)},
	}
	ts := &Templates{Folder: folder}
	_, err := ts.Cast("broken", map[string]string{"extra": "1"})
	want := []string{
		`slots[2]: "Bad" is not a valid slot name (use lowercase letters, digits, '_' and '-')`,
		`title: uses undeclared placeholder {who} (declare it in "slots", or write {{who} for a literal brace)`,
		`slots.project: missing value (give the slot "project" a value)`,
		`slots.unused: missing value (give the slot "unused" a value)`,
		"slots.unused: declared but never used in the template",
		"slots.extra: unexpected value: the template declares only project, unused",
		"fields[0].maximun: unknown key (did you mean 'maximum'?)",
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestCastLiteralBraceAndEmptySlot(t *testing.T) {
	ts := &Templates{Folder: fstest.MapFS{"lit.json": {Data: []byte(`{"title": "{{p} is {p}", "slots": ["p"],
		"fields": [{"id": "a", "text": "A {x?", "type": "boolean"}]}`)}}}
	f, err := ts.Cast("lit", map[string]string{"p": "x"})
	if err != nil || f.Title != "{p} is x" || f.Fields[0].Text != "A {x?" {
		t.Fatalf("Cast = %+v, %v", f, err)
	}
	if _, err := ts.Cast("lit", map[string]string{"p": "  "}); err == nil || !strings.Contains(err.Error(), "slots.p: empty value") {
		t.Errorf("empty slot: %v", err)
	}
}

func TestTemplateNamesAndOverrides(t *testing.T) {
	folder := fstest.MapFS{
		"session-contract.json": {Data: []byte(`{"title": "Mine", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)},
		"retro.json":            {Data: []byte(`{"title": "Retro for {team}", "slots": ["team"], "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)},
		"bad.json":              {Data: []byte(`[`)},
		"Upper.json":            {Data: []byte(`{}`)},
	}
	ts := &Templates{Folder: folder}
	got := ts.List()
	want := []TemplateInfo{
		{Name: "Upper", Source: "folder", Slots: []string{},
			Error: `file "Upper.json" is not named as a template (NAME.json, NAME lowercase letters, digits and '-'); rename it upper.json`},
		{Name: "bad", Source: "folder", Slots: []string{}, Error: "template bad (bad.json in the template folder) is not valid JSON: at line 1, column 2: unexpected end of input (expected a value)"},
		{Name: "retro", Title: "Retro for {team}", Slots: []string{"team"}, Fields: 1, Source: "folder"},
		{Name: "session-contract", Title: "Mine", Slots: []string{}, Fields: 1, Source: "folder"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	for _, name := range []string{"../etc/passwd", "Upper", "a/b", ""} {
		if _, _, err := ts.Source(name); err == nil || !strings.Contains(err.Error(), "invalid template name") {
			t.Errorf("Source(%q) err = %v", name, err)
		}
	}
	if _, _, err := ts.Source("nope"); err == nil || err.Error() != `unknown template "nope" (available: bad, retro, session-contract)` {
		t.Errorf("unknown: %v", err)
	}
}

// TestTemplateLint: List marks unusable, and Lint reports, what every cast
// would refuse whatever the slot values; what depends on the values (a
// slot in an id) is left to the cast.
func TestTemplateLint(t *testing.T) {
	const field = `{"id": "a", "text": "A?", "type": "boolean"}`
	tests := []struct {
		name, file, data string
		want             string // List's Error, "" for usable
	}{
		{"usable", "ok.json", `{"title": "For {p}", "slots": ["p"], "fields": [` + field + `]}`, ""},
		{"slot in an id is the cast's to judge", "idslot.json",
			`{"title": "T", "slots": ["p"], "fields": [{"id": "{p}", "text": "A?", "type": "boolean"}]}`, ""},
		{"same slot in two options", "opts.json",
			`{"title": "T", "slots": ["p"], "fields": [{"id": "a", "text": "A?", "type": "single_select", "options": ["{p}", "x"]}]}`, ""},
		{"no fields", "nofields.json", `{"title": "x", "fields": []}`,
			"fields: must be a list of 1 or more fields (got array of 0)"},
		{"undeclared placeholders", "slots.json",
			`{"title": "T {a}", "slots": ["a"], "fields": [{"id": "k", "text": "L {b} {c}", "type": "boolean"}]}`,
			`2 problems: fields[0].text: uses undeclared placeholder {b} (declare it in "slots", or write {{b} for a literal brace); ` +
				`fields[0].text: uses undeclared placeholder {c} (declare it in "slots", or write {{c} for a literal brace)`},
		{"unused slot", "unused.json", `{"title": "T", "slots": ["a"], "fields": [` + field + `]}`,
			"slots.a: declared but never used in the template"},
		{"bad slot list", "badslots.json", `{"title": "T", "slots": "a", "fields": [` + field + `]}`,
			`slots: must be a list of slot names (got string "a")`},
		{"misnamed file", "Upper Case.json", `{"title": "T", "fields": [` + field + `]}`,
			`file "Upper Case.json" is not named as a template (NAME.json, NAME lowercase letters, digits and '-'); rename it upper-case.json`},
		{"misnamed beyond repair", "__.json", `{}`,
			`file "__.json" is not named as a template (NAME.json, NAME lowercase letters, digits and '-')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := &Templates{Folder: fstest.MapFS{tt.file: {Data: []byte(tt.data)}}}
			name := strings.TrimSuffix(tt.file, ".json")
			var got *TemplateInfo
			for _, ti := range ts.List() {
				if ti.Name == name {
					got = &ti
				}
			}
			if got == nil || got.Error != tt.want {
				t.Fatalf("List entry of %s = %+v, want error %q", tt.file, got, tt.want)
			}
			if !validTemplateName(name) {
				return
			}
			if err := ts.Lint(name); (err == nil) != (tt.want == "") || err != nil && oneLineError(err) != tt.want {
				t.Errorf("Lint = %v, want %s", err, tt.want)
			}
		})
	}
}

// TestTemplateFolderProblems: a broken template or an unusable folder is an
// error naming it, never a crash (a dangling symlink used to recurse
// between Source and List until the stack overflowed).
func TestTemplateFolderProblems(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "broken.json")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	const dangling = "template broken: broken.json is a dangling symlink (its target does not exist; fix or remove the link)"
	type test struct {
		name    string
		ts      *Templates
		check   string // Check's error, "" for none
		source  string // Source(template)'s error
		cast    string // Cast(template)'s error
		listErr string // the Error of template's entry in List, "" to skip
	}
	var tests []test
	// As os.DirFS and as infile.Dir (which the CLI uses) see the folder.
	for fsName, dirFS := range map[string]func(string) fs.FS{"os.DirFS": os.DirFS, "infile.Dir": func(d string) fs.FS { return infile.Dir(d) }} {
		for _, tt := range []test{
			{"dangling symlink", &Templates{Folder: dirFS(dir)}, "", dangling, "template: " + dangling, dangling},
			{"unknown next to a dangling symlink", &Templates{Folder: dirFS(dir)}, "",
				`unknown template "nope" (available: broken, session-contract)`,
				`template: unknown template "nope" (available: broken, session-contract)`, ""},
			{"missing folder", &Templates{Folder: dirFS(filepath.Join(dir, "nope")), FolderName: "--templates nope"},
				"--templates nope: no such folder (give a folder of NAME.json templates)",
				"--templates nope: no such folder (give a folder of NAME.json templates)",
				"template: --templates nope: no such folder (give a folder of NAME.json templates)", ""},
			{"a file, not a folder", &Templates{Folder: dirFS(file)},
				"the template folder: not a folder (give a folder of NAME.json templates)",
				"the template folder: not a folder (give a folder of NAME.json templates)",
				"template: the template folder: not a folder (give a folder of NAME.json templates)", ""},
		} {
			tt.name += " (" + fsName + ")"
			tests = append(tests, tt)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "broken"
			if strings.HasPrefix(tt.name, "unknown") {
				name = "nope"
			}
			if err := tt.ts.Check(); fmt.Sprint(err) != tt.check && (err != nil || tt.check != "") {
				t.Errorf("Check = %v, want %s", err, tt.check)
			}
			if _, _, err := tt.ts.Source(name); err == nil || err.Error() != tt.source {
				t.Errorf("Source = %v, want %s", err, tt.source)
			}
			if _, err := tt.ts.Cast(name, nil); err == nil || err.Error() != tt.cast {
				t.Errorf("Cast = %v, want %s", err, tt.cast)
			}
			if tt.listErr == "" {
				return
			}
			for _, ti := range tt.ts.List() {
				if ti.Name == name && ti.Error != tt.listErr {
					t.Errorf("List error = %q, want %q", ti.Error, tt.listErr)
				}
			}
		})
	}
}

// TestCastRejectsInvalidUTF8Slot: a slot value that is not UTF-8 is a
// problem naming the slot, not text silently changed.
func TestCastRejectsInvalidUTF8Slot(t *testing.T) {
	ts := &Templates{}
	tests := []struct {
		name, value string
		want        []string
	}{
		{"invalid byte", "ab\xffc", []string{`slots.project: value "ab\xffc" is not valid UTF-8 (first bad byte at offset 2; give the slot UTF-8 text)`}},
		{"encoded surrogate", "\xed\xa0\x80", []string{`slots.project: value "\xed\xa0\x80" is not valid UTF-8 (first bad byte at offset 0; give the slot UTF-8 text)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ts.Cast("session-contract", map[string]string{"project": tt.value})
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// countingFS counts the directory listings of a folder.
type countingFS struct {
	fstest.MapFS
	readDirs int
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.readDirs++
	return c.MapFS.ReadDir(name)
}

// TestTemplateListLinear: List reads the folder once, not once per
// template (4,000 templates took 10 s when each one re-read the folder).
func TestTemplateListLinear(t *testing.T) {
	folder := &countingFS{MapFS: fstest.MapFS{}}
	for i := range 300 {
		folder.MapFS[fmt.Sprintf("t%03d.json", i)] = &fstest.MapFile{Data: []byte(`{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)}
	}
	ts := &Templates{Folder: folder}
	list := ts.List()
	if len(list) != 301 || list[0].Name != "session-contract" || list[1].Name != "t000" || list[1].Fields != 1 {
		t.Fatalf("List: %d templates, first %+v", len(list), list[0])
	}
	if folder.readDirs != 1 {
		t.Errorf("List read the folder %d times, want once", folder.readDirs)
	}
}

// TestTemplateFilesBounded: a template that is a FIFO, a device or over
// the 1 MiB cap is unusable, named with the reason, and never read whole
// (a FIFO used to hang every listing).
func TestTemplateFilesBounded(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.json"), make([]byte, MaxInput+1), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"big":  "read template big: big.json: more than 1 MiB, the cap for a template (split it into smaller templates)",
		"pipe": "read template pipe: pipe.json: a named pipe (FIFO), not a regular file (elicit reads only regular files; give the path of one)",
		"zero": "read template zero: zero.json: a character device, not a regular file (elicit reads only regular files; give the path of one)",
	}
	for fsName, folder := range map[string]fs.FS{"infile.Dir": infile.Dir(dir), "os.DirFS": os.DirFS(dir)} {
		ts := &Templates{Folder: folder}
		for _, ti := range ts.List() {
			if w, ok := want[ti.Name]; ok && ti.Error != w {
				t.Errorf("%s: List error of %s = %q, want %q", fsName, ti.Name, ti.Error, w)
			}
		}
		for name, w := range want {
			if _, err := ts.Cast(name, nil); err == nil || err.Error() != "template: "+w {
				t.Errorf("%s: Cast(%s) = %v", fsName, name, err)
			}
		}
	}
}

// TestCastBoundsSlotValues: slot values repeated by the template's
// placeholders cannot make a form past a form's cap (a 1 MiB value used by
// a thousand placeholders made a gigabyte).
func TestCastBoundsSlotValues(t *testing.T) {
	texts := make([]string, 2000)
	for i := range texts {
		texts[i] = fmt.Sprintf(`{"id": "f%d", "text": "Q%[1]d {v}", "type": "boolean"}`, i)
	}
	ts := &Templates{Folder: fstest.MapFS{"many.json": {Data: []byte(`{"title": "T", "slots": ["v"], "fields": [` + strings.Join(texts, ",") + `]}`)}}}
	if _, err := ts.Cast("many", map[string]string{"v": strings.Repeat("x", 100)}); err != nil {
		t.Fatalf("200 KB of slot text: %v", err)
	}
	_, err := ts.Cast("many", map[string]string{"v": strings.Repeat("x", 1000)})
	want := []string{"slots: the slot values make the form more than 1048576 bytes, over the 1 MiB limit for a form (shorten the values, or use each slot less often)"}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("2 MB of slot text (-want +got):\n%s", diff)
	}
}

// FuzzCast casts any template with any slot value: an error listing at most
// MaxProblems problems (and a count of the rest), or a form within a form's
// cap, never a panic.
func FuzzCast(f *testing.F) {
	f.Add([]byte(`{"title": "For {p}", "slots": ["p"], "fields": [{"id": "a", "text": "{p}?", "type": "boolean"}]}`), "x")
	f.Add([]byte(`{"title": "{{p} {p}{p}", "slots": ["p", "p", "Q"], "fields": []}`), "")
	f.Add([]byte(`{"title": "t", "slots": "p", "fields": [{"id": "{p}", "text": "{q}", "type": "single_select", "options": ["{p}", "{p}"]}]}`), "\xff")
	f.Fuzz(func(t *testing.T, tpl []byte, value string) {
		ts := &Templates{Folder: fstest.MapFS{"t.json": {Data: tpl}}}
		form, err := ts.Cast("t", map[string]string{"p": value, "q": value})
		if err != nil {
			probs, ok := err.(problem.List)
			if !ok || len(probs) > 2*maxProblems+2 {
				t.Fatalf("error %T with %d problems", err, len(probs))
			}
			return
		}
		if form == nil || len(form.Fields) == 0 {
			t.Fatalf("no form and no error")
		}
	})
}

// BenchmarkList4000 lists a folder of 4,000 templates (the 10 s,
// when each template re-read the folder).
func BenchmarkList4000(b *testing.B) {
	dir := b.TempDir()
	for i := range 4000 {
		data := fmt.Sprintf(`{"title": "T%d for {team}", "slots": ["team"], "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%04d.json", i)), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ts := &Templates{Folder: infile.Dir(dir)}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(ts.List()); n != 4001 {
			b.Fatalf("%d templates", n)
		}
	}
}

// TestCastErrorsMatch: a cast's problem list matches its sentinels with
// errors.Is (an unknown template, a missing slot) and stays a problem.List;
// SlotHints says how a caller's users give a missing slot.
func TestCastErrorsMatch(t *testing.T) {
	var ts Templates
	_, err := ts.Cast("NOPE", nil)
	if !errors.Is(err, ErrNoTemplate) {
		t.Errorf("Cast(NOPE): errors.Is(ErrNoTemplate) false for %v", err)
	}
	if probs, ok := err.(problem.List); !ok || len(probs) != 1 || probs[0].Path != "template" {
		t.Errorf("Cast(NOPE) = %#v, want a problem at template", err)
	}
	_, err = ts.Cast("session-contract", nil)
	if !errors.Is(err, ErrMissingSlot) || errors.Is(err, ErrNoTemplate) {
		t.Errorf("missing slot: %v", err)
	}
	err = SlotHints(err, func(name string) string { return "pass --slot " + name + "=VALUE" })
	if got := err.Error(); got != "slots.project: missing value (pass --slot project=VALUE)" {
		t.Errorf("SlotHints: %q", got)
	}
}
