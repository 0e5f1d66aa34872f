package responselog

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/pgtest"
	"github.com/google/go-cmp/cmp"
)

// TestMain lets the test binary act as a writer process: with
// ELICIT_TEST_WRITER=DIR,N,TAG it appends N records to the log in DIR.
func TestMain(m *testing.M) {
	if spec := os.Getenv("ELICIT_TEST_WRITER"); spec != "" {
		parts := strings.Split(spec, ",")
		n, _ := strconv.Atoi(parts[1])
		writerMain(parts[0], os.Getenv("ELICIT_TEST_WRITER_DB"), n, parts[2])
		os.Exit(0)
	}
	if dir := os.Getenv("ELICIT_TEST_READER"); dir != "" {
		os.Exit(readerMain(dir))
	}
	pgtest.Main(m, &pg)
}

func testLog(t *testing.T) (*Log, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var warnings []string
	l := Open(t.TempDir())
	l.Warn = func(w string) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, w)
	}
	return l, &warnings
}

// TestConcurrentWritersLoseNothing runs 20 writer processes appending at
// once while this process ingests the journal again and again: every
// record ends up in the database exactly once.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	const writers, each = 20, 40
	l, warnings := testLog(t)
	stop := make(chan struct{})
	ingested := make(chan int)
	go func() { // a reader ingesting while the writers write
		n := 0
		for {
			select {
			case <-stop:
				ingested <- n
				return
			default:
			}
			if s, err := l.Read(); err == nil {
				s.Close()
				n++
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("ELICIT_TEST_WRITER=%s,%d,w%02d", l.Dir(), each, w))
			if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
				t.Errorf("writer %d: %v %s", w, err, out)
			}
		}()
	}
	wg.Wait()
	close(stop)
	s, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var total, distinct int
	if err := s.db.QueryRow("SELECT count(*), count(DISTINCT response_id) FROM records").Scan(&total, &distinct); err != nil {
		t.Fatal(err)
	}
	if n := <-ingested; n < 2 {
		t.Logf("only %d ingests overlapped the writers", n)
	}
	if total != writers*each || distinct != writers*each {
		t.Errorf("%d records (%d distinct), want %d", total, distinct, writers*each)
	}
	if s.Partial || len(*warnings) > 0 {
		t.Errorf("partial %v, warnings %q", s.Partial, *warnings)
	}
	if left, _ := l.pending(); len(left) > 0 {
		t.Errorf("files left to ingest: %q", left)
	}
}

// TestNotADatabaseIsSetAside checks that a database file that is not a
// database never fails writing, and that reading sets it aside (0600, as
// it was) with one warning naming both files, and answers from a new
// database holding the journal's records.
func TestNotADatabaseIsSetAside(t *testing.T) {
	l, warnings := testLog(t)
	if err := os.MkdirAll(l.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	const text = "this is not a database, just text that is long enough"
	if err := os.WriteFile(filepath.Join(l.Dir(), dbName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f := mustForm(t, `{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)
	l.Append(New(f, Event{Kind: KindResponse, Response: &form.Response{ResponseID: "r1", Responses: map[string]any{"a": "Yes"}}}, Who{Host: "cli", Via: "cli"}))
	if len(*warnings) > 0 {
		t.Fatalf("writing warned: %q", *warnings)
	}
	s, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	aside, _ := filepath.Glob(filepath.Join(l.Dir(), dbName+".corrupt-*"))
	if s.Partial || len(aside) != 1 || len(*warnings) != 1 || !strings.Contains((*warnings)[0], "(it is not an SQLite database): it is set aside as "+aside[0]+"; the new one holds none of its rows") {
		t.Fatalf("partial %v, set aside %q, warnings %q", s.Partial, aside, *warnings)
	}
	if data, err := os.ReadFile(aside[0]); err != nil || string(data) != text {
		t.Errorf("the file set aside holds %q, %v", data, err)
	}
	if fi, err := os.Stat(aside[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file set aside: %v, %v; want mode 0600", fi.Mode(), err)
	}
	list, err := s.Responses(Filter{})
	if err != nil || len(list) != 1 || list[0].ResponseID != "r1" {
		t.Errorf("responses = %+v, %v", list, err)
	}
	st, err := s.Stats(false)
	if err != nil || st.Partial || st.Submissions != 1 {
		t.Errorf("stats = %+v, %v", st, err)
	}
}

// TestLockedDatabaseIsAWarning holds the database locked from another
// connection: reading warns instead of failing, and the journal's records
// wait for the next read.
func TestLockedDatabaseIsAWarning(t *testing.T) {
	l, warnings := testLog(t)
	l.BusyTimeout = 50 * time.Millisecond
	l.Append(Record{Kind: KindRender, Surface: "ask", TemplateID: "dict", Shape: "s"})
	s, err := l.Read() // creates the database
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	l.Append(Record{Kind: KindRender, Surface: "widget", TemplateID: "dict", Shape: "s"})
	holder, err := sql.Open("sqlite3", filepath.Join(l.Dir(), dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	s, err = l.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Partial || len(*warnings) == 0 {
		t.Errorf("partial %v, warnings %q", s.Partial, *warnings)
	}
	s.Close()
	conn.ExecContext(t.Context(), "ROLLBACK")
	conn.Close()
	s, err = l.Read()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, _ := s.Stats(false)
	if s.Partial || st.Rendered["ask"] != 1 || st.Rendered["widget"] != 1 {
		t.Errorf("after the lock: partial %v, rendered %v", s.Partial, st.Rendered)
	}
}

// TestStatsMatchReference generates a log of random events and checks
// every figure of Stats against one computed here from the same events.
func TestStatsMatchReference(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		l, _ := open(t)
		rng := rand.New(rand.NewPCG(1, 2))
		surfaces := []string{"ask", "widget", "native", "markdown"}
		hosts := []string{"claude-code", "codex", "cli"}
		type shapeInfo struct{ id, title string }
		dicts := []shapeInfo{{"aaa", "Scope this work"}, {"bbb", "Pick a cache"}, {"ccc", "Rare one"}}
		templates := []string{"template:session-contract", "template:review"}

		wantRendered, wantRouted, wantHosts := map[string]int{}, map[string]int{}, map[string]int{}
		wantTemplate := map[[2]string]int{}
		uses := map[string][2]int{} // dict shape -> renders, submissions
		var submissions, rejected, fields, inferred, kept, fromTemplates int
		for i := range 500 {
			r := Record{ID: fmt.Sprintf("r%04d", i), Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), Host: hosts[rng.IntN(len(hosts))]}
			if rng.IntN(3) == 0 {
				r.TemplateID = templates[rng.IntN(len(templates))]
				r.Shape = "tpl" + r.TemplateID
			} else {
				d := dicts[rng.IntN(2)]
				if i == 7 || i == 8 {
					d = dicts[2] // two uses only: no promotion
				}
				r.TemplateID, r.Shape, r.Title = "dict", d.id, d.title
				r.Form = []byte(`{"title": "` + d.title + `"}`)
			}
			switch rng.IntN(4) {
			case 0:
				r.Kind, r.Surface = KindRender, surfaces[rng.IntN(len(surfaces))]
				wantRendered[r.Surface]++
				if r.TemplateID == "dict" {
					u := uses[r.Shape]
					u[0]++
					uses[r.Shape] = u
				}
			case 1:
				r.Kind, r.Surface = KindSurface, surfaces[rng.IntN(2)]
				wantRouted[r.Surface]++
			case 2:
				r.Kind, r.Fields = KindResponse, 1+rng.IntN(6)
				r.Inferred = rng.IntN(r.Fields + 1)
				r.Kept = rng.IntN(r.Inferred + 1)
				r.ResponseID = fmt.Sprintf("resp-%d", i)
				submissions++
				fields, inferred, kept = fields+r.Fields, inferred+r.Inferred, kept+r.Kept
				wantHosts[r.Host]++
				key := [2]string{r.TemplateID, ""}
				if r.TemplateID == "dict" {
					key[1] = r.Shape
					u := uses[r.Shape]
					u[1]++
					uses[r.Shape] = u
				} else {
					fromTemplates++
				}
				wantTemplate[key]++
			default:
				r.Kind, r.Problems = KindRejected, 1+rng.IntN(3)
				rejected++
			}
			l.Append(r)
		}
		s := mustRead(t, l)
		st, err := s.Stats(false)
		if err != nil {
			t.Fatal(err)
		}
		gotTemplate := map[[2]string]int{}
		for _, tc := range st.ByTemplate {
			gotTemplate[[2]string{tc.TemplateID, tc.Shape}] = tc.Submissions
		}
		var wantPromote []string
		for _, d := range dicts {
			if max(uses[d.id][0], uses[d.id][1]) >= PromoteAfter {
				wantPromote = append(wantPromote, d.id)
			}
		}
		var gotPromote []string
		for _, p := range st.Promote {
			gotPromote = append(gotPromote, p.Shape)
			if u := uses[p.Shape]; p.Uses != max(u[0], u[1]) {
				t.Errorf("promote %s: uses %d, want %d", p.Shape, p.Uses, max(u[0], u[1]))
			}
		}
		checks := []struct {
			name      string
			got, want any
		}{
			{"records", st.Records, 500},
			{"rendered", st.Rendered, wantRendered},
			{"routed", st.Routed, wantRouted},
			{"hosts", st.ByHost, wantHosts},
			{"submissions", st.Submissions, submissions},
			{"rejected", st.Rejected, rejected},
			{"by template", gotTemplate, wantTemplate},
			{"from templates", st.FromTemplates, float64(fromTemplates) / float64(submissions)},
			{"inference", st.Inference, Inference{Fields: fields, Inferred: inferred, Kept: kept,
				Rate: float64(inferred) / float64(fields), KeptRate: float64(kept) / float64(inferred)}},
			{"keyboard hint", st.KeyboardHint != "", submissions >= KeyboardHintAfter},
			{"promote", sorted(gotPromote), wantPromote},
		}
		for _, c := range checks {
			if diff := cmp.Diff(c.want, c.got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", c.name, diff)
			}
		}
		if st, _ := s.Stats(true); st.KeyboardHint != "" {
			t.Error("no keyboard hint when keyboard mode is on")
		}
		if err := s.MarkPromoted("aaa", "scope-this-work", time.Now()); err != nil {
			t.Fatal(err)
		}
		if st, _ := s.Stats(false); len(st.Promote) != len(wantPromote)-1 {
			t.Errorf("a saved shape is still suggested: %+v", st.Promote)
		}
	})
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}

func mustForm(t *testing.T, js string) *form.Form {
	t.Helper()
	f, err := form.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestShape(t *testing.T) {
	a := mustForm(t, `{"title": "A", "fields": [{"id": "x", "text": "Which?", "type": "single_select", "options": ["p", "q"]}]}`)
	reworded := mustForm(t, `{"title": "B", "fields": [{"id": "x", "text": "Which one, please?", "type": "single_select", "options": ["p", "q"], "help_text": "h"}]}`)
	other := mustForm(t, `{"title": "A", "fields": [{"id": "x", "text": "Which?", "type": "single_select", "options": ["p", "r"]}]}`)
	if Shape(a) != Shape(reworded) || Shape(a) == Shape(other) || len(Shape(a)) != 12 {
		t.Errorf("shapes %s %s %s", Shape(a), Shape(reworded), Shape(other))
	}
}

func TestCLIHost(t *testing.T) {
	for env, want := range map[string]string{
		"":                             "cli",
		"CLAUDECODE=1":                 "claude-code",
		"CODEX_THREAD_ID=x":            "codex",
		"CODEX_SANDBOX=seatbelt":       "codex",
		"ELICIT_HOST=zed CLAUDECODE=1": "zed",
	} {
		vars := map[string]string{}
		for _, kv := range strings.Fields(env) {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		if got := CLIHost(func(k string) string { return vars[k] }); got.Host != want || got.Via != "cli" {
			t.Errorf("%q: %+v, want %s", env, got, want)
		}
	}
}

func TestTemplateName(t *testing.T) {
	for title, want := range map[string]string{"Scope this work": "scope-this-work", "  Ünïcode & stuff!! ": "n-code-stuff", "???": "form",
		"A very long title that goes on and on beyond forty characters": "a-very-long-title-that-goes-on-and-on-be"} {
		if got := TemplateName(title); got != want {
			t.Errorf("TemplateName(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestJournalLine pins the journal's lines byte for byte, as Append writes
// them for records built by New: members in struct order, the empty ones
// left out, <, > and & as themselves, other text escaped as JSON requires,
// answers' keys sorted and numbers in Go's shortest round-trip form, the
// form's definition compacted.
func TestJournalLine(t *testing.T) {
	def := "{\"title\": \"Ship <it> & go\", \"fields\": [\n  {\"id\": \"n\", \"text\": \"How many?\", \"type\": \"number\", \"default\": 2, \"inferred_from\": \"go.mod\"},\n" +
		"  {\"id\": \"why\", \"text\": \"Why?\", \"type\": \"text_input\", \"required\": false}]}"
	f := mustForm(t, def)
	resp := &form.Response{Success: true, ResponseID: "resp-1", Responses: map[string]any{"n": 2.0, "why": "a<b>&c \u2028\x01\"\\ \xff", "tiny": 1e-7, "big": 1e21, "list": []string{"x"}}}
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for _, tc := range []struct {
		name string
		r    Record
		want string
	}{
		{"response", New(f, Event{Kind: KindResponse, Surface: "ask", Reason: "<b>&", Response: resp, Definition: []byte(def)},
			Who{Host: "claude-code", HostVersion: "2.0", Via: "mcp"}),
			`{"id":"x","ts":"2026-01-02T03:04:05.000000006Z","kind":"response","template_id":"dict","shape":"` + Shape(f) + `","title":"Ship <it> & go",` +
				`"host":"claude-code","host_version":"2.0","via":"mcp","surface":"ask","reason":"<b>&","fields":2,"inferred":1,"kept":1,"response_id":"resp-1",` +
				`"responses":{"big":1e+21,"list":["x"],"n":2,"tiny":1e-7,"why":"a<b>&c \u2028\u0001\"\\ \ufffd"},` +
				`"form":{"title":"Ship <it> & go","fields":[{"id":"n","text":"How many?","type":"number","default":2,"inferred_from":"go.mod"},{"id":"why","text":"Why?","type":"text_input","required":false}]}}`},
		{"rejected from a template", New(f, Event{Kind: KindRejected, Template: "ship", Problems: 3}, Who{Host: "cli", Via: "cli"}),
			`{"id":"x","ts":"2026-01-02T03:04:05.000000006Z","kind":"rejected","template_id":"template:ship","shape":"` + Shape(f) + `","title":"Ship <it> & go",` +
				`"host":"cli","via":"cli","fields":2,"inferred":1,"problems":3}`},
		{"empty", Record{Kind: KindRender}, `{"id":"x","ts":"2026-01-02T03:04:05.000000006Z","kind":"render","template_id":"","shape":"","host":"","via":"","fields":0}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, warnings := testLog(t)
			l.Now = func() time.Time { return at }
			tc.r.ID = "x"
			l.Append(tc.r)
			lines := journalLines(t, l)
			if len(lines) != 1 || string(lines[0]) != tc.want || len(*warnings) > 0 {
				t.Errorf("journal:\n%q\nwant:\n%q\nwarnings: %q", lines, tc.want, *warnings)
			}
		})
	}
}

// TestUnwritableRecordIsAWarning checks that a record encoding/json cannot
// write (answers that are not JSON, a time past year 9999) is left out of
// the journal with a warning, and the records around it are kept.
func TestUnwritableRecordIsAWarning(t *testing.T) {
	for name, r := range map[string]Record{
		"answers": {Kind: KindResponse, ResponseID: "bad", Responses: json.RawMessage(`{"a":`)},
		"time":    {Kind: KindResponse, ResponseID: "bad", Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(name, func(t *testing.T) {
			l, warnings := testLog(t)
			l.Append(Record{Kind: KindResponse, ResponseID: "before"})
			l.Append(r)
			l.Append(Record{Kind: KindResponse, ResponseID: "after"})
			if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "cannot be written") {
				t.Errorf("warnings %q", *warnings)
			}
			if lines := journalLines(t, l); len(lines) != 2 {
				t.Errorf("journal lines %q, want the two good records", lines)
			}
		})
	}
}

// TestNewRecord checks what New keeps of an event: the definition
// compacted (encoded from the form when it is missing or not JSON), the
// answers with <, > and & as themselves, and the guesses kept.
func TestNewRecord(t *testing.T) {
	def := "{\n  \"title\": \"T\",\n  \"fields\": [\n    {\"id\": \"lang\", \"text\": \"Which <lang>?\", \"type\": \"single_select\", \"options\": [\"Go\", \"Rust\"], \"default\": \"Go\", \"inferred_from\": \"go.mod\"},\n" +
		"    {\"id\": \"db\", \"text\": \"Which db?\", \"type\": \"single_select\", \"options\": [\"pg\", \"sqlite\"], \"default\": \"pg\", \"inferred_from\": \"compose.yaml\"},\n" +
		"    {\"id\": \"areas\", \"text\": \"Areas?\", \"type\": \"multi_select\", \"options\": [\"a&b\", \"c\"], \"default\": [\"c\"], \"inferred_from\": \"history\"}\n  ]\n}\n"
	f := mustForm(t, def)
	resp := &form.Response{Success: true, ResponseID: "resp-1", Responses: map[string]any{"lang": "Go", "db": "sqlite", "areas": []string{"c"}}}
	compact := `{"title":"T","fields":[{"id":"lang","text":"Which <lang>?","type":"single_select","options":["Go","Rust"],"default":"Go","inferred_from":"go.mod"},` +
		`{"id":"db","text":"Which db?","type":"single_select","options":["pg","sqlite"],"default":"pg","inferred_from":"compose.yaml"},` +
		`{"id":"areas","text":"Areas?","type":"multi_select","options":["a&b","c"],"default":["c"],"inferred_from":"history"}]}`
	encoded, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		definition string
		want       string
	}{
		{"indented", def, compact},
		{"missing", "", string(encoded)},
		{"not JSON", "\ufeff" + def, string(encoded)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New(f, Event{Kind: KindResponse, Response: resp, Definition: []byte(tc.definition)}, Who{Host: "cli", Via: "cli"})
			if string(r.Form) != tc.want {
				t.Errorf("form:\n%s\nwant:\n%s", r.Form, tc.want)
			}
			if r.Inferred != 3 || r.Kept != 2 {
				t.Errorf("inferred %d, kept %d; want 3, 2", r.Inferred, r.Kept)
			}
			if want := `{"areas":["c"],"db":"sqlite","lang":"Go"}`; string(r.Responses) != want {
				t.Errorf("responses %s, want %s", r.Responses, want)
			}
		})
	}
}

// TestNewID checks the records' ids: 16 lowercase hex digits, distinct.
func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		id := newID()
		if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("id %q is not 16 lowercase hex digits", id)
		}
		if seen[id] {
			t.Fatalf("id %q given twice", id)
		}
		seen[id] = true
	}
}
